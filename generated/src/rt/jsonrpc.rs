//! JSON-RPC envelopes and the one entry point that decodes a whole message.
//!
//! [`decode`] takes a message off the wire and tells, by the keys present, what it is:
//! a request (`method` and `id`), a notification (`method`, no `id`), a result response
//! (`result`), an error response (`error`), or, where the protocol version allows
//! batches, an array of those. Requests and notifications are then decoded by their
//! `method`: exactly that method's params type is decoded, never "the first variant
//! that fits". Errors carry the JSON-RPC code a peer should answer with:
//!
//! | code | when |
//! | --- | --- |
//! | -32700 | not JSON at all |
//! | -32600 | JSON, but not a JSON-RPC 2.0 message (no or wrong `jsonrpc`, bad `id`, no `method`, …) |
//! | -32601 | a `method` this side does not handle (unless [`UnknownMethods::Keep`]) |
//! | -32602 | a known method whose params do not fit; the error has the JSON path |
//!
//! Responses carry their `result` undecoded ([`serde_json::Value`]): only the method of
//! the request it answers says what it is. Decode it with [`decode_result`] (typed, by
//! marker) or the version's `ServerResult::decode` / `ClientResult::decode` (by
//! [`Method`](crate) value). [`receive`] keeps it as raw text for
//! `ServerResult::decode_text`; [`receive_typed`] asks the caller for the method of the
//! request an id names and decodes the result as it reads the message, in one pass.

use std::fmt;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::{Map, Value};

use super::method::Request;
use super::path::{self, DecodeError};

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
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(untagged)]
pub enum Id {
    /// An integer id.
    Integer(i64),
    /// A string id.
    String(String),
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
        }
    }
}

/// The error object of an error response.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorObject {
    /// The error code.
    pub code: i64,
    /// A short description.
    pub message: String,
    /// Anything else the sender attached.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<Value>,
}

/// The set of requests (or notifications) one side handles: the generated
/// `ClientRequest`, `ServerRequest`, `ClientNotification` and `ServerNotification` enums.
pub trait MethodSet: Sized {
    /// The enum's name, for error messages.
    const NAME: &'static str;

    /// Decodes the params of `method`; `Ok(None)` if the set has no such method.
    fn decode(method: &str, params: Option<Value>) -> Result<Option<Self>, DecodeError>;

    /// Decodes the params of `method` from `params`, a deserializer standing at them in the
    /// pass over the whole message, and stores `place` of them in `out`; leaves `out` as
    /// it is (and skips the params) if the set has no such method. The value goes
    /// straight to `out` rather than back through the deserializers' `Result`s, each of
    /// which would copy it. The default knows no method, so the message is decoded by
    /// [`MethodSet::decode_text`] instead.
    #[doc(hidden)]
    fn decode_in<'de, D: serde::Deserializer<'de>, T>(
        method: &str,
        params: D,
        place: impl FnOnce(Self) -> T,
        out: &mut Option<T>,
    ) -> Result<(), D::Error> {
        let _ = (method, place, out);
        serde::de::IgnoredAny::deserialize(params).map(|_| ())
    }

    /// Decodes the params of `method` from their JSON text, in one pass without building
    /// a [`Value`]; `Ok(None)` if the set has no such method. The default goes through
    /// [`MethodSet::decode`]; the generated sets decode the text directly.
    fn decode_text(method: &str, params: Option<&RawValue>) -> Result<Option<Self>, DecodeError> {
        let params = params
            .map(|p| path::from_str::<Value>(p.get()))
            .transpose()?;
        Self::decode(method, params)
    }

    /// The catch-all variant for a method the set does not know.
    fn other(method: String, params: Option<Value>) -> Self;

    /// The method string.
    fn method(&self) -> &str;

    /// The params as JSON (`None` when the message has none).
    fn params(&self) -> Result<Option<Value>, serde_json::Error>;

    /// Writes the `params` member (nothing when the message has none) straight from the
    /// typed params. The default goes through [`MethodSet::params`].
    fn write_params<M: serde::ser::SerializeMap>(&self, map: &mut M) -> Result<(), M::Error> {
        match self
            .params()
            .map_err(<M::Error as serde::ser::Error>::custom)?
        {
            Some(p) => map.serialize_entry("params", &p),
            None => Ok(()),
        }
    }
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
    },
    /// A notification.
    Notification(N),
    /// A successful response; decode `result` with the method of the request it answers.
    Response {
        /// The id of the request it answers.
        id: Id,
        /// The undecoded result.
        result: Value,
    },
    /// An error response.
    Error {
        /// The id of the request it answers (absent when the request could not be read).
        id: Option<Id>,
        /// The error.
        error: ErrorObject,
    },
    /// A batch (protocol versions that allow batches only).
    Batch(Vec<Message<R, N>>),
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

/// Decoding options.
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
}

impl ProtocolError {
    fn new(code: i64, message: impl Into<String>) -> Self {
        ProtocolError {
            code,
            message: message.into(),
            id: None,
            path: None,
        }
    }

    /// The error object to send back.
    pub fn to_error_object(&self) -> ErrorObject {
        ErrorObject {
            code: self.code,
            message: self.message.clone(),
            data: self.path.as_ref().map(|p| serde_json::json!({ "path": p })),
        }
    }

    /// The whole error response to send back, as JSON.
    pub fn to_response(&self) -> Value {
        let mut out = Map::new();
        out.insert("jsonrpc".into(), "2.0".into());
        if let Some(id) = &self.id {
            out.insert("id".into(), serde_json::to_value(id).unwrap_or(Value::Null));
        }
        out.insert(
            "error".into(),
            serde_json::to_value(self.to_error_object()).unwrap_or(Value::Null),
        );
        Value::Object(out)
    }
}

