//! The session engine: one connection, both directions, no async runtime of its own.

use std::collections::HashMap;
use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_channel::oneshot;
use futures_util::future::{AbortHandle, Either, abortable, select};
use futures_util::{Stream, StreamExt};
use mcp_spec_types::rt::jsonrpc::{ErrorObject, Id, codes};
use mcp_spec_types::rt::service::{
    BoxFuture, Peer, Route, Service, Transport, TransportError, inspect, refuse,
};
use tokio::sync::Notify;

/// Runs a task to completion in the background: how the engine serves requests
/// concurrently without an async runtime of its own. Any `Fn(BoxFuture)` is one
/// (`|task| { tokio::spawn(task); }`); with the `tokio` feature, `Tokio`.
pub trait Spawn: Send + Sync {
    /// Starts `task`; it must run to its end unless the engine aborts it.
    fn spawn(&self, task: BoxFuture<'static, ()>);
}

impl<F: Fn(BoxFuture<'static, ()>) + Send + Sync> Spawn for F {
    fn spawn(&self, task: BoxFuture<'static, ()>) {
        self(task)
    }
}

/// What a session spends on a peer, at most: every bound of the engine and of its
/// transports, with its default. What is beyond a bound waits (reading stops) or is
/// refused with an error that names the bound; nothing accepted is dropped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Incoming messages served at once: requests and notifications, each in a task of
    /// its own. At the limit the session reads nothing more until one is done (a
    /// response to this side's own request is still taken when it is the next message),
    /// so a flood waits in the peer's pipe or socket, not in memory. Default 64.
    pub requests_in_flight: usize,
    /// Outgoing messages queued for the writer (the stdio pipe, an HTTP response's event
    /// stream). When the queue is full, whoever writes waits: a peer that does not read
    /// slows its session down (its answers wait, so its requests stay in flight, so
    /// reading stops) instead of filling memory. Default 64.
    pub outgoing: usize,
    /// The longest incoming message, in bytes (a stdio line; an HTTP body, refused 413):
    /// a longer one is refused (-32700) without being held in memory whole, and the
    /// session goes on. Default 4 MiB.
    pub message_size: usize,
    /// How long a request this side sends (sampling, elicitation, roots; a client's
    /// calls) waits for its response. Then the call fails with an error that says so,
    /// its slot is freed, and the peer is sent `notifications/cancelled` for it.
    /// Default 60 s.
    pub request_timeout: Duration,
    /// When the input ends (the peer closed its side of the pipe): how long the handlers
    /// still running get to finish. Every request read before the end is answered: by
    /// its handler, or, after this, with an error (-32603) that says the session ended.
    /// Default 10 s.
    pub shutdown_grace: Duration,
}

