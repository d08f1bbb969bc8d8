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
//!   `DELETE` ends the session, and so do a handshake never finished and idleness
//!   ([`SessionLimits`]); an `initialize` answered with an error starts none. A POST
//!   naming a session that does not exist (or ended) gets 404; one whose
//!   `Mcp-Protocol-Version` names no initialize-era version the server speaks, or a
//!   second `initialize`, gets 400.
//! - **discover era** (2026-07-28 on): no session. A POST without `Mcp-Session-Id` that is
//!   not `initialize` is served on its own, by a fresh [`Versions`] in its stateless mode.
//!   Before anything is served, its envelope is checked
//!   ([`version::check_envelope`](mcp_spec_types::version::check_envelope)) and the
//!   `Mcp-Protocol-Version`, `Mcp-Method` and `Mcp-Name` headers must agree with the
//!   body (`HeaderMismatch`, -32020); these refusals are HTTP 400. An error answer is HTTP
//!   404 when it is -32601 (the method does not exist), 400 for the envelope and
//!   capability errors (-32020, -32021, -32022) and for a body that is no request
//!   (-32700, -32600), 200 otherwise. The handler of such a
//!   request cannot send the client requests (their answers would have no session to
//!   come back to: the era asks with `input_required` results instead), and stops when
//!   the client goes away before the answer. A server that offers no discover-era
//!   version answers such a POST 400 ("missing Mcp-Session-Id").
//!
//! Every error answer carries the id of the request it answers (`null` only when the body
//! is not a JSON-RPC request at all, or was not read). What every request must get right,
//! in the order it is checked:
//! - (`auth-server`, a server given `HttpServer::protect`) a bearer token the
//!   verifier accepts, with the scopes required, checked before the body is read: 401 or
//!   403 with a `WWW-Authenticate` challenge (`crate::auth_server`);
//! - `Host` names an allowed host (by default `localhost`, `127.0.0.1`, `[::1]`), and so
//!   do `Origin`, when there is one, and the target of an absolute-form request: 403, DNS
//!   rebinding protection; a `Host` that is absent or no host at all: 400;
//! - a POST's body is `application/json` (415) and at most
//!   [`Limits::message_size`] bytes (413), read within [`HttpLimits::body`] (408);
//! - `Accept`, when present, takes both `application/json` and `text/event-stream` for a
//!   POST, and `text/event-stream` for a GET (406).
//!
//! In a session, a request's event stream starts with a priming event (an event id and a
//! `retry` interval) and numbers its events; when the client loses it, or a handler
//! closes it ([`close_stream`], SEP-1699 polling), what follows waits, and a `GET` with
//! `Last-Event-ID` resumes it. A `GET` without one opens the session's stream for what
//! the server sends outside any request (what a handler's task writes after the answer
//! went, say); with none open, such a message fails at once. Without a session, `GET` is
//! not offered: 405.
//!
//! # Bounds
//!
//! What a client can make the server spend is bounded: connections, the time to send a
//! request, bodies, sessions, streams. The bounds and their defaults are in the crate's
//! [one table](crate#bounds); [`Limits`], [`HttpLimits`] and [`SessionLimits`] set them.
//! The connection bounds hold when the server runs with [`serve`](HttpServer::serve); a
//! [`router`](HttpServer::router) mounted elsewhere keeps all the others.

use std::collections::{HashMap, VecDeque};
use std::convert::Infallible;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use futures_util::{StreamExt, stream};
use mcp_spec_types::ProtocolVersion;
use mcp_spec_types::rt::jsonrpc::{ErrorObject, Id, codes};
use mcp_spec_types::rt::service::{
    BoxFuture, Head, Meta, Peer, Route, Service, TransportError, inspect, refuse, route,
};
use mcp_spec_types::version::{Era, PROTOCOL_VERSION_META_KEY, check_envelope};
use tokio::sync::{Notify, Semaphore, mpsc};

use crate::{Flow, Limits, Outlet, Session, Tokio, Versions};

pub use crate::wire::{METHOD_HEADER, NAME_HEADER, PROTOCOL_VERSION_HEADER, SESSION_HEADER};

/// `HeaderMismatch`: a header says something else than the body.
const HEADER_MISMATCH: i64 = -32020;

type Make = dyn Fn() -> Versions + Send + Sync;
type HttpTap = Arc<dyn Fn(Option<&str>, Flow, &str) + Send + Sync>;

/// A Streamable HTTP server: [`router`](HttpServer::router) gives the `axum` router
/// (mount it where you like), [`serve`](HttpServer::serve) serves it on a listener.
pub struct HttpServer {
    make: Box<Make>,
    limits: Limits,
    sessions_limits: SessionLimits,
    http_limits: HttpLimits,
    hosts: Vec<String>,
    sessions: Mutex<HashMap<String, Arc<Connection>>>,
    tap: Option<HttpTap>,
    /// Permits to decode a large body ([`HttpLimits::large_at_once`]).
    large: Semaphore,
    /// Whether the task that ends stale sessions runs.
    reaping: AtomicBool,
    /// The Server Card published at `GET /mcp/server-card`, as JSON text.
    card: Option<Arc<str>>,
    /// What protects the endpoint (`auth-server`).
    #[cfg(feature = "auth-server")]
    protection: Option<Arc<crate::auth_server::Protection>>,
}

/// How many initialize-era sessions a server keeps, and how long one lives unused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SessionLimits {
    /// Sessions at once. To start one more, the session idle longest (a handshake never
    /// finished first; one with no request being served and no stream open) is ended: its
    /// client's next POST gets 404 and it starts a new session, as the specification
    /// says. When every session is busy, `initialize` is answered 503 (-32603) with
    /// `Retry-After`.
    pub max: usize,
    /// A session that got nothing after its `initialize` for this long is ended.
    pub handshake: Duration,
    /// A session with no request for this long, none being served and no stream open is
    /// ended (a later POST naming it gets 404).
    pub idle: Duration,
}

impl Default for SessionLimits {
    /// 1,024 sessions, a handshake finished within 30 s, idle for 10 minutes.
    fn default() -> Self {
        SessionLimits {
            max: 1024,
            handshake: Duration::from_secs(30),
            idle: Duration::from_secs(10 * 60),
        }
    }
}