impl fmt::Display for ProtocolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "JSON-RPC error {}: {}", self.code, self.message)
    }
}

impl std::error::Error for ProtocolError {}

/// Decodes one message (or batch) from bytes.
///
/// One pass over the envelope keeps `params`, `result` and `error` as raw JSON text;
/// params are then decoded straight from that text into their type, and only a result
/// becomes a [`Value`]. The outcome is the same as [`decode_value`] of the parsed bytes.
pub fn decode<R: MethodSet, N: MethodSet>(
    bytes: &[u8],
    options: Options,
) -> Result<Message<R, N>, ProtocolError> {
    let mut out = None;
    if let Ok(text) = std::str::from_utf8(bytes) {
        one_pass::receive::<R, N, _>(text, &mut one_pass::Raw, &mut out);
    }
    if let Some(Received::Message(message)) = out {
        return Ok(message);
    }
    parse(bytes)?.decode(options)
}

/// A message as the receiving side wants it: requests, notifications and errors decoded,
/// a result response with its `result` still raw, to be decoded by the method of the
/// request it answers (the version's `ServerResult::decode_text` /
/// `ClientResult::decode_text`, or [`decode_result_text`]).
#[derive(Debug)]
pub enum Received<'a, R, N> {
    /// A request, a notification, an error response or a batch, decoded as by [`decode`].
    Message(Message<R, N>),
    /// A result response: the id of the request it answers, and the raw result.
    Result {
        /// The id of the request it answers.
        id: Id,
        /// The `result`, as JSON text.
        result: &'a RawValue,
    },
}

/// Decodes a message as the receiving side wants it (see [`Received`]). In the usual
/// member order (`jsonrpc`, `id`, `method`, `params` / `result`) this is one pass over the
/// bytes, params decoded straight into their type; otherwise the envelope is read first
/// ([`parse`]). Either way the outcome is that of [`parse`], then [`Parsed::response`] or
/// [`Parsed::decode`].
pub fn receive<R: MethodSet, N: MethodSet>(
    bytes: &[u8],
    options: Options,
) -> Result<Received<'_, R, N>, ProtocolError> {
    let mut out = None;
    if let Ok(text) = std::str::from_utf8(bytes) {
        one_pass::receive::<R, N, _>(text, &mut one_pass::Raw, &mut out);
    }
    if let Some(received) = out {
        return Ok(received);
    }
    let parsed = parse(bytes)?;
    match parsed.response() {
        Some((id, result)) => Ok(Received::Result { id, result }),
        None => parsed.decode(options).map(Received::Message),
    }
}

/// The results one side answers with, decoded by the method of the request each answers:
/// the generated `ServerResult` and `ClientResult` enums.
pub trait ResultSet: Sized {
    /// The version's `methods::Method` enum.
    type Method: Copy;

    /// Decodes the `result` of a response to a request of `method` from its JSON text;
    /// a method this side does not answer, or a result that does not fit, is an error.
    fn decode_text(method: Self::Method, raw: &RawValue) -> Result<Self, ResultError>;

    /// Decodes the `result` of a response to a request of `method` from `result`, a
    /// deserializer standing at it in the pass over the whole message, into `out`. Leaves
    /// `out` as it is when this cannot be decided in the pass (a method this side does not
    /// answer, a union of results whose usual arm the rules do not confirm), and fails
    /// where the result does not decode; either way the message is then decoded the
    /// two-pass way, which gives the outcome, error path included.
    #[doc(hidden)]
    fn decode_in<'de, D: serde::Deserializer<'de>>(
        method: Self::Method,
        result: D,
        out: &mut Option<Self>,
    ) -> Result<(), D::Error>;
}

/// A message as the receiving side wants it, a result response included: what
/// [`receive_typed`] gives.
#[derive(Debug)]
pub enum Incoming<'a, R, N, S> {
    /// A request, a notification, an error response or a batch, decoded as by [`decode`].
    Message(Message<R, N>),
    /// A result response to a request whose method the caller knew: its result decoded by
    /// that method, or why it does not fit.
    Result {
        /// The id of the request it answers.
        id: Id,
        /// The result, or why it does not fit the method.
        result: Result<S, ResultError>,
    },
    /// A result response to an id the caller did not know, with its raw result.
    Unmatched {
        /// The id it names.
        id: Id,
        /// The `result`, as JSON text.
        result: &'a RawValue,
    },
}

