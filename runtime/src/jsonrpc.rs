//! JSON-RPC messages, and the one decoder every way into the crate goes through.
//!
//! A message is read in three layers, in this order, whatever entry point it comes
//! through ([`decode`], [`receive_typed`], a version's `decode_from_client` /
//! `decode_from_server`, its `serve_*_message`, the typed peers, [`path::from_str`]):
//!
//! 1. **JSON** ([`super::json`]): UTF-8, syntax, no lone surrogates, numbers a double
//!    holds, no member name given twice in one object (anywhere: the envelope, params, a
//!    union's tag, `_meta`), at most [`MAX_DEPTH`](super::json::MAX_DEPTH) levels of
//!    nesting in the whole message. Checked as the message is read, by the parser that
//!    decodes it (`read.rs`): each byte is read once. A fault anywhere answers
//!    -32700, whatever was decoded before it.
//! 2. **Envelope**: `jsonrpc` must be `"2.0"`; a `method` makes a request (with an `id`)
//!    or a notification (without), and such a message carries no `result` or `error`; a
//!    `result` makes a result response (with an `id`), an `error` an error response;
//!    anything else is not a JSON-RPC message. An `id` is a string or an integer.
//! 3. **Payload**: the params of a request or notification are decoded by its `method`,
//!    into exactly that method's params type (never "the first variant that fits"); a
//!    result, by the method of the request it answers ([`decode_result`], the version's
//!    `ServerResult::decode` / `ClientResult::decode`, or [`receive_typed`] with the
//!    caller's lookup from id to method).
//!
//! So the same bytes give the same outcome everywhere: accepted or not, the code, the
//! path and the decoded value. Errors carry the JSON-RPC code to answer with:
//!
//! | code | when |
//! | --- | --- |
//! | -32700 | anything wrong at the JSON level, anywhere in the message (layer 1); the error has the path |
//! | -32600 | JSON, but not a JSON-RPC 2.0 message (layer 2): no or wrong `jsonrpc`, an `id` that is not a string or an integer, no `method`, `result` or `error`, a request that also carries `result` or `error`, `params` that are not an object, … |
//! | -32601 | a `method` this side does not handle (unless [`UnknownMethods::Keep`]) |
//! | -32602 | a known method whose params do not fit; the error has the JSON path (a missing field names the field itself: `params.name`) |
//!
//! Nothing is lost: members of the envelope the protocol does not define come back in
//! each message's `extra` and are written back; `"data": null` in an error stays; a
//! result stays as the text that came ([`RawResult`]) until it is decoded by its method.
//! The member order does not matter to the outcome. It matters to the speed: a message
//! written as peers write it (`method` before `params`; `id` before `params` and
//! `result`) is read in one pass, its params (or result) decoded in place by the method
//! already read (`one_pass`); any other message, and any message with something wrong,
//! is read the careful way, its members noted as text and then decoded, with the same
//! parser and decoders, so that both ways give the same outcome.

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::{Map, Value};

use super::json::{self, Checked, Noted, Parser};
use super::method::Request;
use super::path::{self, DecodeError};
use super::serde_helpers::exact_integer;

/// The member of a request or notification that holds its params.
pub const PARAMS: &str = "params";

/// The member of params (and results) that holds what the protocol attaches.
pub(crate) const META: &str = "_meta";

/// JSON-RPC's standard error codes.
pub mod codes {
    /// Invalid JSON was received.
    pub const PARSE_ERROR: i64 = -32700;
    /// The JSON sent is not a valid request object.
    pub const INVALID_REQUEST: i64 = -32600;
    /// The method does not exist or is not available.
    pub const METHOD_NOT_FOUND: i64 = -32601;
    /// Invalid method parameters.
    pub const INVALID_PARAMS: i64 = -32602;
    /// Internal JSON-RPC error.
    pub const INTERNAL_ERROR: i64 = -32603;
}

/// A request id: MCP allows a string or an integer (never `null`).
///
/// An integer may come written as JSON Schema counts integers, with a fraction or an
/// exponent (`1.0`, `1E2`, `-0`): that is [`Id::Written`], which keeps the text so that
/// the answer echoes the id exactly as it came. Ids compare, hash and order by value:
/// `Id::Integer(100)` equals the id written `1E2`, so a response's id finds its request
/// however the peer wrote it.
#[derive(Debug, Clone)]
pub enum Id {
    /// An integer id, written as digits.
    Integer(i64),
    /// A string id.
    String(String),
    /// An integer id written another way (`1.0`, `1E2`, `-0`): its value and its text as
    /// it came, which is what is written back.
    Written {
        /// The integer.
        value: i64,
        /// The JSON number as the peer wrote it.
        text: String,
    },
}

impl Id {
    /// The integer of an integer id, however it was written.
    pub fn as_i64(&self) -> Option<i64> {
        match self {
            Id::Integer(value) | Id::Written { value, .. } => Some(*value),
            Id::String(_) => None,
        }
    }

    /// The text of a string id.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Id::String(s) => Some(s),
            _ => None,
        }
    }

    /// What equality, hashing and order go by: the value, not how it was written.
    fn key(&self) -> Result<i64, &str> {
        self.as_i64()
            .ok_or_else(|| self.as_str().unwrap_or_default())
    }
}

impl PartialEq for Id {
    fn eq(&self, other: &Self) -> bool {
        self.key() == other.key()
    }
}

impl Eq for Id {}

impl std::hash::Hash for Id {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.key().hash(state);
    }
}

impl PartialOrd for Id {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// Integers before strings; integers by value, strings by text.
impl Ord for Id {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.key().cmp(&other.key())
    }
}

impl Serialize for Id {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Id::Integer(i) => serializer.serialize_i64(*i),
            Id::String(s) => serializer.serialize_str(s),
            // As it came, when its text is the JSON number of its value (the fields are
            // public: anything else is written as the value). serde_json writes the raw
            // text; another serializer gets serde_json's raw-value token, so encode
            // messages with serde_json.
            Id::Written { value, text } => match serde_json::from_str::<&RawValue>(text) {
                Ok(raw)
                    if serde_json::from_str::<f64>(text)
                        .ok()
                        .and_then(exact_integer)
                        == Some(*value) =>
                {
                    raw.serialize(serializer)
                }
                _ => serializer.serialize_i64(*value),
            },
        }
    }
}

