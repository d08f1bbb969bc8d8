//! Conversions between the types of two protocol versions: a value is written as JSON and
//! read back as the other version's type, by the decoder that reads messages. What one
//! version's value carries (unknown members in `extra` among it) reaches the other as a
//! peer of that version would have sent it.
//!
//! The generated `From` and `TryFrom` impls between consecutive versions (the
//! `convert` module of `mcp-spec-types`) call these two functions, and so can a
//! conversion across several versions at once (`exact::<v2024_11_05::Tool,
//! v2026_07_28::Tool>(&tool)`):
//!
//! - [`exact`] succeeds only where nothing is lost: the target decodes, holds in no
//!   catch-all (an enum's or a union's `Unknown`) what the source held as a value it
//!   knows, and writes back the very JSON the source wrote. Otherwise it names the place
//!   and what the target cannot carry.
//! - [`lossless`] is for pairs of types the generator proved compatible (every value of
//!   the source's schema is a value of the target's): it cannot fail. The one value it
//!   cannot keep is one no peer of either version sends: a member the source holds only
//!   as unknown (in `extra`) under a name the target declares, with a value the target's
//!   declaration does not take. That member is dropped.

use std::collections::BTreeSet;
use std::fmt;
use std::sync::Arc;

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::jsonrpc::Id;
use crate::path;
use crate::service::{BoxFuture, Peer, Transport, TransportError};
use crate::strict::{self, Check};

/// Why a value of one version is not a value of another: where, and what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConvertError {
    path: String,
    message: String,
}

impl ConvertError {
    fn new(path: impl Into<String>, message: impl Into<String>) -> Self {
        ConvertError {
            path: path.into(),
            message: message.into(),
        }
    }

    /// The place in the value (`content[0].type`), empty for the value itself.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// What the target version cannot carry there.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for ConvertError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            write!(f, "{}", self.message)
        } else {
            write!(f, "at {}: {}", self.path, self.message)
        }
    }
}

impl std::error::Error for ConvertError {}

/// `source` as a `T`, if `T` carries all of it: see the [module](self) documentation.
pub fn exact<S, T>(source: &S) -> Result<T, ConvertError>
where
    S: Serialize + Check + ?Sized,
    T: DeserializeOwned + Serialize + Check,
{
    let source = described(source).map_err(not_encoded)?;
    let (target, written) = read::<T>(&source.text).map_err(|e| decode_error(e, ""))?;
    exact_check(source, written)?;
    Ok(target)
}

/// One side of a conversion, written: its JSON text, the paths of its catch-alls
/// ([`strict::issues`]) and of what it holds without declaring ([`strict::undeclared`]),
/// both from one walk ([`strict::found`]).
/// What is compared of two sides is compared here, once for every pair of types; only
/// reading and describing a side is generic, once for every type.
struct Side {
    text: String,
    issues: Vec<strict::Issue>,
    undeclared: Vec<String>,
}

/// `value` described as a [`Side`].
fn described<X: Serialize + Check + ?Sized>(value: &X) -> Result<Side, serde_json::Error> {
    let text = crate::write::to_vec(value)?;
    let found = strict::found(value);
    Ok(Side {
        // What the writer writes is UTF-8.
        text: String::from_utf8(text).map_err(serde::ser::Error::custom)?,
        issues: found.issues,
        undeclared: found.undeclared,
    })
}

/// `text` read as an `X`, and the `X` described.
fn read<X>(text: &str) -> Result<(X, Side), path::DecodeError>
where
    X: DeserializeOwned + Serialize + Check,
{
    let value: X = path::from_str(text)?;
    let side = described(&value).map_err(path::DecodeError::custom)?;
    Ok((value, side))
}

/// [`read`], the side alone: what the per-pair conversions take as a function.
fn read_side<X>(text: &str) -> Result<Side, path::DecodeError>
where
    X: DeserializeOwned + Serialize + Check,
{
    read::<X>(text).map(|(_, side)| side)
}

/// An encoding failure, as a conversion reports it.
fn not_encoded(e: serde_json::Error) -> ConvertError {
    ConvertError::new("", format!("does not encode: {e}"))
}

/// A decoding failure, as a conversion reports it: where, without a position (which
/// would point into a text nobody wrote), after `prefix`.
fn decode_error(e: path::DecodeError, prefix: &str) -> ConvertError {
    let e = e.without_position();
    ConvertError::new(e.path(), format!("{prefix}{}", e.inner()))
}