/// Decodes a message as the receiving side wants it, results included: a result response
/// is decoded by the method of the request it answers, which `method_of` gives for its id
/// (a client keeps the method of each request it sent until its response arrives).
///
/// In the usual member order (`jsonrpc`, `id`, then `method` and `params`, or `result`)
/// this is one pass over the bytes, the result decoded straight into its type as it is
/// read; otherwise, or where the pass cannot decide, the envelope is read first. Either
/// way the outcome is that of [`receive`], then `S::decode_text` of the method
/// `method_of` gives ([`Incoming::Result`]), or the raw result where it gives `None`
/// ([`Incoming::Unmatched`]). `method_of` is asked once per message (once more only for a
/// message that names two ids), and only for a result response.
///
/// ```
/// use mcp_spec_types::rt::jsonrpc::{self, Id, Incoming, Options};
/// use mcp_spec_types::v2026_07_28::methods::{Method, ServerNotification, ServerRequest, ServerResult};
///
/// // The client sent `tools/list` as request 4.
/// let pending = |id: &Id| (*id == Id::Integer(4)).then_some(Method::ListTools);
/// let bytes = br#"{"jsonrpc":"2.0","id":4,"result":{
///     "resultType":"complete","cacheScope":"public","ttlMs":60000,"tools":[]}}"#;
/// let incoming = jsonrpc::receive_typed::<ServerRequest, ServerNotification, ServerResult>(
///     bytes,
///     Options::default(),
///     pending,
/// )
/// .unwrap();
/// match incoming {
///     Incoming::Result { id, result: Ok(ServerResult::ListTools(list)) } => {
///         assert_eq!((id, list.tools.len()), (Id::Integer(4), 0));
///     }
///     other => panic!("not the tools: {other:?}"),
/// }
/// ```
pub fn receive_typed<'a, R: MethodSet, N: MethodSet, S: ResultSet>(
    bytes: &'a [u8],
    options: Options,
    mut method_of: impl FnMut(&Id) -> Option<S::Method>,
) -> Result<Incoming<'a, R, N, S>, ProtocolError> {
    let mut sink = one_pass::Typed::<S, _> {
        method_of: &mut method_of,
        asked: None,
    };
    let mut out = None;
    if let Ok(text) = std::str::from_utf8(bytes) {
        one_pass::receive::<R, N, _>(text, &mut sink, &mut out);
    }
    if let Some(incoming) = out {
        return Ok(incoming);
    }
    let parsed = parse(bytes)?;
    match parsed.response() {
        Some((id, result)) => Ok(match sink.method(&id) {
            Some(method) => Incoming::Result {
                result: S::decode_text(method, result),
                id,
            },
            None => Incoming::Unmatched { id, result },
        }),
        None => parsed.decode(options).map(Incoming::Message),
    }
}

/// A request or notification decoded in a single pass over the message, params included,
/// when its members come in the usual order (`method` before `params`, `id`, if any,
/// before `params`); a result response read with its `result` raw. Anything else —
/// another order, an error response, an unknown method, a repeated member, any error —
/// gives `None`, and the message is decoded the two-pass way ([`parse`], then
/// [`Parsed::response`] or [`Parsed::decode`]), which gives the same outcome. So whenever
/// this gives something, it is what the two-pass way gives.
mod one_pass {
    use std::borrow::Cow;
    use std::fmt;
    use std::marker::PhantomData;

