//! The session engine: one connection, both directions, no async runtime of its own.

use std::collections::HashMap;
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use futures_channel::oneshot;
use futures_util::future::{AbortHandle, abortable};
use futures_util::{Stream, StreamExt};
use mcp_spec_types::rt::jsonrpc::{ErrorObject, Id, codes};
use mcp_spec_types::rt::service::{
    BoxFuture, Peer, Route, Service, Transport, TransportError, refuse, route,
};

/// Runs a task to completion in the background: how the engine serves requests
/// concurrently without an async runtime of its own. Any `Fn(BoxFuture)` is one
/// (`|task| { tokio::spawn(task); }`); with the `tokio` feature, [`Tokio`](crate::Tokio).
pub trait Spawn: Send + Sync {
    /// Starts `task`; it must run to its end unless the engine aborts it.
    fn spawn(&self, task: BoxFuture<'static, ()>);
}

impl<F: Fn(BoxFuture<'static, ()>) + Send + Sync> Spawn for F {
    fn spawn(&self, task: BoxFuture<'static, ()>) {
        self(task)
    }
}

/// What a session allows a peer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Requests served at once. One more is answered -32603 at once ("too many requests
    /// in flight"), not queued: a flood costs the engine one small answer per request.
    pub requests_in_flight: usize,
}

impl Default for Limits {
    /// 64 requests in flight.
    fn default() -> Self {
        Limits {
            requests_in_flight: 64,
        }
    }
}

/// Something the engine noticed about the peer and dealt with by itself: reported to
/// the observer given to [`Builder::observer`](crate::Builder::observer), for logs and tests.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// A response to no request this side is waiting for (never sent, answered already,
    /// or given up on): dropped.
    UnknownResponse(Id),
    /// A request whose id is already in flight: answered -32600, the first one goes on.
    DuplicateRequest(Id),
    /// A request beyond [`Limits::requests_in_flight`]: answered -32603.
    TooManyRequests(Id),
    /// `notifications/cancelled` for a request being served: its handler was stopped and
    /// the request will not be answered.
    Cancelled(Id),
    /// `notifications/cancelled` for no request being served (done already, or never
    /// seen): nothing to stop.
    CancelledUnknown(Id),
    /// The connection ended; this many calls to the peer were still waiting and failed.
    Closed {
        /// Calls that failed with "the connection closed".
        pending: usize,
    },
}

type Observer = Box<dyn Fn(&Event) + Send + Sync>;
type Tap = Arc<dyn Fn(Direction, &str) + Send + Sync>;

/// Which way a message crossed the connection, for a [`Builder::tap`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// From the peer.
    In,
    /// To the peer.
    Out,
}
type Send_ = Box<dyn Fn(String) -> Result<(), TransportError> + Send + Sync>;

/// Where the messages written while serving one incoming message go, when not to the
/// connection's own output: Streamable HTTP answers each POST on a stream of its own
/// ([`Session::receive_on`]). An error means the stream is gone: what a handler writes
/// after that goes to the connection's output instead (its answer does not).
pub type Outlet = Arc<dyn Fn(String) -> Result<(), TransportError> + Send + Sync>;

struct Inner {
    send: Send_,
    pending: Mutex<HashMap<Id, oneshot::Sender<Result<String, TransportError>>>>,
    running: Mutex<HashMap<Id, AbortHandle>>,
    closed: AtomicBool,
    limits: Limits,
    observer: Option<Observer>,
    tap: Option<Tap>,
}

impl Inner {
    fn note(&self, event: Event) {
        if let Some(observe) = &self.observer {
            observe(&event);
        }
    }

    fn send(&self, text: String) {
        // A write to a closed connection has nobody to tell: the reader ends the session.
        let _ = (self.send)(text);
    }

    /// Sends the answer to a message where the message came from: its own stream if it
    /// has one (an answer never goes anywhere else), else the connection.
    fn answer(&self, out: Option<&Outlet>, text: String) {
        match out {
            // A stream that is gone has nobody to tell either.
            Some(out) => {
                let _ = out(text);
            }
            None => self.send(text),
        }
    }
}