/// The checks of [`exact`] once both sides are written: nothing the target holds only in
/// a catch-all where the source knew the value, and the target writes back the source's
/// very JSON. The target's JSON, if so. A string that breaks a rule of the target's
/// (`pattern`, a length) is the target's value all the same: validation, not a catch-all.
fn exact_check(source: Side, target: Side) -> Result<Value, ConvertError> {
    let known_before: BTreeSet<String> = source.issues.into_iter().map(|i| i.path).collect();
    if let Some(issue) = target.issues.into_iter().find(|i| {
        !known_before.contains(&i.path) && !matches!(i.kind, crate::strict::IssueKind::Text { .. })
    }) {
        let message = issue.kind.to_string();
        return Err(ConvertError::new(issue.path, message));
    }
    // What the target does not write back as it came (a `null` it reads as absent).
    let before: Value = serde_json::from_str(&source.text).map_err(not_encoded)?;
    let after: Value = serde_json::from_str(&target.text).map_err(not_encoded)?;
    match first_difference(&before, &after, String::new()) {
        None => Ok(after),
        Some(at) => Err(ConvertError::new(at, "is not written back as it was")),
    }
}

/// The `From` and `TryFrom` impls between two versions' types, one row a definition: how it
/// converts from the older version to the newer, then back. `lossless` is a `From` (through
/// [`lossless`]), `lossy("why")` a `TryFrom` (through [`exact`]) whose documentation says
/// where a value need not fit. The generated `convert` module of `mcp-spec-types` is made
/// of these rows, for each pair of consecutive versions.
///
/// ```ignore
/// use crate::v2024_11_05 as old;
/// use crate::v2025_03_26 as new;
/// crate::rt::conversions! {
///     old "2024-11-05" => new "2025-03-26" {
///         Tool: lossless lossless,
///         CallToolResult: lossless lossy("at .content[]|AudioContent: no arm takes it"),
///     }
/// }
/// ```
#[macro_export]
macro_rules! conversions {
    ($old:ident $old_v:literal => $new:ident $new_v:literal {
        $( $ty:ident : $up:ident $(($up_why:literal))? $down:ident $(($down_why:literal))? ),* $(,)?
    }) => {
        $(
            $crate::__conversion!($old::$ty => $new::$ty, $old_v, $up $(($up_why))?);
            $crate::__conversion!($new::$ty => $old::$ty, $new_v, $down $(($down_why))?);
        )*
    };
}

/// One impl of [`conversions!`](crate::conversions).
#[doc(hidden)]
#[macro_export]
macro_rules! __conversion {
    ($from:ident :: $ty:ident => $to:ident :: $same:ident, $from_v:literal, lossless) => {
        impl ::core::convert::From<$from::$ty> for $to::$same {
            #[doc = ::core::concat!(
                                " Every `", ::core::stringify!($ty), "` value of ", $from_v,
                                " is one of the other version: nothing is lost."
                            )]
            #[inline]
            fn from(value: $from::$ty) -> Self {
                $crate::convert::lossless(&value)
            }
        }
    };
    ($from:ident :: $ty:ident => $to:ident :: $same:ident, $from_v:literal, lossy($why:literal)) => {
        impl ::core::convert::TryFrom<$from::$ty> for $to::$same {
            type Error = $crate::convert::ConvertError;
            #[doc = ::core::concat!(
                                " Not every value fits (", $why, "): the error names what does not."
                            )]
            #[inline]
            fn try_from(value: $from::$ty) -> ::core::result::Result<Self, Self::Error> {
                $crate::convert::exact(&value)
            }
        }
    };
}