    use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, Visitor};

    use serde_json::value::RawValue;

    use super::{Id, Incoming, Message, MethodSet, Received, ResultSet};
    use crate::rt::serde_helpers::Key;

    /// What the pass makes of a message: how it wraps a request or notification, and what
    /// it does with a result response's `result`.
    pub(super) trait Sink<'de, R, N> {
        /// What the pass gives.
        type Out;
        /// A request or notification.
        fn message(message: Message<R, N>) -> Self::Out;
        /// Reads the `result` of a response to request `id` from `map`; `Ok(None)` when the
        /// two-pass way must decide.
        fn result<A: MapAccess<'de>>(
            &mut self,
            id: Id,
            map: &mut A,
        ) -> Result<Option<Self::Out>, A::Error>;
    }

    /// Keeps a result raw: [`Received`].
    pub(super) struct Raw;

    impl<'de, R, N> Sink<'de, R, N> for Raw {
        type Out = Received<'de, R, N>;

        fn message(message: Message<R, N>) -> Self::Out {
            Received::Message(message)
        }

        fn result<A: MapAccess<'de>>(
            &mut self,
            id: Id,
            map: &mut A,
        ) -> Result<Option<Self::Out>, A::Error> {
            let result: &'de RawValue = map.next_value()?;
            Ok(Some(Received::Result { id, result }))
        }
    }

    /// Decodes a result by the method of the request it answers: [`Incoming`].
    pub(super) struct Typed<'f, S: ResultSet, F> {
        /// The method of the request an id names.
        pub(super) method_of: &'f mut F,
        /// The id last looked up and what `method_of` said of it, so that the two-pass
        /// way does not ask again.
        pub(super) asked: Option<(Id, Option<S::Method>)>,
    }

    impl<S: ResultSet, F: FnMut(&Id) -> Option<S::Method>> Typed<'_, S, F> {
        /// The method of the request `id` names, asking `method_of` once per id.
        pub(super) fn method(&mut self, id: &Id) -> Option<S::Method> {
            match &self.asked {
                Some((asked, method)) if asked == id => *method,
                _ => {
                    let method = (self.method_of)(id);
                    self.asked = Some((id.clone(), method));
                    method
                }
            }
        }
    }

    impl<'de, R, N, S: ResultSet, F: FnMut(&Id) -> Option<S::Method>> Sink<'de, R, N>
        for Typed<'_, S, F>
    {
        type Out = Incoming<'de, R, N, S>;

        fn message(message: Message<R, N>) -> Self::Out {
            Incoming::Message(message)
        }

        fn result<A: MapAccess<'de>>(
            &mut self,
            id: Id,
            map: &mut A,
        ) -> Result<Option<Self::Out>, A::Error> {
            let Some(method) = self.method(&id) else {
                let result: &'de RawValue = map.next_value()?;
                return Ok(Some(Incoming::Unmatched { id, result }));
            };
            let result = map.next_value_seed(ResultSeed::<S>(method))?;
            Ok(result.map(|result| Incoming::Result {
                id,
                result: Ok(result),
            }))
        }
    }

    /// A result decoded by `S` for its method in the pass (see [`ResultSet::decode_in`]).
    struct ResultSeed<S: ResultSet>(S::Method);

    impl<'de, S: ResultSet> DeserializeSeed<'de> for ResultSeed<S> {
        type Value = Option<S>;

        fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Option<S>, D::Error> {
            let mut out = None;
            S::decode_in(self.0, deserializer, &mut out)?;
            Ok(out)
        }
    }

    /// Decodes `text` into `out`, which is left `None` when the two-pass way must decide.
    /// The visitor writes the message into `out` where it is built, rather than handing
    /// it back through serde's `Result`s: a message is as large as the largest method's
    /// params (hundreds of bytes), and each layer it passed through would copy it.
    pub(super) fn receive<'a, R: MethodSet, N: MethodSet, K: Sink<'a, R, N>>(
        text: &'a str,
        sink: &mut K,
        out: &mut Option<K::Out>,
    ) {
        let mut de = serde_json::Deserializer::from_str(text);
        let read = de.deserialize_map(MessageVisitor::<R, N, K> {
            out: &mut *out,
            sink,
            _sets: PhantomData,
        });
        if read.is_err() || de.end().is_err() {
            *out = None;
        }
    }

    struct MessageVisitor<'o, 'de, R, N, K: Sink<'de, R, N>> {
        out: &'o mut Option<K::Out>,
        sink: &'o mut K,
        _sets: PhantomData<(R, N)>,
    }

    impl<'de, R: MethodSet, N: MethodSet, K: Sink<'de, R, N>> Visitor<'de>
        for MessageVisitor<'_, 'de, R, N, K>
    {
        /// The message, if any, is in `out`; it stays `None` when the two-pass way decides.
        type Value = ();

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a JSON-RPC message")
        }

        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
            let mut jsonrpc = false;
            let mut id: Option<Id> = None;
            let mut method: Option<Cow<'de, str>> = None;
            // Whether `out` holds the params (a request or a notification) or a result.
            let mut params = false;
            let mut result = false;
            while let Some(key) = map.next_key::<Key<'de>>()? {
                match key.as_str() {
                    "jsonrpc" if !jsonrpc => {
                        let value = map.next_value::<Key<'de>>()?;
                        if value.as_str() != "2.0" {
                            return Ok(());
                        }
                        jsonrpc = true;
                    }
                    "id" if id.is_none() && !params && !result => {
                        id = Some(map.next_value::<Id>()?);
                    }
                    "method" if method.is_none() && !result => {
                        method = Some(map.next_value::<Key<'de>>()?.into_cow());
                    }
                    "result" if !result && method.is_none() => {
                        let Some(id) = id.take() else {
                            return Ok(());
                        };
                        *self.out = self.sink.result(id, &mut map)?;
                        if self.out.is_none() {
                            return Ok(());
                        }
                        result = true;
                    }
                    "params" if !params && !result => {
                        let Some(m) = method.as_deref() else {
                            return Ok(());
                        };
                        match id.take() {
                            Some(id) => map.next_value_seed(Params {
                                method: m,
                                place: |request| K::message(Message::Request { id, request }),
                                out: &mut *self.out,
                                _set: PhantomData::<R>,
                            })?,
                            None => map.next_value_seed(Params {
                                method: m,
                                place: |n| K::message(Message::Notification(n)),
                                out: &mut *self.out,
                                _set: PhantomData::<N>,
                            })?,
                        }
                        if self.out.is_none() {
                            return Ok(());
                        }
                        params = true;
                    }
                    // Repeated members, an `id` after the params or the result (decoded
                    // as a notification's), a response: the two-pass way decides.
                    "id" | "jsonrpc" | "method" | "params" | "result" | "error" => {
                        *self.out = None;
                        return Ok(());
                    }
                    _ => {
                        map.next_value::<IgnoredAny>()?;
                    }
                }
            }
            if !jsonrpc || !(params || result) {
                *self.out = None;
            }
            Ok(())
        }
    }

    /// The params of `method`, decoded by the set `S` and stored as `place` of them in
    /// `out`; `out` stays `None` when `S` has no such method.
    struct Params<'m, 'o, S, P: FnOnce(S) -> T, T> {
        method: &'m str,
        place: P,
        out: &'o mut Option<T>,
        _set: PhantomData<S>,
    }

    impl<'de, S: MethodSet, P: FnOnce(S) -> T, T> DeserializeSeed<'de> for Params<'_, '_, S, P, T> {
        type Value = ();

        fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
            S::decode_in(self.method, ObjectOnly(deserializer), self.place, self.out)
        }
    }

    /// A deserializer that yields only a JSON object: params must be one (serde's derived
    /// structs would also take an array).
    struct ObjectOnly<D>(D);

    struct ObjectVisitor<V>(V);

    impl<'de, V: Visitor<'de>> Visitor<'de> for ObjectVisitor<V> {
        type Value = V::Value;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("params as an object")
        }

        fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<V::Value, A::Error> {
            self.0.visit_map(map)
        }
    }

    impl<'de, D: Deserializer<'de>> Deserializer<'de> for ObjectOnly<D> {
        type Error = D::Error;

        fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
            self.0.deserialize_map(ObjectVisitor(visitor))
        }

        serde::forward_to_deserialize_any! {
            bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
            bytes byte_buf option unit unit_struct newtype_struct seq tuple
            tuple_struct map struct enum identifier ignored_any
        }
    }
}