/// What the HTTP layer allows a client: connections, the time to send a request, and how
/// many large bodies are decoded at once (the crate's [bounds](crate#bounds)).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HttpLimits {
    /// Connections open at once, with [`serve`](HttpServer::serve): the next one is
    /// accepted when one closes. Keep it below the process's file descriptor limit.
    pub connections: usize,
    /// The time a connection has to send a request's headers, from when it opens or its
    /// previous response ended (so also how long a kept-alive connection may sit
    /// unused); then it is closed. With [`serve`](HttpServer::serve).
    pub headers: Duration,
    /// The time a POST has to send its body: 408 after it.
    pub body: Duration,
    /// A body of more bytes than this is large: decoding it takes long enough to count.
    pub large_body: usize,
    /// Large bodies decoded at once; one more is answered 503 with `Retry-After`, so that
    /// large bodies never hold every thread of the runtime.
    pub large_at_once: usize,
}

impl Default for HttpLimits {
    /// 512 connections, headers within 10 s, a body within 30 s, one body over 64 KiB
    /// decoded at a time.
    fn default() -> Self {
        HttpLimits {
            connections: 512,
            headers: Duration::from_secs(10),
            body: Duration::from_secs(30),
            large_body: 64 << 10,
            large_at_once: 1,
        }
    }
}

/// How many answered streams a session keeps for a late resumption.
pub const KEEP_FINISHED: usize = 16;
/// How many of the events sent on a stream it keeps for a resumption.
pub const KEEP_EVENTS: usize = 64;
/// How long a session's POST waits for its handler's first message before it opens the
/// event stream anyway (with its priming event, so that it can be resumed).
const PRIME_AFTER: Duration = Duration::from_secs(1);
/// How long a client waits before it resumes a stream the server closed, in ms.
const RETRY_MS: u64 = 500;

impl std::fmt::Debug for HttpServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HttpServer")
            .field("limits", &self.limits)
            .field("sessions_limits", &self.sessions_limits)
            .field("http_limits", &self.http_limits)
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
    streams: Mutex<HashMap<u64, Arc<Stream>>>,
    next_stream: AtomicU64,
    /// The answered streams still kept, oldest first (at most [`KEEP_FINISHED`]).
    finished: Mutex<VecDeque<u64>>,
    started: Instant,
    last_seen: Mutex<Instant>,
    /// Whether anything came after its `initialize`.
    initialized: AtomicBool,
    /// The `GET` stream for what the server sends outside any request, when the client
    /// opened one.
    standalone: Standalone,
    /// The subject and client whose token started it (`auth-server`): no other may use
    /// it.
    #[cfg_attr(not(feature = "auth-server"), allow(dead_code))]
    owner: Option<(Option<String>, Option<String>)>,
}

/// The slot of a session's `GET` stream, which its engine writes to.
type Standalone = Arc<Mutex<Option<mpsc::Sender<String>>>>;

impl Connection {
    fn new(
        session: Session,
        service: Versions,
        standalone: Standalone,
        owner: Option<(Option<String>, Option<String>)>,
    ) -> Self {
        Connection {
            owner,
            session,
            service: Arc::new(service),
            streams: Mutex::default(),
            next_stream: AtomicU64::new(0),
            finished: Mutex::default(),
            started: Instant::now(),
            last_seen: Mutex::new(Instant::now()),
            initialized: AtomicBool::new(false),
            standalone,
        }
    }

    /// Hands one POST's message to this session ([`deliver`]).
    async fn deliver(
        self: &Arc<Self>,
        text: String,
        routed: (Route, Option<usize>),
        id: Option<Id>,
        who: Who,
    ) -> (Response, bool) {
        deliver(
            &self.session,
            &self.service,
            text,
            routed,
            id,
            Some(self),
            who,
        )
        .await
    }

    /// Whether `who` may use this session: the subject and client that started it, or
    /// anyone when the server is not protected.
    #[cfg(feature = "auth-server")]
    fn belongs_to(&self, who: &Who) -> bool {
        self.owner == owner_of(who)
    }
    #[cfg(not(feature = "auth-server"))]
    fn belongs_to(&self, _: &Who) -> bool {
        true
    }

    /// A request after the `initialize` came.
    fn touch(&self) {
        self.initialized.store(true, Ordering::SeqCst);
        *self.last_seen.lock().unwrap_or_else(|e| e.into_inner()) = Instant::now();
    }

    /// How long it has been unused; `None` while a response (a POST's event stream or the
    /// `GET` stream) is open to its client.
    fn unused_for(&self) -> Option<Duration> {
        let live = lock_streams(self).values().any(|s| s.live());
        let listening = self
            .standalone
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .as_ref()
            .is_some_and(|s| !s.is_closed());
        if live || listening {
            return None;
        }
        Some(
            self.last_seen
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .elapsed(),
        )
    }

    /// Whether it has outlived its handshake or its idleness.
    fn stale(&self, limits: &SessionLimits) -> bool {
        if !self.initialized.load(Ordering::SeqCst) {
            return self.started.elapsed() >= limits.handshake;
        }
        self.unused_for().is_some_and(|d| d >= limits.idle)
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

/// One request's event stream in a session: the events kept for a resumption, and where
/// the next ones go.
#[derive(Default)]
struct Stream {
    state: Mutex<StreamState>,
    /// Wakes the stream's writer when a client resumes it.
    resumed: Notify,
}

#[derive(Default)]
struct StreamState {
    /// The last events sent (at most [`KEEP_EVENTS`]), with their numbers (from 1).
    kept: VecDeque<(usize, String)>,
    /// The number of the last event.
    last: usize,
    /// The HTTP response (or resumption) it is being written to, if one is open.
    live: Option<mpsc::Sender<(usize, String)>>,
    /// The request is answered: nothing more comes.
    done: bool,
}

impl Stream {
    fn lock(&self) -> std::sync::MutexGuard<'_, StreamState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn live(&self) -> bool {
        self.lock().live.as_ref().is_some_and(|l| !l.is_closed())
    }
}

/// What serving one POST writes, or the handler's wish to close its stream.
enum Frame {
    Message(String),
    Close,
}

tokio::task_local! {
    static CLOSE: mpsc::Sender<Frame>;
}

/// Closes the event stream of the request being served (call it from a handler, inside
/// its future), as SEP-1699's polling allows: the HTTP response ends after a priming
/// event that carries an event id and a `retry` interval, and what the handler writes
/// next (its answer too) waits for the client to resume with `GET` and `Last-Event-ID`.
/// Only an initialize-era session can resume, so only its handlers can close: `false`
/// in a stateless request's handler, and when not called while serving a POST of this
/// transport.
pub async fn close_stream() -> bool {
    let Ok(close) = CLOSE.try_with(mpsc::Sender::clone) else {
        return false;
    };
    close.send(Frame::Close).await.is_ok()
}

/// Who sent a POST, as its handlers see it (`auth_server::caller`).
#[cfg(feature = "auth-server")]
type Who = Option<Arc<crate::auth_server::Caller>>;
/// Who sent a POST: nobody known without the `auth-server` feature.
#[cfg(not(feature = "auth-server"))]
type Who = Nobody;
#[cfg(not(feature = "auth-server"))]
#[derive(Clone, Default)]
struct Nobody;

/// The service of one POST, with [`close_stream`] reaching that POST's stream (in a
/// session) and the handlers seeing who sent it.
struct Scoped {
    inner: Arc<Versions>,
    close: Option<mpsc::Sender<Frame>>,
    #[cfg_attr(not(feature = "auth-server"), allow(dead_code))]
    who: Who,
}

impl Service for Scoped {
    fn serve(self: Arc<Self>, peer: Peer, message: String) -> BoxFuture<'static, Option<String>> {
        let answer = self.inner.clone().serve(peer, message);
        #[cfg(feature = "auth-server")]
        let answer = crate::auth_server::scope(self.who.clone(), answer);
        match &self.close {
            Some(close) => Box::pin(CLOSE.scope(close.clone(), answer)),
            None => Box::pin(answer),
        }
    }
}