// By the JSON kind, in one step: serde's derived untagged enum would buffer the value and
// try the arms in turn.
impl<'de> Deserialize<'de> for Id {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct IdVisitor;
        impl serde::de::Visitor<'_> for IdVisitor {
            type Value = Id;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a request id (a string or an integer)")
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Id, E> {
                Ok(Id::Integer(v))
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Id, E> {
                i64::try_from(v).map(Id::Integer).map_err(|_| {
                    E::invalid_value(
                        serde::de::Unexpected::Unsigned(v),
                        &"an integer id that fits i64",
                    )
                })
            }
            // The text is gone by now: the number as serde_json writes it stands in.
            fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<Id, E> {
                let text = serde_json::Number::from_f64(v).map(|n| n.to_string());
                match (exact_integer(v), text) {
                    (Some(value), Some(text)) => Ok(Id::Written { value, text }),
                    _ => Err(E::invalid_value(
                        serde::de::Unexpected::Float(v),
                        &"an integer id that fits i64",
                    )),
                }
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Id, E> {
                Ok(Id::String(v.to_string()))
            }
            fn visit_string<E: serde::de::Error>(self, v: String) -> Result<Id, E> {
                Ok(Id::String(v))
            }
        }
        deserializer.deserialize_any(IdVisitor)
    }
}

impl From<i64> for Id {
    fn from(v: i64) -> Self {
        Id::Integer(v)
    }
}

impl From<&str> for Id {
    fn from(v: &str) -> Self {
        Id::String(v.to_string())
    }
}

impl fmt::Display for Id {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Id::Integer(i) => write!(f, "{i}"),
            Id::String(s) => write!(f, "{s:?}"),
            Id::Written { text, .. } => f.write_str(text),
        }
    }
}

/// Members the protocol does not define, kept as they came (written back after the
/// defined ones).
pub type Extra = Map<String, Value>;

/// The error object of an error response.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ErrorObject {
    /// The error code.
    pub code: i64,
    /// A short description.
    pub message: String,
    /// Anything else the sender attached: `Some(Value::Null)` for `"data": null`, `None`
    /// when there is no `data`.
    pub data: Option<Value>,
    /// Other members, kept and written back.
    pub extra: Extra,
}

// `data` is filled as an optional nullable property is: present (`null` included) or not.
crate::open_object! {
    ErrorObject {
        code: "code",
        message: "message",
        data: "data" optional_nullable,
    }
}

impl ErrorObject {
    /// An error with a code and a message, no data.
    pub fn new(code: i64, message: impl Into<String>) -> Self {
        ErrorObject {
            code,
            message: message.into(),
            data: None,
            extra: Extra::new(),
        }
    }

    /// -32602: the params do not fit the method (a missing argument, a tool that does not
    /// exist, a resource the server does not have where its version defines no code of
    /// its own).
    pub fn invalid_params(message: impl Into<String>) -> Self {
        ErrorObject::new(codes::INVALID_PARAMS, message)
    }

    /// -32600: the message is not a valid request.
    pub fn invalid_request(message: impl Into<String>) -> Self {
        ErrorObject::new(codes::INVALID_REQUEST, message)
    }

    /// -32601: the method does not exist or is not served here.
    pub fn method_not_found(message: impl Into<String>) -> Self {
        ErrorObject::new(codes::METHOD_NOT_FOUND, message)
    }

    /// -32603: the receiver failed while handling the request.
    pub fn internal_error(message: impl Into<String>) -> Self {
        ErrorObject::new(codes::INTERNAL_ERROR, message)
    }

    /// This error with `data`.
    pub fn with_data(mut self, data: Value) -> Self {
        self.data = Some(data);
        self
    }
}

/// A value that did not decode (a tool's arguments, say) is -32602 with its path, so a
/// handler can use `?` on [`path::from_value`] and the like.
impl From<DecodeError> for ErrorObject {
    fn from(e: DecodeError) -> Self {
        ErrorObject::invalid_params(e.to_string())
    }
}

/// The `result` of a response as it came: JSON text, checked (see the
/// [module docs](self)), not yet decoded: only the method of the request it answers says
/// what it is ([`decode_result`], the version's `ServerResult::decode`).
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct RawResult(Box<str>);

impl RawResult {
    /// Checks `text` as the JSON layer does.
    pub fn from_text(text: &str) -> Result<RawResult, json::JsonError> {
        json::check(text)?;
        Ok(RawResult(text.into()))
    }

    /// A value's text.
    pub fn from_value(value: &Value) -> Result<RawResult, json::JsonError> {
        RawResult::from_text(&value.to_string())
    }

    /// Text the JSON layer has checked (what [`ResultSet::decode_checked`] is given):
    /// for the decoders and generated code, which keep that promise.
    #[doc(hidden)]
    pub fn checked(text: &str) -> RawResult {
        RawResult(text.into())
    }

    /// The JSON text.
    pub fn get(&self) -> &str {
        &self.0
    }

    /// The result as a value.
    pub fn to_value(&self) -> Value {
        // Checked JSON: it parses.
        serde_json::from_str(&self.0).unwrap_or(Value::Null)
    }
}

impl fmt::Debug for RawResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "RawResult({})", self.0)
    }
}

impl fmt::Display for RawResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Writes the text as it is.
impl Serialize for RawResult {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let raw: &RawValue = serde_json::from_str(&self.0).map_err(serde::ser::Error::custom)?;
        raw.serialize(serializer)
    }
}

/// The set of requests (or notifications) one side handles: the generated
/// `ClientRequest`, `ServerRequest`, `ClientNotification` and `ServerNotification` enums.
pub trait MethodSet: Sized {
    /// The enum's name, for error messages.
    const NAME: &'static str;

    /// Decodes the params of `method` (in place in the message being read, or from their
    /// checked text; absent when the message has none); `Ok(None)` if the set has no such
    /// method, the params then left unread.
    #[doc(hidden)]
    fn decode_checked(method: &str, params: Payload<'_, '_>) -> Result<Option<Self>, DecodeError>;

    /// The catch-all variant for a method the set does not know.
    fn other(method: String, params: Option<Value>) -> Self;

    /// The method string.
    fn method(&self) -> &str;

    /// Writes the `params` member (nothing when the message has none) straight from the
    /// typed params.
    fn write_params<M: serde::ser::SerializeMap>(&self, map: &mut M) -> Result<(), M::Error>;
}

