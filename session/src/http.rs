//! Streamable HTTP for a server: every message from the client is a `POST` to one
//! endpoint (`/mcp`), and the answer to a request comes back on that POST, as one JSON
//! body when the answer is all there is, else as a server-sent-event stream that carries
//! what the handler sends the client while it works (progress, log messages, and in the
//! initialize era sampling, elicitation and roots requests) and then the answer.
//!
//! Both lifecycle eras, decided by each POST:
//! - **initialize era** (up to 2025-11-25): `initialize` starts a session, named by the
//!   `Mcp-Session-Id` header of its answer (128 random bits); every later POST carries
//!   it, and is handed to that session's engine (its own [`Versions`], made for it).
//!   `DELETE` ends the session, and so does idleness ([`SessionLimits`]); an
//!   `initialize` answered with an error starts none. A POST naming a session that does
//!   not exist (or ended) gets 404.
//! - **discover era** (2026-07-28 on): no session. A POST without `Mcp-Session-Id` that is
//!   not `initialize` is served on its own, by a fresh [`Versions`] in its stateless mode.
//!   Before anything is served, its envelope is checked
//!   ([`version::check_envelope`](mcp_spec_types::version::check_envelope)) and the
//!   `Mcp-Protocol-Version`, `Mcp-Method` and `Mcp-Name` headers must agree with the
//!   body (`HeaderMismatch`, -32020); these refusals are HTTP 400. An error answer is HTTP
//!   404 when it is -32601 (the method does not exist), 400 for the envelope and
//!   capability errors (-32020, -32021, -32022), 200 otherwise. The handler of such a
//!   request cannot send the client requests (their answers would have no session to
//!   come back to: the era asks with `input_required` results instead), and stops when
//!   the client goes away before the answer. A server that offers no discover-era
//!   version answers such a POST 400 ("missing Mcp-Session-Id").
//!
//! Every error answer carries the id of the request it answers (`null` only when the body
//! is not a JSON-RPC request at all). Requests whose `Host` or `Origin` is not an allowed
//! host (by default `localhost`, `127.0.0.1`, `[::1]`) get 403: DNS rebinding protection.
//! In a session, a request's event stream starts with a priming event (an event id and a
//! `retry` interval) and numbers its events; when the client loses it, or a handler
//! closes it ([`close_stream`], SEP-1699 polling), what follows waits, and a `GET` with
//! `Last-Event-ID` resumes it. A `GET` without one opens the session's stream for what
//! the server sends outside any request (what a handler's task writes after the answer
//! went, say); with none open, such a message fails at once. Without a session, `GET` is
//! not offered: 405.

use std::collections::{HashMap, VecDeque};
use std::convert::Infallible;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use futures_channel::mpsc;
use futures_util::{StreamExt, stream};
use mcp_spec_types::ProtocolVersion;
use mcp_spec_types::rt::jsonrpc::{ErrorObject, Id, codes};
use mcp_spec_types::rt::service::{
    BoxFuture, Meta, Peer, Route, Service, TransportError, refuse, route,
};
use mcp_spec_types::version::{PROTOCOL_VERSION_META_KEY, check_envelope};
use serde_json::{Map, Value};

use crate::{Direction, Limits, Outlet, Session, Tokio, Versions};

use crate::wire::named;
pub use crate::wire::{METHOD_HEADER, NAME_HEADER, PROTOCOL_VERSION_HEADER, SESSION_HEADER};

/// `HeaderMismatch`: a header says something else than the body.
const HEADER_MISMATCH: i64 = -32020;

type Make = dyn Fn() -> Versions + Send + Sync;
type HttpTap = Arc<dyn Fn(Option<&str>, Direction, &str) + Send + Sync>;

/// A Streamable HTTP server: [`router`](HttpServer::router) gives the `axum` router
/// (mount it where you like), [`serve`](HttpServer::serve) serves it on a listener.
pub struct HttpServer {
    make: Box<Make>,
    limits: Limits,
    sessions_limits: SessionLimits,
    hosts: Vec<String>,
    sessions: Mutex<HashMap<String, Arc<Connection>>>,
    tap: Option<HttpTap>,
}

