//! Serving and calling: what the generated `ServerHandler` / `ClientHandler` traits,
//! `serve_*` dispatch functions and typed peers of each version module are built on.
//!
//! - [`Transport`]: the one trait a user implements to connect a peer: send a request
//!   and await its response, send a notification. Messages are JSON text.
//! - [`Peer`]: typed calls over a transport; request ids are assigned here.
//! - [`route`]: tells an incoming response (to hand to the waiting caller) from an
//!   incoming request or notification (to hand to the dispatch function).
//! - [`Policy`]: the replaceable layer that sees every request and notification before
//!   the handler does (version checks, capability checks, lifecycle rules). Dispatch
//!   itself applies no protocol policy.
//!
//! Nothing here needs an async runtime: futures are plain [`Future`]s, and the user's
//! transport decides where they run.

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

use serde::Serialize;
use serde_json::{Map, Value};

use super::json;
use super::jsonrpc::{
    self, Body, ErrorObject, Extra, Id, Kind, Message, MethodSet, NoResults, Options,
    ProtocolError, RawResult, ResultError, Top, UnknownMethods, codes,
};
use super::method::{Notification, Request};

/// A boxed, sendable future: what [`Transport`] methods return.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// The transport failed: the connection is closed, a write failed, the response never
/// came.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TransportError {
    /// What went wrong, for people.
    pub message: String,
}

impl TransportError {
    /// A transport error with a message.
    pub fn new(message: impl Into<String>) -> Self {
        TransportError {
            message: message.into(),
        }
    }
}

impl fmt::Display for TransportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "transport: {}", self.message)
    }
}

impl std::error::Error for TransportError {}

/// How messages reach the peer. Implement it over stdio, HTTP, a channel, anything.
pub trait Transport: Send + Sync {
    /// Sends a request — one JSON-RPC message as JSON text, whose id is `id` — and
    /// resolves to the peer's response to it: the whole response message as JSON text.
    /// Matching the response to the request by `id` is the transport's job ([`route`]
    /// helps).
    fn request(&self, id: Id, message: String) -> BoxFuture<'_, Result<String, TransportError>>;

    /// Sends a notification (one JSON-RPC message as JSON text).
    fn notify(&self, message: String) -> BoxFuture<'_, Result<(), TransportError>>;
}

/// Why a call to the peer failed.
#[derive(Debug)]
pub enum CallError {
    /// The params could not be encoded.
    Encode(serde_json::Error),
    /// The transport failed.
    Transport(TransportError),
    /// The peer answered with an error.
    Rejected(ErrorObject),
    /// The answer is not a JSON-RPC response.
    InvalidResponse(String),
    /// The result does not fit the method's result type; the raw value is kept.
    Result(ResultError),
}

impl fmt::Display for CallError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CallError::Encode(e) => write!(f, "cannot encode the params: {e}"),
            CallError::Transport(e) => write!(f, "{e}"),
            CallError::Rejected(e) => {
                write!(f, "the peer answered error {}: {}", e.code, e.message)
            }
            CallError::InvalidResponse(m) => write!(f, "not a JSON-RPC response: {m}"),
            CallError::Result(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for CallError {}

/// Typed calls to the other side over a [`Transport`]. Cheap to clone (one reference
/// count: a handler's context gets a clone for every message served); clones share the
/// transport and the id counter.
#[derive(Clone)]
pub struct Peer(Arc<Shared>);

struct Shared {
    transport: Arc<dyn Transport>,
    next_id: Arc<AtomicI64>,
    meta: Option<Map<String, Value>>,
    /// Who wins a key both `meta` and a request's `_meta` have.
    meta_wins: MetaWins,
}

/// Which value a key of a peer's request `_meta` takes when the request's params have it
/// too.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum MetaWins {
    /// The request's (`Peer::with_request_meta`).
    Request,
    /// The peer's (`Peer::with_envelope`).
    Peer,
}