/// A [`Translation`] table, one row a method both versions have: its params, as
/// `(From => To)` (`_` where the method has no params of a named type: they go as they
/// are), and for a request the result that comes back, `-> (To => From)` (`json` where
/// the value is JSON an adapter made, not one of the other version's types). A list in
/// brackets before the rows names the requests of `From` that `To` does not have and that
/// are answered with an empty result ([`Translation::answered`]).
///
/// The direction says who sends what: `to_client` is what a server handler of the newer
/// version sends its older client, `to_server` what a newer client sends its older
/// server (both for [`outbound`]); `from_client` is what an older client sends a newer
/// server handler, `from_server` what an older server sends a newer client (both for the
/// adapters of `adapt`). `plain` converts between two versions of one
/// lifecycle era; `across`, for `to_server` from the `server/discover` era to the
/// `initialize` era, also takes the newer era's envelope out of the params
/// (`bridge::without_envelope`) and gives each result
/// what the newer era requires (`bridge::older_result`:
/// `scoped` where the newer result says how it may be cached, `unscoped` where not).
///
/// ```ignore
/// crate::rt::translation! {
///     to_client TO_OLDER_CLIENT: new "2025-06-18" => old "2025-03-26", plain {
///         "roots/list": _ -> (ListRootsResult => ListRootsResult),
///         "notifications/progress": (ProgressNotificationParams => ProgressNotificationParams),
///     }
/// }
/// ```
#[macro_export]
macro_rules! translation {
    ($dir:ident $name:ident : $from:ident $from_v:literal => $to:ident $to_v:literal, $era:ident
        $([$($answered:literal),* $(,)?])? {
        $( $method:literal : $params:tt $(-> $result:tt)? ),* $(,)?
    }) => {
        #[doc = $crate::translation!(@doc $dir, $from_v, $to_v)]
        #[allow(unreachable_code)]
        pub static $name: $crate::convert::Translation = $crate::convert::Translation {
            from: $from_v,
            to: $to_v,
            methods: &[$($method),*],
            answered: &[$($($answered),*)?],
            params: |method, params| ::core::option::Option::Some(match method {
                $( $method => $crate::translation!(@params $dir $era $from $to params $params), )*
                _ => return ::core::option::Option::None,
            }),
            result: |method, result| ::core::option::Option::Some(match method {
                $( $( $method => $crate::translation!(@result $dir $era $from $to result $result), )? )*
                _ => return ::core::option::Option::None,
            }),
        };
    };
    (@doc to_client, $from:literal, $to:literal) => {
        ::core::concat!(" What a server handler of `", $from, "` sends a client of `", $to,
            "`, made that version's ([`outbound`](crate::rt::convert::outbound)): the params \
             of each request and notification both versions have, and the results back.")
    };
    (@doc to_server, $from:literal, $to:literal) => {
        ::core::concat!(" What a client of `", $from, "` sends a server of `", $to,
            "`, made that version's ([`outbound`](crate::rt::convert::outbound)): the params \
             of each request and notification both versions have, and the results back.")
    };
    (@doc from_client, $from:literal, $to:literal) => {
        ::core::concat!(" What a client of `", $from, "` sends a server handler of `", $to,
            "`, made the handler's ([`rt::adapt`](crate::rt::adapt)): the params of each \
             request and notification both versions have, and the results back.")
    };
    (@doc from_server, $from:literal, $to:literal) => {
        ::core::concat!(" What a server of `", $from, "` sends a client handler of `", $to,
            "`, made the handler's ([`rt::adapt`](crate::rt::adapt)): the params of each \
             request and notification both versions have, and the results back.")
    };
    // Params: down (`value_down`) from a newer handler to an older peer, up (`value`)
    // from an older peer to a newer handler; results the other way round.
    (@params $dir:ident plain $from:ident $to:ident $value:ident _) => {
        ::core::result::Result::Ok($value)
    };
    (@params $dir:ident across $from:ident $to:ident $value:ident _) => {
        ::core::result::Result::Ok($value).map($crate::bridge::without_envelope)
    };
    (@params $dir:ident plain $from:ident $to:ident $value:ident (json => $b:ident)) => {
        $crate::convert::value::<$crate::serde_json::Value, $to::$b>($value)
    };
    (@params to_client plain $from:ident $to:ident $value:ident ($a:ident => $b:ident)) => {
        $crate::convert::value_down::<$from::$a, $to::$b>($value)
    };
    (@params to_server plain $from:ident $to:ident $value:ident ($a:ident => $b:ident)) => {
        $crate::convert::value_down::<$from::$a, $to::$b>($value)
    };
    (@params to_server across $from:ident $to:ident $value:ident ($a:ident => $b:ident)) => {
        $crate::convert::value_down::<$from::$a, $to::$b>($value)
            .map($crate::bridge::without_envelope)
    };
    (@params $dir:ident plain $from:ident $to:ident $value:ident ($a:ident => $b:ident)) => {
        $crate::convert::value::<$from::$a, $to::$b>($value)
    };
    (@result $dir:ident plain $from:ident $to:ident $value:ident (json => $b:ident)) => {
        $crate::convert::value::<$crate::serde_json::Value, $from::$b>($value)
    };
    (@result from_client plain $from:ident $to:ident $value:ident ($a:ident => $b:ident)) => {
        $crate::convert::value_down::<$to::$a, $from::$b>($value)
    };
    (@result from_server plain $from:ident $to:ident $value:ident ($a:ident => $b:ident)) => {
        $crate::convert::value_down::<$to::$a, $from::$b>($value)
    };
    (@result $dir:ident plain $from:ident $to:ident $value:ident ($a:ident => $b:ident)) => {
        $crate::convert::value::<$to::$a, $from::$b>($value)
    };
    (@result $dir:ident across $from:ident $to:ident $value:ident ($a:ident => $b:ident, scoped)) => {
        $crate::convert::value::<$to::$a, $from::$b>(
            $crate::bridge::older_result($value, $crate::bridge::Caching::Scoped),
        )
    };
    (@result $dir:ident across $from:ident $to:ident $value:ident ($a:ident => $b:ident, unscoped)) => {
        $crate::convert::value::<$to::$a, $from::$b>(
            $crate::bridge::older_result($value, $crate::bridge::Caching::Unscoped),
        )
    };
}