impl Default for Limits {
    /// 64 messages in flight, 64 queued for writing, messages up to 4 MiB, requests to
    /// the peer answered within 60 s, 10 s for handlers to finish once the input ends.
    fn default() -> Self {
        Limits {
            requests_in_flight: 64,
            outgoing: 64,
            message_size: 4 << 20,
            request_timeout: Duration::from_secs(60),
            shutdown_grace: Duration::from_secs(10),
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
    /// `notifications/cancelled` for a request being served: its handler was stopped and
    /// the request will not be answered.
    Cancelled(Id),
    /// `notifications/cancelled` for no request being served (done already, or never
    /// seen): nothing to stop.
    CancelledUnknown(Id),
    /// A request this side sent got no response within [`Limits::request_timeout`]: the
    /// call failed and the peer was told to cancel it.
    TimedOut(Id),
    /// Input that is no message (not UTF-8, or longer than [`Limits::message_size`]):
    /// answered -32700, and the session goes on.
    Unreadable(String),
    /// The input ended with this request still being served after
    /// [`Limits::shutdown_grace`]: its handler was stopped and the request answered
    /// with an error.
    Abandoned(Id),
    /// The connection ended; this many calls to the peer were still waiting and failed.
    Closed {
        /// Calls that failed with "the connection closed".
        pending: usize,
    },
}

type Observer = Box<dyn Fn(&Event) + Send + Sync>;
type Tap = Arc<dyn Fn(Flow, &str) + Send + Sync>;

/// Which way a message crossed the connection, for a [`Builder::tap`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    /// From the peer.
    In,
    /// To the peer.
    Out,
}

/// Where a session writes: each call queues one message (a JSON text) for the peer. The
/// future resolves once the message is queued, and waits while the queue is full
/// (backpressure); an error means the connection (or the stream) is gone.
pub type Outlet =
    Arc<dyn Fn(String) -> BoxFuture<'static, Result<(), TransportError>> + Send + Sync>;

/// A request being served.
struct Running {
    /// Tells this run from a later request that reuses its id.
    run: u64,
    abort: AbortHandle,
    /// Where its answer goes.
    out: Option<Outlet>,
}

/// The messages being served: at most [`Limits::requests_in_flight`].
#[derive(Default)]
struct Tasks {
    requests: HashMap<Id, Running>,
    /// Notifications (and unreadable messages), by run.
    others: HashMap<u64, AbortHandle>,
    /// The session ended: nothing more starts.
    closed: bool,
    /// The input ended: the end waits for the tasks to be done.
    draining: bool,
}

impl Tasks {
    fn len(&self) -> usize {
        self.requests.len() + self.others.len()
    }
}

struct Inner {
    send: Outlet,
    pending: Mutex<HashMap<Id, oneshot::Sender<Result<String, TransportError>>>>,
    tasks: Mutex<Tasks>,
    /// Wakes what waits for room among the tasks (or for none to be left).
    room: Notify,
    runs: AtomicU64,
    closed: AtomicBool,
    limits: Limits,
    observer: Option<Observer>,
    tap: Option<Tap>,
}

impl Inner {
    fn tasks(&self) -> std::sync::MutexGuard<'_, Tasks> {
        self.tasks.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Takes a task out (`remove`, under the lock), telling whoever waits when that
    /// makes room or leaves none.
    fn end<T>(&self, remove: impl FnOnce(&mut Tasks) -> Option<T>) -> Option<T> {
        let mut tasks = self.tasks();
        let full = tasks.len() >= self.limits.requests_in_flight.max(1);
        let removed = remove(&mut tasks);
        let wake = removed.is_some() && (full || (tasks.draining && tasks.len() == 0));
        drop(tasks);
        if wake {
            self.room.notify_waiters();
        }
        removed
    }

    fn note(&self, event: Event) {
        if let Some(observe) = &self.observer {
            observe(&event);
        }
    }

    /// Sends the answer to a message where the message came from: its own stream if it
    /// has one (an answer never goes anywhere else), else the connection.
    async fn answer(&self, out: Option<&Outlet>, text: String) {
        // A stream or connection that is gone has nobody to tell: the reader ends the
        // session.
        let _ = match out {
            Some(out) => out(text).await,
            None => (self.send)(text).await,
        };
    }
}

/// The engine's side of the typed peers: a request waits for the response with its id.
/// Messages go out through `out` if there is one, else through the connection.
struct Calls(Arc<Inner>, Option<Outlet>);

impl Calls {
    async fn write(&self, text: String) -> Result<(), TransportError> {
        match &self.1 {
            // The message's own stream while it is open; after that (a handler's task
            // that writes once the answer is sent) the connection's.
            Some(out) => match out(text.clone()).await {
                Ok(()) => Ok(()),
                Err(_) => (self.0.send)(text).await,
            },
            None => (self.0.send)(text).await,
        }
    }

