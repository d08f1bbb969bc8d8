//! Streamable HTTP, the transport MCP servers are deployed with: `POST /mcp` carries one
//! JSON-RPC message. A request is answered with a server-sent-event stream that carries
//! whatever the handler sends the client while it works (log and progress notifications,
//! sampling and elicitation requests) and then the response. The client's answers to
//! those requests, and its notifications, arrive as further POSTs and get 202. Sessions
//! start at `initialize` (`Mcp-Session-Id`). Requests whose `Host` or `Origin` is not
//! this machine are refused (DNS rebinding). With `MCP_TRAFFIC_LOG` set, each POST body
//! and each message written back is logged with its session (`mcp_stdio::traffic`).

use std::collections::HashMap;
use std::convert::Infallible;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use axum::Router;
use axum::body::Bytes;
use axum::extract::State as AxumState;
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::sse::{Event, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use mcp_spec_types::rt::jsonrpc::Id;
use mcp_spec_types::rt::service::{BoxFuture, Peer, Route, Transport, TransportError, route};
use mcp_stdio::traffic;
use tokio::sync::{mpsc, oneshot};
use tokio_stream::StreamExt;
use tokio_stream::wrappers::UnboundedReceiverStream;

use crate::{Era, State, answer, route_era};

const SESSION: &str = "mcp-session-id";

/// One client's session.
struct Session {
    era: Mutex<Era>,
    state: Arc<State>,
    /// Requests this server sent the client, awaiting the POST that answers them.
    pending: Arc<Mutex<HashMap<Id, oneshot::Sender<String>>>>,
}

#[derive(Default)]
struct Sessions {
    map: Mutex<HashMap<String, Arc<Session>>>,
    counter: AtomicU64,
}

/// The back channel of one POST: what the handler sends the client goes on its stream.
struct StreamTransport {
    events: mpsc::UnboundedSender<String>,
    pending: Arc<Mutex<HashMap<Id, oneshot::Sender<String>>>>,
}

impl Transport for StreamTransport {
    fn request(&self, id: Id, message: String) -> BoxFuture<'_, Result<String, TransportError>> {
        Box::pin(async move {
            let (tx, rx) = oneshot::channel();
            self.pending.lock().unwrap().insert(id.clone(), tx);
            if self.events.send(message).is_err() {
                self.pending.lock().unwrap().remove(&id);
                return Err(TransportError::new("the response stream is closed"));
            }
            rx.await
                .map_err(|_| TransportError::new("the session ended before the client answered"))
        })
    }

    fn notify(&self, message: String) -> BoxFuture<'_, Result<(), TransportError>> {
        Box::pin(async move {
            self.events
                .send(message)
                .map_err(|_| TransportError::new("the response stream is closed"))
        })
    }
}

/// Whether a `Host` or `Origin` value names this machine.
fn local(value: &str) -> bool {
    let rest = value.split_once("://").map_or(value, |(_, r)| r);
    let host = rest.split('/').next().unwrap_or_default();
    let name = if host.starts_with('[') {
        host.split(']')
            .next()
            .map(|h| format!("{h}]"))
            .unwrap_or_default()
    } else {
        host.split(':').next().unwrap_or_default().to_string()
    };
    matches!(name.as_str(), "localhost" | "127.0.0.1" | "[::1]")
}

fn error(status: StatusCode, message: &str, session: Option<&str>) -> Response {
    let body = serde_json::json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32000, "message": message}});
    let body = body.to_string();
    traffic::record("out", Some(session), &body);
    (status, [("content-type", "application/json")], body).into_response()
}

