//! Serving a client of the `initialize` era (2025-11-25 and before) with a server handler
//! of the `server/discover` era (2026-07-28 on). The [`adapt`](crate::adapt) adapter of
//! such a pair (`convert::<older>_<newer>::serve_older`) is made of these pieces; this
//! module holds what the two lifecycles need of each other, in JSON, by the member names
//! of the 2026-07-28 specification.
//!
//! What the older client says once, the newer handler is told in every request:
//!
//! | the older client | the newer handler sees |
//! | --- | --- |
//! | `initialize`'s `capabilities` and `clientInfo` | `_meta` `io.modelcontextprotocol/clientCapabilities` and `/clientInfo` on every request |
//! | `logging/setLevel` (or nothing: an older server sends what it likes) | `_meta` `io.modelcontextprotocol/logLevel` on every request (`debug` until it is set) |
//! | `initialize` | `server/discover`; its capabilities, instructions and `_meta` `io.modelcontextprotocol/serverInfo` make the `initialize` result |
//! | a request the server answers with requests of its own (sampling, elicitation, roots) | a result of `resultType` `input_required`: the adapter sends those requests to the client and calls the handler again with `inputResponses` and `requestState` |
//! | `resources/subscribe`, `resources/unsubscribe` | one `subscriptions/listen` with the subscribed URIs, running in the background (only with [`Bridge::with_spawn`]) |
//!
//! A client of the newer era calling a server of the older sends its params
//! [`without_envelope`], and reads the results with [`older_result`].
//!
//! The handler's `_meta` `io.modelcontextprotocol/protocolVersion` is the newer version:
//! the params it is given are that version's.

use std::collections::BTreeSet;
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll, Waker};

use serde::Serialize;
use serde_json::{Map, Value};

use crate::jsonrpc::ErrorObject;
use crate::service::{BoxFuture, Meta, Peer, Transport, TransportError};

pub use crate::envelope::{
    CLIENT_CAPABILITIES, CLIENT_INFO, LOG_LEVEL, PROTOCOL_VERSION, SERVER_INFO,
};

/// How many times one request may come back asking for input before it is an error.
pub const MAX_ROUNDS: usize = 16;
/// How many resources one older client may be subscribed to at once (each subscription
/// restarts the listener with all of them); one more is refused with -32602.
pub const MAX_SUBSCRIPTIONS: usize = 256;

/// Runs a future in the background: the one thing a bridge needs of an async runtime
/// (`|f| { tokio::spawn(f); }`).
pub type SpawnFn = Arc<dyn Fn(BoxFuture<'static, ()>) + Send + Sync>;

/// What one connection of an older client has told the server, kept to speak for it to a
/// newer handler. Dropping it stops the background `subscriptions/listen`.
pub struct Bridge {
    version: &'static str,
    spawn: Option<SpawnFn>,
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    /// What every request's `_meta` gets.
    meta: Map<String, Value>,
    /// The URIs subscribed to, and the running `subscriptions/listen`.
    subscriptions: BTreeSet<String>,
    listening: Option<Stop>,
}

impl std::fmt::Debug for Bridge {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let state = self.state();
        f.debug_struct("Bridge")
            .field("version", &self.version)
            .field("meta", &state.meta)
            .field("subscriptions", &state.subscriptions)
            .field("spawn", &self.spawn.is_some())
            .finish()
    }
}

impl Bridge {
    /// A bridge to a handler of `version` (the newer), for a client that has not yet
    /// initialized: it claims no capabilities.
    pub fn new(version: &'static str) -> Bridge {
        let mut meta = Map::new();
        meta.insert(PROTOCOL_VERSION.into(), version.into());
        meta.insert(CLIENT_CAPABILITIES.into(), Value::Object(Map::new()));
        meta.insert(LOG_LEVEL.into(), "debug".into());
        Bridge {
            version,
            spawn: None,
            state: Mutex::new(State {
                meta,
                ..State::default()
            }),
        }
    }