/// How many initialize-era sessions a server keeps, and how long one may sit idle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SessionLimits {
    /// Sessions at once; an `initialize` beyond them is answered 503 (-32603), after the
    /// idle ones are ended.
    pub max: usize,
    /// A session with no request for this long, and none being served, is ended when a
    /// new one starts (a later POST naming it gets 404).
    pub idle: Duration,
}

impl Default for SessionLimits {
    /// 1,024 sessions, idle for 30 minutes.
    fn default() -> Self {
        SessionLimits {
            max: 1024,
            idle: Duration::from_secs(30 * 60),
        }
    }
}

/// How many answered streams a session keeps for a late resumption.
const KEEP_FINISHED: usize = 16;
/// How long a session's POST waits for its handler's first message before it opens the
/// event stream anyway (with its priming event, so that it can be resumed).
const PRIME_AFTER: Duration = Duration::from_secs(1);

impl std::fmt::Debug for HttpServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HttpServer")
            .field("limits", &self.limits)
            .field("hosts", &self.hosts)
            .field("sessions", &self.lock().len())
            .finish_non_exhaustive()
    }
}

/// One initialize-era session.
struct Connection {
    session: Session,
    service: Arc<Versions>,
    /// The event streams of its requests, kept for a `GET` with `Last-Event-ID` to
    /// resume: by stream number.
    streams: Mutex<HashMap<u64, Arc<Mutex<Buffered>>>>,
    next_stream: AtomicU64,
    /// The answered streams still kept, oldest first (at most [`KEEP_FINISHED`]).
    finished: Mutex<VecDeque<u64>>,
    last_seen: Mutex<Instant>,
    /// The `GET` stream for what the server sends outside any request, when the client
    /// opened one.
    standalone: Standalone,
}

/// The slot of a session's `GET` stream, which its engine writes to.
type Standalone = Arc<Mutex<Option<mpsc::UnboundedSender<String>>>>;

impl Connection {
    fn new(session: Session, service: Versions, standalone: Standalone) -> Self {
        Connection {
            session,
            service: Arc::new(service),
            streams: Mutex::default(),
            next_stream: AtomicU64::new(0),
            finished: Mutex::default(),
            last_seen: Mutex::new(Instant::now()),
            standalone,
        }
    }

    /// Hands one POST's message to this session ([`deliver`]).
    async fn deliver(self: &Arc<Self>, text: String, id: Option<Id>) -> (Response, bool) {
        deliver(&self.session, &self.service, text, id, Some(self)).await
    }

    fn touch(&self) {
        *self.last_seen.lock().unwrap_or_else(|e| e.into_inner()) = Instant::now();
    }

    /// Idle for `idle`, with no stream still being written.
    fn idle(&self, idle: Duration) -> bool {
        let seen = *self.last_seen.lock().unwrap_or_else(|e| e.into_inner());
        let busy = lock_streams(self)
            .values()
            .any(|b| !b.lock().unwrap_or_else(|e| e.into_inner()).done);
        let listening = self
            .standalone
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .as_ref()
            .is_some_and(|s| !s.is_closed());
        seen.elapsed() >= idle && !busy && !listening
    }

    /// Stream `number` is answered: kept a while for a late resumption.
    fn finish(&self, number: u64) {
        let mut finished = self.finished.lock().unwrap_or_else(|e| e.into_inner());
        finished.push_back(number);
        while finished.len() > KEEP_FINISHED {
            if let Some(old) = finished.pop_front() {
                lock_streams(self).remove(&old);
            }
        }
    }
}