/// Reads a message's envelope in one pass without decoding it yet: a result response can
/// then be decoded straight from its text once the method it answers is known
/// ([`Parsed::response`], then the version's `ServerResult::decode_text` /
/// `ClientResult::decode_text` or [`decode_result_text`]), and anything else finishes
/// with [`Parsed::decode`], without reading the bytes again.
pub fn parse(bytes: &[u8]) -> Result<Parsed<'_>, ProtocolError> {
    // Checking UTF-8 once up front is cheaper than serde_json checking every string of a
    // byte slice; bytes that are not UTF-8 go the slice way, for its error and position.
    match std::str::from_utf8(bytes) {
        Ok(text) => serde_json::from_str(text),
        Err(_) => serde_json::from_slice(bytes),
    }
    .map(|top| Parsed { top })
    .map_err(|e| ProtocolError::new(codes::PARSE_ERROR, format!("parse error: {e}")))
}

/// A message whose envelope has been read; see [`parse`].
pub struct Parsed<'a> {
    top: Top<'a>,
}

impl<'a> Parsed<'a> {
    /// The id and the raw `result` when this is a result response: `jsonrpc` is `"2.0"`,
    /// an `id` that is a string or an integer, a `result`, and no `method` or `error`
    /// (exactly when [`Parsed::decode`] would give [`Message::Response`]).
    pub fn response(&self) -> Option<(Id, &'a RawValue)> {
        let Top::Object(e) = &self.top else {
            return None;
        };
        let jsonrpc = e.jsonrpc?;
        let valid = jsonrpc.get() == "\"2.0\"" || small(jsonrpc) == "2.0";
        if !valid || e.method.is_some() || e.error.is_some() {
            return None;
        }
        let id = serde_json::from_str::<Id>(e.id?.get()).ok()?;
        Some((id, e.result?))
    }

    /// Decodes the message, as [`decode`] does.
    pub fn decode<R: MethodSet, N: MethodSet>(
        self,
        options: Options,
    ) -> Result<Message<R, N>, ProtocolError> {
        decode_top(self.top, options)
    }
}

fn decode_top<R: MethodSet, N: MethodSet>(
    top: Top<'_>,
    options: Options,
) -> Result<Message<R, N>, ProtocolError> {
    match top {
        Top::Batch(items) if options.batches => {
            if items.is_empty() {
                return Err(ProtocolError::new(codes::INVALID_REQUEST, "an empty batch"));
            }
            let inner = Options {
                batches: false,
                ..options
            };
            items
                .into_iter()
                .map(|item| decode(item.get().as_bytes(), inner))
                .collect::<Result<_, _>>()
                .map(Message::Batch)
        }
        Top::Batch(_) => Err(ProtocolError::new(
            codes::INVALID_REQUEST,
            "batches are not part of this protocol version",
        )),
        Top::Object(envelope) => decode_envelope(envelope, options),
        Top::Other(kind) => Err(ProtocolError::new(
            codes::INVALID_REQUEST,
            format!("a message must be a JSON object, found {kind}"),
        )),
    }
}

/// A message's top level, read in one pass: the envelope's members as raw text.
enum Top<'a> {
    Object(Envelope<'a>),
    Batch(Vec<&'a RawValue>),
    Other(&'static str),
}

/// The members of a message object; for a repeated key the last one counts, as when the
/// object is parsed into a map.
#[derive(Default)]
struct Envelope<'a> {
    jsonrpc: Option<&'a RawValue>,
    id: Option<&'a RawValue>,
    method: Option<&'a RawValue>,
    params: Option<&'a RawValue>,
    result: Option<&'a RawValue>,
    error: Option<&'a RawValue>,
}

impl<'de: 'a, 'a> Deserialize<'de> for Top<'a> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct TopVisitor;
        impl<'de> serde::de::Visitor<'de> for TopVisitor {
            type Value = Top<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON-RPC message")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<Top<'de>, A::Error> {
                let mut e = Envelope::default();
                while let Some(key) = map.next_key::<super::serde_helpers::Key<'de>>()? {
                    let slot = match key.as_str() {
                        "jsonrpc" => &mut e.jsonrpc,
                        "id" => &mut e.id,
                        "method" => &mut e.method,
                        "params" => &mut e.params,
                        "result" => &mut e.result,
                        "error" => &mut e.error,
                        _ => {
                            map.next_value::<serde::de::IgnoredAny>()?;
                            continue;
                        }
                    };
                    *slot = Some(map.next_value()?);
                }
                Ok(Top::Object(e))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<Top<'de>, A::Error> {
                let mut items = Vec::new();
                while let Some(item) = seq.next_element()? {
                    items.push(item);
                }
                Ok(Top::Batch(items))
            }
            fn visit_unit<E>(self) -> Result<Top<'de>, E> {
                Ok(Top::Other("null"))
            }
            fn visit_bool<E>(self, _: bool) -> Result<Top<'de>, E> {
                Ok(Top::Other("a boolean"))
            }
            fn visit_i64<E>(self, _: i64) -> Result<Top<'de>, E> {
                Ok(Top::Other("a number"))
            }
            fn visit_u64<E>(self, _: u64) -> Result<Top<'de>, E> {
                Ok(Top::Other("a number"))
            }
            fn visit_f64<E>(self, _: f64) -> Result<Top<'de>, E> {
                Ok(Top::Other("a number"))
            }
            fn visit_str<E>(self, _: &str) -> Result<Top<'de>, E> {
                Ok(Top::Other("a string"))
            }
        }
        deserializer.deserialize_any(TopVisitor)
    }
}

/// The JSON kind of a raw value, from its first character.
fn raw_kind(raw: &RawValue) -> &'static str {
    match raw.get().as_bytes().first() {
        Some(b'{') => "an object",
        Some(b'[') => "an array",
        Some(b'"') => "a string",
        Some(b't' | b'f') => "a boolean",
        Some(b'n') => "null",
        _ => "a number",
    }
}