/// A decoded JSON-RPC message, with requests and notifications typed by method.
#[derive(Debug, Clone, PartialEq)]
pub enum Message<R, N> {
    /// A request: it expects a response with the same id.
    Request {
        /// The request id.
        id: Id,
        /// The method and its typed params.
        request: R,
        /// Members of the envelope the protocol does not define.
        extra: Extra,
    },
    /// A notification.
    Notification {
        /// The method and its typed params.
        notification: N,
        /// Members of the envelope the protocol does not define.
        extra: Extra,
    },
    /// A successful response; decode `result` with the method of the request it answers.
    Response {
        /// The id of the request it answers.
        id: Id,
        /// The result, as it came.
        result: RawResult,
        /// Members of the envelope the protocol does not define.
        extra: Extra,
    },
    /// An error response.
    Error {
        /// The id of the request it answers; `None` when it names none (no `id`, or
        /// `"id": null`, which is then kept in `extra`).
        id: Option<Id>,
        /// The error.
        error: ErrorObject,
        /// Members of the envelope the protocol does not define.
        extra: Extra,
    },
    /// A batch (protocol versions that allow batches only): each element decoded on its
    /// own, as a server answers each (an element that is not a message, or does not
    /// decode, is its error, beside the others).
    Batch(Vec<Result<Message<R, N>, ProtocolError>>),
}

impl<R, N> Message<R, N> {
    /// A request with no other members.
    pub fn request(id: impl Into<Id>, request: R) -> Self {
        Message::Request {
            id: id.into(),
            request,
            extra: Extra::new(),
        }
    }

    /// A notification with no other members.
    pub fn notification(notification: N) -> Self {
        Message::Notification {
            notification,
            extra: Extra::new(),
        }
    }
}

/// What to do with a method the receiving side does not know.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum UnknownMethods {
    /// Fail with -32601 (method not found).
    #[default]
    Reject,
    /// Decode into the enum's `Other` variant, keeping the raw params. A known method
    /// never lands there: its params are decoded or the message fails with -32602.
    Keep,
}

/// Decoding options. The default rejects unknown methods and batches; each version's
/// `methods::OPTIONS` has that version's own (batches in 2025-03-26), and its
/// `decode_from_*` / `receive_from_*` functions use them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Options {
    /// What to do with unknown methods.
    pub unknown_methods: UnknownMethods,
    /// Whether a top-level array (a batch) is accepted.
    pub batches: bool,
}

/// Why a message could not be decoded, with the JSON-RPC code to answer with.
#[derive(Debug, Clone, PartialEq)]
pub struct ProtocolError {
    /// -32700, -32600, -32601 or -32602.
    pub code: i64,
    /// What is wrong, for people.
    pub message: String,
    /// The id of the offending request, when it could be read.
    pub id: Option<Id>,
    /// JSON path of the offending value, when there is one (`params.arguments`).
    pub path: Option<String>,
    /// Whether the message is a notification (a `method` and no `id`): JSON-RPC never
    /// answers one, not even when it is malformed.
    pub notification: bool,
}

impl ProtocolError {
    fn new(code: i64, message: impl Into<String>) -> Self {
        ProtocolError {
            code,
            message: message.into(),
            id: None,
            path: None,
            notification: false,
        }
    }

    fn at(mut self, path: &str) -> Self {
        self.path = Some(path.to_string());
        self
    }

    /// The error object to send back.
    pub fn to_error_object(&self) -> ErrorObject {
        let error = ErrorObject::new(self.code, self.message.clone());
        match &self.path {
            Some(p) => error.with_data(serde_json::json!({ "path": p })),
            None => error,
        }
    }

    /// The whole error response to send back (`"id": null` when the id could not be
    /// read, as JSON-RPC asks), as JSON text.
    pub fn to_response(&self) -> String {
        let mut extra = Extra::new();
        if self.id.is_none() {
            extra.insert("id".into(), Value::Null);
        }
        encode_text(&ErrorResponse {
            id: self.id.as_ref(),
            error: &self.to_error_object(),
            extra: &extra,
        })
    }
}

impl fmt::Display for ProtocolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "JSON-RPC error {}: {}", self.code, self.message)
    }
}

impl std::error::Error for ProtocolError {}

/// The JSON layer's error, as -32700.
pub(crate) fn parse_error(e: json::JsonError) -> ProtocolError {
    let path = (!e.path().is_empty()).then(|| e.path().to_string());
    ProtocolError {
        path,
        ..ProtocolError::new(codes::PARSE_ERROR, format!("parse error: {e}"))
    }
}

/// Decodes one message (or batch) from bytes: the three layers of the
/// [module docs](self). A result response keeps its result as it came ([`RawResult`]).
pub fn decode<R: MethodSet, N: MethodSet>(
    bytes: &[u8],
    options: Options,
) -> Result<Message<R, N>, ProtocolError> {
    if let Ok(text) = json::utf8(bytes) {
        if let Some(read) = one_pass::<R, N, NoResults>(text, &mut |_| None) {
            return Ok(read.message(|id, raw, extra| {
                let raw = match raw {
                    Ok(never) => match never {},
                    Err(raw) => raw,
                };
                raw_response(id, raw, extra)
            }));
        }
    }
    decode_careful(bytes, options)
}

/// [`decode`] the careful way alone, as it reads what its one pass leaves: the tests hold
/// the two readings to each other.
#[doc(hidden)]
pub fn decode_careful<R: MethodSet, N: MethodSet>(
    bytes: &[u8],
    options: Options,
) -> Result<Message<R, N>, ProtocolError> {
    let (_, checked) = json::check_bytes(bytes).map_err(parse_error)?;
    let one = |noted| -> Result<Message<R, N>, ProtocolError> {
        let envelope = envelope(noted)?;
        finish(envelope, options, &mut raw_response).map(|(message, _)| message)
    };
    match top(checked, options)? {
        Top::One(noted) => one(noted),
        Top::Batch(items) => Ok(Message::Batch(
            items.into_iter().map(|item| item.and_then(one)).collect(),
        )),
    }
}

/// A message as [`one_pass`] read it.
pub(crate) struct Read<'a, R, N, S> {
    pub(crate) id: Option<Id>,
    pub(crate) body: Body<'a, R, N, S>,
    pub(crate) extra: Extra,
    /// The text of the params' `_meta`.
    pub(crate) meta: Option<&'a str>,
}

pub(crate) enum Body<'a, R, N, S> {
    Request(R),
    Notification(N),
    /// A result, decoded by the method of the request it answers.
    Typed(S),
    /// A result whose method the caller did not know, as it came.
    Result(&'a str),
    Error(ErrorObject),
}