/// The engine's side of the typed peers: a request waits for the response with its id.
/// Messages go out through `out` if there is one, else through the connection.
struct Calls(Arc<Inner>, Option<Outlet>);

impl Calls {
    fn write(&self, text: String) -> Result<(), TransportError> {
        match &self.1 {
            // The message's own stream while it is open; after that (a handler's task
            // that writes once the answer is sent) the connection's.
            Some(out) => out(text.clone()).or_else(|_| (self.0.send)(text)),
            None => (self.0.send)(text),
        }
    }
}

impl Transport for Calls {
    fn request(&self, id: Id, message: String) -> BoxFuture<'_, Result<String, TransportError>> {
        Box::pin(async move {
            let (tx, rx) = oneshot::channel();
            {
                // Registered under the lock that `close` drains under: a call either
                // sees the session closed or is failed by `close`.
                let mut pending = self.0.pending.lock().unwrap_or_else(|e| e.into_inner());
                if self.0.closed.load(Ordering::SeqCst) {
                    return Err(closed());
                }
                pending.insert(id.clone(), tx);
            }
            if let Err(e) = self.write(message) {
                self.0
                    .pending
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .remove(&id);
                return Err(e);
            }
            // Dropping this future (a caller that gives up) leaves a sender behind, which
            // the response, or the end of the session, removes.
            rx.await.unwrap_or_else(|_| Err(closed()))
        })
    }

    fn notify(&self, message: String) -> BoxFuture<'_, Result<(), TransportError>> {
        Box::pin(async move {
            if self.0.closed.load(Ordering::SeqCst) {
                return Err(closed());
            }
            self.write(message)
        })
    }
}

fn closed() -> TransportError {
    TransportError::new("the connection closed before the response came")
}

/// One connection to a peer, both directions: it keeps the requests this side sent until
/// their responses come, serves the peer's requests concurrently (each in a task of its
/// own, cancelled by `notifications/cancelled`), and fails what is pending when the
/// connection ends.
///
/// The engine owns no I/O and no runtime: [`run`](Session::run) reads incoming messages
/// (one JSON text each) from any stream, the session writes through the function given
/// to [`new`](Session::new), and tasks start through a [`Spawn`]. The `stdio` feature
/// wires it to newline-delimited JSON over stdin/stdout or a child process.
#[derive(Clone)]
pub struct Session {
    inner: Arc<Inner>,
    peer: Peer,
}

impl fmt::Debug for Session {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Session")
            .field("limits", &self.inner.limits)
            .field("closed", &self.inner.closed.load(Ordering::SeqCst))
            .finish_non_exhaustive()
    }
}

/// How to build a [`Session`]: its [`Limits`], an observer of what it deals with by
/// itself ([`Event`]), and a tap on every message.
#[derive(Default)]
pub struct Builder {
    limits: Limits,
    observer: Option<Observer>,
    tap: Option<Tap>,
}

impl fmt::Debug for Builder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Builder")
            .field("limits", &self.limits)
            .field("observer", &self.observer.is_some())
            .finish()
    }
}

impl Builder {
    /// Other limits than the default ones.
    pub fn limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// Reports what the session deals with by itself ([`Event`]) to `observe`.
    pub fn observer(mut self, observe: impl Fn(&Event) + Send + Sync + 'static) -> Self {
        self.observer = Some(Box::new(observe));
        self
    }

    /// Shows `tap` every message that crosses the connection, exactly as read or written
    /// (a traffic log, say): incoming ones as they are handed to the session, outgoing ones
    /// as they are written (on the connection or on a message's own stream).
    pub fn tap(mut self, tap: impl Fn(Direction, &str) + Send + Sync + 'static) -> Self {
        self.tap = Some(Arc::new(tap));
        self
    }

