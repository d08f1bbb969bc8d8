//! Newline-delimited JSON-RPC (MCP's stdio transport) over this process's stdin/stdout, a
//! child process's pipes, or any async reader and writer: one message a line.

use std::io;
use std::process::Stdio;
use std::sync::Arc;

use futures_util::Stream;
use futures_util::stream;
use mcp_spec_types::rt::service::{Service, TransportError};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::process::{Child, Command};
use tokio::sync::mpsc;

use crate::{Builder, Session, Tokio};

/// A session over a reader and a writer, and the future that serves it with `service`
/// until the reader ends (await it, or spawn it). Writes go through a task of their own,
/// so a slow reader on the other side never blocks a handler.
pub fn connect<R, W, S>(
    reader: R,
    writer: W,
    service: S,
) -> (Session, impl Future<Output = ()> + Send + 'static)
where
    R: AsyncRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin + Send + 'static,
    S: Service,
{
    connect_with(Session::builder(), reader, writer, service)
}

/// [`connect`] for a session with other limits or an observer.
pub fn connect_with<R, W, S>(
    builder: Builder,
    reader: R,
    writer: W,
    service: S,
) -> (Session, impl Future<Output = ()> + Send + 'static)
where
    R: AsyncRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin + Send + 'static,
    S: Service,
{
    let (out, outgoing) = mpsc::unbounded_channel::<String>();
    let session = builder.build(move |text| {
        out.send(text)
            .map_err(|_| TransportError::new("the connection is closed"))
    });
    let run = serve_on(session.clone(), reader, writer, outgoing, service);
    (session, run)
}

async fn serve_on<R, W, S>(
    session: Session,
    reader: R,
    writer: W,
    mut outgoing: mpsc::UnboundedReceiver<String>,
    service: S,
) where
    R: AsyncRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin + Send + 'static,
    S: Service,
{
    let writer_task = tokio::spawn(async move {
        let mut writer = writer;
        while let Some(line) = outgoing.recv().await {
            let mut bytes = line.into_bytes();
            bytes.push(b'\n');
            if writer.write_all(&bytes).await.is_err() || writer.flush().await.is_err() {
                break;
            }
        }
    });
    session.run(lines(reader), Arc::new(service), &Tokio).await;
    // The writer ends when every sender is gone (the session's, its peers'); it is not
    // waited for, so a peer kept alive elsewhere cannot hold this up.
    drop(writer_task);
}

/// The lines of a reader, as a stream; ends at end of input or on a read error (a line
/// that is not UTF-8 ends it too: the text is not JSON-RPC).
fn lines<R: AsyncRead + Unpin + Send + 'static>(reader: R) -> impl Stream<Item = String> + Send {
    stream::unfold(BufReader::new(reader).lines(), |mut lines| async move {
        match lines.next_line().await {
            Ok(Some(line)) => Some((line, lines)),
            _ => None,
        }
    })
}

/// Serves `service` over this process's stdin and stdout until stdin ends: a stdio MCP
/// server (or a client spawned by its server) in one call.
pub async fn serve_stdio<S: Service>(service: S) {
    serve_stdio_with(Session::builder(), service).await
}

/// [`serve_stdio`] for a session with other limits, an observer or a tap.
pub async fn serve_stdio_with<S: Service>(builder: Builder, service: S) {
    let (_, run) = connect_with(builder, tokio::io::stdin(), tokio::io::stdout(), service);
    run.await
}

/// Starts `command` with piped stdin and stdout and connects to it, serving its requests
/// with `service` (a version's `handlers::Client::new(handler)` for a client). Returns
/// the session (its [`peer`](Session::peer) calls the child), the child (its stderr is
/// inherited), and the task serving the connection, which ends when the child's stdout
/// closes.
pub fn spawn<S: Service>(
    command: &mut Command,
    service: S,
) -> io::Result<(Session, Child, tokio::task::JoinHandle<()>)> {
    spawn_with(Session::builder(), command, service)
}

/// [`spawn`] for a session with other limits, an observer or a tap.
pub fn spawn_with<S: Service>(
    builder: Builder,
    command: &mut Command,
    service: S,
) -> io::Result<(Session, Child, tokio::task::JoinHandle<()>)> {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .kill_on_drop(true)
        .spawn()?;
    let (stdin, stdout) = match (child.stdin.take(), child.stdout.take()) {
        (Some(stdin), Some(stdout)) => (stdin, stdout),
        _ => return Err(io::Error::other("the child has no piped stdin or stdout")),
    };
    let (session, run) = connect_with(builder, stdout, stdin, service);
    Ok((session, child, tokio::spawn(run)))
}