impl<'a, R, N, S> Read<'a, R, N, S> {
    /// The message, a result given to `result`.
    pub(crate) fn message<T: From<Message<R, N>>>(
        self,
        result: impl FnOnce(Id, Result<S, &'a str>, Extra) -> T,
    ) -> T {
        let Read {
            id, body, extra, ..
        } = self;
        // `one_pass` gives a request and a result only with an id.
        let id_of =
            |id: Option<Id>| id.expect("one_pass gives a request or result only with an id");
        match body {
            Body::Request(request) => T::from(Message::Request {
                id: id_of(id),
                request,
                extra,
            }),
            Body::Notification(notification) => T::from(Message::Notification {
                notification,
                extra,
            }),
            Body::Typed(typed) => result(id_of(id), Ok(typed), extra),
            Body::Result(raw) => result(id_of(id), Err(raw), extra),
            Body::Error(error) => T::from(Message::Error { id, error, extra }),
        }
    }
}

/// No results: what reading a message asks of them where none is decoded ([`decode`],
/// serving).
pub(crate) enum NoResults {}

impl ResultSet for NoResults {
    type Method = ();

    fn decode_checked(_: (), _: Payload<'_, '_>) -> Result<Self, ResultError> {
        Err(ResultError {
            method: String::new(),
            error: DecodeError::custom("no result is decoded here"),
            raw: RawResult("null".into()),
        })
    }
}

/// Reads one message object in one pass: each byte read once and checked as it is read
/// ([`read`](super::read)), the params decoded in place by the `method` before them, a
/// result by the method of the request its `id` (before it) answers, other members kept
/// as they are read. That is how peers write messages. Anything else (`None`: another
/// member order, a batch, an unknown method, anything wrong) is read again the careful way
/// ([`json::check_bytes`], [`envelope`], [`finish`]), which answers as ever: the same
/// parser and the same decoders, so the two readings agree on every message both read
/// (tests hold them to it).
pub(crate) fn one_pass<'a, R: MethodSet, N: MethodSet, S: ResultSet>(
    text: &'a str,
    method_of: &mut dyn FnMut(&Id) -> Option<S::Method>,
) -> Option<Read<'a, R, N, S>> {
    let mut parser = Parser::new(text, 0);
    parser.ws();
    if parser.bytes.get(parser.at) != Some(&b'{') {
        return None;
    }
    let mut members = super::read::Members::open(&mut parser).ok()?;
    let mut version = false;
    let mut id = None;
    let mut method = None;
    let mut body = None;
    let mut extra = Extra::new();
    let mut meta = None;
    let mut later = None;
    let mut peeked = None;
    while let Some(key) = members.next_name().ok()? {
        let p = members.parser();
        let name = if key.escaped { "" } else { key.raw };
        match name {
            "jsonrpc" => {
                version = p.skip().ok()? == "\"2.0\"";
                if !version {
                    return None;
                }
            }
            // After params decoded as a request's (a peer that writes `id` last), or a
            // result decoded by the id read from the end, which this must be.
            "id" if !matches!(body, Some(Body::Notification(_))) => {
                let raw = p.skip().ok()?;
                if peeked.is_some_and(|peeked| peeked != raw) {
                    return None;
                }
                peeked = None;
                id = Some(id_of(raw)?);
            }
            "method" if body.is_none() => {
                let raw = p.skip().ok()?;
                let inner = raw.strip_prefix('"')?.strip_suffix('"')?;
                method = Some(inner).filter(|m| !m.contains('\\'));
                method?;
            }
            PARAMS if body.is_none() => {
                let method = method?;
                p.ws();
                if p.bytes.get(p.at) != Some(&b'{') {
                    return None;
                }
                p.meta_depth = 2;
                // Without an `id` yet, by the set that knows the method: an `id` may
                // still come (checked at the end). A set that does not know it reads
                // nothing.
                if id.is_none() {
                    if let Some(n) = N::decode_checked(method, Payload(At::Here(p))).ok()? {
                        body = Some(Body::Notification(n));
                    }
                }
                if body.is_none() {
                    body = Some(Body::Request(
                        R::decode_checked(method, Payload(At::Here(p))).ok()??,
                    ));
                }
                p.meta_depth = 0;
                meta = p.meta.take();
            }
            "result" if body.is_none() && method.is_none() && later.is_none() => match &id {
                Some(id) => body = Some(result::<R, N, S>(p, method_of(id))?),
                // A peer that writes `id` after `result`: when the message ends with its
                // `id` (the TypeScript SDK's order), by the id read from the end, checked
                // when it is read in its place; otherwise read in place once the `id` says
                // what it answers, passed by its structure until then.
                None => match last_id(text) {
                    Some(raw) => {
                        peeked = Some(raw);
                        body = Some(result::<R, N, S>(p, method_of(&id_of(raw)?))?);
                    }
                    None => {
                        p.ws();
                        later = Some(p.at);
                        p.skim()?;
                    }
                },
            },
            "error" if body.is_none() && method.is_none() => {
                body = Some(Body::Error(ErrorObject::deserialize(&mut *p).ok()?));
            }
            "id" | "method" | PARAMS | "result" | "error" | "" => return None,
            _ => {
                let value = Value::deserialize(&mut *p).ok()?;
                extra.insert(name.to_string(), value);
            }
        }
    }
    parser.ws();
    if parser.at < parser.bytes.len() || !version || peeked.is_some() {
        return None;
    }
    if let Some(at) = later {
        // A result, and something else that made the message what it is.
        if body.is_some() {
            return None;
        }
        let mut p = Parser::new(text, 1);
        p.at = at;
        body = Some(result::<R, N, S>(&mut p, method_of(id.as_ref()?))?);
    }
    if body.is_none() {
        // A request or notification without params.
        let method = method?;
        body = Some(match id {
            Some(_) => Body::Request(R::decode_checked(method, Payload::text(None)).ok()??),
            None => Body::Notification(N::decode_checked(method, Payload::text(None)).ok()??),
        });
    }
    let body = body?;
    match (&body, &id) {
        (Body::Request(_) | Body::Typed(_) | Body::Result(_), None) => return None,
        (Body::Notification(_), Some(_)) => return None,
        // A response that also names a method (in either order).
        (Body::Typed(_) | Body::Result(_) | Body::Error(_), _) if method.is_some() => return None,
        _ => {}
    }
    Some(Read {
        id,
        body,
        extra,
        meta,
    })
}