    /// The session, writing each outgoing message (one JSON text) with `send`. `send`
    /// must not block: queue the text for a writer (an error means the connection is
    /// gone).
    pub fn build(
        self,
        send: impl Fn(String) -> Result<(), TransportError> + Send + Sync + 'static,
    ) -> Session {
        let send: Send_ = match self.tap.clone() {
            None => Box::new(send),
            Some(tap) => Box::new(move |text: String| {
                tap(Direction::Out, &text);
                send(text)
            }),
        };
        let inner = Arc::new(Inner {
            send,
            pending: Mutex::new(HashMap::new()),
            running: Mutex::new(HashMap::new()),
            closed: AtomicBool::new(false),
            limits: self.limits,
            observer: self.observer,
            tap: self.tap,
        });
        let peer = Peer::new(Calls(inner.clone(), None));
        Session { inner, peer }
    }
}

impl Session {
    /// A session with the default [`Limits`], writing with `send` (see
    /// [`Builder::build`]).
    pub fn new(
        send: impl Fn(String) -> Result<(), TransportError> + Send + Sync + 'static,
    ) -> Self {
        Session::builder().build(send)
    }

    /// A session with other limits or an observer.
    pub fn builder() -> Builder {
        Builder::default()
    }

    /// The peer: send it requests and notifications (wrap it in a version's `ClientPeer`
    /// or `ServerPeer` for typed calls). Handlers get it in their context too.
    pub fn peer(&self) -> Peer {
        self.peer.clone()
    }

    /// Whether the connection has ended.
    pub fn is_closed(&self) -> bool {
        self.inner.closed.load(Ordering::SeqCst)
    }

    /// Serves the connection until `incoming` ends: each message is routed by the crate's
    /// one decoder (`rt::service::route`), and handed to `service` in the order messages
    /// arrive (see [`Service`]). A response completes the call that awaits its
    /// id; a request is served by `service` in a task of its own (up to
    /// [`Limits::requests_in_flight`] at once), its answer sent when it is ready;
    /// `notifications/cancelled` stops the handler of the request it names (which is then
    /// not answered); anything else (notifications, batches, malformed text) is served by
    /// `service` too, which answers what needs an answer (-32700 for text that is not
    /// JSON: the session goes on). When `incoming` ends, every pending call fails with
    /// "the connection closed" and every handler still running is stopped.
    pub async fn run<S: Service>(
        &self,
        incoming: impl Stream<Item = String>,
        service: Arc<S>,
        spawn: &dyn Spawn,
    ) {
        let mut incoming = std::pin::pin!(incoming);
        while let Some(message) = incoming.next().await {
            self.receive(message, &service, spawn, None);
        }
        self.close();
    }

    /// Handles one incoming message as [`run`](Session::run) does, but what serving it
    /// writes (its answer, and the requests and notifications its handler sends) goes to
    /// `out` instead of the connection: how Streamable HTTP answers a POST on a stream of
    /// its own. The stream ends when every clone of `out` is dropped, that is when the
    /// message is served (a response completes the call that awaits it and writes
    /// nothing). Messages must be handed over in the order they arrive.
    pub fn receive_on<S: Service>(
        &self,
        message: String,
        service: &Arc<S>,
        spawn: &dyn Spawn,
        out: Outlet,
    ) {
        self.receive(message, service, spawn, Some(out));
    }

    fn receive<S: Service>(
        &self,
        message: String,
        service: &Arc<S>,
        spawn: &dyn Spawn,
        out: Option<Outlet>,
    ) {
        if message.trim().is_empty() {
            return;
        }
        let out = match (&self.inner.tap, out) {
            (Some(tap), Some(out)) => {
                tap(Direction::In, &message);
                let tap = tap.clone();
                Some(Arc::new(move |text: String| {
                    tap(Direction::Out, &text);
                    out(text)
                }) as Outlet)
            }
            (Some(tap), None) => {
                tap(Direction::In, &message);
                None
            }
            (None, out) => out,
        };
        match route(message.as_bytes()) {
            Route::Response(id) => self.complete(id, message),
            Route::Request(id) => self.start(id, message, service, spawn, out),
            Route::Cancelled { request } => {
                self.cancel(&request);
                // The handler may want to hear of it too.
                self.serve_in_background(message, service, spawn, out);
            }
            Route::Incoming => self.serve_in_background(message, service, spawn, out),
        }
    }