impl fmt::Debug for Peer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Peer")
            .field("next_id", &self.0.next_id.load(Ordering::Relaxed))
            .field("meta", &self.0.meta)
            .finish_non_exhaustive()
    }
}

impl Peer {
    /// A peer over a transport.
    pub fn new(transport: impl Transport + 'static) -> Peer {
        Peer::from_arc(Arc::new(transport))
    }

    /// A peer over a shared transport.
    pub fn from_arc(transport: Arc<dyn Transport>) -> Peer {
        Peer(Arc::new(Shared {
            transport,
            next_id: Arc::new(AtomicI64::new(1)),
            meta: None,
            meta_wins: MetaWins::Request,
        }))
    }

    /// This peer, adding `meta` to the `_meta` of every request it sends (keys the
    /// request already has win). The discover era puts the protocol version there. The
    /// id counter stays shared with the peer it was made from.
    pub fn with_request_meta(self, meta: Map<String, Value>) -> Peer {
        self.with_meta(meta, MetaWins::Request)
    }

    /// This peer, writing `envelope` into the `_meta` of every request it sends, over
    /// what the request has under those keys (its other keys kept): what a connection
    /// said once (a discover-era client's version, capabilities and info) is what each of
    /// its requests says, whatever the typed params were built with. The id counter stays
    /// shared with the peer it was made from.
    pub fn with_envelope(self, envelope: Map<String, Value>) -> Peer {
        self.with_meta(envelope, MetaWins::Peer)
    }

    /// This peer adding `meta` to every request's `_meta`, `wins` saying whose value a
    /// key both have takes.
    fn with_meta(self, meta: Map<String, Value>, wins: MetaWins) -> Peer {
        Peer(Arc::new(Shared {
            transport: self.0.transport.clone(),
            next_id: self.0.next_id.clone(),
            meta: Some(meta),
            meta_wins: wins,
        }))
    }

    /// This peer over another transport, sharing the id counter and the request `_meta`:
    /// a transport with a stream per request (Streamable HTTP) gives each handler a peer
    /// that writes on its request's stream, while ids stay unique on the connection.
    pub fn with_transport(&self, transport: Arc<dyn Transport>) -> Peer {
        Peer(Arc::new(Shared {
            transport,
            next_id: self.0.next_id.clone(),
            meta: self.0.meta.clone(),
            meta_wins: self.0.meta_wins,
        }))
    }

    /// The transport.
    pub fn transport(&self) -> &Arc<dyn Transport> {
        &self.0.transport
    }

    fn params_with_meta(&self, params: Option<Value>) -> Option<Value> {
        let Some(meta) = &self.0.meta else {
            return params;
        };
        let mut params = match params {
            Some(Value::Object(m)) => m,
            Some(other) => return Some(other),
            None => Map::new(),
        };
        let slot = params
            .entry("_meta")
            .or_insert_with(|| Value::Object(Map::new()));
        if let Value::Object(existing) = slot {
            for (k, v) in meta {
                match self.0.meta_wins {
                    MetaWins::Request => {
                        existing.entry(k.clone()).or_insert_with(|| v.clone());
                    }
                    MetaWins::Peer => {
                        existing.insert(k.clone(), v.clone());
                    }
                }
            }
        }
        Some(Value::Object(params))
    }

    /// Sends a request by method name with raw params and returns the raw `result`.
    pub async fn request_raw(
        &self,
        method: &str,
        params: Option<Value>,
    ) -> Result<RawResult, CallError> {
        let id = Id::Integer(self.0.next_id.fetch_add(1, Ordering::Relaxed));
        let params = self.params_with_meta(params);
        let text = call_text(Some(&id), method, params.as_ref()).map_err(CallError::Encode)?;
        let answer = self
            .0
            .transport
            .request(id.clone(), text)
            .await
            .map_err(CallError::Transport)?;
        response_result(&id, &answer)
    }