/// The text of the `id` of a message whose last member it is (`…,"id":7}`), read from
/// the end: a string without escapes or a number. For valid JSON that is the message's
/// own last member (a `,"` cannot be inside a string); the member is read again in its
/// place and must be the same text.
fn last_id(text: &str) -> Option<&str> {
    const WS: [char; 4] = [' ', '\t', '\n', '\r'];
    let body = text
        .trim_end_matches(WS)
        .strip_suffix('}')?
        .trim_end_matches(WS);
    let start = match body.strip_suffix('"') {
        Some(open) => {
            let quote = open.rfind('"')?;
            if open[quote..].contains('\\') {
                return None;
            }
            quote
        }
        None => body
            .rfind(|c: char| !matches!(c, '0'..='9' | '-' | '+' | '.' | 'e' | 'E'))?
            .checked_add(1)?,
    };
    let (before, value) = body.split_at(start);
    let before = before.trim_end_matches(WS).strip_suffix(':')?;
    let before = before.trim_end_matches(WS).strip_suffix("\"id\"")?;
    before.trim_end_matches(WS).ends_with(',').then_some(value)
}

/// The `result` at `p`, in place: decoded by `method`, or as it came.
fn result<'a, R, N, S: ResultSet>(
    p: &mut Parser<'a>,
    method: Option<S::Method>,
) -> Option<Body<'a, R, N, S>> {
    Some(match method {
        Some(m) => Body::Typed(S::decode_checked(m, Payload(At::Here(p))).ok()?),
        None => Body::Result(p.skip().ok()?),
    })
}

/// A result response whose result stays as it came.
fn raw_response<R, N>(id: Id, raw: &str, extra: Extra) -> Message<R, N> {
    Message::Response {
        id,
        result: RawResult(raw.into()),
        extra,
    }
}

/// The message object(s) of a checked text.
pub(crate) enum Top<'a> {
    One(Noted<'a>),
    /// A batch: each element a message object, or why it is not one.
    Batch(Vec<Result<Noted<'a>, ProtocolError>>),
}

pub(crate) fn top(checked: Checked<'_>, options: Options) -> Result<Top<'_>, ProtocolError> {
    match checked {
        Checked::Object(noted) => Ok(Top::One(noted)),
        Checked::Array(items) if options.batches => {
            if items.is_empty() {
                return Err(ProtocolError::new(codes::INVALID_REQUEST, "an empty batch"));
            }
            Ok(Top::Batch(
                items
                    .into_iter()
                    .map(|item| item.map_err(not_an_object))
                    .collect(),
            ))
        }
        Checked::Array(_) => Err(ProtocolError::new(
            codes::INVALID_REQUEST,
            "batches are not part of this protocol version",
        )),
        Checked::Other(kind) => Err(not_an_object(kind)),
    }
}

fn not_an_object(kind: &str) -> ProtocolError {
    ProtocolError::new(
        codes::INVALID_REQUEST,
        format!("a message must be a JSON object, found {kind}"),
    )
}

/// A message whose envelope has been read (layer 2), its payload not yet decoded.
pub(crate) struct Envelope<'a> {
    pub(crate) id: Option<Id>,
    pub(crate) kind: Kind<'a>,
    pub(crate) extra: Extra,
    /// The raw `_meta` of the params, when they have one.
    pub(crate) meta: Option<&'a str>,
}

pub(crate) enum Kind<'a> {
    /// A request (with an id) or a notification.
    Call {
        method: std::borrow::Cow<'a, str>,
        params: Option<&'a str>,
    },
    Result(&'a str),
    Error(ErrorObject),
}

/// Reads the envelope of a message object (layer 2).
pub(crate) fn envelope(noted: Noted<'_>) -> Result<Envelope<'_>, ProtocolError> {
    let mut jsonrpc = None;
    let mut id = None;
    let mut method = None;
    let mut params = None;
    let mut result = None;
    let mut error = None;
    let mut extra = Extra::new();
    for (key, value) in noted.members {
        let slot = match key.as_ref() {
            "jsonrpc" => &mut jsonrpc,
            "id" => &mut id,
            "method" => &mut method,
            "params" => &mut params,
            "result" => &mut result,
            "error" => &mut error,
            _ => {
                extra.insert(key.into_owned(), value_of(value));
                continue;
            }
        };
        // The JSON layer refused a repeated name: each slot is filled once.
        *slot = Some(value);
    }
    let notification = method.is_some() && id.is_none();
    let fail = |code: i64, message: String, path: Option<&str>, id: Option<Id>| ProtocolError {
        code,
        message,
        id,
        path: path.map(str::to_string),
        notification,
    };
    // An `id` of `null` names no request: an error response may carry one (JSON-RPC's
    // answer to a request whose id could not be read), kept in `extra`.
    let id = match id {
        None => None,
        Some("null") if error.is_some() && method.is_none() && result.is_none() => {
            extra.insert("id".into(), Value::Null);
            None
        }
        Some(raw) => Some(id_of(raw).ok_or_else(|| {
            fail(
                codes::INVALID_REQUEST,
                format!("`id` must be a string or an integer, found {raw}"),
                Some("id"),
                None,
            )
        })?),
    };
    match jsonrpc {
        Some("\"2.0\"") => {}
        Some(raw) if serde_json::from_str::<String>(raw).is_ok_and(|v| v == "2.0") => {}
        Some(raw) => {
            return Err(fail(
                codes::INVALID_REQUEST,
                format!("`jsonrpc` must be \"2.0\", found {raw}"),
                Some("jsonrpc"),
                id,
            ));
        }
        None => {
            return Err(fail(
                codes::INVALID_REQUEST,
                "missing `jsonrpc`".into(),
                None,
                id,
            ));
        }
    }
    let kind = match (method, result, error) {
        (Some(raw), result, error) => {
            let Some(method) = string_of(raw) else {
                return Err(fail(
                    codes::INVALID_REQUEST,
                    format!("`method` must be a string, found {}", kind_of(raw)),
                    Some("method"),
                    id,
                ));
            };
            if let Some(which) = result.map(|_| "result").or(error.map(|_| "error")) {
                return Err(fail(
                    codes::INVALID_REQUEST,
                    format!("a request or notification must not carry `{which}`"),
                    Some(which),
                    id,
                ));
            }
            if let Some(p) = params.filter(|p| !p.starts_with('{')) {
                return Err(fail(
                    codes::INVALID_REQUEST,
                    format!("`params` must be an object, found {}", kind_of(p)),
                    Some("params"),
                    id,
                ));
            }
            Kind::Call { method, params }
        }
        (None, Some(_), Some(_)) => {
            return Err(fail(
                codes::INVALID_REQUEST,
                "a response with both `result` and `error`".into(),
                None,
                id,
            ));
        }
        (None, Some(result), None) => {
            if id.is_none() {
                return Err(fail(
                    codes::INVALID_REQUEST,
                    "a result response without `id`".into(),
                    None,
                    None,
                ));
            }
            Kind::Result(result)
        }
        (None, None, Some(error)) => match serde_json::from_str::<ErrorObject>(error) {
            Ok(error) => Kind::Error(error),
            Err(e) => {
                return Err(fail(
                    codes::INVALID_REQUEST,
                    format!(
                        "invalid error object: {}",
                        path::strip_position(&e.to_string())
                    ),
                    Some("error"),
                    id,
                ));
            }
        },
        (None, None, None) => {
            return Err(fail(
                codes::INVALID_REQUEST,
                "not a request, notification or response: no `method`, `result` or `error`".into(),
                None,
                id,
            ));
        }
    };
    // Members a response or an error does not define.
    if !matches!(kind, Kind::Call { .. }) {
        if let Some(p) = params {
            extra.insert(PARAMS.into(), value_of(p));
        }
    }
    let meta = noted
        .params
        .and_then(|members| members.into_iter().find(|(k, _)| k == META))
        .map(|(_, v)| v);
    Ok(Envelope {
        id,
        kind,
        extra,
        meta,
    })
}

/// The text of a checked JSON string (borrowed when it has no escapes); `None` for
/// anything else.
fn string_of(raw: &str) -> Option<std::borrow::Cow<'_, str>> {
    let inner = raw.strip_prefix('"')?.strip_suffix('"')?;
    if inner.contains('\\') {
        serde_json::from_str::<String>(raw)
            .ok()
            .map(std::borrow::Cow::Owned)
    } else {
        // Checked JSON: a string without escapes holds no quote or control character.
        Some(std::borrow::Cow::Borrowed(inner))
    }
}

/// The id of checked JSON text: a string, or an integer that fits `i64`, written as
/// digits or any other way JSON Schema counts as an integer (kept as written).
fn id_of(raw: &str) -> Option<Id> {
    match raw.as_bytes().first()? {
        b'"' => string_of(raw).map(|s| Id::String(s.into_owned())),
        b'-' | b'0'..=b'9' => match raw.parse::<i64>() {
            Ok(value) if raw != "-0" => Some(Id::Integer(value)),
            // Read by serde_json, as every other path reads the number.
            _ => Some(Id::Written {
                value: exact_integer(serde_json::from_str(raw).ok()?)?,
                text: raw.to_string(),
            }),
        },
        _ => None,
    }
}

/// The value of checked JSON text.
fn value_of(raw: &str) -> Value {
    serde_json::from_str(raw).unwrap_or(Value::Null)
}

/// The JSON kind of checked JSON text, from its first character.
fn kind_of(raw: &str) -> &'static str {
    raw.as_bytes().first().map_or("nothing", |&b| json::kind(b))
}