    /// This bridge, serving resource subscriptions with a `subscriptions/listen` that
    /// `spawn` runs in the background. Without it, `resources/subscribe` is -32601 and the
    /// `initialize` result does not offer it.
    pub fn with_spawn(mut self, spawn: SpawnFn) -> Bridge {
        self.spawn = Some(spawn);
        self
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        // The state is whole after any panic: every change is one assignment.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// What every request's `_meta` gets now.
    pub fn meta(&self) -> Map<String, Value> {
        self.state().meta.clone()
    }

    /// Remembers the client of `initialize`'s params: its `capabilities` and `clientInfo`.
    pub fn initialize<S: Serialize>(&self, params: &S) {
        let params = crate::write::to_value(&params).unwrap_or(Value::Null);
        let mut state = self.state();
        for (from, to) in [
            ("capabilities", CLIENT_CAPABILITIES),
            ("clientInfo", CLIENT_INFO),
        ] {
            if let Some(v) = params.get(from) {
                state.meta.insert(to.into(), v.clone());
            }
        }
    }

    /// Remembers the `level` of `logging/setLevel`'s params.
    pub fn set_level<S: Serialize>(&self, params: &S) -> Result<(), ErrorObject> {
        let params = crate::write::to_value(&params).unwrap_or(Value::Null);
        let level = params
            .get("level")
            .ok_or_else(|| ErrorObject::invalid_params("logging/setLevel has no `level`"))?;
        self.state().meta.insert(LOG_LEVEL.into(), level.clone());
        Ok(())
    }

    /// An older request's params (`null` for none) with the bridge's `_meta` added (the
    /// bridge's keys win).
    pub(crate) fn params_value(&self, params: Option<Value>) -> Result<Value, ErrorObject> {
        let mut params = match params {
            Some(Value::Object(m)) => m,
            None | Some(Value::Null) => Map::new(),
            Some(other) => {
                return Err(ErrorObject::invalid_params(format!(
                    "params must be an object, not {other}"
                )));
            }
        };
        let slot = params
            .entry("_meta")
            .or_insert_with(|| Value::Object(Map::new()));
        let Value::Object(meta) = slot else {
            return Err(ErrorObject::invalid_params("`_meta` must be an object"));
        };
        meta.extend(self.meta());
        Ok(Value::Object(params))
    }

    /// The `initialize` result (as JSON) made of a `server/discover` result: the older
    /// `version`, the capabilities (without `resources.subscribe` where this bridge cannot
    /// serve it), `instructions`, and the `serverInfo` the discover result gives in its
    /// `_meta` (the rest of that `_meta` kept). A discover result without it cannot answer `initialize` (-32603).
    pub fn initialize_result<R: Serialize>(
        &self,
        discover: &R,
        version: &str,
    ) -> Result<Value, ErrorObject> {
        let discover = crate::write::to_value(&discover)
            .map_err(|e| ErrorObject::internal_error(e.to_string()))?;
        let server_info = discover
            .get("_meta")
            .and_then(|m| m.get(SERVER_INFO))
            .ok_or_else(|| {
                ErrorObject::internal_error(format!(
                    "the `initialize` result cannot be expressed in {version}: the \
                     `server/discover` result has no `_meta` `{SERVER_INFO}` to give as \
                     `serverInfo`"
                ))
            })?;
        let mut capabilities = discover
            .get("capabilities")
            .cloned()
            .unwrap_or_else(|| Value::Object(Map::new()));
        if self.spawn.is_none()
            && let Some(Value::Object(resources)) = capabilities.get_mut("resources")
        {
            resources.remove("subscribe");
        }
        let mut result = Map::new();
        result.insert(VERSION_MEMBER.into(), version.into());
        result.insert("capabilities".into(), capabilities);
        result.insert("serverInfo".into(), server_info.clone());
        if let Some(v) = discover.get("instructions") {
            result.insert("instructions".into(), v.clone());
        }
        // The result's `_meta`, without the server info `serverInfo` now says.
        if let Some(Value::Object(meta)) = discover.get("_meta") {
            let mut meta = meta.clone();
            meta.remove(SERVER_INFO);
            if !meta.is_empty() {
                result.insert("_meta".into(), Value::Object(meta));
            }
        }
        Ok(Value::Object(result))
    }

    /// `resources/subscribe` ([`Subscription::Add`]) or `resources/unsubscribe` with
    /// `params` (their `uri`): changes the set of subscribed URIs and restarts the
    /// background listener. `listen` is given the params of a `subscriptions/listen` for
    /// the new set and its `_meta`, and returns the future that serves it; none runs while
    /// the set is empty. Without [`with_spawn`](Self::with_spawn) this is -32601.
    pub fn resubscribe<S, L>(
        &self,
        change: Subscription,
        params: &S,
        listen: L,
    ) -> Result<(), ErrorObject>
    where
        S: Serialize,
        L: FnOnce(Value, Meta) -> Result<BoxFuture<'static, ()>, ErrorObject>,
    {
        let subscribe = change == Subscription::Add;
        let method = change.method();
        let Some(spawn) = &self.spawn else {
            return Err(crate::service::method_not_found(method));
        };
        let params = crate::write::to_value(&params).unwrap_or(Value::Null);
        let Some(uri) = params.get("uri").and_then(Value::as_str) else {
            return Err(ErrorObject::invalid_params(format!(
                "{method} has no `uri`"
            )));
        };
        let mut state = self.state();
        if subscribe {
            if state.subscriptions.len() >= MAX_SUBSCRIPTIONS && !state.subscriptions.contains(uri)
            {
                return Err(ErrorObject::invalid_params(format!(
                    "{method}: already {MAX_SUBSCRIPTIONS} resources subscribed to, the most \
                     one connection may (bridge::MAX_SUBSCRIPTIONS)"
                )));
            }
            state.subscriptions.insert(uri.into());
        } else {
            state.subscriptions.remove(uri);
        }
        if let Some(stop) = state.listening.take() {
            stop.stop();
        }
        if state.subscriptions.is_empty() {
            return Ok(());
        }
        let mut listen_params = Map::new();
        let uris: Vec<Value> = state
            .subscriptions
            .iter()
            .map(|u| u.as_str().into())
            .collect();
        let mut filter = Map::new();
        filter.insert("resourceSubscriptions".into(), Value::Array(uris));
        listen_params.insert("notifications".into(), Value::Object(filter));
        listen_params.insert("_meta".into(), Value::Object(state.meta.clone()));
        let meta = Meta::from(state.meta.clone());
        let future = listen(Value::Object(listen_params), meta)?;
        let (stop, future) = stoppable(future);
        state.listening = Some(stop);
        drop(state);
        spawn(future);
        Ok(())
    }
}

impl Drop for Bridge {
    fn drop(&mut self) {
        if let Some(stop) = self.state().listening.take() {
            stop.stop();
        }
    }
}

/// What an older client's `resources/subscribe` or `resources/unsubscribe` does to the
/// set of URIs it listens to ([`Bridge::resubscribe`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Subscription {
    /// `resources/subscribe`: the URI joins the set.
    Add,
    /// `resources/unsubscribe`: the URI leaves it.
    Remove,
}