    /// Sends a request of method `M` and decodes its result as `M::Result`.
    pub async fn request<M: Request>(
        &self,
        params: Option<&M::Params>,
    ) -> Result<M::Result, CallError> {
        let params = params
            .map(super::write::to_value)
            .transpose()
            .map_err(CallError::Encode)?;
        let raw = self.request_raw(M::METHOD, params).await?;
        jsonrpc::decode_result::<M>(&raw).map_err(CallError::Result)
    }

    /// Sends a notification by method name with raw params.
    pub async fn notify_raw(&self, method: &str, params: Option<Value>) -> Result<(), CallError> {
        let text = call_text(None, method, params.as_ref()).map_err(CallError::Encode)?;
        self.0
            .transport
            .notify(text)
            .await
            .map_err(CallError::Transport)
    }

    /// Sends a notification of method `N`.
    pub async fn notify<N: Notification>(
        &self,
        params: Option<&N::Params>,
    ) -> Result<(), CallError> {
        let params = params
            .map(super::write::to_value)
            .transpose()
            .map_err(CallError::Encode)?;
        self.notify_raw(N::METHOD, params).await
    }
}

/// A request (with `id`) or a notification as JSON text, as a peer sends it: `jsonrpc`,
/// `id`, `method`, `params`.
pub(crate) fn call_text(
    id: Option<&Id>,
    method: &str,
    params: Option<&Value>,
) -> Result<String, serde_json::Error> {
    let text = super::write::to_vec(&Call { id, method, params })?;
    String::from_utf8(text).map_err(<serde_json::Error as serde::ser::Error>::custom)
}

/// A request or notification as a peer sends it: `jsonrpc`, `id`, `method`, `params`.
struct Call<'a> {
    id: Option<&'a Id>,
    method: &'a str,
    params: Option<&'a Value>,
}

impl Serialize for Call<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("jsonrpc", "2.0")?;
        if let Some(id) = self.id {
            map.serialize_entry("id", id)?;
        }
        map.serialize_entry("method", self.method)?;
        if let Some(params) = self.params {
            map.serialize_entry("params", params)?;
        }
        map.end()
    }
}

/// The `result` of the response to request `id`, or the error it carries: read by the
/// crate's one decoder, as any message.
fn response_result(id: &Id, answer: &str) -> Result<RawResult, CallError> {
    let invalid = |e: ProtocolError| CallError::InvalidResponse(e.message);
    let (_, checked) =
        json::check_bytes(answer.as_bytes()).map_err(|e| invalid(jsonrpc::parse_error(e)))?;
    let options = Options::default();
    let Top::One(noted) = jsonrpc::top(checked, options).map_err(invalid)? else {
        return Err(CallError::InvalidResponse("a batch".into()));
    };
    let envelope = jsonrpc::envelope(noted).map_err(invalid)?;
    match (envelope.kind, envelope.id) {
        (Kind::Result(raw), Some(got)) if got == *id => Ok(RawResult::checked(raw)),
        (Kind::Error(error), got) if got.is_none() || got.as_ref() == Some(id) => {
            Err(CallError::Rejected(error))
        }
        (Kind::Call { .. }, _) => Err(CallError::InvalidResponse(
            "a request or notification, not a response".into(),
        )),
        (_, got) => Err(CallError::InvalidResponse(format!(
            "answers id {}, expected {id}",
            got.map_or_else(|| "(none)".into(), |g| g.to_string())
        ))),
    }
}

/// What an incoming message is, read without decoding its payload.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Route {
    /// A notification, a batch, or something malformed: give it to the dispatch
    /// function, which answers what needs an answer.
    Incoming,
    /// A request with this id: give it to the dispatch function (the id names it, for a
    /// `notifications/cancelled` that may follow).
    Request(Id),
    /// `notifications/cancelled` naming the request `request` (its `requestId`): stop
    /// serving that request and send no answer to it. (Without a readable `requestId` it
    /// is [`Route::Incoming`].)
    Cancelled {
        /// The request the peer no longer wants answered.
        request: Id,
    },
    /// A response to a request this side sent: give it to whoever awaits `id`.
    Response(Id),
}