impl HttpServer {
    /// A server whose connections are served by what `make` returns: called once per
    /// initialize-era session and once per stateless (discover-era) request, so each gets
    /// a [`Versions`] of its own (state shared by all goes in an `Arc` the closure holds).
    pub fn new(make: impl Fn() -> Versions + Send + Sync + 'static) -> Self {
        let http_limits = HttpLimits::default();
        HttpServer {
            make: Box::new(make),
            limits: Limits::default(),
            sessions_limits: SessionLimits::default(),
            http_limits,
            hosts: ["localhost", "127.0.0.1", "[::1]"].map(String::from).into(),
            sessions: Mutex::new(HashMap::new()),
            tap: None,
            large: Semaphore::new(http_limits.large_at_once),
            reaping: AtomicBool::new(false),
            card: None,
            #[cfg(feature = "auth-server")]
            protection: None,
        }
    }

    /// Protects the endpoint with OAuth (the server as a resource server, see
    /// [`auth_server`](crate::auth_server)): its protected resource metadata is served at
    /// [`Protection::metadata_path`](crate::auth_server::Protection::metadata_path), and
    /// every request must carry a token `protection` accepts.
    #[cfg(feature = "auth-server")]
    pub fn protect(mut self, protection: crate::auth_server::Protection) -> Self {
        self.protection = Some(Arc::new(protection));
        self
    }

    /// Publishes `card`, this server's Server Card (the experimental server card
    /// extension, SEP-2127), where its discovery document reserves for it: `GET
    /// /mcp/server-card`, the Streamable HTTP endpoint's URL and `/server-card`, as
    /// `application/mcp-server-card+json` (406 to a request that accepts neither that nor
    /// `application/json`). The card is written once, here; the `Host` check of every
    /// request applies. Without a card that path is 404.
    #[cfg(feature = "ext-server-card")]
    pub fn server_card(
        mut self,
        card: &mcp_spec_types::ext::server_card::ServerCard,
    ) -> Result<Self, serde_json::Error> {
        self.card = Some(Arc::from(serde_json::to_string(card)?));
        Ok(self)
    }

    /// Other session limits than the default ones.
    pub fn session_limits(mut self, limits: SessionLimits) -> Self {
        self.sessions_limits = limits;
        self
    }

    /// Other HTTP limits than the default ones.
    pub fn http_limits(mut self, limits: HttpLimits) -> Self {
        self.http_limits = limits;
        self.large = Semaphore::new(limits.large_at_once);
        self
    }