/// Decodes the payload of a request or notification (layer 3), and turns a result
/// response into what `result` makes of it. Gives the message and the raw `_meta` of its
/// params.
pub(crate) fn finish<'a, R: MethodSet, N: MethodSet, T>(
    envelope: Envelope<'a>,
    options: Options,
    result: &mut dyn FnMut(Id, &'a str, Extra) -> T,
) -> Result<(T, Option<&'a str>), ProtocolError>
where
    T: From<Message<R, N>>,
{
    let Envelope {
        id,
        kind,
        extra,
        meta,
    } = envelope;
    let message = match (kind, id) {
        (Kind::Call { method, params }, Some(id)) => match call::<R>(method, params, options) {
            Ok(request) => Message::Request { id, request, extra },
            Err(e) => {
                return Err(ProtocolError { id: Some(id), ..e });
            }
        },
        (Kind::Call { method, params }, None) => {
            let notification = call::<N>(method, params, options).map_err(|e| ProtocolError {
                notification: true,
                ..e
            })?;
            Message::Notification {
                notification,
                extra,
            }
        }
        (Kind::Result(raw), Some(id)) => return Ok((result(id, raw, extra), meta)),
        (Kind::Error(error), id) => Message::Error { id, error, extra },
        // The envelope reader gives a result only with an id.
        (Kind::Result(_), None) => {
            return Err(ProtocolError::new(
                codes::INVALID_REQUEST,
                "a result response without `id`",
            ));
        }
    };
    Ok((T::from(message), meta))
}

/// The params of `method`, by the set `S` (layer 3).
fn call<S: MethodSet>(
    method: std::borrow::Cow<'_, str>,
    params: Option<&str>,
    options: Options,
) -> Result<S, ProtocolError> {
    match S::decode_checked(&method, Payload::text(params)) {
        Ok(Some(decoded)) => Ok(decoded),
        Ok(None) => match options.unknown_methods {
            UnknownMethods::Keep => Ok(S::other(method.into_owned(), params.map(value_of))),
            UnknownMethods::Reject => Err(ProtocolError::new(
                codes::METHOD_NOT_FOUND,
                format!("method not found: `{method}` is not a {}", S::NAME),
            )),
        },
        Err(e) => Err(invalid_params(&method, &e)),
    }
}

fn invalid_params(method: &str, e: &DecodeError) -> ProtocolError {
    let path = if e.path().is_empty() {
        "params".to_string()
    } else {
        format!("params.{}", e.path())
    };
    ProtocolError::new(
        codes::INVALID_PARAMS,
        format!("invalid params for `{method}` at `{path}`: {}", e.inner()),
    )
    .at(&path)
}

/// The results one side answers with, decoded by the method of the request each answers:
/// the generated `ServerResult` and `ClientResult` enums.
pub trait ResultSet: Sized {
    /// The version's `methods::Method` enum.
    type Method: Copy + fmt::Debug;

    /// Decodes the `result` of a response to a request of `method` (in place in the
    /// message being read, or from its checked text); a method this side does not
    /// answer, or a result that does not fit, is an error.
    #[doc(hidden)]
    fn decode_checked(method: Self::Method, raw: Payload<'_, '_>) -> Result<Self, ResultError>;

    /// Decodes the `result` of a response to a request of `method`.
    fn decode(method: Self::Method, raw: &RawResult) -> Result<Self, ResultError> {
        Self::decode_checked(method, Payload::text(Some(raw.get())))
    }
}

/// A message as the receiving side wants it, a result response included: what
/// [`receive_typed`] gives.
#[derive(Debug, PartialEq)]
pub enum Incoming<R, N, S> {
    /// A request, a notification, an error response, a batch, or a result response to an
    /// id the caller did not know (with its raw result), as [`decode`] gives them.
    Message(Message<R, N>),
    /// A result response to a request whose method the caller knew: its result decoded by
    /// that method, or why it does not fit.
    Result {
        /// The id of the request it answers.
        id: Id,
        /// The result, or why it does not fit the method.
        result: Result<S, ResultError>,
        /// Members of the envelope the protocol does not define.
        extra: Extra,
    },
}

impl<R, N, S> From<Message<R, N>> for Incoming<R, N, S> {
    fn from(message: Message<R, N>) -> Self {
        Incoming::Message(message)
    }
}

/// Decodes a message as the receiving side wants it, results included: a result response
/// is decoded by the method of the request it answers, which `method_of` gives for its id
/// (a client keeps the method of each request it sent until its response arrives). The
/// same decoder as [`decode`]; the result is decoded from its text in the message.
///
/// ```
/// use mcp_spec_types::rt::jsonrpc::{self, Id, Incoming, Options};
/// use mcp_spec_types::v2026_07_28::methods::{Method, ServerNotification, ServerRequest, ServerResult};
///
/// // The client sent `tools/list` as request 4.
/// let pending = |id: &Id| (*id == Id::Integer(4)).then_some(Method::ListTools);
/// let bytes = br#"{"result":{"resultType":"complete","cacheScope":"public","ttlMs":60000,
///     "tools":[]},"jsonrpc":"2.0","id":4}"#;
/// let incoming = jsonrpc::receive_typed::<ServerRequest, ServerNotification, ServerResult>(
///     bytes,
///     Options::default(),
///     pending,
/// )
/// .unwrap();
/// match incoming {
///     Incoming::Result { id, result: Ok(ServerResult::ListTools(list)), .. } => {
///         assert_eq!((id, list.tools.len()), (Id::Integer(4), 0));
///     }
///     other => panic!("not the tools: {other:?}"),
/// }
/// ```
pub fn receive_typed<R: MethodSet, N: MethodSet, S: ResultSet>(
    bytes: &[u8],
    options: Options,
    mut method_of: impl FnMut(&Id) -> Option<S::Method>,
) -> Result<Incoming<R, N, S>, ProtocolError> {
    if let Ok(text) = json::utf8(bytes) {
        if let Some(read) = one_pass::<R, N, S>(text, &mut method_of) {
            return Ok(read.message(|id, result, extra| match result {
                Ok(typed) => Incoming::Result {
                    id,
                    result: Ok(typed),
                    extra,
                },
                Err(raw) => Incoming::Message(raw_response(id, raw, extra)),
            }));
        }
    }
    let (_, checked) = json::check_bytes(bytes).map_err(parse_error)?;
    let mut result = |id: Id, raw: &str, extra: Extra| match method_of(&id) {
        Some(method) => Incoming::Result {
            id,
            result: S::decode_checked(method, Payload::text(Some(raw))),
            extra,
        },
        None => Incoming::Message(raw_response(id, raw, extra)),
    };
    match top(checked, options)? {
        Top::One(noted) => {
            finish::<R, N, _>(envelope(noted)?, options, &mut result).map(|(m, _)| m)
        }
        // A batch holds no result the caller asked for: as `decode`.
        Top::Batch(items) => Ok(Incoming::Message(Message::Batch(
            items
                .into_iter()
                .map(|item| {
                    let envelope = envelope(item?)?;
                    finish::<R, N, Message<R, N>>(envelope, options, &mut raw_response)
                        .map(|(m, _)| m)
                })
                .collect(),
        ))),
    }
}

/// A message serializes as its JSON-RPC object (a batch as an array), straight from the
/// typed params: `serde_json::to_vec(&message)` writes the wire form without building a
/// [`Value`]. Members are written in the order `jsonrpc`, `id`, `method`/`result`/`error`,
/// `params`, then the extra members.
impl<R: MethodSet, N: MethodSet> Serialize for Message<R, N> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::{SerializeMap, SerializeSeq};
        fn extras<M: SerializeMap>(map: &mut M, extra: &Extra) -> Result<(), M::Error> {
            for (k, v) in extra {
                map.serialize_entry(k, v)?;
            }
            Ok(())
        }
        match self {
            Message::Request { id, request, extra } => {
                let mut map = serializer.serialize_map(None)?;
                map.serialize_entry("jsonrpc", "2.0")?;
                map.serialize_entry("id", id)?;
                map.serialize_entry("method", request.method())?;
                request.write_params(&mut map)?;
                extras(&mut map, extra)?;
                map.end()
            }
            Message::Notification {
                notification,
                extra,
            } => {
                let mut map = serializer.serialize_map(None)?;
                map.serialize_entry("jsonrpc", "2.0")?;
                map.serialize_entry("method", notification.method())?;
                notification.write_params(&mut map)?;
                extras(&mut map, extra)?;
                map.end()
            }
            Message::Response { id, result, extra } => {
                Response { id, result, extra }.serialize(serializer)
            }
            Message::Error { id, error, extra } => ErrorResponse {
                id: id.as_ref(),
                error,
                extra,
            }
            .serialize(serializer),
            Message::Batch(items) => {
                let mut seq = serializer.serialize_seq(Some(items.len()))?;
                for (at, item) in items.iter().enumerate() {
                    match item {
                        Ok(message) => seq.serialize_element(message)?,
                        // What did not decode has no message to write.
                        Err(e) => {
                            return Err(serde::ser::Error::custom(format_args!(
                                "element {at} of the batch is not a message: {}",
                                e.message
                            )));
                        }
                    }
                }
                seq.end()
            }
        }
    }
}

