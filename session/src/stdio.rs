//! Newline-delimited JSON-RPC (MCP's stdio transport) over this process's stdin/stdout, a
//! child process's pipes, or any async reader and writer: one message a line.
//!
//! What it reads and writes is bounded by the session's [`Limits`](crate::Limits): a
//! line longer than [`message_size`](crate::Limits::message_size) is refused (-32700)
//! without being held whole, and so is a line that is not UTF-8; at most
//! [`outgoing`](crate::Limits::outgoing) messages wait for the writer, and when they
//! do, handlers wait, and with [`requests_in_flight`](crate::Limits::requests_in_flight)
//! of them waiting the transport reads nothing more. When the input ends, every request
//! read is answered and every answer written and flushed before the future returns.

use std::io;
use std::process::Stdio;
use std::sync::Arc;

use futures_util::Stream;
use futures_util::future::{Either, select};
use futures_util::stream;
use mcp_spec_types::rt::service::{Service, TransportError};
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::process::{Child, Command};
use tokio::sync::mpsc;

use crate::{Builder, Session, Tokio};

/// A session over a reader and a writer, and the future that serves it with `service`
/// until the reader ends (await it, or spawn it). Writes go through a task of their own,
/// so a slow reader on the other side never blocks a handler that has room to write.
/// The future ends once every request read has been answered (see
/// [`Session::run`]) and every answer written and flushed.
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
    let limits = builder.limits_of();
    let (out, outgoing) = mpsc::channel::<Option<String>>(limits.outgoing.max(1));
    let end = out.clone();
    let session = builder.build(move |text| {
        // Queued at once while there is room (no future to allocate); else wait for room.
        let text = match out.try_send(Some(text)) {
            Ok(()) => return Box::pin(Queued),
            Err(mpsc::error::TrySendError::Full(text)) => text,
            Err(mpsc::error::TrySendError::Closed(_)) => {
                return Box::pin(std::future::ready(Err(gone())));
            }
        };
        let out = out.clone();
        Box::pin(async move { out.send(text).await.map_err(|_| gone()) })
    });
    let run = serve_on(session.clone(), reader, writer, (end, outgoing), service);
    (session, run)
}

fn gone() -> TransportError {
    TransportError::new("the connection is closed")
}

/// A message queued already: a future with nothing left to do, and no allocation to box.
struct Queued;

impl Future for Queued {
    type Output = Result<(), TransportError>;

    fn poll(
        self: std::pin::Pin<&mut Self>,
        _: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Self::Output> {
        std::task::Poll::Ready(Ok(()))
    }
}

async fn serve_on<R, W, S>(
    session: Session,
    reader: R,
    writer: W,
    (end, outgoing): (mpsc::Sender<Option<String>>, mpsc::Receiver<Option<String>>),
    service: S,
) where
    R: AsyncRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin + Send + 'static,
    S: Service,
{
    let mut writer = tokio::spawn(write_lines(writer, outgoing));
    let abort = writer.abort_handle();
    let max = session.limits().message_size;
    session
        .run(
            lines(session.clone(), reader, max),
            Arc::new(service),
            &Tokio,
        )
        .await;
    // Every answer is queued: the writer writes what is left, flushes, and ends (a peer
    // kept alive elsewhere can write no more).
    // A peer that reads nothing more gets [`Limits::shutdown_grace`] to start again.
    let grace = futures_timer::Delay::new(session.limits().shutdown_grace);
    let flushed = async {
        let _ = end.send(None).await;
        drop(end);
        let _ = (&mut writer).await;
    };
    let late = matches!(
        select(std::pin::pin!(flushed), grace).await,
        Either::Right(_)
    );
    if late {
        abort.abort();
    }
}

/// Writes each message as a line, flushing whenever the queue is empty; at `None` (the
/// session is over), writes what is queued, flushes, and ends.
async fn write_lines<W: AsyncWrite + Unpin>(
    writer: W,
    mut outgoing: mpsc::Receiver<Option<String>>,
) {
    let mut writer = writer;
    while let Some(next) = outgoing.recv().await {
        let Some(line) = next else {
            // Nothing more can be queued; what is queued is still written.
            outgoing.close();
            continue;
        };
        let mut bytes = line.into_bytes();
        bytes.push(b'\n');
        if writer.write_all(&bytes).await.is_err() || writer.flush().await.is_err() {
            return;
        }
    }
    let _ = writer.flush().await;
}

/// One line of input.
enum Line {
    Text(String),
    /// Not UTF-8: the offset of the first bad byte.
    NotUtf8(usize),
    /// Longer than the limit: dropped as it was read.
    TooLong,
}

/// The lines of a reader, as a stream; ends at end of input or on a read error. A line
/// that is not UTF-8, or longer than `max` bytes, is answered -32700 by `session` and
/// skipped.
fn lines<R: AsyncRead + Unpin + Send + 'static>(
    session: Session,
    reader: R,
    max: usize,
) -> impl Stream<Item = String> + Send {
    let reader = BufReader::new(reader);
    stream::unfold((reader, session), move |(mut reader, session)| async move {
        loop {
            match read_line(&mut reader, max).await {
                Ok(Some(Line::Text(line))) => return Some((line, (reader, session))),
                Ok(Some(Line::NotUtf8(at))) => {
                    let what = format!("the line is not UTF-8 (an invalid byte at offset {at})");
                    session.unreadable(what).await;
                }
                Ok(Some(Line::TooLong)) => {
                    let what = format!(
                        "the line is longer than {max} bytes (Limits::message_size): not read"
                    );
                    session.unreadable(what).await;
                }
                Ok(None) | Err(_) => return None,
            }
        }
    })
}

/// Reads one line (without its `\n` or `\r\n`), keeping at most `max` bytes of it: a
/// longer line is read to its end and dropped. `None` at the end of input.
async fn read_line<R: AsyncBufRead + Unpin>(
    reader: &mut R,
    max: usize,
) -> io::Result<Option<Line>> {
    let mut line = Vec::new();
    let mut too_long = false;
    let mut read_any = false;
    loop {
        let available = reader.fill_buf().await?;
        if available.is_empty() {
            // The end of input ends the last line too.
            if !read_any {
                return Ok(None);
            }
            break;
        }
        read_any = true;
        let (end, used) = match memchr::memchr(b'\n', available) {
            Some(i) => (true, i),
            None => (false, available.len()),
        };
        if !too_long {
            if line.len() + used > max {
                too_long = true;
                line = Vec::new();
            } else if line.is_empty() {
                line = available[..used].to_vec();
            } else {
                line.extend_from_slice(&available[..used]);
            }
        }
        reader.consume(used + usize::from(end));
        if end {
            break;
        }
    }
    if too_long {
        return Ok(Some(Line::TooLong));
    }
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    Ok(Some(match String::from_utf8(line) {
        Ok(text) => Line::Text(text),
        Err(e) => Line::NotUtf8(e.utf8_error().valid_up_to()),
    }))
}

/// Serves `service` over this process's stdin and stdout until stdin ends: a stdio MCP
/// server (or a client spawned by its server) in one call. It returns once every request
/// read has been answered and the answers flushed.
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