/// Tells responses, requests and cancellations from everything else: the JSON layer and
/// the envelope of the crate's one decoder, the payload left undecoded (but for a
/// cancellation's `requestId`). [`inspect`]'s route.
pub fn route(message: &[u8]) -> Route {
    inspect(message).route
}

/// What a message says of itself, read in one pass of the JSON layer (the whole text
/// checked, nothing decoded): how to route it, and what a transport checks before it
/// hands the message over (its method, its params' members, whether it is a batch).
#[derive(Debug)]
pub struct Head<'a> {
    /// How to route it.
    pub route: Route,
    /// The elements of a batch; `None` when the message is no array.
    pub batch: Option<usize>,
    /// Whether the text is JSON at all (else a parse error answers it).
    pub json: bool,
    method: Option<std::borrow::Cow<'a, str>>,
    params: Option<json::Members<'a>>,
    error: Option<i64>,
}

impl<'a> Head<'a> {
    /// The method of a request or notification.
    pub fn method(&self) -> Option<&str> {
        self.method.as_deref()
    }

    /// The raw JSON text of member `name` of the params, when they are an object.
    pub fn param(&self, name: &str) -> Option<&'a str> {
        self.params
            .as_ref()?
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, raw)| *raw)
    }

    /// Member `name` of the params, when it is a string.
    pub fn param_str(&self, name: &str) -> Option<String> {
        serde_json::from_str(self.param(name)?).ok()
    }

    /// The params' `_meta`, when it is an object.
    pub fn meta(&self) -> Option<Meta> {
        self.param("_meta")
            .filter(|m| m.starts_with('{'))
            .map(Meta::checked)
    }

    /// The code of an error response.
    pub fn error_code(&self) -> Option<i64> {
        self.error
    }
}

/// Reads what a message says of itself ([`Head`]): one pass of the JSON layer over the
/// whole text, as every decode starts with.
pub fn inspect(message: &[u8]) -> Head<'_> {
    let mut head = Head {
        route: Route::Incoming,
        batch: None,
        json: false,
        method: None,
        params: None,
        error: None,
    };
    // A batch is counted, not noted: whether to decode it at all depends on its length.
    if message.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'[') {
        if let Ok(count) = json::count_batch(message) {
            head.json = true;
            head.batch = Some(count);
        }
        return head;
    }
    let mut noted = match json::check_bytes(message) {
        Ok((_, json::Checked::Object(noted))) => noted,
        Ok(_) => {
            head.json = true;
            return head;
        }
        Err(_) => return head,
    };
    head.json = true;
    // The envelope reads `_meta` from the params; `Head` reads it from its own copy.
    head.params = noted.params.take();
    let Ok(envelope) = jsonrpc::envelope(noted) else {
        return head;
    };
    head.route = match (envelope.id, envelope.kind) {
        (Some(id), Kind::Result(_)) => Route::Response(id),
        (Some(id), Kind::Error(error)) => {
            head.error = Some(error.code);
            Route::Response(id)
        }
        (None, Kind::Error(error)) => {
            head.error = Some(error.code);
            Route::Incoming
        }
        (Some(id), Kind::Call { method, .. }) => {
            head.method = Some(method);
            Route::Request(id)
        }
        (None, Kind::Call { method, params }) => {
            let cancelled = method == "notifications/cancelled";
            head.method = Some(method);
            let request = params
                .filter(|_| cancelled)
                .and_then(|p| serde_json::from_str::<Map<String, Value>>(p).ok())
                .and_then(|mut p| p.remove("requestId"))
                .and_then(|id| serde_json::from_value::<Id>(id).ok());
            match request {
                Some(request) => Route::Cancelled { request },
                None => Route::Incoming,
            }
        }
        _ => Route::Incoming,
    };
    head
}