    /// Shows `tap` every message the server reads (each POST body) and writes (each
    /// answer, event or refusal), exactly as read or written, with the session the POST
    /// names (`None` when it names none: stateless requests, `initialize` refused before
    /// its session starts).
    pub fn tap(mut self, tap: impl Fn(Option<&str>, Flow, &str) + Send + Sync + 'static) -> Self {
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

    /// The router: `POST`, `GET` and `DELETE` on `/mcp`, and `GET /mcp/server-card` when
    /// the server publishes a Server Card.
    pub fn router(self) -> Router {
        let card = self.card.is_some();
        let this = Arc::new(self);
        let router = Router::new().route(
            "/mcp",
            post(handle_post).delete(handle_delete).get(handle_get),
        );
        let router = match card {
            true => router.route(SERVER_CARD_PATH, get(handle_card)),
            false => router,
        };
        #[cfg(feature = "auth-server")]
        let router = match &this.protection {
            Some(p) => router.route(&p.metadata_path(), get(handle_resource_metadata)),
            None => router,
        };
        router.with_state(this)
    }

    /// Serves on `listener` until an I/O error other than a failed accept: at most
    /// [`HttpLimits::connections`] at once, each closed when it takes longer than
    /// [`HttpLimits::headers`] to send a request's headers.
    pub async fn serve(self, listener: tokio::net::TcpListener) -> std::io::Result<()> {
        let limits = self.http_limits;
        let app = hyper_util::service::TowerToHyperService::new(self.router());
        let slots = Arc::new(Semaphore::new(limits.connections.max(1)));
        let timer = hyper_util::rt::TokioTimer::new();
        loop {
            let Ok(slot) = slots.clone().acquire_owned().await else {
                return Ok(());
            };
            let stream = match listener.accept().await {
                Ok((stream, _)) => stream,
                // Out of file descriptors, or a connection reset before it was accepted:
                // the listener is fine; try again shortly.
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(20)).await;
                    continue;
                }
            };
            let app = app.clone();
            let timer = timer.clone();
            tokio::spawn(async move {
                let io = hyper_util::rt::TokioIo::new(stream);
                let _ = hyper::server::conn::http1::Builder::new()
                    .timer(timer)
                    .header_read_timeout(limits.headers)
                    .serve_connection(io, app)
                    .await;
                drop(slot);
            });
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<Connection>>> {
        self.sessions.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Starts, once, the task that ends sessions past their handshake or idle time.
    fn reap_in_background(self: &Arc<Self>) {
        if self.reaping.swap(true, Ordering::SeqCst) {
            return;
        }
        let limits = self.sessions_limits;
        let every = (limits.handshake.min(limits.idle) / 4)
            .clamp(Duration::from_millis(50), Duration::from_secs(5));
        let server = Arc::downgrade(self);
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(every).await;
                let Some(server) = server.upgrade() else {
                    return;
                };
                server.reap();
            }
        });
    }

    /// Ends the sessions past their handshake or idle time.
    fn reap(&self) {
        let stale: Vec<Arc<Connection>> = {
            let mut sessions = self.lock();
            let names: Vec<String> = sessions
                .iter()
                .filter(|(_, c)| c.stale(&self.sessions_limits))
                .map(|(n, _)| n.clone())
                .collect();
            names.iter().filter_map(|n| sessions.remove(n)).collect()
        };
        for connection in stale {
            connection.session.close();
        }
    }

    /// (`auth-server`) The token: who sent the request, or the answer that refuses it.
    #[cfg_attr(not(feature = "auth-server"), allow(unused_variables))]
    async fn authenticate(&self, headers: &HeaderMap) -> Result<Who, Box<Response>> {
        #[cfg(feature = "auth-server")]
        if let Some(protection) = &self.protection {
            return protection.authenticate(headers).await.map(Some);
        }
        Ok(Who::default())
    }

    /// Whether the caller may call the tools a POST's `tools/call` requests name (403
    /// naming the scopes needed when not).
    #[cfg(feature = "auth-server")]
    fn check_tools(&self, who: &Who, head: &Head<'_>, text: &str) -> Result<(), Box<Response>> {
        let (Some(protection), Some(caller)) = (&self.protection, who) else {
            return Ok(());
        };
        if !protection.has_tool_scopes() {
            return Ok(());
        }
        // One message: its method and tool as the engine reads them (`inspect`, escapes
        // and all).
        if head.batch.is_none() {
            return match (head.method(), head.param_str("name")) {
                (Some("tools/call"), Some(tool)) => protection.check_tool(caller, &tool),
                _ => Ok(()),
            };
        }
        // A batch (2025-03-26): `inspect` does not split one, so its elements are read
        // here.
        use serde_json::Value;
        let value: Value = serde_json::from_str(text).unwrap_or(Value::Null);
        let messages = match &value {
            Value::Array(items) => items.iter().collect(),
            one => vec![one],
        };
        for message in messages {
            if message.get("method").and_then(Value::as_str) == Some("tools/call")
                && let Some(tool) = message.pointer("/params/name").and_then(Value::as_str)
            {
                protection.check_tool(caller, tool)?;
            }
        }
        Ok(())
    }

    /// Checks `Host`, `Origin` and an absolute-form target: 400 when `Host` is absent or
    /// no host, 403 when one names a host that is not allowed.
    fn check_host(&self, headers: &HeaderMap, uri: &Uri) -> Result<(), (StatusCode, String)> {
        let mut hosts = headers.get_all("host").iter();
        let (Some(host), None) = (hosts.next(), hosts.next()) else {
            return Err((
                StatusCode::BAD_REQUEST,
                "a request needs exactly one Host header".into(),
            ));
        };
        let Some(host) = host.to_str().ok().and_then(host_of) else {
            return Err((
                StatusCode::BAD_REQUEST,
                "the Host header is not a host".into(),
            ));
        };
        let mut named = vec![host.to_string()];
        if let Some(authority) = uri.authority() {
            named.push(host_of(authority.as_str()).unwrap_or_default().to_string());
        }
        for origin in headers.get_all("origin") {
            let origin = origin.to_str().ok().and_then(|o| o.split_once("://"));
            let host = origin.and_then(|(_, rest)| host_of(rest));
            named.push(host.unwrap_or_default().to_string());
        }
        match named.iter().find(|h| !self.allowed(h)) {
            None => Ok(()),
            Some(h) => Err((
                StatusCode::FORBIDDEN,
                format!("Host, Origin or the request target names `{h}`, not an allowed host"),
            )),
        }
    }

    /// Whether `host` (as [`host_of`] gives it) is allowed.
    fn allowed(&self, host: &str) -> bool {
        !host.is_empty() && self.hosts.iter().any(|h| h.eq_ignore_ascii_case(host))
    }

    /// A new initialize-era session (its name, made of 128 random bits), after ending
    /// the session idle longest when there are too many; an error when every session
    /// is busy.
    fn open_session(
        &self,
        connection: impl FnOnce(&str) -> Connection,
    ) -> Result<(String, Arc<Connection>), ErrorObject> {
        let mut sessions = self.lock();
        if sessions.len() >= self.sessions_limits.max {
            // A handshake never finished goes first, then the session unused longest.
            let evict = sessions
                .iter()
                .filter_map(|(name, c)| {
                    let unused = c.unused_for()?;
                    Some(((c.initialized.load(Ordering::SeqCst), unused), name))
                })
                .max_by_key(|((initialized, unused), _)| (!initialized, *unused))
                .map(|(_, name)| name.clone());
            match evict.and_then(|name| sessions.remove(&name)) {
                Some(old) => old.session.close(),
                None => {
                    return Err(ErrorObject::internal_error(format!(
                        "too many sessions, every one busy (the limit is {}); try again later",
                        self.sessions_limits.max
                    )));
                }
            }
        }
        let mut bits = [0u8; 16];
        getrandom::fill(&mut bits)
            .map_err(|e| ErrorObject::internal_error(format!("no session id: {e}")))?;
        let name: String = bits.iter().map(|b| format!("{b:02x}")).collect();
        let connection = Arc::new(connection(&name));
        sessions.insert(name.clone(), connection.clone());
        Ok((name, connection))
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
            let stream = standalone.as_ref().map(|s| {
                s.lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .as_ref()
                    .cloned()
            });
            Box::pin(async move {
                match stream {
                    Some(Some(stream)) => stream
                        .send(text)
                        .await
                        .map_err(|_| TransportError::new("the client closed its GET stream")),
                    Some(None) => Err(TransportError::new(
                        "the client has opened no GET stream for messages outside a request",
                    )),
                    None => Err(TransportError::new(
                        "a stateless request has no stream but its own",
                    )),
                }
            })
        })
    }

    /// A permit to decode a large body, or why there is none.
    fn large_permit(&self) -> Result<tokio::sync::SemaphorePermit<'_>, ErrorObject> {
        self.large.try_acquire().map_err(|_| {
            ErrorObject::internal_error(format!(
                "{} large bodies are being decoded (HttpLimits::large_at_once); try again",
                self.http_limits.large_at_once
            ))
        })
    }

    /// A refusal made before any session engine saw the request, tapped both ways.
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
            tap(session, Flow::In, body);
            tap(session, Flow::Out, &text);
        }
        response
    }
}