/// serde_json's message without "at line L column C", which would point into a part of
/// the message rather than into the message.
fn without_position(e: &serde_json::Error) -> String {
    let text = e.to_string();
    match text.rfind(" at line ") {
        Some(i) if e.line() != 0 => text[..i].to_string(),
        _ => text,
    }
}

/// The text of a raw JSON string, borrowed when it has no escapes; `None` when the raw
/// value is not a string.
fn raw_string(raw: &RawValue) -> Option<std::borrow::Cow<'_, str>> {
    let text = raw.get();
    let inner = text.strip_prefix('"')?.strip_suffix('"');
    match inner {
        Some(inner) if !inner.contains('\\') => Some(std::borrow::Cow::Borrowed(inner)),
        _ => serde_json::from_str::<String>(text)
            .ok()
            .map(std::borrow::Cow::Owned),
    }
}

/// A small raw member (`jsonrpc`, `method`) as a value; it is valid JSON already.
fn small(raw: &RawValue) -> Value {
    serde_json::from_str(raw.get()).unwrap_or(Value::Null)
}

fn decode_envelope<R: MethodSet, N: MethodSet>(
    e: Envelope<'_>,
    options: Options,
) -> Result<Message<R, N>, ProtocolError> {
    let id = match e.id {
        None => None,
        Some(raw) => Some(serde_json::from_str::<Id>(raw.get()).map_err(|_| {
            ProtocolError::new(
                codes::INVALID_REQUEST,
                format!("`id` must be a string or an integer, found {}", small(raw)),
            )
        })?),
    };
    let fail = |code: i64, message: String, path: Option<String>| ProtocolError {
        code,
        message,
        id: id.clone(),
        path,
    };
    match e.jsonrpc {
        Some(raw) if raw.get() == "\"2.0\"" => {}
        Some(raw) => match small(raw) {
            Value::String(v) if v == "2.0" => {}
            other => {
                return Err(fail(
                    codes::INVALID_REQUEST,
                    format!("`jsonrpc` must be \"2.0\", found {other}"),
                    Some("jsonrpc".into()),
                ));
            }
        },
        None => {
            return Err(fail(
                codes::INVALID_REQUEST,
                "missing `jsonrpc`".into(),
                None,
            ));
        }
    }
    if let Some(method) = e.method {
        let Some(method) = raw_string(method) else {
            return Err(fail(
                codes::INVALID_REQUEST,
                format!("`method` must be a string, found {}", raw_kind(method)),
                Some("method".into()),
            ));
        };
        if let Some(p) = e.params {
            if !p.get().starts_with('{') {
                return Err(fail(
                    codes::INVALID_REQUEST,
                    format!("`params` must be an object, found {}", raw_kind(p)),
                    Some("params".into()),
                ));
            }
        }
        return match id {
            Some(id) => {
                let request = decode_method_text::<R>(method, e.params, options).map_err(|e| {
                    ProtocolError {
                        id: Some(id.clone()),
                        ..e
                    }
                })?;
                Ok(Message::Request { id, request })
            }
            None => decode_method_text::<N>(method, e.params, options).map(Message::Notification),
        };
    }
    let parse = |raw: &RawValue| {
        serde_json::from_str::<Value>(raw.get())
            .map_err(|e| ProtocolError::new(codes::PARSE_ERROR, format!("parse error: {e}")))
    };
    let (result, error) = (e.result.map(parse).transpose()?, e.error);
    match (result, error, id) {
        (Some(result), None, Some(id)) => Ok(Message::Response { id, result }),
        (None, Some(error), id) => {
            let error =
                serde_json::from_str::<ErrorObject>(error.get()).map_err(|e| ProtocolError {
                    code: codes::INVALID_REQUEST,
                    message: format!("invalid error object: {}", without_position(&e)),
                    id: id.clone(),
                    path: Some("error".into()),
                })?;
            Ok(Message::Error { id, error })
        }
        (Some(_), None, None) => Err(ProtocolError::new(
            codes::INVALID_REQUEST,
            "a result response without `id`",
        )),
        (Some(_), Some(_), id) => Err(ProtocolError {
            id,
            ..ProtocolError::new(
                codes::INVALID_REQUEST,
                "a response with both `result` and `error`",
            )
        }),
        (None, None, id) => Err(ProtocolError {
            id,
            ..ProtocolError::new(
                codes::INVALID_REQUEST,
                "not a request, notification or response: no `method`, `result` or `error`",
            )
        }),
    }
}

fn decode_method_text<S: MethodSet>(
    method: std::borrow::Cow<'_, str>,
    params: Option<&RawValue>,
    options: Options,
) -> Result<S, ProtocolError> {
    match S::decode_text(&method, params) {
        Ok(Some(decoded)) => Ok(decoded),
        Ok(None) => match options.unknown_methods {
            UnknownMethods::Keep => {
                let params = params.map(small);
                Ok(S::other(method.into_owned(), params))
            }
            UnknownMethods::Reject => Err(method_not_found::<S>(&method)),
        },
        Err(e) => Err(invalid_params(&method, &e)),
    }
}

fn method_not_found<S: MethodSet>(method: &str) -> ProtocolError {
    ProtocolError::new(
        codes::METHOD_NOT_FOUND,
        format!("method not found: `{method}` is not a {}", S::NAME),
    )
}