/// What one request's event stream has carried, and where it goes now.
#[derive(Default)]
struct Buffered {
    /// Every message written on the stream, in order: event `n` (from 1) is `events[n-1]`.
    events: Vec<String>,
    /// The HTTP response (or resumption) it is being written to, if one is open.
    live: Option<mpsc::UnboundedSender<(usize, String)>>,
    /// The request is answered: nothing more comes.
    done: bool,
}

/// What serving one POST writes, or the handler's wish to close its stream.
enum Frame {
    Message(String),
    Close,
}

tokio::task_local! {
    static CLOSE: mpsc::UnboundedSender<Frame>;
}

/// Closes the event stream of the request being served (call it from a handler, inside
/// its future), as SEP-1699's polling allows: the HTTP response ends after a priming
/// event that carries an event id and a `retry` interval, and what the handler writes
/// next (its answer too) waits for the client to resume with `GET` and `Last-Event-ID`.
/// Only an initialize-era session can resume, so only its handlers can close: `false`
/// in a stateless request's handler, and when not called while serving a POST of this
/// transport.
pub fn close_stream() -> bool {
    CLOSE
        .try_with(|close| close.unbounded_send(Frame::Close).is_ok())
        .unwrap_or(false)
}

/// The service of one POST, with [`close_stream`] reaching that POST's stream.
struct Scoped {
    inner: Arc<Versions>,
    close: mpsc::UnboundedSender<Frame>,
}

impl Service for Scoped {
    fn serve(self: Arc<Self>, peer: Peer, message: String) -> BoxFuture<'static, Option<String>> {
        let answer = self.inner.clone().serve(peer, message);
        Box::pin(CLOSE.scope(self.close.clone(), answer))
    }
}

/// How long a client waits before it resumes a stream the server closed, in ms.
const RETRY_MS: u64 = 500;

impl HttpServer {
    /// A server whose connections are served by what `make` returns: called once per
    /// initialize-era session and once per stateless (discover-era) request, so each gets
    /// a [`Versions`] of its own (state shared by all goes in an `Arc` the closure holds).
    pub fn new(make: impl Fn() -> Versions + Send + Sync + 'static) -> Self {
        HttpServer {
            make: Box::new(make),
            limits: Limits::default(),
            sessions_limits: SessionLimits::default(),
            hosts: ["localhost", "127.0.0.1", "[::1]"].map(String::from).into(),
            sessions: Mutex::new(HashMap::new()),
            tap: None,
        }
    }

    /// Other session limits than the default ones.
    pub fn session_limits(mut self, limits: SessionLimits) -> Self {
        self.sessions_limits = limits;
        self
    }

    /// Shows `tap` every message the server reads (each POST body) and writes (each
    /// answer, event or refusal), exactly as read or written, with the session the POST
    /// names (`None` when it names none: stateless requests, `initialize` refused before
    /// its session starts).
    pub fn tap(
        mut self,
        tap: impl Fn(Option<&str>, Direction, &str) + Send + Sync + 'static,
    ) -> Self {
        self.tap = Some(Arc::new(tap));
        self
    }

    /// Other limits for each session than the default ones.
    pub fn limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// Accepts requests whose `Host` (and `Origin`, when there is one) names `host` too
    /// (without the port: `example.com`, `[2001:db8::1]`).
    pub fn allow_host(mut self, host: impl Into<String>) -> Self {
        self.hosts.push(host.into());
        self
    }

    /// The router: `POST`, `DELETE` (and `GET`, refused) on `/mcp`.
    pub fn router(self) -> Router {
        let this = Arc::new(self);
        Router::new()
            .route(
                "/mcp",
                post(handle_post).delete(handle_delete).get(handle_get),
            )
            .with_state(this)
    }