/// The host of a `Host` value or of an authority (`host[:port]`), if it is one: a name
/// or an IPv4 address (letters, digits, `-`, `.`, `_`), or an IPv6 address in brackets,
/// with an optional port of digits. Lowercase is not enforced: hosts compare without case.
fn host_of(value: &str) -> Option<&str> {
    let (host, port) = if value.starts_with('[') {
        let end = value.find(']')?;
        let (host, rest) = value.split_at(end + 1);
        let inner = &host[1..host.len() - 1];
        if inner.is_empty()
            || !inner
                .chars()
                .all(|c| c.is_ascii_hexdigit() || c == ':' || c == '.')
        {
            return None;
        }
        (host, rest)
    } else {
        let end = value.find(':').unwrap_or(value.len());
        let (host, rest) = value.split_at(end);
        let name = |c: char| c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '_');
        if host.is_empty() || !host.chars().all(name) {
            return None;
        }
        (host, rest)
    };
    match port.strip_prefix(':') {
        None if port.is_empty() => Some(host),
        Some(digits) if (1..=5).contains(&digits.len()) => {
            digits.chars().all(|c| c.is_ascii_digit()).then_some(host)
        }
        _ => None,
    }
}

/// Whether an `Accept` header (absent: anything) takes every one of `types`.
fn accepts(headers: &HeaderMap, types: &[&str]) -> bool {
    let values: Vec<&str> = headers
        .get_all("accept")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .collect();
    if values.is_empty() {
        return true;
    }
    let ranges: Vec<String> = values
        .iter()
        .flat_map(|v| v.split(','))
        .filter(|range| {
            // `q=0` means "not this one".
            !range
                .split(';')
                .skip(1)
                .any(|p| p.trim().replace(' ', "") == "q=0")
        })
        .map(|range| {
            range
                .split(';')
                .next()
                .unwrap_or_default()
                .trim()
                .to_ascii_lowercase()
        })
        .collect();
    types.iter().all(|wanted| {
        let family = wanted.split('/').next().unwrap_or_default();
        ranges
            .iter()
            .any(|r| r == wanted || r == "*/*" || *r == format!("{family}/*"))
    })
}

/// Whether the body is declared JSON.
fn is_json(headers: &HeaderMap) -> bool {
    headers
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|v| v.trim().eq_ignore_ascii_case("application/json"))
}

/// An answer with a JSON-RPC error body, and the body.
fn error(status: StatusCode, id: Option<&Id>, error: ErrorObject) -> (Response, String) {
    let body = match id {
        Some(id) => refuse(id, error),
        None => crate::engine::refuse_unnamed(&error),
    };
    let mut response = json(status, body.clone());
    if status == StatusCode::SERVICE_UNAVAILABLE {
        response
            .headers_mut()
            .insert("retry-after", HeaderValue::from_static("1"));
    }
    (response, body)
}

fn json(status: StatusCode, body: String) -> Response {
    (status, [("content-type", "application/json")], body).into_response()
}