/// A handler ready to serve a connection: it answers one incoming message (JSON text),
/// the peer to call back given. What a session engine drives; the generated
/// `handlers::Server` and `handlers::Client` of each version implement it with that
/// version's `serve_*_message`.
///
/// An engine calls `serve` for each message in the order the messages arrive, and runs
/// the futures it returns concurrently: what must follow arrival order (choosing the
/// protocol version a connection speaks, say) belongs in `serve` itself, before the
/// future.
pub trait Service: Send + Sync + 'static {
    /// The answer to send back, if any (none for a notification).
    fn serve(self: Arc<Self>, peer: Peer, message: String) -> BoxFuture<'static, Option<String>>;
}

/// A shared service is one: what is built of several (an adapter in front of another)
/// takes it as it takes any.
impl Service for Arc<dyn Service> {
    fn serve(self: Arc<Self>, peer: Peer, message: String) -> BoxFuture<'static, Option<String>> {
        <dyn Service as Service>::serve(Arc::clone(&*self), peer, message)
    }
}

/// One incoming message, as the generated `serve_*_message` functions handle it.
#[doc(hidden)]
#[derive(Debug)]
pub enum Serve<R, N> {
    /// A request to answer.
    Request {
        /// Its id.
        id: Id,
        /// Its method and params.
        request: R,
        /// Its `params._meta`.
        meta: Option<Meta>,
    },
    /// A notification.
    Notification {
        /// Its method and params.
        notification: N,
        /// Its `params._meta`.
        meta: Option<Meta>,
    },
    /// The answer to a message that could not be decoded.
    Answer(String),
    /// Nothing to do: a response, or a notification that could not be decoded.
    Ignore,
}

/// What [`receive`] read: one message, or the elements of a batch.
#[doc(hidden)]
#[derive(Debug)]
pub enum Received<R, N> {
    /// One message.
    One(Serve<R, N>),
    /// A batch: each element on its own.
    Batch(Vec<Serve<R, N>>),
}

/// Decodes one incoming message (each element of a batch on its own) by the crate's one
/// decoder, for the generated `serve_*_message`.
#[doc(hidden)]
pub fn receive<R: MethodSet, N: MethodSet>(message: &[u8], batches: bool) -> Received<R, N> {
    let options = Options {
        unknown_methods: UnknownMethods::Reject,
        batches,
    };
    if let Ok(text) = json::utf8(message) {
        if let Some(read) = jsonrpc::one_pass::<R, N, NoResults>(text, &mut |_| None) {
            let meta = read.meta.filter(|m| m.starts_with('{')).map(Meta::checked);
            return Received::One(match (read.body, read.id) {
                (Body::Request(request), Some(id)) => Serve::Request { id, request, meta },
                (Body::Notification(notification), _) => Serve::Notification { notification, meta },
                _ => Serve::Ignore,
            });
        }
    }
    let checked = match json::check_bytes(message) {
        Ok((_, checked)) => checked,
        Err(e) => return Received::One(answer(jsonrpc::parse_error(e))),
    };
    match jsonrpc::top(checked, options) {
        Err(e) => Received::One(answer(e)),
        Ok(Top::One(noted)) => Received::One(serve_one(noted, options)),
        Ok(Top::Batch(items)) => Received::Batch(
            items
                .into_iter()
                .map(|item| match item {
                    Ok(noted) => serve_one(noted, options),
                    Err(e) => answer(e),
                })
                .collect(),
        ),
    }
}

fn serve_one<R: MethodSet, N: MethodSet>(noted: json::Noted<'_>, options: Options) -> Serve<R, N> {
    let envelope = match jsonrpc::envelope(noted) {
        Ok(envelope) => envelope,
        Err(e) => return answer(e),
    };
    // A response is not served: `route` sends it to its caller.
    let decoded =
        jsonrpc::finish::<R, N, Option<Message<R, N>>>(envelope, options, &mut |_, _, _| None);
    let meta = |meta: Option<&str>| meta.filter(|m| m.starts_with('{')).map(Meta::checked);
    match decoded {
        Err(e) => answer(e),
        Ok((Some(Message::Request { id, request, .. }), m)) => Serve::Request {
            id,
            request,
            meta: meta(m),
        },
        Ok((Some(Message::Notification { notification, .. }), m)) => Serve::Notification {
            notification,
            meta: meta(m),
        },
        Ok(_) => Serve::Ignore,
    }
}