impl Subscription {
    /// The change a request of `method` makes, if it makes one.
    pub fn of(method: &str) -> Option<Subscription> {
        match method {
            "resources/subscribe" => Some(Subscription::Add),
            "resources/unsubscribe" => Some(Subscription::Remove),
            _ => None,
        }
    }

    /// The request that makes it.
    pub fn method(self) -> &'static str {
        match self {
            Subscription::Add => "resources/subscribe",
            Subscription::Remove => "resources/unsubscribe",
        }
    }
}

/// The member of an `initialize` result that names the version it speaks.
pub(crate) const VERSION_MEMBER: &str = "protocolVersion";

/// Whether a result of the `server/discover` era says how it may be cached.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Caching {
    /// It has `cacheScope` and `ttlMs`.
    Scoped,
    /// It has neither.
    Unscoped,
}

/// A result from a server of the `initialize` era, given what the `server/discover` era
/// requires of it and the older one does not write: `resultType` `complete` (what the
/// newer era says to read a result without one as), and, where the newer result says how
/// it may be cached ([`Caching::Scoped`]), `cacheScope` `private` and `ttlMs` 0: an older
/// server says nothing of caching, so nothing may be cached or shared.
pub fn older_result(mut result: Value, caching: Caching) -> Value {
    if let Value::Object(map) = &mut result {
        map.entry("resultType").or_insert_with(|| "complete".into());
        if caching == Caching::Scoped {
            map.entry("cacheScope").or_insert_with(|| "private".into());
            map.entry("ttlMs").or_insert_with(|| 0.into());
        }
    }
    result
}