/// A result response around any serializable result (a typed result, a `ServerResult`).
struct Response<'a, T> {
    id: &'a Id,
    result: &'a T,
    extra: &'a Extra,
}

impl<T: Serialize> Serialize for Response<'_, T> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("jsonrpc", "2.0")?;
        map.serialize_entry("id", self.id)?;
        map.serialize_entry("result", self.result)?;
        for (k, v) in self.extra {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

/// An error response: `jsonrpc`, `id` (when it names one), `error`, then the extra
/// members. What [`Message::Error`] writes, and the answers the crate makes itself.
pub(crate) struct ErrorResponse<'a> {
    pub(crate) id: Option<&'a Id>,
    pub(crate) error: &'a ErrorObject,
    pub(crate) extra: &'a Extra,
}

impl Serialize for ErrorResponse<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("jsonrpc", "2.0")?;
        if let Some(id) = self.id {
            map.serialize_entry("id", id)?;
        }
        map.serialize_entry("error", self.error)?;
        for (k, v) in self.extra {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

/// The text of a message that encodes (every message does: its members are plain data).
pub(crate) fn encode_text<T: Serialize>(message: &T) -> String {
    super::write::to_vec(message)
        .ok()
        .and_then(|bytes| String::from_utf8(bytes).ok())
        .unwrap_or_default()
}

/// Encodes a message to its wire bytes in one pass, without building a [`Value`]: the
/// bytes `serde_json::to_vec(message)` writes, written by [`write::to_vec`](super::write::to_vec)
/// (faster, mostly on strings).
pub fn encode_to_vec<R: MethodSet, N: MethodSet>(
    message: &Message<R, N>,
) -> Result<Vec<u8>, serde_json::Error> {
    super::write::to_vec(message)
}

/// Encodes a result response to wire bytes straight from the typed result, by
/// [`write::to_vec`](super::write::to_vec) as [`encode_to_vec`] does.
pub fn encode_response<T: Serialize>(id: &Id, result: &T) -> Result<Vec<u8>, serde_json::Error> {
    super::write::to_vec(&Response {
        id,
        result,
        extra: &Extra::new(),
    })
}

/// The `params` or `result` of a message as a generated decoder is handed them: in place
/// in the message being read ([`decode`] reads each message in one pass), or as text the
/// JSON layer checked, or absent.
#[doc(hidden)]
pub struct Payload<'p, 'de>(At<'p, 'de>);

enum At<'p, 'de> {
    Absent,
    Text(&'de str),
    Here(&'p mut Parser<'de>),
}

impl<'p, 'de> Payload<'p, 'de> {
    /// Checked text, or nothing.
    pub(crate) fn text(text: Option<&'de str>) -> Self {
        Payload(text.map_or(At::Absent, At::Text))
    }

    /// Decodes `T`: in place, or from the text (then the error's path is the text's).
    fn decode<T: Deserialize<'de>>(self) -> Option<Result<T, DecodeError>> {
        match self.0 {
            At::Absent => None,
            At::Text(text) => Some(path::from_checked(text).map_err(DecodeError::without_position)),
            // An error here is not reported: the message is read again, as text, to say
            // what is wrong (see `one_pass`).
            At::Here(parser) => Some(T::deserialize(parser).map_err(DecodeError::custom)),
        }
    }

    /// The text, for an error that keeps it (none in place: that error is not reported).
    fn text_of(&self) -> Option<&'de str> {
        match self.0 {
            At::Text(text) => Some(text),
            At::Absent | At::Here(_) => None,
        }
    }
}