    /// Serves on `listener` until the process ends (or an I/O error).
    pub async fn serve(self, listener: tokio::net::TcpListener) -> std::io::Result<()> {
        axum::serve(listener, self.router()).await
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<Connection>>> {
        self.sessions.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Whether a request's `Host` or `Origin` names a host that is not allowed (or cannot
    /// be read).
    fn foreign(&self, headers: &HeaderMap) -> bool {
        ["host", "origin"]
            .into_iter()
            .flat_map(|name| headers.get_all(name))
            .any(|value| value.to_str().map_or(true, |v| !self.allowed(v)))
    }

    /// A new initialize-era session (its name, made of 128 random bits), after ending
    /// the idle ones; an error when there are too many.
    fn open_session(
        &self,
        connection: impl FnOnce(&str) -> Connection,
    ) -> Result<(String, Arc<Connection>), ErrorObject> {
        let mut sessions = self.lock();
        sessions.retain(|_, c| {
            let idle = c.idle(self.sessions_limits.idle);
            if idle {
                c.session.close();
            }
            !idle
        });
        if sessions.len() >= self.sessions_limits.max {
            return Err(ErrorObject::internal_error(format!(
                "too many sessions (the limit is {}); try again later",
                self.sessions_limits.max
            )));
        }
        let mut bits = [0u8; 16];
        getrandom::fill(&mut bits)
            .map_err(|e| ErrorObject::internal_error(format!("no session id: {e}")))?;
        let name: String = bits.iter().map(|b| format!("{b:02x}")).collect();
        let connection = Arc::new(connection(&name));
        sessions.insert(name.clone(), connection.clone());
        Ok((name, connection))
    }

    /// Whether a `Host` or `Origin` value names an allowed host.
    fn allowed(&self, value: &str) -> bool {
        let rest = value.split_once("://").map_or(value, |(_, r)| r);
        let authority = rest.split('/').next().unwrap_or_default();
        let host = if authority.starts_with('[') {
            authority
                .split_once(']')
                .map(|(h, _)| format!("{h}]"))
                .unwrap_or_default()
        } else {
            authority.split(':').next().unwrap_or_default().to_string()
        };
        self.hosts.iter().any(|h| h.eq_ignore_ascii_case(&host))
    }

    /// A session engine for the session `name` (`None`: one stateless request), writing
    /// what goes outside any request to its `GET` stream, if it has one.
    fn session(&self, name: Option<&str>, standalone: Option<Standalone>) -> Session {
        let mut builder = Session::builder().limits(self.limits);
        if let Some(tap) = self.tap.clone() {
            let name = name.map(str::to_owned);
            builder = builder.tap(move |direction, text| tap(name.as_deref(), direction, text));
        }
        builder.build(move |text| {
            let slot = standalone
                .as_ref()
                .map(|s| s.lock().unwrap_or_else(|e| e.into_inner()));
            match slot.as_deref() {
                Some(Some(stream)) => stream
                    .unbounded_send(text)
                    .map_err(|_| TransportError::new("the client closed its GET stream")),
                Some(None) => Err(TransportError::new(
                    "the client has opened no GET stream for messages outside a request",
                )),
                None => Err(TransportError::new(
                    "a stateless request has no stream but its own",
                )),
            }
        })
    }

    /// A refusal made before any session engine saw the POST, tapped both ways.
    fn refuse(
        &self,
        session: Option<&str>,
        body: &str,
        status: StatusCode,
        id: Option<&Id>,
        e: ErrorObject,
    ) -> Response {
        let (response, text) = error(status, id, e);
        if let Some(tap) = &self.tap {
            tap(session, Direction::In, body);
            tap(session, Direction::Out, &text);
        }
        response
    }
}

/// An answer with a JSON-RPC error body, and the body.
fn error(status: StatusCode, id: Option<&Id>, error: ErrorObject) -> (Response, String) {
    let body = match id {
        Some(id) => refuse(id, error),
        None => serde_json::json!({"jsonrpc": "2.0", "id": null, "error": error}).to_string(),
    };
    (json(status, body.clone()), body)
}

fn json(status: StatusCode, body: String) -> Response {
    (status, [("content-type", "application/json")], body).into_response()
}

async fn handle_post(
    State(server): State<Arc<HttpServer>>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
    let label = header(SESSION_HEADER);
    let Ok(text) = String::from_utf8(body.to_vec()) else {
        let e = ErrorObject::new(codes::PARSE_ERROR, "the body is not UTF-8");
        let shown = String::from_utf8_lossy(&body);
        return server.refuse(label, &shown, StatusCode::BAD_REQUEST, None, e);
    };
    let refuse = |status, id: Option<&Id>, e| server.refuse(label, &text, status, id, e);
    let routed = route(text.as_bytes());
    let id = match &routed {
        Route::Request(id) => Some(id.clone()),
        _ => None,
    };
    if server.foreign(&headers) {
        let e = ErrorObject::invalid_request("Host or Origin is not an allowed host");
        return refuse(StatusCode::FORBIDDEN, id.as_ref(), e);
    }
    let Ok(value) = serde_json::from_str::<Value>(&text) else {
        let e = ErrorObject::new(codes::PARSE_ERROR, "the body is not JSON");
        return refuse(StatusCode::BAD_REQUEST, None, e);
    };
    let method = value.get("method").and_then(Value::as_str);
    if let Some(name) = label {
        let connection = server.lock().get(name).cloned();
        let Some(connection) = connection else {
            let e = ErrorObject::invalid_request(format!(
                "no session `{name}` (it ended, or never was)"
            ));
            return refuse(StatusCode::NOT_FOUND, id.as_ref(), e);
        };
        connection.touch();
        return connection.deliver(text, id).await.0;
    }
    // `initialize` starts a session, unless it comes in a discover-era envelope: then it
    // is a stateless request for a method that era does not have.
    let enveloped = value
        .pointer("/params/_meta")
        .and_then(|m| m.get(PROTOCOL_VERSION_META_KEY))
        .is_some();
    if method == Some("initialize") && id.is_some() && !enveloped {
        let opened = server.open_session(|name| {
            let standalone = Standalone::default();
            let session = server.session(Some(name), Some(standalone.clone()));
            Connection::new(session, (server.make)(), standalone)
        });
        let (name, connection) = match opened {
            Ok(opened) => opened,
            Err(e) => return refuse(StatusCode::SERVICE_UNAVAILABLE, id.as_ref(), e),
        };
        let (mut response, refused) = connection.deliver(text, id).await;
        if refused {
            // `initialize` answered with an error: no session after all.
            server.lock().remove(&name);
            connection.session.close();
        } else if let Ok(value) = HeaderValue::from_str(&name) {
            response.headers_mut().insert(SESSION_HEADER, value);
        }
        return response;
    }
    let service = (server.make)();
    if !service.offers_discover_era() {
        let e = ErrorObject::invalid_request("missing Mcp-Session-Id: send initialize first");
        return refuse(StatusCode::BAD_REQUEST, id.as_ref(), e);
    }
    if let Some(id) = &id
        && let Err(e) = check_stateless(&headers, &value, &service.versions())
    {
        return refuse(StatusCode::BAD_REQUEST, Some(id), e);
    }
    let session = server.session(None, None);
    let (response, _) = deliver(&session, &Arc::new(service.stateless()), text, id, None).await;
    response
}

/// The discover era's checks of a stateless request, before it is served: the envelope,
/// and the headers that repeat it.
fn check_stateless(
    headers: &HeaderMap,
    value: &Value,
    supported: &[ProtocolVersion],
) -> Result<(), ErrorObject> {
    let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
    let params = value.get("params");
    let meta = params
        .and_then(|p| p.get("_meta"))
        .and_then(Value::as_object)
        .map(|m| Meta::from(m.clone()));
    // In this order: a missing field (-32602), then a header that disagrees with the
    // body (-32020), then a version not served here (-32022).
    let served = check_envelope(meta.as_ref(), supported);
    if let Err(e) = &served
        && e.code == codes::INVALID_PARAMS
    {
        return served.map(|_| ());
    }
    let version = meta
        .as_ref()
        .and_then(|m| m.get(PROTOCOL_VERSION_META_KEY))
        .and_then(|v| v.as_str().map(str::to_owned));
    let mismatch = |what: &str, header_name: &str, header: Option<&str>, body: Option<&str>| {
        ErrorObject::new(
            HEADER_MISMATCH,
            format!(
                "the `{header_name}` header ({}) does not match the body's {what} ({})",
                header.map_or("absent".to_string(), |h| format!("`{h}`")),
                body.map_or("absent".to_string(), |b| format!("`{b}`")),
            ),
        )
    };
    if header(PROTOCOL_VERSION_HEADER) != version.as_deref() {
        return Err(mismatch(
            "protocol version",
            "Mcp-Protocol-Version",
            header(PROTOCOL_VERSION_HEADER),
            version.as_deref(),
        ));
    }
    let method = value.get("method").and_then(Value::as_str);
    if header(METHOD_HEADER).map(str::trim) != method {
        return Err(mismatch(
            "method",
            "Mcp-Method",
            header(METHOD_HEADER),
            method,
        ));
    }
    let name = named(method, params).and_then(Value::as_str);
    if name.is_some() && header(NAME_HEADER).map(str::trim) != name {
        return Err(mismatch("name", "Mcp-Name", header(NAME_HEADER), name));
    }
    served.map(|_| ())
}

/// Hands one POST's message to a session and answers the POST: 202 when nothing answers
/// it (a notification, a response), else the answer (JSON when it is the first and only
/// thing written, an event stream otherwise), and whether that answer is a JSON-RPC
/// error. `connection` is the initialize-era session (`None`: a stateless request),
/// whose event streams can be closed by the handler and resumed by the client.
async fn deliver(
    session: &Session,
    service: &Arc<Versions>,
    text: String,
    id: Option<Id>,
    connection: Option<&Arc<Connection>>,
) -> (Response, bool) {
    let batch = text.trim_start().starts_with('[');
    if id.is_none() && !batch {
        let ignore: Outlet = Arc::new(|_| {
            Err(TransportError::new(
                "a notification or response POST has no stream to write on",
            ))
        });
        session.receive_on(text, service, &Tokio, ignore);
        return (StatusCode::ACCEPTED.into_response(), false);
    }
    let stateless = connection.is_none();
    let (tx, mut rx) = mpsc::unbounded::<Frame>();
    let sender = tx.clone();
    let out: Outlet = Arc::new(move |message: String| {
        if stateless && matches!(route(message.as_bytes()), Route::Request(_)) {
            // Its answer would come on a POST of its own, which no session connects.
            return Err(TransportError::new(
                "a stateless request cannot send the client requests: answer input_required",
            ));
        }
        sender
            .unbounded_send(Frame::Message(message))
            .map_err(|_| TransportError::new("the client closed the response stream"))
    });
    if stateless {
        drop(tx);
        session.receive_on(text, service, &Tokio, out);
    } else {
        let scoped = Arc::new(Scoped {
            inner: service.clone(),
            close: tx,
        });
        session.receive_on(text, &scoped, &Tokio, out);
    }
    // The first frame decides: the answer alone is JSON; anything else, a handler that
    // closes its stream, or (in a session) a second of silence opens an event stream.
    let first = if stateless {
        Some(rx.next().await)
    } else {
        tokio::time::timeout(PRIME_AFTER, rx.next()).await.ok()
    };
    let start = match first {
        Some(None) => return (StatusCode::ACCEPTED.into_response(), false),
        Some(Some(Frame::Message(m))) if answers(&m, &id) || batch => {
            let code = error_code(&m);
            let status = if stateless {
                status_of(code)
            } else {
                StatusCode::OK
            };
            return (json(status, m), code.is_some());
        }
        Some(Some(Frame::Message(m))) => Start::Message(m),
        Some(Some(Frame::Close)) => Start::Closed,
        None => Start::Silent,
    };
    let Some(connection) = connection else {
        // A stateless request's stream: it ends with the answer, and when the client
        // goes away the handler stops (the guard closes the request's own session).
        let guard = Guard(session.clone());
        let first = match start {
            Start::Message(m) => Some(m),
            _ => None,
        };
        let rest = rx.filter_map(|frame| async move {
            match frame {
                Frame::Message(m) => Some(m),
                Frame::Close => None,
            }
        });
        let events = stream::iter(first)
            .chain(rest)
            .scan(false, move |done, m| {
                let end = *done;
                *done = answers(&m, &id);
                std::future::ready((!end).then_some(m))
            })
            .map(move |m| {
                let _ = &guard;
                event(None, &m)
            });
        return (sse(events), false);
    };
    let number = connection.next_stream.fetch_add(1, Ordering::Relaxed);
    let buffered = Arc::new(Mutex::new(Buffered::default()));
    let (live, events) = mpsc::unbounded();
    {
        let mut b = buffered.lock().unwrap_or_else(|e| e.into_inner());
        b.live = Some(live);
        match start {
            Start::Message(m) => b.write(m),
            Start::Closed => b.live = None,
            Start::Silent => {}
        }
    }
    lock_streams(connection).insert(number, buffered.clone());
    let weak = Arc::downgrade(connection);
    tokio::spawn(async move {
        while let Some(frame) = rx.next().await {
            let mut b = buffered.lock().unwrap_or_else(|e| e.into_inner());
            match frame {
                Frame::Message(m) => {
                    let answer = answers(&m, &id);
                    b.write(m);
                    if answer {
                        // The stream ends with the answer, even if a handler's task
                        // holds on to its peer (what it writes later has nowhere to go).
                        break;
                    }
                }
                Frame::Close => b.live = None,
            }
        }
        let mut b = buffered.lock().unwrap_or_else(|e| e.into_inner());
        b.done = true;
        b.live = None;
        drop(b);
        if let Some(connection) = weak.upgrade() {
            connection.finish(number);
        }
    });
    (event_stream(number, 0, events), false)
}

/// How a session's answer stream starts.
enum Start {
    /// With a message that is not the answer.
    Message(String),
    /// Closed by the handler before anything was written.
    Closed,
    /// Nothing yet: the stream opens with its priming event alone.
    Silent,
}

/// Whether `message` is the answer to request `id` (there is none to answer without one).
fn answers(message: &str, id: &Option<Id>) -> bool {
    id.as_ref()
        .is_some_and(|id| crate::wire::answers(message, id))
}

/// Ends a stateless request's session (stopping its handler) when the response that
/// streams its answer is dropped: done, or the client went away.
struct Guard(Session);

impl Drop for Guard {
    fn drop(&mut self) {
        self.0.close();
    }
}

impl Buffered {
    fn write(&mut self, message: String) {
        self.events.push(message.clone());
        let n = self.events.len();
        if let Some(live) = &self.live
            && live.unbounded_send((n, message)).is_err()
        {
            // The client went away: the rest waits for it to resume.
            self.live = None;
        }
    }
}

fn lock_streams(
    connection: &Connection,
) -> std::sync::MutexGuard<'_, HashMap<u64, Arc<Mutex<Buffered>>>> {
    connection.streams.lock().unwrap_or_else(|e| e.into_inner())
}

/// The event stream of stream `number`, from event `after`: a priming event (its id, the
/// `retry` interval, no data), then each message with the id `<number>-<n>`.
fn event_stream(
    number: u64,
    after: usize,
    events: mpsc::UnboundedReceiver<(usize, String)>,
) -> Response {
    let priming = format!("id: {number}-{after}\nretry: {RETRY_MS}\ndata: \n\n");
    let events = events.map(move |(n, m)| event(Some(&format!("{number}-{n}")), &m));
    sse(stream::once(async move { priming }).chain(events))
}

/// One server-sent event carrying `message` (one line of JSON), with an id if given.
fn event(id: Option<&str>, message: &str) -> String {
    let id = id.map(|id| format!("id: {id}\n")).unwrap_or_default();
    // JSON text has no raw line breaks; any other text is split as SSE requires.
    let data: String = message.lines().map(|l| format!("data: {l}\n")).collect();
    format!("event: message\n{id}{data}\n")
}

/// An event-stream response from events already written out.
fn sse(events: impl futures_util::Stream<Item = String> + Send + 'static) -> Response {
    let body = axum::body::Body::from_stream(events.map(Ok::<_, Infallible>));
    (
        [
            ("content-type", "text/event-stream"),
            ("cache-control", "no-cache"),
        ],
        body,
    )
        .into_response()
}

/// `GET` in a session: with `Last-Event-ID`, resumes a request's event stream where the
/// client lost it; without, opens the stream for what the server sends outside any
/// request (a later one replaces it). Without a session: 405, there is no such stream.
async fn handle_get(State(server): State<Arc<HttpServer>>, headers: HeaderMap) -> Response {
    let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
    if server.foreign(&headers) {
        return StatusCode::FORBIDDEN.into_response();
    }
    let Some(name) = header(SESSION_HEADER) else {
        return (StatusCode::METHOD_NOT_ALLOWED, [("allow", "POST, DELETE")]).into_response();
    };
    let connection = server.lock().get(name).cloned();
    let Some(connection) = connection else {
        return StatusCode::NOT_FOUND.into_response();
    };
    let Some(last) = header("last-event-id") else {
        connection.touch();
        let (stream, messages) = mpsc::unbounded::<String>();
        *connection
            .standalone
            .lock()
            .unwrap_or_else(|e| e.into_inner()) = Some(stream);
        return sse(messages.map(|m| event(None, &m)));
    };
    connection.touch();
    let parsed = last
        .split_once('-')
        .and_then(|(s, n)| Some((s.parse::<u64>().ok()?, n.parse::<usize>().ok()?)));
    let buffered = parsed.and_then(|(s, _)| lock_streams(&connection).get(&s).cloned());
    let (Some((number, after)), Some(buffered)) = (parsed, buffered) else {
        return StatusCode::NOT_FOUND.into_response();
    };
    let (live, events) = mpsc::unbounded();
    {
        let mut b = buffered.lock().unwrap_or_else(|e| e.into_inner());
        for (i, message) in b.events.iter().enumerate().skip(after) {
            let _ = live.unbounded_send((i + 1, message.clone()));
        }
        // Replayed whole when it is done (the stream ends there); else it goes on live.
        if !b.done {
            b.live = Some(live);
        }
    }
    event_stream(number, after, events)
}

/// The code of an error answer; `None` for a result.
fn error_code(answer: &str) -> Option<i64> {
    let answer = serde_json::from_str::<Map<String, Value>>(answer).ok()?;
    let error = answer.get("error")?;
    Some(error.get("code").and_then(Value::as_i64).unwrap_or(0))
}

/// The HTTP status of a discover-era answer, given its error code: 404 for a method that
/// does not exist, 400 for the envelope and capability errors, 200 for everything else.
fn status_of(code: Option<i64>) -> StatusCode {
    match code {
        Some(codes::METHOD_NOT_FOUND) => StatusCode::NOT_FOUND,
        Some(-32022..=-32020) => StatusCode::BAD_REQUEST,
        _ => StatusCode::OK,
    }
}

async fn handle_delete(State(server): State<Arc<HttpServer>>, headers: HeaderMap) -> StatusCode {
    if server.foreign(&headers) {
        return StatusCode::FORBIDDEN;
    }
    let name = headers.get(SESSION_HEADER).and_then(|v| v.to_str().ok());
    let connection = name.and_then(|name| server.lock().remove(name));
    match connection {
        Some(connection) => {
            connection.session.close();
            StatusCode::OK
        }
        None => StatusCode::NOT_FOUND,
    }
}