/// A newer client's params for a server of the `initialize` era: without the discover
/// era's envelope in `_meta` (protocol version, client capabilities, client info, log
/// level), which that era says once, in `initialize` and `logging/setLevel`, and which
/// a server of both eras would take as a request of the newer one.
pub fn without_envelope(mut params: Value) -> Value {
    if let Some(Value::Object(meta)) = params.get_mut("_meta") {
        for key in [
            PROTOCOL_VERSION,
            CLIENT_CAPABILITIES,
            CLIENT_INFO,
            LOG_LEVEL,
        ] {
            meta.remove(key);
        }
        if meta.is_empty()
            && let Value::Object(params) = &mut params
        {
            params.remove("_meta");
        }
    }
    params
}

/// Whether a newer handler's result asks for input (`resultType` `input_required`): the
/// adapter sends its `inputRequests` to the client ([`ask`]) and calls the handler again.
pub(crate) fn asks_input(result: &Value) -> bool {
    result.get("resultType").and_then(Value::as_str) == Some("input_required")
}

/// Sends the `inputRequests` of an `input_required` result to the client, and puts the
/// answers and the `requestState` into the params of the next call.
pub(crate) async fn ask(
    result: &Value,
    params: &mut Value,
    peer: &Peer,
) -> Result<(), ErrorObject> {
    let mut responses = Map::new();
    let requests = result.get("inputRequests").and_then(Value::as_object);
    for (key, request) in requests.into_iter().flatten() {
        let Some(method) = request.get("method").and_then(Value::as_str) else {
            return Err(ErrorObject::internal_error(format!(
                "input request `{key}` has no method"
            )));
        };
        let answer = peer
            .request_raw(method, request.get("params").cloned())
            .await
            .map_err(|e| {
                ErrorObject::internal_error(format!(
                    "the client's answer to `{method}` (input `{key}`): {e}"
                ))
            })?;
        responses.insert(key.clone(), answer.to_value());
    }
    let Value::Object(params) = params else {
        return Err(ErrorObject::internal_error("params are not an object"));
    };
    params.insert("inputResponses".into(), Value::Object(responses));
    match result.get("requestState") {
        Some(state) => params.insert("requestState".into(), state.clone()),
        None => params.remove("requestState"),
    };
    Ok(())
}

/// `peer`, dropping what an older client has no use for: the
/// `notifications/subscriptions/acknowledged` a listener sends first.
pub fn older_peer(peer: &Peer) -> Peer {
    peer.with_transport(Arc::new(Older(peer.transport().clone())))
}

struct Older(Arc<dyn Transport>);

impl Transport for Older {
    fn request(
        &self,
        id: crate::jsonrpc::Id,
        message: String,
    ) -> BoxFuture<'_, Result<String, TransportError>> {
        self.0.request(id, message)
    }

    fn notify(&self, message: String) -> BoxFuture<'_, Result<(), TransportError>> {
        let method = serde_json::from_str::<Value>(&message)
            .ok()
            .and_then(|m| m.get("method").and_then(Value::as_str).map(str::to_owned));
        if method.as_deref() == Some("notifications/subscriptions/acknowledged") {
            return Box::pin(async { Ok(()) });
        }
        self.0.notify(message)
    }
}

/// Ends a background future at its next poll, or at once if it is waiting.
struct Stop(Arc<Stopping>);

#[derive(Default)]
struct Stopping {
    stopped: AtomicBool,
    waker: Mutex<Option<Waker>>,
}

impl Stop {
    fn stop(self) {
        self.0.stopped.store(true, Ordering::SeqCst);
        let waker = self
            .0
            .waker
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        if let Some(w) = waker {
            w.wake();
        }
    }
}

struct Stoppable {
    future: BoxFuture<'static, ()>,
    stopping: Arc<Stopping>,
}

fn stoppable(future: BoxFuture<'static, ()>) -> (Stop, BoxFuture<'static, ()>) {
    let stopping = Arc::new(Stopping::default());
    let stop = Stop(stopping.clone());
    (stop, Box::pin(Stoppable { future, stopping }))
}

impl Future for Stoppable {
    type Output = ();

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        *self
            .stopping
            .waker
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = Some(cx.waker().clone());
        if self.stopping.stopped.load(Ordering::SeqCst) {
            return Poll::Ready(());
        }
        self.future.as_mut().poll(cx)
    }
}