fn answer<R, N>(e: ProtocolError) -> Serve<R, N> {
    if e.notification {
        Serve::Ignore
    } else {
        Serve::Answer(e.to_response())
    }
}

/// The reply to a batch: the answers as a batch, or none when nothing needs an answer.
#[doc(hidden)]
pub fn batch_reply(answers: Vec<String>) -> Option<String> {
    (!answers.is_empty()).then(|| format!("[{}]", answers.join(",")))
}

/// The `_meta` of an incoming request's or notification's params, as it came: the JSON
/// text of an object, checked by the JSON layer, read only when asked. Most handlers never
/// look at it (and the typed params hold it decoded), so serving a message does not pay
/// for reading it twice.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Meta(Box<str>);

impl Meta {
    /// Text the JSON layer has checked, of an object.
    pub(crate) fn checked(text: &str) -> Meta {
        Meta(text.into())
    }

    /// The value of member `key`, if there is one.
    pub fn get(&self, key: &str) -> Option<Value> {
        self.to_map().remove(key)
    }

    /// Whether there is a member `key`.
    pub fn contains_key(&self, key: &str) -> bool {
        self.to_map().contains_key(key)
    }

    /// Every member.
    pub fn to_map(&self) -> Map<String, Value> {
        serde_json::from_str(&self.0).unwrap_or_default()
    }

    /// The JSON text, as it came.
    pub fn text(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Meta {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Meta({})", self.0)
    }
}

impl From<Map<String, Value>> for Meta {
    fn from(map: Map<String, Value>) -> Meta {
        Meta(Value::Object(map).to_string().into())
    }
}

/// Where a handler is: the request's id, its `_meta`, and the peer to call back.
#[derive(Debug, Clone)]
pub struct RequestContext<P> {
    /// The id of the request being answered.
    pub id: Id,
    /// The request's `params._meta`, if any.
    pub meta: Option<Meta>,
    /// The other side, typed: send it requests and notifications while answering.
    pub peer: P,
}

/// Where a notification handler is: the notification's `_meta` and the peer.
#[derive(Debug, Clone)]
pub struct NotificationContext<P> {
    /// The notification's `params._meta`, if any.
    pub meta: Option<Meta>,
    /// The other side, typed.
    pub peer: P,
}

/// The protocol policy in front of a handler: it sees every request and notification
/// before the handler does, and may refuse them. Version negotiation, capability checks
/// and lifecycle rules live here, not in dispatch. Every method has a permissive default.
pub trait Policy: Send + Sync {
    /// Called before a request reaches the handler; an error is sent back instead.
    fn check_request(&self, method: &str, meta: Option<&Meta>) -> Result<(), ErrorObject> {
        let _ = (method, meta);
        Ok(())
    }

    /// Called before a notification reaches the handler; `false` drops it.
    fn check_notification(&self, method: &str, meta: Option<&Meta>) -> bool {
        let _ = (method, meta);
        true
    }