/// Decodes required params; absent params are an error.
#[doc(hidden)]
pub fn required<'de, T: Deserialize<'de>>(params: Payload<'_, 'de>) -> Result<T, DecodeError> {
    params
        .decode()
        .unwrap_or_else(|| Err(DecodeError::custom("missing field `params`")))
}

/// Decodes optional params.
#[doc(hidden)]
pub fn optional<'de, T: Deserialize<'de>>(
    params: Payload<'_, 'de>,
) -> Result<Option<T>, DecodeError> {
    params.decode().transpose()
}

/// A result that does not fit the method of the request it answers. Keeps the raw value.
#[derive(Debug)]
pub struct ResultError {
    /// The method of the request the result answers.
    pub method: String,
    /// Why it does not fit.
    pub error: DecodeError,
    /// The result as received.
    pub raw: RawResult,
}

impl PartialEq for ResultError {
    fn eq(&self, other: &Self) -> bool {
        (&self.method, self.error.to_string(), &self.raw)
            == (&other.method, other.error.to_string(), &other.raw)
    }
}

impl fmt::Display for ResultError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the result does not fit `{}`: {}",
            self.method, self.error
        )
    }
}

impl std::error::Error for ResultError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.error)
    }
}

/// Decodes the `result` of a response to a request of method `M`, in place or from its
/// checked text.
#[doc(hidden)]
pub fn decode_result_checked<M: Request>(raw: Payload<'_, '_>) -> Result<M::Result, ResultError> {
    let text = raw.text_of();
    let decoded = raw
        .decode()
        .unwrap_or_else(|| Err(DecodeError::custom("no result")));
    decoded.map_err(|error| ResultError {
        method: M::METHOD.to_string(),
        error,
        raw: RawResult(text.unwrap_or("null").into()),
    })
}

/// The error of a result that does not fit, in the generated decoders: an error that
/// keeps the result's text.
#[doc(hidden)]
pub fn result_error(method: &str, error: DecodeError, raw: &Payload<'_, '_>) -> ResultError {
    ResultError {
        method: method.to_string(),
        error,
        raw: RawResult(raw.text_of().unwrap_or("null").into()),
    }
}

/// Decodes the `result` of a response to a request of method `M`.
pub fn decode_result<M: Request>(raw: &RawResult) -> Result<M::Result, ResultError> {
    decode_result_checked::<M>(Payload::text(Some(raw.get())))
}

#[cfg(test)]
mod tests {
    use super::last_id;

    #[test]
    fn the_last_id_is_read_from_the_end_only_when_it_is_the_last_member() {
        let cases = [
            (r#"{"result":{},"jsonrpc":"2.0","id":7}"#, Some("7")),
            (r#"{"result":{}, "id" : "a-1" }  "#, Some(r#""a-1""#)),
            ("{\"result\":{},\n\"id\":-12\n}\n", Some("-12")),
            (r#"{"id":7}"#, None),
            (r#"{"result":{},"id":"a\"b"}"#, None),
            (r#"{"result":{},"xid":7}"#, None),
            (r#"{"result":"x\",\"id\":7}"#, None),
            (r#"{"result":{},"id":7,"jsonrpc":"2.0"}"#, None),
            (r#"{"result":{},"id":null}"#, None),
        ];
        for (text, want) in cases {
            assert_eq!(last_id(text), want, "{text}");
        }
    }
}