async fn handle_post(
    AxumState(sessions): AxumState<Arc<Sessions>>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
    let line = String::from_utf8_lossy(&body).into_owned();
    let foreign = !header("host").is_none_or(local) || !header("origin").is_none_or(local);
    let message: serde_json::Value = serde_json::from_str(&line).unwrap_or_default();
    let is_initialize = message["method"] == "initialize";
    // The session this POST belongs to, known before it is logged (a new one for initialize).
    let new_id = (!foreign && is_initialize && header(SESSION).is_none()).then(|| {
        let n = sessions.counter.fetch_add(1, Ordering::Relaxed);
        format!("s{n}-{:x}", std::process::id())
    });
    let label = header(SESSION).map(str::to_owned).or(new_id.clone());
    traffic::record("in", Some(label.as_deref()), &line);
    if foreign {
        return error(
            StatusCode::FORBIDDEN,
            "Host or Origin is not this machine",
            label.as_deref(),
        );
    }
    let session = match header(SESSION) {
        Some(id) => match sessions.map.lock().unwrap().get(id) {
            Some(s) => s.clone(),
            None => return error(StatusCode::NOT_FOUND, "unknown session", label.as_deref()),
        },
        None if is_initialize => {
            let id = new_id.expect("a new session for initialize");
            let session = Arc::new(Session {
                era: Mutex::new(Era::Undecided),
                state: Arc::new(State::default()),
                pending: Arc::default(),
            });
            sessions
                .map
                .lock()
                .unwrap()
                .insert(id.clone(), session.clone());
            return respond(session, line, Some(id), label);
        }
        None => {
            return error(
                StatusCode::BAD_REQUEST,
                "missing Mcp-Session-Id",
                label.as_deref(),
            );
        }
    };
    // The client's answer to one of our requests.
    if let Route::Response(id) = route(line.as_bytes()) {
        if let Some(waiter) = session.pending.lock().unwrap().remove(&id) {
            let _ = waiter.send(line);
        }
        return StatusCode::ACCEPTED.into_response();
    }
    let notification = message.get("method").is_some() && message.get("id").is_none();
    if notification {
        let target = route_era(&mut session.era.lock().unwrap(), &line);
        let (tx, _rx) = mpsc::unbounded_channel();
        let peer = Peer::new(StreamTransport {
            events: tx,
            pending: session.pending.clone(),
        });
        tokio::spawn(async move {
            answer(target, session.state.clone(), peer, &line).await;
        });
        return StatusCode::ACCEPTED.into_response();
    }
    respond(session, line, None, label)
}

/// Answers a request with an event stream: the handler's messages, then the response.
fn respond(
    session: Arc<Session>,
    line: String,
    new_session: Option<String>,
    label: Option<String>,
) -> Response {
    let target = route_era(&mut session.era.lock().unwrap(), &line);
    let (tx, rx) = mpsc::unbounded_channel::<String>();
    let peer = Peer::new(StreamTransport {
        events: tx.clone(),
        pending: session.pending.clone(),
    });
    tokio::spawn(async move {
        if let Some(reply) = answer(target, session.state.clone(), peer, &line).await {
            let _ = tx.send(reply);
        }
    });
    let stream = UnboundedReceiverStream::new(rx).map(move |m| {
        traffic::record("out", Some(label.as_deref()), &m);
        Ok::<_, Infallible>(Event::default().event("message").data(m))
    });
    let mut response = Sse::new(stream).into_response();
    if let Some(id) = new_session
        && let Ok(v) = HeaderValue::from_str(&id)
    {
        response.headers_mut().insert(SESSION, v);
    }
    response
}

async fn handle_delete(
    AxumState(sessions): AxumState<Arc<Sessions>>,
    headers: HeaderMap,
) -> StatusCode {
    match headers.get(SESSION).and_then(|v| v.to_str().ok()) {
        Some(id) if sessions.map.lock().unwrap().remove(id).is_some() => StatusCode::OK,
        _ => StatusCode::NOT_FOUND,
    }
}

/// Serves `http://127.0.0.1:PORT/mcp` until the process ends.
pub async fn serve(port: u16) {
    let app = Router::new()
        .route(
            "/mcp",
            post(handle_post)
                .delete(handle_delete)
                .get(|| async { (StatusCode::METHOD_NOT_ALLOWED, [("allow", "POST, DELETE")]) }),
        )
        .with_state(Arc::new(Sessions::default()));
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port))
        .await
        .expect("bind 127.0.0.1");
    eprintln!("mcp-example-server: Streamable HTTP on http://127.0.0.1:{port}/mcp");
    axum::serve(listener, app).await.expect("serve");
}