async fn handle_post(State(server): State<Arc<HttpServer>>, request: Request) -> Response {
    server.reap_in_background();
    let (parts, body) = request.into_parts();
    let headers = parts.headers;
    let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
    // Authorization before the body is read: a client without a token spends nothing.
    let who = match server.authenticate(&headers).await {
        Ok(who) => who,
        Err(refused) => return *refused,
    };
    let label = header(SESSION_HEADER);
    let limit = server.limits.message_size;
    // Large bodies take a permit to be decoded: never all threads on them at once. A
    // body that says its length is refused before it is read.
    let declared = header("content-length").and_then(|v| v.parse::<usize>().ok());
    let mut large = None;
    if declared.is_some_and(|n| n > server.http_limits.large_body && n <= limit) {
        match server.large_permit() {
            Ok(permit) => large = Some(permit),
            Err(e) => {
                // Read to its end, keeping nothing, so that the client reads the answer.
                let mut body = body.into_data_stream();
                let drain = async { while let Some(Ok(_)) = body.next().await {} };
                let _ = tokio::time::timeout(server.http_limits.body, drain).await;
                return server.refuse(label, "", StatusCode::SERVICE_UNAVAILABLE, None, e);
            }
        }
    }
    let read =
        tokio::time::timeout(server.http_limits.body, axum::body::to_bytes(body, limit)).await;
    let bytes = match read {
        Ok(Ok(bytes)) => bytes,
        Ok(Err(_)) => {
            let e = ErrorObject::new(
                codes::PARSE_ERROR,
                format!("the body is longer than {limit} bytes (Limits::message_size)"),
            );
            return server.refuse(label, "", StatusCode::PAYLOAD_TOO_LARGE, None, e);
        }
        Err(_) => {
            let e = ErrorObject::new(
                codes::PARSE_ERROR,
                format!(
                    "the body did not come within {:?} (HttpLimits::body)",
                    server.http_limits.body
                ),
            );
            return server.refuse(label, "", StatusCode::REQUEST_TIMEOUT, None, e);
        }
    };
    if large.is_none() && bytes.len() > server.http_limits.large_body {
        match server.large_permit() {
            Ok(permit) => large = Some(permit),
            Err(e) => return server.refuse(label, "", StatusCode::SERVICE_UNAVAILABLE, None, e),
        }
    }
    // Held until the answer (or its stream) is under way: the body is decoded by then.
    let _large = large;
    let Ok(text) = String::from_utf8(Vec::from(bytes)) else {
        let e = ErrorObject::new(codes::PARSE_ERROR, "the body is not UTF-8");
        return server.refuse(label, "", StatusCode::BAD_REQUEST, None, e);
    };
    // The one read of the body before it is decoded: what it is, for the checks.
    let head = inspect(text.as_bytes());
    let id = match &head.route {
        Route::Request(id) => Some(id.clone()),
        _ => None,
    };
    let routed = (head.route.clone(), head.batch);
    let refuse = |status, id: Option<&Id>, e| server.refuse(label, &text, status, id, e);
    if let Err((status, why)) = server.check_host(&headers, &parts.uri) {
        return refuse(status, id.as_ref(), ErrorObject::invalid_request(why));
    }
    if !is_json(&headers) {
        let e = ErrorObject::invalid_request("the body must be application/json");
        return refuse(StatusCode::UNSUPPORTED_MEDIA_TYPE, id.as_ref(), e);
    }
    if !accepts(&headers, &["application/json", "text/event-stream"]) {
        let e = ErrorObject::invalid_request(
            "Accept must take both application/json and text/event-stream",
        );
        return refuse(StatusCode::NOT_ACCEPTABLE, id.as_ref(), e);
    }
    if !head.json {
        let e = ErrorObject::new(codes::PARSE_ERROR, "the body is not JSON");
        return refuse(StatusCode::BAD_REQUEST, None, e);
    }
    #[cfg(feature = "auth-server")]
    if let Err(refused) = server.check_tools(&who, &head, &text) {
        return *refused;
    }
    if let Some(name) = label {
        let connection = server.lock().get(name).cloned();
        let connection = connection.filter(|c| c.belongs_to(&who));
        let Some(connection) = connection else {
            let e = ErrorObject::invalid_request(format!(
                "no session `{name}` (it ended, or never was)"
            ));
            return refuse(StatusCode::NOT_FOUND, id.as_ref(), e);
        };
        connection.touch();
        if head.method() == Some("initialize") {
            let e = ErrorObject::invalid_request(
                "this session is initialized already: send initialize without Mcp-Session-Id \
                 to start another",
            );
            return refuse(StatusCode::BAD_REQUEST, id.as_ref(), e);
        }
        // A version header must name a version of the session's era this server speaks
        // (2025-03-26 clients send none). One other than the session's is served at the
        // session's, as the TypeScript SDK does and the conformance suite expects.
        if let Some(said) = header(PROTOCOL_VERSION_HEADER)
            && let Err(e) = check_session_version(said, &connection.service)
        {
            return refuse(StatusCode::BAD_REQUEST, id.as_ref(), e);
        }
        return connection.deliver(text, routed, id, who).await.0;
    }
    // `initialize` starts a session, unless it comes in a discover-era envelope: then it
    // is a stateless request for a method that era does not have.
    let meta = head.meta();
    let enveloped = meta
        .as_ref()
        .is_some_and(|m| m.contains_key(PROTOCOL_VERSION_META_KEY));
    if head.method() == Some("initialize") && id.is_some() && !enveloped {
        let opened = server.open_session(|name| {
            let standalone = Standalone::default();
            let session = server.session(Some(name), Some(standalone.clone()));
            #[cfg(feature = "auth-server")]
            let owner = owner_of(&who);
            #[cfg(not(feature = "auth-server"))]
            let owner = None;
            Connection::new(session, (server.make)(), standalone, owner)
        });
        let (name, connection) = match opened {
            Ok(opened) => opened,
            Err(e) => return refuse(StatusCode::SERVICE_UNAVAILABLE, id.as_ref(), e),
        };
        let (mut response, refused) = connection.deliver(text, routed, id, who).await;
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
        && let Err(e) = check_stateless(&headers, &head, meta, &service.versions())
    {
        return refuse(StatusCode::BAD_REQUEST, Some(id), e);
    }
    let session = server.session(None, None);
    let service = Arc::new(service.stateless());
    deliver(&session, &service, text, routed, id, None, who)
        .await
        .0
}

/// Whether a session's `Mcp-Protocol-Version` header names an initialize-era version the
/// server speaks.
fn check_session_version(said: &str, service: &Versions) -> Result<(), ErrorObject> {
    let offered: Vec<ProtocolVersion> = service
        .versions()
        .into_iter()
        .filter(|v| v.era() == Era::Initialize)
        .collect();
    let known = said.parse::<ProtocolVersion>().ok();
    if known.is_some_and(|v| offered.contains(&v)) {
        return Ok(());
    }
    let speaks = service.speaks().map_or("none yet", |v| v.as_str());
    let offered: Vec<&str> = offered.iter().map(|v| v.as_str()).collect();
    Err(ErrorObject::invalid_request(format!(
        "the Mcp-Protocol-Version header says `{said}`, not a version of this session's \
         era that the server speaks ({}); the session speaks {speaks}",
        offered.join(", ")
    )))
}

/// The discover era's checks of a stateless request, before it is served: the envelope,
/// and the headers that repeat it.
fn check_stateless(
    headers: &HeaderMap,
    head: &Head<'_>,
    meta: Option<Meta>,
    supported: &[ProtocolVersion],
) -> Result<(), ErrorObject> {
    let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
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
    let method = head.method();
    if header(METHOD_HEADER).map(str::trim) != method {
        return Err(mismatch(
            "method",
            "Mcp-Method",
            header(METHOD_HEADER),
            method,
        ));
    }
    let name = crate::wire::named_key(method).and_then(|key| head.param_str(key));
    if name.is_some() && header(NAME_HEADER).map(str::trim) != name.as_deref() {
        return Err(mismatch(
            "name",
            "Mcp-Name",
            header(NAME_HEADER),
            name.as_deref(),
        ));
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
    (routed, batch): (Route, Option<usize>),
    id: Option<Id>,
    connection: Option<&Arc<Connection>>,
    who: Who,
) -> (Response, bool) {
    let count = batch;
    let batch = batch.is_some();
    let stateless = connection.is_none();
    let scoped = |close| {
        Arc::new(Scoped {
            inner: service.clone(),
            close,
            who: who.clone(),
        })
    };
    if id.is_none() && !batch {
        let ignore: Outlet = Arc::new(|_| {
            Box::pin(std::future::ready(Err(TransportError::new(
                "a notification or response POST has no stream to write on",
            ))))
        });
        session
            .dispatch(routed, count, text, &scoped(None), &Tokio, Some(ignore))
            .await;
        return (StatusCode::ACCEPTED.into_response(), false);
    }
    let (tx, mut rx) = mpsc::channel::<Frame>(session.limits().outgoing.max(1));
    let sender = tx.clone();
    let out: Outlet = Arc::new(move |message: String| {
        let sender = sender.clone();
        Box::pin(async move {
            if stateless && matches!(route(message.as_bytes()), Route::Request(_)) {
                // Its answer would come on a POST of its own, which no session connects.
                return Err(TransportError::new(
                    "a stateless request cannot send the client requests: answer input_required",
                ));
            }
            sender
                .send(Frame::Message(message))
                .await
                .map_err(|_| TransportError::new("the client closed the response stream"))
        })
    });
    let close = (!stateless).then_some(tx);
    session
        .dispatch(routed, count, text, &scoped(close), &Tokio, Some(out))
        .await;
    // The first frame decides: the answer alone is JSON; anything else, a handler that
    // closes its stream, or (in a session) a second of silence opens an event stream.
    let first = if stateless {
        Some(rx.recv().await)
    } else {
        tokio::time::timeout(PRIME_AFTER, rx.recv()).await.ok()
    };
    let start = match first {
        Some(None) => return (StatusCode::ACCEPTED.into_response(), false),
        Some(Some(Frame::Message(m))) if answers(&m, &id) || batch => {
            let code = inspect(m.as_bytes()).error_code();
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
        let rest = stream::unfold(rx, |mut rx| async move {
            let frame = rx.recv().await?;
            Some((frame, rx))
        })
        .filter_map(|frame| async move {
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
    let kept = Arc::new(Stream::default());
    let (live, events) = mpsc::channel(session.limits().outgoing.max(1));
    let mut pending = None;
    {
        let mut s = kept.lock();
        match start {
            Start::Message(m) => {
                s.live = Some(live);
                pending = Some(m);
            }
            Start::Closed => {}
            Start::Silent => s.live = Some(live),
        }
    }
    lock_streams(connection).insert(number, kept.clone());
    let weak = Arc::downgrade(connection);
    tokio::spawn(forward(kept, weak, number, id, pending, rx));
    (event_stream(number, 0, Vec::new(), events), false)
}

/// Writes what serving one request of a session sends, event by event, to the response
/// open for it; when none is (the client lost it, or the handler closed it), waits for
/// the client to resume before it takes the next message (so a handler that writes on
/// waits too). Ends with the answer, or when the session is gone.
async fn forward(
    stream: Arc<Stream>,
    connection: Weak<Connection>,
    number: u64,
    id: Option<Id>,
    mut pending: Option<String>,
    mut rx: mpsc::Receiver<Frame>,
) {
    loop {
        let message = match pending.take() {
            Some(m) => m,
            None => match rx.recv().await {
                None => break,
                Some(Frame::Close) => {
                    stream.lock().live = None;
                    continue;
                }
                Some(Frame::Message(m)) => m,
            },
        };
        let answer = answers(&message, &id);
        // Nobody to write to: wait for a resumption (or the end of the session).
        let live = loop {
            let resumed = stream.resumed.notified();
            let mut resumed = std::pin::pin!(resumed);
            resumed.as_mut().enable();
            let live = stream.lock().live.clone().filter(|l| !l.is_closed());
            if let Some(live) = live {
                break Some(live);
            }
            if connection.upgrade().is_none_or(|c| c.session.is_closed()) {
                break None;
            }
            let _ = tokio::time::timeout(Duration::from_secs(1), resumed).await;
        };
        let Some(live) = live else { break };
        let n = {
            let mut s = stream.lock();
            s.last += 1;
            let n = s.last;
            s.kept.push_back((n, message.clone()));
            while s.kept.len() > KEEP_EVENTS {
                s.kept.pop_front();
            }
            n
        };
        if live.send((n, message)).await.is_err() {
            // The client went away: what follows waits for it to resume (the event it
            // missed is kept for the resumption).
            let mut s = stream.lock();
            if s.live.as_ref().is_some_and(|l| l.same_channel(&live)) {
                s.live = None;
            }
        }
        if answer {
            // The stream ends with the answer, even if a handler's task holds on to its
            // peer (what it writes later has nowhere to go).
            break;
        }
    }
    {
        let mut s = stream.lock();
        s.done = true;
        s.live = None;
    }
    if let Some(connection) = connection.upgrade() {
        connection.finish(number);
    }
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

fn lock_streams(connection: &Connection) -> std::sync::MutexGuard<'_, HashMap<u64, Arc<Stream>>> {
    connection.streams.lock().unwrap_or_else(|e| e.into_inner())
}

/// The event stream of stream `number`, from event `after`: a priming event (its id, the
/// `retry` interval, no data), the events `replay` already sent, then each message as it
/// comes, with the id `<number>-<n>`.
fn event_stream(
    number: u64,
    after: usize,
    replay: Vec<(usize, String)>,
    events: mpsc::Receiver<(usize, String)>,
) -> Response {
    let priming = format!("id: {number}-{after}\nretry: {RETRY_MS}\ndata: \n\n");
    let live = stream::unfold(events, |mut events| async move {
        let next = events.recv().await?;
        Some((next, events))
    });
    let events = stream::iter(replay)
        .chain(live)
        .map(move |(n, m)| event(Some(&format!("{number}-{n}")), &m));
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
    let body = Body::from_stream(events.map(Ok::<_, Infallible>));
    (
        [
            ("content-type", "text/event-stream"),
            ("cache-control", "no-cache"),
        ],
        body,
    )
        .into_response()
}

/// Where a Server Card is published: the endpoint's URL and `/server-card`.
const SERVER_CARD_PATH: &str = "/mcp/server-card";
/// The media type of a Server Card.
const SERVER_CARD_TYPE: &str = "application/mcp-server-card+json";

/// Who owns a session `who` starts: the token's subject and client.
#[cfg(feature = "auth-server")]
fn owner_of(who: &Who) -> Option<(Option<String>, Option<String>)> {
    who.as_ref()
        .map(|c| (c.subject.clone(), c.client_id.clone()))
}

/// The protected resource metadata (RFC 9728), to anyone.
#[cfg(feature = "auth-server")]
async fn handle_resource_metadata(
    State(server): State<Arc<HttpServer>>,
    request: Request,
) -> Response {
    if let Err((status, _)) = server.check_host(request.headers(), request.uri()) {
        return status.into_response();
    }
    let doc = server.protection.as_ref().map(|p| p.metadata().to_string());
    match doc {
        Some(doc) => json(StatusCode::OK, doc),
        None => StatusCode::NOT_FOUND.into_response(),
    }
}

/// `GET /mcp/server-card`: the card, when the server publishes one.
async fn handle_card(State(server): State<Arc<HttpServer>>, request: Request) -> Response {
    let (parts, _) = request.into_parts();
    if let Err((status, _)) = server.check_host(&parts.headers, &parts.uri) {
        return status.into_response();
    }
    let Some(card) = server.card.clone() else {
        return StatusCode::NOT_FOUND.into_response();
    };
    let headers = &parts.headers;
    if !accepts(headers, &[SERVER_CARD_TYPE]) && !accepts(headers, &["application/json"]) {
        return StatusCode::NOT_ACCEPTABLE.into_response();
    }
    ([("content-type", SERVER_CARD_TYPE)], card.to_string()).into_response()
}

/// `GET` in a session: with `Last-Event-ID`, resumes a request's event stream where the
/// client lost it; without, opens the stream for what the server sends outside any
/// request (a later one replaces it). Without a session: 405, there is no such stream.
async fn handle_get(State(server): State<Arc<HttpServer>>, request: Request) -> Response {
    server.reap_in_background();
    let (parts, _) = request.into_parts();
    let headers = parts.headers;
    let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
    if let Err((status, _)) = server.check_host(&headers, &parts.uri) {
        return status.into_response();
    }
    let who = match server.authenticate(&headers).await {
        Ok(who) => who,
        Err(refused) => return *refused,
    };
    let Some(name) = header(SESSION_HEADER) else {
        return (StatusCode::METHOD_NOT_ALLOWED, [("allow", "POST, DELETE")]).into_response();
    };
    let connection = server.lock().get(name).cloned();
    let connection = connection.filter(|c| c.belongs_to(&who));
    let Some(connection) = connection else {
        return StatusCode::NOT_FOUND.into_response();
    };
    if !accepts(&headers, &["text/event-stream"]) {
        return StatusCode::NOT_ACCEPTABLE.into_response();
    }
    connection.touch();
    let Some(last) = header("last-event-id") else {
        let (stream, messages) = mpsc::channel::<String>(server.limits.outgoing.max(1));
        *connection
            .standalone
            .lock()
            .unwrap_or_else(|e| e.into_inner()) = Some(stream);
        let messages = stream::unfold(messages, |mut messages| async move {
            let next = messages.recv().await?;
            Some((next, messages))
        });
        return sse(messages.map(|m| event(None, &m)));
    };
    let parsed = last
        .split_once('-')
        .and_then(|(s, n)| Some((s.parse::<u64>().ok()?, n.parse::<usize>().ok()?)));
    let kept = parsed.and_then(|(s, _)| lock_streams(&connection).get(&s).cloned());
    let (Some((number, after)), Some(kept)) = (parsed, kept) else {
        return StatusCode::NOT_FOUND.into_response();
    };
    let (live, events) = mpsc::channel(server.limits.outgoing.max(1));
    let replay = {
        let mut s = kept.lock();
        // The events after `after` must all be kept: else the resumption would skip some.
        let first = s.kept.front().map_or(s.last + 1, |(n, _)| *n);
        if after + 1 < first && after < s.last {
            return StatusCode::NOT_FOUND.into_response();
        }
        let replay: Vec<_> = s.kept.iter().filter(|(n, _)| *n > after).cloned().collect();
        // Replayed whole when it is done (the stream ends there); else it goes on live.
        if !s.done {
            s.live = Some(live);
        }
        replay
    };
    kept.resumed.notify_waiters();
    event_stream(number, after, replay, events)
}

/// The HTTP status of a discover-era answer, given its error code: 404 for a method that
/// does not exist, 400 for a body that is no request and for the envelope and capability
/// errors, 200 for everything else.
fn status_of(code: Option<i64>) -> StatusCode {
    match code {
        Some(codes::METHOD_NOT_FOUND) => StatusCode::NOT_FOUND,
        Some(codes::PARSE_ERROR | codes::INVALID_REQUEST | -32022..=-32020) => {
            StatusCode::BAD_REQUEST
        }
        _ => StatusCode::OK,
    }
}

async fn handle_delete(State(server): State<Arc<HttpServer>>, request: Request) -> Response {
    let (parts, _) = request.into_parts();
    if let Err((status, _)) = server.check_host(&parts.headers, &parts.uri) {
        return status.into_response();
    }
    let who = match server.authenticate(&parts.headers).await {
        Ok(who) => who,
        Err(refused) => return *refused,
    };
    let name = parts
        .headers
        .get(SESSION_HEADER)
        .and_then(|v| v.to_str().ok());
    let connection = name.and_then(|name| {
        let mut sessions = server.lock();
        let owned = sessions.get(name).is_some_and(|c| c.belongs_to(&who));
        if owned { sessions.remove(name) } else { None }
    });
    match connection {
        Some(connection) => {
            connection.session.close();
            StatusCode::OK.into_response()
        }
        None => StatusCode::NOT_FOUND.into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_are_read_strictly() {
        for (value, host) in [
            ("localhost", Some("localhost")),
            ("localhost:8080", Some("localhost")),
            ("127.0.0.1:1", Some("127.0.0.1")),
            ("[::1]", Some("[::1]")),
            ("[::1]:65535", Some("[::1]")),
            ("[::1]evil.example", None),
            ("[::1]:80x", None),
            ("localhost:", None),
            ("localhost:123456", None),
            ("evil.example/x", None),
            ("user@localhost", None),
            ("", None),
            ("[]", None),
            ("local host", None),
        ] {
            assert_eq!(host_of(value), host, "{value}");
        }
    }

    #[test]
    fn accept_takes_wildcards_and_refuses_q0() {
        let with = |v: &str| {
            let mut h = HeaderMap::new();
            h.insert("accept", HeaderValue::from_str(v).unwrap());
            h
        };
        let both = ["application/json", "text/event-stream"];
        assert!(accepts(&HeaderMap::new(), &both));
        assert!(accepts(&with("application/json, text/event-stream"), &both));
        assert!(accepts(&with("*/*"), &both));
        assert!(accepts(&with("application/*, text/*;q=0.5"), &both));
        assert!(!accepts(&with("application/json"), &both));
        assert!(!accepts(
            &with("application/json, text/event-stream;q=0"),
            &both
        ));
        assert!(!accepts(&with("text/html"), &["text/event-stream"]));
    }
}