    /// The peer a handler gets: the session's, or one writing to `out`.
    fn peer_for(&self, out: &Option<Outlet>) -> Peer {
        match out {
            None => self.peer.clone(),
            Some(out) => self
                .peer
                .with_transport(Arc::new(Calls(self.inner.clone(), Some(out.clone())))),
        }
    }

    fn complete(&self, id: Id, message: String) {
        let waiter = self
            .inner
            .pending
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&id);
        match waiter {
            Some(waiter) => {
                // The caller may have given up: nothing to do then.
                let _ = waiter.send(Ok(message));
            }
            None => self.inner.note(Event::UnknownResponse(id)),
        }
    }

    fn start<S: Service>(
        &self,
        id: Id,
        message: String,
        service: &Arc<S>,
        spawn: &dyn Spawn,
        out: Option<Outlet>,
    ) {
        let refusal = {
            let mut running = self.inner.running.lock().unwrap_or_else(|e| e.into_inner());
            if running.contains_key(&id) {
                Some((
                    id.clone(),
                    Event::DuplicateRequest(id.clone()),
                    ErrorObject::invalid_request(format!(
                        "request id {id} is already in flight on this connection"
                    )),
                ))
            } else if running.len() >= self.inner.limits.requests_in_flight {
                Some((
                    id.clone(),
                    Event::TooManyRequests(id.clone()),
                    ErrorObject::new(
                        codes::INTERNAL_ERROR,
                        format!(
                            "too many requests in flight (the limit is {}); try again later",
                            self.inner.limits.requests_in_flight
                        ),
                    ),
                ))
            } else {
                let answer = service.clone().serve(self.peer_for(&out), message);
                let (task, handle) = abortable(serve(self.inner.clone(), answer, out.clone()));
                running.insert(id.clone(), handle);
                let inner = self.inner.clone();
                spawn.spawn(Box::pin(async move {
                    // Aborted: the request was cancelled (or the session ended).
                    let _ = task.await;
                    inner
                        .running
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .remove(&id);
                }));
                None
            }
        };
        if let Some((id, event, error)) = refusal {
            self.inner.note(event);
            self.inner.answer(out.as_ref(), refuse(&id, error));
        }
    }

    fn cancel(&self, request: &Id) {
        let handle = self
            .inner
            .running
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(request);
        match handle {
            Some(handle) => {
                handle.abort();
                self.inner.note(Event::Cancelled(request.clone()));
            }
            None => self.inner.note(Event::CancelledUnknown(request.clone())),
        }
    }

    fn serve_in_background<S: Service>(
        &self,
        message: String,
        service: &Arc<S>,
        spawn: &dyn Spawn,
        out: Option<Outlet>,
    ) {
        let answer = service.clone().serve(self.peer_for(&out), message);
        spawn.spawn(Box::pin(serve(self.inner.clone(), answer, out)));
    }

    /// Ends the session as the end of [`run`](Session::run)'s stream does: calls waiting
    /// for a response fail, handlers still running stop. For transports that hand
    /// messages over with [`receive_on`](Session::receive_on).
    pub fn close(&self) {
        let pending: Vec<_> = {
            let mut pending = self.inner.pending.lock().unwrap_or_else(|e| e.into_inner());
            self.inner.closed.store(true, Ordering::SeqCst);
            pending.drain().collect()
        };
        let count = pending.len();
        for (_, waiter) in pending {
            let _ = waiter.send(Err(closed()));
        }
        let running: Vec<_> = self
            .inner
            .running
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .drain()
            .collect();
        for (_, handle) in running {
            handle.abort();
        }
        self.inner.note(Event::Closed { pending: count });
    }
}

/// Waits for the answer to one message and sends it, if it has one.
async fn serve(inner: Arc<Inner>, answer: BoxFuture<'static, Option<String>>, out: Option<Outlet>) {
    if let Some(answer) = answer.await {
        inner.answer(out.as_ref(), answer);
    }
}
