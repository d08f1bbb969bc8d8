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

use serde::Deserialize;
use serde::de::IgnoredAny;
use serde_json::{Map, Value};

use super::jsonrpc::{ErrorObject, Id, ProtocolError, ResultError, codes};
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

/// Typed calls to the other side over a [`Transport`]. Cheap to clone; clones share the
/// transport and the id counter.
#[derive(Clone)]
pub struct Peer {
    transport: Arc<dyn Transport>,
    next_id: Arc<AtomicI64>,
    meta: Option<Map<String, Value>>,
}

impl fmt::Debug for Peer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Peer")
            .field("next_id", &self.next_id.load(Ordering::Relaxed))
            .field("meta", &self.meta)
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
        Peer {
            transport,
            next_id: Arc::new(AtomicI64::new(1)),
            meta: None,
        }
    }

    /// This peer, adding `meta` to the `_meta` of every request it sends (keys the
    /// request already has win). The discover era puts the protocol version there.
    pub fn with_request_meta(mut self, meta: Map<String, Value>) -> Peer {
        self.meta = Some(meta);
        self
    }

    /// The transport.
    pub fn transport(&self) -> &Arc<dyn Transport> {
        &self.transport
    }

    fn params_with_meta(&self, params: Option<Value>) -> Option<Value> {
        let Some(meta) = &self.meta else {
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
                existing.entry(k.clone()).or_insert_with(|| v.clone());
            }
        }
        Some(Value::Object(params))
    }

    /// Sends a request by method name with raw params and returns the raw `result`.
    pub async fn request_raw(
        &self,
        method: &str,
        params: Option<Value>,
    ) -> Result<Value, CallError> {
        let id = Id::Integer(self.next_id.fetch_add(1, Ordering::Relaxed));
        let mut message = Map::new();
        message.insert("jsonrpc".into(), "2.0".into());
        message.insert(
            "id".into(),
            serde_json::to_value(&id).map_err(CallError::Encode)?,
        );
        message.insert("method".into(), method.into());
        if let Some(p) = self.params_with_meta(params) {
            message.insert("params".into(), p);
        }
        let text = Value::Object(message).to_string();
        let answer = self
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
            .map(serde_json::to_value)
            .transpose()
            .map_err(CallError::Encode)?;
        let raw = self.request_raw(M::METHOD, params).await?;
        super::jsonrpc::decode_result::<M>(raw).map_err(CallError::Result)
    }

    /// Sends a notification by method name with raw params.
    pub async fn notify_raw(&self, method: &str, params: Option<Value>) -> Result<(), CallError> {
        let mut message = Map::new();
        message.insert("jsonrpc".into(), "2.0".into());
        message.insert("method".into(), method.into());
        if let Some(p) = params {
            message.insert("params".into(), p);
        }
        self.transport
            .notify(Value::Object(message).to_string())
            .await
            .map_err(CallError::Transport)
    }

    /// Sends a notification of method `N`.
    pub async fn notify<N: Notification>(
        &self,
        params: Option<&N::Params>,
    ) -> Result<(), CallError> {
        let params = params
            .map(serde_json::to_value)
            .transpose()
            .map_err(CallError::Encode)?;
        self.notify_raw(N::METHOD, params).await
    }
}

/// The `result` of a response message, or the error it carries.
fn response_result(id: &Id, answer: &str) -> Result<Value, CallError> {
    let value: Value =
        serde_json::from_str(answer).map_err(|e| CallError::InvalidResponse(format!("{e}")))?;
    let Value::Object(mut map) = value else {
        return Err(CallError::InvalidResponse("not a JSON object".into()));
    };
    match map.get("id") {
        Some(got) if serde_json::to_value(id).ok().as_ref() == Some(got) => {}
        Some(Value::Null) | None if map.contains_key("error") => {}
        other => {
            return Err(CallError::InvalidResponse(format!(
                "answers id {}, expected {id}",
                other
                    .map(Value::to_string)
                    .unwrap_or_else(|| "(none)".into())
            )));
        }
    }
    if let Some(error) = map.remove("error") {
        let error: ErrorObject = serde_json::from_value(error)
            .map_err(|e| CallError::InvalidResponse(format!("bad error object: {e}")))?;
        return Err(CallError::Rejected(error));
    }
    map.remove("result")
        .ok_or_else(|| CallError::InvalidResponse("neither `result` nor `error`".into()))
}

/// What an incoming message is, read without decoding its payload.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Route {
    /// A request, a notification, a batch, or something malformed: give it to the
    /// dispatch function, which answers what needs an answer.
    Incoming,
    /// A response to a request this side sent: give it to whoever awaits `id`.
    Response(Id),
}