    /// The peer the handler of a request (whose `params._meta` is `meta`) is given, from
    /// the connection's `peer`. By default `peer` itself; a policy may put a layer in
    /// front of what the handler sends (the discover era's applies the log level the
    /// request asks for: [`envelope::log_filtered`](crate::envelope::log_filtered)).
    fn request_peer(&self, meta: Option<&Meta>, peer: &Peer) -> Peer {
        let _ = meta;
        peer.clone()
    }
}

/// The policy that lets everything through.
#[derive(Debug, Clone, Copy, Default)]
pub struct Open;

impl Policy for Open {}

/// The error a handler's default body answers: -32601, naming the method.
pub fn method_not_found(method: &str) -> ErrorObject {
    ErrorObject::new(
        codes::METHOD_NOT_FOUND,
        format!("method not found: `{method}` is not handled here"),
    )
}

/// The response to request `id`: its result, encoded straight from the typed value, or
/// the error.
#[doc(hidden)]
pub fn respond<T: Serialize>(id: &Id, result: Result<T, ErrorObject>) -> String {
    let error = match result {
        Ok(result) => match jsonrpc::encode_response(id, &result) {
            Ok(bytes) => return String::from_utf8(bytes).unwrap_or_default(),
            Err(e) => ErrorObject::new(
                codes::INTERNAL_ERROR,
                format!("cannot encode the result: {e}"),
            ),
        },
        Err(error) => error,
    };
    jsonrpc::encode_text(&jsonrpc::ErrorResponse {
        id: Some(id),
        error: &error,
        extra: &Extra::new(),
    })
}

/// A request read as one of a union of requests `R` (a discover-era `InputRequest`, which
/// that era's servers send inside results and an older server sends as requests of its
/// own): its id, and the request, or -32602 naming what does not fit. `None` for a
/// message that is not a request.
#[doc(hidden)]
pub fn request_as<R: serde::de::DeserializeOwned>(
    message: &str,
) -> Option<(Id, Result<R, ErrorObject>)> {
    let Route::Request(id) = route(message.as_bytes()) else {
        return None;
    };
    let request = crate::path::from_str::<R>(message)
        .map_err(|e| ErrorObject::invalid_params(e.without_position().to_string()));
    Some((id, request))
}

/// The error response for a request the policy refused.
#[doc(hidden)]
pub fn refuse(id: &Id, error: ErrorObject) -> String {
    respond::<()>(id, Err(error))
}

/// The answer to `message` when it cannot be served: `error` for a request, nothing for
/// anything else (a notification, a response, text that is not a request).
pub fn refuse_request(message: &[u8], error: ErrorObject) -> Option<String> {
    match route(message) {
        Route::Request(id) => Some(refuse(&id, error)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn route_reads_only_the_envelope() {
        assert_eq!(
            route(br#"{"jsonrpc":"2.0","id":3,"result":{}}"#),
            Route::Response(Id::Integer(3))
        );
        assert_eq!(
            route(br#"{"jsonrpc":"2.0","id":"a","error":{"code":1,"message":"x"}}"#),
            Route::Response(Id::String("a".into()))
        );
        assert_eq!(
            route(br#"{"jsonrpc":"2.0","id":3,"method":"ping"}"#),
            Route::Request(Id::Integer(3))
        );
        assert_eq!(
            route(
                br#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"r","reason":"x"}}"#
            ),
            Route::Cancelled {
                request: Id::String("r".into())
            }
        );
        assert_eq!(
            route(br#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{}}"#),
            Route::Incoming
        );
        assert_eq!(route(br#"{"jsonrpc":"2.0","method":"x"}"#), Route::Incoming);
        assert_eq!(
            route(br#"[{"jsonrpc":"2.0","id":3,"result":{}}]"#),
            Route::Incoming
        );
        assert_eq!(route(b"not json"), Route::Incoming);
    }

    #[test]
    fn responses_are_checked() {
        let id = Id::Integer(7);
        assert_eq!(
            response_result(&id, r#"{"jsonrpc":"2.0","id":7,"result":{"a":1}}"#)
                .unwrap()
                .get(),
            r#"{"a":1}"#
        );
        match response_result(
            &id,
            r#"{"jsonrpc":"2.0","id":7,"error":{"code":-32601,"message":"no"}}"#,
        ) {
            Err(CallError::Rejected(e)) => assert_eq!(e.code, -32601),
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            response_result(&id, r#"{"jsonrpc":"2.0","id":8,"result":{}}"#),
            Err(CallError::InvalidResponse(_))
        ));
        assert!(matches!(
            response_result(&id, "[]"),
            Err(CallError::InvalidResponse(_))
        ));
    }
}