/// A JSON value of the source's type `S` as JSON of the target's `T`: it is decoded as an
/// `S` (it was written as one) and converted by [`exact`].
pub fn value<S, T>(value: Value) -> Result<Value, ConvertError>
where
    S: DeserializeOwned + Serialize + Check,
    T: DeserializeOwned + Serialize + Check,
{
    converted(value, read_side::<S>, read_side::<T>, Keep::All)
}

/// What [`converted`] keeps of the target's JSON.
#[derive(Clone, Copy)]
enum Keep {
    /// All of it (for a newer peer).
    All,
    /// What the source declared or held (for an older peer: [`value_down`]).
    Declared,
}

/// `value` read by `source` (as the source's type), its JSON read by `target`, checked
/// as [`exact`] checks, and the target's JSON as `keep` says. The one body of every
/// per-pair conversion of JSON: the pair's types are in `source` and `target` alone.
fn converted(
    value: Value,
    source: fn(&str) -> Result<Side, path::DecodeError>,
    target: fn(&str) -> Result<Side, path::DecodeError>,
    keep: Keep,
) -> Result<Value, ConvertError> {
    let mut source =
        source(&value.to_string()).map_err(|e| decode_error(e, "does not decode: "))?;
    let mut target = target(&source.text).map_err(|e| decode_error(e, ""))?;
    let kept = std::mem::take(&mut source.undeclared);
    let newer = std::mem::take(&mut target.undeclared);
    let json = exact_check(source, target)?;
    Ok(match keep {
        Keep::All => json,
        Keep::Declared => without_newer(json, &kept, newer),
    })
}

/// The general field every version reserves on every request's params, result and
/// notification's params; an older schema may declare it on its base types only (a
/// 2025-06-18 `tools/call` params type does not name it), and it is never left out.
const GENERAL_FIELD: &str = "_meta";

/// Whether `path` names the general field of the value itself.
fn general(path: &str) -> bool {
    path == GENERAL_FIELD
}

/// [`value`] for a peer of an older version: the JSON of `T` without the members that `S`
/// declares and `T` does not (what only the newer version defines, such as a
/// 2026-07-28 result's `resultType`, `cacheScope` and `ttlMs`, which a 2024-11-05 client
/// has no use for), and with every member `S` held without declaring it (what a peer
/// sent, kept as it came) and the value's own `_meta`. The adapters and [`outbound`]
/// convert down with it.
pub fn value_down<S, T>(value: Value) -> Result<Value, ConvertError>
where
    S: DeserializeOwned + Serialize + Check,
    T: DeserializeOwned + Serialize + Check,
{
    converted(value, read_side::<S>, read_side::<T>, Keep::Declared)
}

/// `json` (a target's) without what the target holds undeclared (`newer`) and the source
/// did not (`kept`: what a peer sent, kept as it came), nor the value's own `_meta`: what
/// only the newer version declares.
fn without_newer(mut json: Value, kept: &[String], newer: Vec<String>) -> Value {
    let within = |path: &str| {
        kept.iter().any(|k| {
            path.strip_prefix(k.as_str())
                .is_some_and(|rest| rest.is_empty() || rest.starts_with(['.', '[']))
        })
    };
    // Deepest first, so that a path still names its member when its parent goes.
    let mut newer_only: Vec<String> = newer
        .into_iter()
        .filter(|p| !within(p) && !general(p))
        .collect();
    newer_only.sort_by_key(|p| std::cmp::Reverse(p.len()));
    for path in newer_only {
        drop_member(&mut json, &path);
    }
    json
}