/// Tells responses from everything else, reading only the envelope's keys.
pub fn route(message: &[u8]) -> Route {
    #[derive(Deserialize)]
    struct Envelope {
        id: Option<Id>,
        method: Option<IgnoredAny>,
        result: Option<IgnoredAny>,
        error: Option<IgnoredAny>,
    }
    match serde_json::from_slice::<Envelope>(message) {
        Ok(Envelope {
            id: Some(id),
            method: None,
            result,
            error,
        }) if result.is_some() || error.is_some() => Route::Response(id),
        _ => Route::Incoming,
    }
}

/// Where a handler is: the request's id, its `_meta`, and the peer to call back.
#[derive(Debug, Clone)]
pub struct RequestContext<P> {
    /// The id of the request being answered.
    pub id: Id,
    /// The request's `params._meta`, if any.
    pub meta: Option<Map<String, Value>>,
    /// The other side, typed: send it requests and notifications while answering.
    pub peer: P,
}

/// Where a notification handler is: the notification's `_meta` and the peer.
#[derive(Debug, Clone)]
pub struct NotificationContext<P> {
    /// The notification's `params._meta`, if any.
    pub meta: Option<Map<String, Value>>,
    /// The other side, typed.
    pub peer: P,
}

/// The protocol policy in front of a handler: it sees every request and notification
/// before the handler does, and may refuse them. Version negotiation, capability checks
/// and lifecycle rules live here, not in dispatch. Every method has a permissive default.
pub trait Policy: Send + Sync {
    /// Called before a request reaches the handler; an error is sent back instead.
    fn check_request(
        &self,
        method: &str,
        meta: Option<&Map<String, Value>>,
    ) -> Result<(), ErrorObject> {
        let _ = (method, meta);
        Ok(())
    }

    /// Called before a notification reaches the handler; `false` drops it.
    fn check_notification(&self, method: &str, meta: Option<&Map<String, Value>>) -> bool {
        let _ = (method, meta);
        true
    }
}

/// The policy that lets everything through.
#[derive(Debug, Clone, Copy, Default)]
pub struct Open;

impl Policy for Open {}

/// The error a handler's default body answers: -32601, naming the method.
pub fn method_not_found(method: &str) -> ErrorObject {
    ErrorObject {
        code: codes::METHOD_NOT_FOUND,
        message: format!("method not found: `{method}` is not handled here"),
        data: None,
    }
}

/// The `_meta` of a message's params, if it has one.
#[doc(hidden)]
pub fn params_meta(message: &Value) -> Option<Map<String, Value>> {
    match message.get("params")?.get("_meta")? {
        Value::Object(m) => Some(m.clone()),
        _ => None,
    }
}

/// Whether a message is a notification: a method and no id. Notifications are never
/// answered, not even when they are malformed.
#[doc(hidden)]
pub fn is_notification(message: &Value) -> bool {
    message.get("method").is_some() && message.get("id").is_none()
}

/// The parse-error response (-32700, id null).
#[doc(hidden)]
pub fn parse_error(error: &serde_json::Error) -> String {
    serde_json::json!({
        "jsonrpc": "2.0",
        "id": null,
        "error": {"code": codes::PARSE_ERROR, "message": format!("parse error: {error}")},
    })
    .to_string()
}

/// The error response for a message that could not be decoded.
#[doc(hidden)]
pub fn protocol_error(error: &ProtocolError) -> String {
    let mut response = error.to_response();
    if let Value::Object(m) = &mut response {
        m.entry("id").or_insert(Value::Null);
    }
    response.to_string()
}

/// The response to request `id`: its encoded result, or the error.
#[doc(hidden)]
pub fn respond<T: serde::Serialize>(id: &Id, result: Result<T, ErrorObject>) -> String {
    let body = match result.map(|r| serde_json::to_value(r)) {
        Ok(Ok(result)) => serde_json::json!({"jsonrpc": "2.0", "id": id, "result": result}),
        Ok(Err(e)) => serde_json::json!({
            "jsonrpc": "2.0",
            "id": id,
            "error": {"code": codes::INTERNAL_ERROR, "message": format!("cannot encode the result: {e}")},
        }),
        Err(error) => serde_json::json!({"jsonrpc": "2.0", "id": id, "error": error}),
    };
    body.to_string()
}

/// The error response for a request the policy refused.
#[doc(hidden)]
pub fn refuse(id: &Id, error: ErrorObject) -> String {
    respond::<()>(id, Err(error))
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
            response_result(&id, r#"{"jsonrpc":"2.0","id":7,"result":{"a":1}}"#).unwrap()["a"],
            1
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