    fn forget(&self, id: &Id) {
        self.0
            .pending
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(id);
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
            let initialize = is_initialize(&message);
            if let Err(e) = self.write(message).await {
                self.forget(&id);
                return Err(e);
            }
            // Dropping this future (a caller that gives up) leaves a sender behind, which
            // the response, the timeout's cleanup or the end of the session removes.
            let timeout = self.0.limits.request_timeout;
            match select(rx, futures_timer::Delay::new(timeout)).await {
                Either::Left((answer, _)) => answer.unwrap_or_else(|_| Err(closed())),
                Either::Right(_) => {
                    self.forget(&id);
                    self.0.note(Event::TimedOut(id.clone()));
                    // `initialize` is never cancelled (the lifecycle says so).
                    if !initialize {
                        let reason = format!("no response within {timeout:?}");
                        let cancel = serde_json::json!({
                            "jsonrpc": "2.0",
                            "method": "notifications/cancelled",
                            "params": {"requestId": id, "reason": reason},
                        });
                        let _ = self.write(cancel.to_string()).await;
                    }
                    Err(TransportError::new(format!(
                        "the peer did not answer request {id} within {timeout:?} \
                         (Limits::request_timeout); it was cancelled"
                    )))
                }
            }
        })
    }

    fn notify(&self, message: String) -> BoxFuture<'_, Result<(), TransportError>> {
        Box::pin(async move {
            // Once the input ends no response can come, but what a handler still running
            // sends (a log, progress) goes out with its answer: only a session whose tasks
            // are stopped refuses it.
            if self.0.tasks().closed {
                return Err(TransportError::new(
                    "the session ended: nothing more is sent on it",
                ));
            }
            self.write(message).await
        })
    }
}

/// Whether an outgoing request is `initialize` (read only when it timed out).
fn is_initialize(message: &str) -> bool {
    // Read as every incoming message is (the JSON layer, members in any order), not by
    // how one writer happens to write it.
    mcp_spec_types::rt::service::inspect(message.as_bytes()).method() == Some("initialize")
}

fn closed() -> TransportError {
    TransportError::new("the connection closed before the response came")
}