/// How the messages one side of a connection sends become those of the other side's
/// version, per method: for each request and notification, its params (`from` → `to`);
/// for each request, its result on the way back (`to` → `from`). `None` for a method the
/// other version does not have. Generated for each pair of versions
/// (`convert::<older>_<newer>`, made by [`translation!`](crate::translation)): what a
/// newer handler sends an older peer ([`outbound`]), and what an older peer sends a newer
/// handler (the adapters of `adapt`).
#[derive(Debug, Clone, Copy)]
pub struct Translation {
    /// The version the messages are written in.
    pub from: &'static str,
    /// The version they are made.
    pub to: &'static str,
    /// The methods both have, as `params` and `result` know them.
    pub methods: &'static [&'static str],
    /// Requests of `from` that `to` does not have and that a handler of `from` answers
    /// with an empty result unless it implements them (`ping`): an adapter answers them so.
    pub answered: &'static [&'static str],
    /// A message's params, written in `from`, as `to`'s.
    pub params: fn(&str, Value) -> Option<Result<Value, ConvertError>>,
    /// A request's result, written in `to`, as `from`'s.
    pub result: fn(&str, Value) -> Option<Result<Value, ConvertError>>,
}

/// `peer`, writing what is sent through it in `outbound.to` and reading the answers as
/// `outbound.from`: a handler of one version calling back a peer of another with its own
/// version's types. A message the peer's version cannot carry is not sent: the call fails
/// with a transport error naming the method and the place.
pub fn outbound(peer: &Peer, outbound: Translation) -> Peer {
    peer.with_transport(Arc::new(Converting {
        inner: peer.transport().clone(),
        outbound,
    }))
}

struct Converting {
    inner: Arc<dyn Transport>,
    outbound: Translation,
}

impl Converting {
    /// The message with its params converted, and its method.
    fn message(&self, message: &str) -> Result<(String, String), TransportError> {
        let mut value: Value =
            serde_json::from_str(message).map_err(|e| TransportError::new(e.to_string()))?;
        let method = value
            .get("method")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned();
        let Translation { from, to, .. } = self.outbound;
        if let Some(params) = value.get_mut("params") {
            let converted = (self.outbound.params)(&method, params.take())
                .ok_or_else(|| TransportError::new(format!("{to} has no `{method}`")))?
                .map_err(|e| {
                    TransportError::new(format!(
                        "the `{method}` params of {from} cannot be expressed in {to}: {e}"
                    ))
                })?;
            *params = converted;
        }
        Ok((value.to_string(), method))
    }

    /// A response to `method` with its result converted back.
    fn answer(&self, method: &str, answer: String) -> Result<String, TransportError> {
        let mut value: Value =
            serde_json::from_str(&answer).map_err(|e| TransportError::new(e.to_string()))?;
        let Some(result) = value.get_mut("result") else {
            return Ok(answer);
        };
        let Translation { from, to, .. } = self.outbound;
        let converted = (self.outbound.result)(method, result.take())
            .ok_or_else(|| TransportError::new(format!("{to} has no `{method}`")))?
            .map_err(|e| {
                TransportError::new(format!(
                    "the `{method}` result of {to} cannot be expressed in {from}: {e}"
                ))
            })?;
        *result = converted;
        Ok(value.to_string())
    }
}

impl Transport for Converting {
    fn request(&self, id: Id, message: String) -> BoxFuture<'_, Result<String, TransportError>> {
        Box::pin(async move {
            let (message, method) = self.message(&message)?;
            let answer = self.inner.request(id, message).await?;
            self.answer(&method, answer)
        })
    }

    fn notify(&self, message: String) -> BoxFuture<'_, Result<(), TransportError>> {
        Box::pin(async move {
            let (message, _) = self.message(&message)?;
            self.inner.notify(message).await
        })
    }
}