fn invalid_params(method: &str, e: &DecodeError) -> ProtocolError {
    let path = if e.path().is_empty() {
        "params".to_string()
    } else {
        format!("params.{}", e.path())
    };
    ProtocolError {
        code: codes::INVALID_PARAMS,
        message: format!("invalid params for `{method}` at `{path}`: {}", e.inner()),
        id: None,
        path: Some(path),
    }
}

/// Decodes one message (or batch) from an already parsed JSON value.
pub fn decode_value<R: MethodSet, N: MethodSet>(
    value: Value,
    options: Options,
) -> Result<Message<R, N>, ProtocolError> {
    match value {
        Value::Array(items) if options.batches => {
            if items.is_empty() {
                return Err(ProtocolError::new(codes::INVALID_REQUEST, "an empty batch"));
            }
            let inner = Options {
                batches: false,
                ..options
            };
            items
                .into_iter()
                .map(|item| decode_value(item, inner))
                .collect::<Result<_, _>>()
                .map(Message::Batch)
        }
        Value::Array(_) => Err(ProtocolError::new(
            codes::INVALID_REQUEST,
            "batches are not part of this protocol version",
        )),
        Value::Object(map) => decode_object(map, options),
        other => Err(ProtocolError::new(
            codes::INVALID_REQUEST,
            format!("a message must be a JSON object, found {}", kind(&other)),
        )),
    }
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

fn decode_object<R: MethodSet, N: MethodSet>(
    mut map: Map<String, Value>,
    options: Options,
) -> Result<Message<R, N>, ProtocolError> {
    let id = match map.remove("id") {
        None => None,
        Some(raw) => Some(serde_json::from_value::<Id>(raw.clone()).map_err(|_| {
            ProtocolError::new(
                codes::INVALID_REQUEST,
                format!("`id` must be a string or an integer, found {raw}"),
            )
        })?),
    };
    let fail = |code: i64, message: String, path: Option<String>| ProtocolError {
        code,
        message,
        id: id.clone(),
        path,
    };
    match map.remove("jsonrpc") {
        Some(Value::String(v)) if v == "2.0" => {}
        Some(other) => {
            return Err(fail(
                codes::INVALID_REQUEST,
                format!("`jsonrpc` must be \"2.0\", found {other}"),
                Some("jsonrpc".into()),
            ));
        }
        None => {
            return Err(fail(
                codes::INVALID_REQUEST,
                "missing `jsonrpc`".into(),
                None,
            ));
        }
    }
    if let Some(method) = map.remove("method") {
        let Value::String(method) = method else {
            return Err(fail(
                codes::INVALID_REQUEST,
                format!("`method` must be a string, found {}", kind(&method)),
                Some("method".into()),
            ));
        };
        let params = map.remove("params");
        if let Some(p) = &params {
            if !p.is_object() {
                return Err(fail(
                    codes::INVALID_REQUEST,
                    format!("`params` must be an object, found {}", kind(p)),
                    Some("params".into()),
                ));
            }
        }
        return match id {
            Some(id) => {
                let request =
                    decode_method::<R>(method, params, options).map_err(|e| ProtocolError {
                        id: Some(id.clone()),
                        ..e
                    })?;
                Ok(Message::Request { id, request })
            }
            None => decode_method::<N>(method, params, options).map(Message::Notification),
        };
    }
    match (map.remove("result"), map.remove("error"), id) {
        (Some(result), None, Some(id)) => Ok(Message::Response { id, result }),
        (None, Some(error), id) => {
            let error =
                serde_json::from_value::<ErrorObject>(error).map_err(|e| ProtocolError {
                    code: codes::INVALID_REQUEST,
                    message: format!("invalid error object: {e}"),
                    id: id.clone(),
                    path: Some("error".into()),
                })?;
            Ok(Message::Error { id, error })
        }
        (Some(_), None, None) => Err(ProtocolError::new(
            codes::INVALID_REQUEST,
            "a result response without `id`",
        )),
        (Some(_), Some(_), id) => Err(ProtocolError {
            id,
            ..ProtocolError::new(
                codes::INVALID_REQUEST,
                "a response with both `result` and `error`",
            )
        }),
        (None, None, id) => Err(ProtocolError {
            id,
            ..ProtocolError::new(
                codes::INVALID_REQUEST,
                "not a request, notification or response: no `method`, `result` or `error`",
            )
        }),
    }
}

fn decode_method<S: MethodSet>(
    method: String,
    params: Option<Value>,
    options: Options,
) -> Result<S, ProtocolError> {
    // Kept for `Other` only when the set does not know the method.
    let kept = match options.unknown_methods {
        UnknownMethods::Keep => params.clone(),
        UnknownMethods::Reject => None,
    };
    match S::decode(&method, params) {
        Ok(Some(decoded)) => Ok(decoded),
        Ok(None) => match options.unknown_methods {
            UnknownMethods::Keep => Ok(S::other(method, kept)),
            UnknownMethods::Reject => Err(method_not_found::<S>(&method)),
        },
        Err(e) => Err(invalid_params(&method, &e)),
    }
}

/// A message serializes as its JSON-RPC object (a batch as an array), straight from the
/// typed params: `serde_json::to_vec(&message)` writes the wire form without building a
/// [`Value`]. Members are written in the order `jsonrpc`, `id`, `method`/`result`/`error`,
/// `params`.
impl<R: MethodSet, N: MethodSet> Serialize for Message<R, N> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::{SerializeMap, SerializeSeq};
        match self {
            Message::Request { id, request } => {
                let mut map = serializer.serialize_map(None)?;
                map.serialize_entry("jsonrpc", "2.0")?;
                map.serialize_entry("id", id)?;
                map.serialize_entry("method", request.method())?;
                request.write_params(&mut map)?;
                map.end()
            }
            Message::Notification(n) => {
                let mut map = serializer.serialize_map(None)?;
                map.serialize_entry("jsonrpc", "2.0")?;
                map.serialize_entry("method", n.method())?;
                n.write_params(&mut map)?;
                map.end()
            }
            Message::Response { id, result } => Response { id, result }.serialize(serializer),
            Message::Error { id, error } => {
                let mut map = serializer.serialize_map(None)?;
                map.serialize_entry("jsonrpc", "2.0")?;
                if let Some(id) = id {
                    map.serialize_entry("id", id)?;
                }
                map.serialize_entry("error", error)?;
                map.end()
            }
            Message::Batch(items) => {
                let mut seq = serializer.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(item)?;
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
}

impl<T: Serialize> Serialize for Response<'_, T> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(3))?;
        map.serialize_entry("jsonrpc", "2.0")?;
        map.serialize_entry("id", self.id)?;
        map.serialize_entry("result", self.result)?;
        map.end()
    }
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
    super::write::to_vec(&Response { id, result })
}