/// One connection to a peer, both directions: it keeps the requests this side sent until
/// their responses come (or [`Limits::request_timeout`] passes), serves the peer's
/// requests concurrently (each in a task of its own, cancelled by
/// `notifications/cancelled`), and fails what is pending when the connection ends.
///
/// The engine owns no I/O and no runtime: [`run`](Session::run) reads incoming messages
/// (one JSON text each) from any stream, the session writes through the function given
/// to [`Builder::build`], and tasks start through a [`Spawn`]. The `stdio` feature
/// wires it to newline-delimited JSON over stdin/stdout or a child process. Every bound
/// it keeps is in [`Limits`].
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

    /// The limits the session will have (the transports size their queues by them).
    #[cfg(any(feature = "stdio", feature = "http-client"))]
    pub(crate) fn limits_of(&self) -> Limits {
        self.limits
    }

    /// Reports what the session deals with by itself ([`Event`]) to `observe`.
    pub fn observer(mut self, observe: impl Fn(&Event) + Send + Sync + 'static) -> Self {
        self.observer = Some(Box::new(observe));
        self
    }

    /// Shows `tap` every message that crosses the connection, exactly as read or written
    /// (a traffic log, say): incoming ones as they are handed to the session, outgoing ones
    /// as they are written (on the connection or on a message's own stream).
    pub fn tap(mut self, tap: impl Fn(Flow, &str) + Send + Sync + 'static) -> Self {
        self.tap = Some(Arc::new(tap));
        self
    }

    /// The session, writing each outgoing message (one JSON text) with `send`: a future
    /// that resolves once the text is queued for the writer, waiting while the queue is
    /// full (an error means the connection is gone).
    pub fn build(
        self,
        send: impl Fn(String) -> BoxFuture<'static, Result<(), TransportError>> + Send + Sync + 'static,
    ) -> Session {
        let send: Outlet = match self.tap.clone() {
            None => Arc::new(send),
            Some(tap) => Arc::new(move |text: String| {
                tap(Flow::Out, &text);
                send(text)
            }),
        };
        let inner = Arc::new(Inner {
            send,
            pending: Mutex::new(HashMap::new()),
            tasks: Mutex::default(),
            room: Notify::new(),
            runs: AtomicU64::new(0),
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
        send: impl Fn(String) -> BoxFuture<'static, Result<(), TransportError>> + Send + Sync + 'static,
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

    /// The session's limits.
    pub fn limits(&self) -> Limits {
        self.inner.limits
    }

    /// Whether the connection has ended (or its input has: no response can come).
    pub fn is_closed(&self) -> bool {
        self.inner.closed.load(Ordering::SeqCst)
    }

    /// Serves the connection until `incoming` ends: each message is routed by the crate's
    /// one decoder (`rt::service::route`), and handed to `service` in the order messages
    /// arrive (see [`Service`]). A response completes the call that awaits its id; a
    /// request is served by `service` in a task of its own, its answer sent when it is
    /// ready; `notifications/cancelled` stops the handler of the request it names (which
    /// is then not answered); anything else (notifications, batches, malformed text) is
    /// served by `service` too, which answers what needs an answer (-32700 for text that
    /// is not JSON: the session goes on). With [`Limits::requests_in_flight`] messages
    /// being served, the next one is not read until one is done.
    ///
    /// When `incoming` ends, calls to the peer fail (no response can come any more), the
    /// handlers still running get [`Limits::shutdown_grace`] to finish, and the requests
    /// whose handlers did not are answered with an error (-32603); then `run` returns,
    /// every answer handed to the writer.
    pub async fn run<S: Service>(
        &self,
        incoming: impl Stream<Item = String>,
        service: Arc<S>,
        spawn: &dyn Spawn,
    ) {
        let mut incoming = std::pin::pin!(incoming);
        while let Some(message) = incoming.next().await {
            let head = inspect(message.as_bytes());
            let (routed, batch) = (head.route, head.batch);
            self.dispatch(routed, batch, message, &service, spawn, None)
                .await;
        }
        self.finish().await;
    }

    /// Handles one incoming message as [`run`](Session::run) does (waiting, when
    /// [`Limits::requests_in_flight`] messages are being served, until one is done), but
    /// what serving it writes (its answer, and the requests and notifications its
    /// handler sends) goes to `out` instead of the connection: how Streamable HTTP
    /// answers a POST on a stream of its own. The stream ends when every clone of `out`
    /// is dropped, that is when the message is served (a response completes the call
    /// that awaits it and writes nothing). Messages must be handed over in the order they
    /// arrive.
    pub async fn receive_on<S: Service>(
        &self,
        message: String,
        service: &Arc<S>,
        spawn: &dyn Spawn,
        out: Outlet,
    ) {
        let head = inspect(message.as_bytes());
        let (routed, batch) = (head.route, head.batch);
        self.dispatch(routed, batch, message, service, spawn, Some(out))
            .await;
    }

    /// Answers input that is no message (not UTF-8, too long: `what` says which) with
    /// -32700 and a null id, as the transport that read it cannot hand it over as text.
    pub async fn unreadable(&self, what: String) {
        let error = ErrorObject::new(codes::PARSE_ERROR, what.clone());
        self.inner.note(Event::Unreadable(what));
        self.inner.answer(None, refuse_unnamed(&error)).await;
    }

    /// The one way in: a message whose route is known (the transport may have read it
    /// already: `rt::service::inspect`), handed over in arrival order. A batch of more
    /// than [`Limits::requests_in_flight`] elements is refused whole (-32600).
    pub(crate) async fn dispatch<S: Service>(
        &self,
        routed: Route,
        batch: Option<usize>,
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
                tap(Flow::In, &message);
                let tap = tap.clone();
                Some(Arc::new(move |text: String| {
                    tap(Flow::Out, &text);
                    out(text)
                }) as Outlet)
            }
            (Some(tap), None) => {
                tap(Flow::In, &message);
                None
            }
            (None, out) => out,
        };
        let most = self.inner.limits.requests_in_flight;
        if let Some(n) = batch.filter(|n| *n > most) {
            let error = ErrorObject::invalid_request(format!(
                "a batch of {n} messages; at most {most} (Limits::requests_in_flight)"
            ));
            self.inner
                .answer(out.as_ref(), refuse_unnamed(&error))
                .await;
            return;
        }
        match routed {
            Route::Response(id) => self.complete(id, message),
            Route::Request(id) => self.start(id, message, service, spawn, out).await,
            Route::Cancelled { request } => {
                self.cancel(&request);
                // The handler may want to hear of it too.
                self.serve_in_background(message, service, spawn, out).await;
            }
            Route::Incoming => self.serve_in_background(message, service, spawn, out).await,
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

    /// Waits until fewer than [`Limits::requests_in_flight`] messages are being served,
    /// and gives the tasks, locked, to start one more in. `None` once the session ended.
    async fn room(&self) -> Option<std::sync::MutexGuard<'_, Tasks>> {
        // Room at once is the common case: no waiter registered for it.
        if let Some(room) = self.room_now() {
            return room;
        }
        loop {
            let freed = self.inner.room.notified();
            let mut freed = std::pin::pin!(freed);
            freed.as_mut().enable();
            if let Some(room) = self.room_now() {
                return room;
            }
            freed.await;
        }
    }

    /// [`room`](Self::room) if it need not wait: `Some(None)` once the session ended,
    /// `None` while it is full.
    fn room_now(&self) -> Option<Option<std::sync::MutexGuard<'_, Tasks>>> {
        let tasks = self.inner.tasks();
        if tasks.closed {
            return Some(None);
        }
        (tasks.len() < self.inner.limits.requests_in_flight.max(1)).then_some(Some(tasks))
    }

    async fn start<S: Service>(
        &self,
        id: Id,
        message: String,
        service: &Arc<S>,
        spawn: &dyn Spawn,
        out: Option<Outlet>,
    ) {
        let started = {
            let Some(mut tasks) = self.room().await else {
                return;
            };
            if tasks.requests.contains_key(&id) {
                Err((id, out))
            } else {
                let answer = service.clone().serve(self.peer_for(&out), message);
                let (task, abort) = abortable(serve(self.inner.clone(), answer, out.clone()));
                let run = self.inner.runs.fetch_add(1, Ordering::Relaxed);
                tasks
                    .requests
                    .insert(id.clone(), Running { run, abort, out });
                Ok((task, run, id))
            }
        };
        // Started outside the lock: a `Spawn` may run the task at once.
        let duplicate = match started {
            Ok((task, run, id)) => {
                let inner = self.inner.clone();
                spawn.spawn(Box::pin(async move {
                    // Aborted: the request was cancelled (or the session ended).
                    let _ = task.await;
                    inner.end(|tasks| {
                        let ours = tasks.requests.get(&id).is_some_and(|r| r.run == run);
                        ours.then(|| tasks.requests.remove(&id)).flatten()
                    });
                }));
                None
            }
            Err(duplicate) => Some(duplicate),
        };
        if let Some((id, out)) = duplicate {
            self.inner.note(Event::DuplicateRequest(id.clone()));
            let error = ErrorObject::invalid_request(format!(
                "request id {id} is already in flight on this connection"
            ));
            self.inner.answer(out.as_ref(), refuse(&id, error)).await;
        }
    }

    fn cancel(&self, request: &Id) {
        match self.inner.end(|tasks| tasks.requests.remove(request)) {
            Some(running) => {
                running.abort.abort();
                self.inner.note(Event::Cancelled(request.clone()));
            }
            None => self.inner.note(Event::CancelledUnknown(request.clone())),
        }
    }

    async fn serve_in_background<S: Service>(
        &self,
        message: String,
        service: &Arc<S>,
        spawn: &dyn Spawn,
        out: Option<Outlet>,
    ) {
        let Some(mut tasks) = self.room().await else {
            return;
        };
        let answer = service.clone().serve(self.peer_for(&out), message);
        let (task, abort) = abortable(serve(self.inner.clone(), answer, out));
        let run = self.inner.runs.fetch_add(1, Ordering::Relaxed);
        tasks.others.insert(run, abort);
        drop(tasks);
        let inner = self.inner.clone();
        spawn.spawn(Box::pin(async move {
            let _ = task.await;
            inner.end(|tasks| tasks.others.remove(&run));
        }));
    }

    /// Fails the calls waiting for the peer and refuses new ones: no response can come.
    fn stop_calls(&self) -> usize {
        let pending: Vec<_> = {
            let mut pending = self.inner.pending.lock().unwrap_or_else(|e| e.into_inner());
            self.inner.closed.store(true, Ordering::SeqCst);
            pending.drain().collect()
        };
        let count = pending.len();
        for (_, waiter) in pending {
            let _ = waiter.send(Err(closed()));
        }
        count
    }

    /// The end of the input: calls fail, handlers get their grace, what is left is
    /// answered with an error.
    async fn finish(&self) {
        let count = self.stop_calls();
        let grace = self.inner.limits.shutdown_grace;
        self.inner.tasks().draining = true;
        let done = async {
            loop {
                let ended = self.inner.room.notified();
                let mut ended = std::pin::pin!(ended);
                ended.as_mut().enable();
                if self.inner.tasks().len() == 0 {
                    return;
                }
                ended.await;
            }
        };
        let done = std::pin::pin!(done);
        if let Either::Right(_) = select(done, futures_timer::Delay::new(grace)).await {
            for (id, running) in self.take_running() {
                running.abort.abort();
                self.inner.note(Event::Abandoned(id.clone()));
                let error = ErrorObject::internal_error(format!(
                    "the session ended: its input closed and the handler did not finish \
                     within {grace:?} (Limits::shutdown_grace)"
                ));
                self.inner
                    .answer(running.out.as_ref(), refuse(&id, error))
                    .await;
            }
        }
        self.stop_tasks();
        self.inner.note(Event::Closed { pending: count });
    }

    /// The requests being served, taken out of the session.
    fn take_running(&self) -> Vec<(Id, Running)> {
        self.inner.tasks().requests.drain().collect()
    }

    /// Stops every task, and lets none start.
    fn stop_tasks(&self) {
        let (requests, others) = {
            let mut tasks = self.inner.tasks();
            tasks.closed = true;
            (
                std::mem::take(&mut tasks.requests),
                std::mem::take(&mut tasks.others),
            )
        };
        self.inner.room.notify_waiters();
        for (_, running) in requests {
            running.abort.abort();
        }
        for (_, abort) in others {
            abort.abort();
        }
    }

    /// Ends the session at once (the peer is gone: nobody is left to answer): calls
    /// waiting for a response fail, handlers still running stop, messages handed over
    /// later are dropped. For transports that hand messages over with
    /// [`receive_on`](Session::receive_on).
    pub fn close(&self) {
        let count = self.stop_calls();
        self.stop_tasks();
        self.inner.note(Event::Closed { pending: count });
    }
}

/// An error response to no request that could be named (`"id": null`).
pub(crate) fn refuse_unnamed(error: &ErrorObject) -> String {
    let error = serde_json::to_string(error).unwrap_or_default();
    format!(r#"{{"jsonrpc":"2.0","id":null,"error":{error}}}"#)
}

/// Waits for the answer to one message and sends it, if it has one.
async fn serve(inner: Arc<Inner>, answer: BoxFuture<'static, Option<String>>, out: Option<Outlet>) {
    if let Some(answer) = answer.await {
        inner.answer(out.as_ref(), answer).await;
    }
}