/// `source` as a `T`, for types where every value of the source's schema is one of the
/// target's: see the [module](self) documentation.
///
/// # Panics
///
/// If `T` refuses the value at its root, which the generator's proof rules out: a bug
/// of the generator, not of the input.
pub fn lossless<S, T>(source: &S) -> T
where
    S: Serialize + ?Sized,
    T: DeserializeOwned,
{
    let mut value = crate::write::to_value(source).unwrap_or(Value::Null);
    loop {
        match path::from_value_ref::<T>(&value) {
            Ok(target) => return target,
            Err(e) => {
                if !drop_member(&mut value, e.path()) {
                    panic!(
                        "a conversion the generator proved lossless failed at the root: {e} \
                         (a bug of mcp-codegen's compatibility check)"
                    );
                }
            }
        }
    }
}

/// Removes the deepest object member on `path` (as decoding errors write it:
/// `a.b[0].c`, where a key may itself hold dots); whether there was one.
fn drop_member(value: &mut Value, path: &str) -> bool {
    // The steps to the deepest member: keys matched greedily against the object.
    let mut steps: Vec<Step> = Vec::new();
    let mut deepest = None;
    let mut here = &*value;
    let mut rest = path;
    while !rest.is_empty() {
        if let Some(tail) = rest.strip_prefix('[') {
            let Some((index, tail)) = tail.split_once(']') else {
                break;
            };
            let (Ok(index), Value::Array(items)) = (index.parse::<usize>(), here) else {
                break;
            };
            let Some(item) = items.get(index) else { break };
            steps.push(Step::Index(index));
            here = item;
            rest = tail;
        } else {
            let tail = rest.strip_prefix('.').unwrap_or(rest);
            let Value::Object(map) = here else { break };
            let ends = |k: &&String| {
                tail.strip_prefix(k.as_str())
                    .is_some_and(|after| after.is_empty() || after.starts_with(['.', '[']))
            };
            let Some(key) = map.keys().filter(ends).max_by_key(|k| k.len()) else {
                break;
            };
            steps.push(Step::Key(key.clone()));
            deepest = Some(steps.len());
            rest = &tail[key.len()..];
            here = &map[key.as_str()];
        }
    }
    let Some(depth) = deepest else { return false };
    let mut here = value;
    for step in &steps[..depth - 1] {
        here = match (step, here) {
            (Step::Key(k), Value::Object(map)) => match map.get_mut(k) {
                Some(v) => v,
                None => return false,
            },
            (Step::Index(i), Value::Array(items)) => match items.get_mut(*i) {
                Some(v) => v,
                None => return false,
            },
            _ => return false,
        };
    }
    match (&steps[depth - 1], here) {
        (Step::Key(k), Value::Object(map)) => map.remove(k).is_some(),
        _ => false,
    }
}

enum Step {
    Key(String),
    Index(usize),
}

/// The path of the first place where two values differ as JSON ([`strict::same_json`]).
fn first_difference(a: &Value, b: &Value, at: String) -> Option<String> {
    if strict::same_json(a, b) {
        return None;
    }
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let keys: BTreeSet<&String> = x.keys().chain(y.keys()).collect();
            keys.into_iter().find_map(|k| {
                let mut path = at.clone();
                path::push_key(&mut path, k);
                match (x.get(k), y.get(k)) {
                    (Some(v), Some(w)) => first_difference(v, w, path),
                    _ => Some(path),
                }
            })
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            x.iter().zip(y).enumerate().find_map(|(i, (v, w))| {
                let mut path = at.clone();
                path::push_index(&mut path, i);
                first_difference(v, w, path)
            })
        }
        _ => Some(at),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_deepest_member_on_a_path_is_dropped() {
        let mut v = json!({"a": {"io.x/y": [{"b": 1}, {"c": {"d": 2}}]}});
        assert!(drop_member(&mut v, "a.io.x/y[1].c.d"));
        assert_eq!(v, json!({"a": {"io.x/y": [{"b": 1}, {"c": {}}]}}));
        assert!(drop_member(&mut v, "a.io.x/y[0]"));
        assert_eq!(v, json!({"a": {}}));
        assert!(!drop_member(&mut v, ""));
        assert!(!drop_member(&mut json!([1]), "[0]"));
    }

    #[test]
    fn the_first_difference_is_named() {
        let a = json!({"a": [1, {"b": null}], "c": 1});
        let b = json!({"a": [1, {}], "c": 1.0});
        assert_eq!(
            first_difference(&a, &b, String::new()),
            Some("a[1].b".into())
        );
        assert_eq!(first_difference(&a, &a, String::new()), None);
    }
}
