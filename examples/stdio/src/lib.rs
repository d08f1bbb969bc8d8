//! Newline-delimited JSON-RPC (the MCP stdio transport) over any async reader and writer,
//! as a [`Transport`] for the generated typed peers.
//!
//! [`Link::start`] spawns two tasks: one writes outgoing lines, one reads incoming lines
//! and [`route`]s them. A response completes the request that awaits its id; everything
//! else (requests, notifications, malformed lines) arrives on the returned channel, for
//! the caller to hand to a version's dispatch function. With `MCP_TRAFFIC_LOG` set, both
//! tasks log each line they pass ([`traffic`]).

pub mod traffic;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use mcp_spec_types::rt::jsonrpc::Id;
use mcp_spec_types::rt::service::{BoxFuture, Route, Transport, TransportError, route};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::{mpsc, oneshot};

/// One side of a newline-delimited JSON-RPC connection.
pub struct Link {
    out: mpsc::UnboundedSender<String>,
    pending: Mutex<HashMap<Id, oneshot::Sender<String>>>,
}

impl Link {
    /// Starts the reader and writer tasks. Returns the link and the channel of incoming
    /// requests and notifications (one JSON text per item); the channel closes when the
    /// reader reaches end of input.
    pub fn start<R, W>(reader: R, writer: W) -> (Arc<Link>, mpsc::UnboundedReceiver<String>)
    where
        R: AsyncRead + Unpin + Send + 'static,
        W: AsyncWrite + Unpin + Send + 'static,
    {
        let (out, mut outgoing) = mpsc::unbounded_channel::<String>();
        let (incoming_tx, incoming) = mpsc::unbounded_channel();
        let link = Arc::new(Link {
            out,
            pending: Mutex::new(HashMap::new()),
        });
        tokio::spawn(async move {
            let mut writer = writer;
            while let Some(line) = outgoing.recv().await {
                traffic::record("out", None, &line);
                let mut bytes = line.into_bytes();
                bytes.push(b'\n');
                if writer.write_all(&bytes).await.is_err() || writer.flush().await.is_err() {
                    break;
                }
            }
        });
        let reader_link = link.clone();
        tokio::spawn(async move {
            let mut lines = BufReader::new(reader).lines();
            while let Ok(Some(line)) = lines.next_line().await {
                traffic::record("in", None, &line);
                if line.trim().is_empty() {
                    continue;
                }
                match route(line.as_bytes()) {
                    Route::Response(id) => {
                        let waiter = reader_link.pending.lock().unwrap().remove(&id);
                        if let Some(waiter) = waiter {
                            let _ = waiter.send(line);
                        }
                    }
                    Route::Incoming | Route::Request(_) | Route::Cancelled { .. } => {
                        if incoming_tx.send(line).is_err() {
                            break;
                        }
                    }
                }
            }
            // End of input: fail every request still waiting.
            reader_link.pending.lock().unwrap().clear();
        });
        (link, incoming)
    }

    /// Sends one line (a response, usually).
    pub fn send(&self, line: String) {
        let _ = self.out.send(line);
    }
}

/// A [`Transport`] over a [`Link`].
#[derive(Clone)]
pub struct LinkTransport(pub Arc<Link>);

impl Transport for LinkTransport {
    fn request(&self, id: Id, message: String) -> BoxFuture<'_, Result<String, TransportError>> {
        Box::pin(async move {
            let (tx, rx) = oneshot::channel();
            self.0.pending.lock().unwrap().insert(id.clone(), tx);
            if self.0.out.send(message).is_err() {
                self.0.pending.lock().unwrap().remove(&id);
                return Err(TransportError::new("the connection is closed"));
            }
            rx.await
                .map_err(|_| TransportError::new("the connection closed before the response came"))
        })
    }

    fn notify(&self, message: String) -> BoxFuture<'_, Result<(), TransportError>> {
        Box::pin(async move {
            self.0
                .out
                .send(message)
                .map_err(|_| TransportError::new("the connection is closed"))
        })
    }
}