/// Encodes a message as a JSON value.
pub fn encode<R: MethodSet, N: MethodSet>(
    message: &Message<R, N>,
) -> Result<Value, serde_json::Error> {
    let envelope = |id: Option<&Id>,
                    method: &str,
                    params: Option<Value>|
     -> Result<Value, serde_json::Error> {
        let mut out = Map::new();
        out.insert("jsonrpc".into(), "2.0".into());
        if let Some(id) = id {
            out.insert("id".into(), serde_json::to_value(id)?);
        }
        out.insert("method".into(), method.into());
        if let Some(p) = params {
            out.insert("params".into(), p);
        }
        Ok(Value::Object(out))
    };
    Ok(match message {
        Message::Request { id, request } => {
            envelope(Some(id), request.method(), request.params()?)?
        }
        Message::Notification(n) => envelope(None, n.method(), n.params()?)?,
        Message::Response { id, result } => {
            serde_json::json!({ "jsonrpc": "2.0", "id": id, "result": result })
        }
        Message::Error { id, error } => {
            let mut out = Map::new();
            out.insert("jsonrpc".into(), "2.0".into());
            if let Some(id) = id {
                out.insert("id".into(), serde_json::to_value(id)?);
            }
            out.insert("error".into(), serde_json::to_value(error)?);
            Value::Object(out)
        }
        Message::Batch(items) => Value::Array(items.iter().map(encode).collect::<Result<_, _>>()?),
    })
}

/// Decodes required params; absent params are an error.
#[doc(hidden)]
pub fn required<T: DeserializeOwned>(params: Option<Value>) -> Result<T, DecodeError> {
    match params {
        Some(p) => path::from_value(p),
        None => Err(DecodeError::custom("missing field `params`")),
    }
}

/// Decodes optional params.
#[doc(hidden)]
pub fn optional<T: DeserializeOwned>(params: Option<Value>) -> Result<Option<T>, DecodeError> {
    params.map(path::from_value).transpose()
}

/// Decodes required params from their JSON text; absent params are an error.
#[doc(hidden)]
pub fn required_text<'a, T: Deserialize<'a>>(
    params: Option<&'a RawValue>,
) -> Result<T, DecodeError> {
    match params {
        Some(p) => path::from_str(p.get()).map_err(DecodeError::without_position),
        None => Err(DecodeError::custom("missing field `params`")),
    }
}

/// Decodes optional params from their JSON text.
#[doc(hidden)]
pub fn optional_text<'a, T: Deserialize<'a>>(
    params: Option<&'a RawValue>,
) -> Result<Option<T>, DecodeError> {
    params
        .map(|p| path::from_str(p.get()).map_err(DecodeError::without_position))
        .transpose()
}

/// Encodes params.
#[doc(hidden)]
pub fn to_params<T: Serialize>(params: &T) -> Result<Option<Value>, serde_json::Error> {
    serde_json::to_value(params).map(Some)
}

/// A result that does not fit the method of the request it answers. Keeps the raw value.
#[derive(Debug)]
pub struct ResultError {
    /// The method of the request the result answers.
    pub method: String,
    /// Why it does not fit.
    pub error: DecodeError,
    /// The result as received.
    pub raw: Value,
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

/// Decodes the `result` of a response to a request of method `M` straight from its JSON
/// text (see [`parse`]).
pub fn decode_result_text<M: Request>(raw: &str) -> Result<M::Result, ResultError> {
    path::from_str(raw).map_err(|error| ResultError {
        method: M::METHOD.to_string(),
        error: error.without_position(),
        raw: serde_json::from_str(raw).unwrap_or(Value::Null),
    })
}

/// Decodes the text of a `result` that is a union of results, as [`decode_result_text`]
/// does: in one pass when the rules choose the union's usual arm (the method's own
/// result), the usual way otherwise.
#[doc(hidden)]
pub fn decode_union_result_text<M: Request>(raw: &str) -> Result<M::Result, ResultError>
where
    M::Result: crate::rt::union::Arms,
{
    match crate::rt::union::usual_arm_from_text::<M::Result>(raw) {
        Some(result) => Ok(result),
        None => decode_result_text::<M>(raw),
    }
}

/// Decodes the `result` of a response to a request of method `M`.
pub fn decode_result<M: Request>(raw: Value) -> Result<M::Result, ResultError> {
    path::from_value_ref(&raw).map_err(|error| ResultError {
        method: M::METHOD.to_string(),
        error,
        raw,
    })
}
