//! Decodes and encodes the same MCP messages with several decoders, to compare their
//! throughput (`benches/compare.rs`) and their correctness (`src/bin/outcomes.rs`).
//!
//! A [`Case`] is one message: its raw bytes, which side wrote it, its protocol version,
//! its kind and its method (for a result response, the method of the request it
//! answers). A [`Decoder`] decodes a case into its own types, says which variant it
//! chose ([`Route`]), and encodes what it decoded back to bytes.
//!
//! The decoders: [`ours::Ours`] (this workspace's `mcp-spec-types`), [`rmcp::Rmcp`]
//! (the official Rust SDK's model), [`rms::RustMcpSchema`] (`rust-mcp-schema`),
//! [`typify::Typify`] (types typify generates from the 2025-06-18 schema at build
//! time), [`value::JsonValue`] (`serde_json::Value`) and [`value::Ignored`]
//! (`serde::de::IgnoredAny`, the floor).

use std::fmt;

pub mod corpus;
pub mod ours;
pub mod outcome;
pub mod proxy;
pub mod rmcp;
pub mod rms;
pub mod typify;
pub mod value;

/// Who wrote a message (so the other side decodes it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Side {
    /// The client wrote it; the server decodes it.
    Client,
    /// The server wrote it; the client decodes it.
    Server,
}

/// The kind of a JSON-RPC message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// Has `method` and `id`.
    Request,
    /// Has `method`, no `id`.
    Notification,
    /// Has `result`.
    Result,
    /// Has `error`.
    Error,
}

impl Kind {
    /// Every kind, in the order of the tables.
    pub const ALL: [Kind; 4] = [Kind::Request, Kind::Notification, Kind::Result, Kind::Error];

    /// `requests`, `notifications`, `results`, `errors`.
    pub fn group(self) -> &'static str {
        match self {
            Kind::Request => "requests",
            Kind::Notification => "notifications",
            Kind::Result => "results",
            Kind::Error => "errors",
        }
    }

    /// The kind of a message, from its members; `None` for anything else (a batch).
    pub fn of(value: &serde_json::Value) -> Option<Kind> {
        let object = value.as_object()?;
        if object.contains_key("method") {
            Some(if object.contains_key("id") {
                Kind::Request
            } else {
                Kind::Notification
            })
        } else if object.contains_key("result") {
            Some(Kind::Result)
        } else if object.contains_key("error") {
            Some(Kind::Error)
        } else {
            None
        }
    }
}

/// One message to decode.
#[derive(Debug, Clone)]
pub struct Case {
    /// Where it comes from (example file, synthetic group and index, traffic line).
    pub name: String,
    /// The message as it was sent.
    pub bytes: Vec<u8>,
    /// Who wrote it.
    pub from: Side,
    /// Its protocol version: `2025-11-25`, `draft`.
    pub version: &'static str,
    /// Its kind, from its members.
    pub kind: Kind,
    /// For a request or notification its method; for a result response the method of
    /// the request it answers; for an error `None`.
    pub method: Option<String>,
}

/// The variant a decoder chose for a message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Route {
    /// The decoder has no notion of variant (`Value`, `IgnoredAny`).
    NotApplicable,
    /// It decoded the message as this kind, into this target.
    To(Kind, Target),
}

/// Where within a kind a decoder put a message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// A variant for this method (our enums are one variant per method).
    Method(String),
    /// A variant holding this type of the schema: `CallToolRequest`, `ListToolsResult`,
    /// `EmptyResult`; mapped to the methods it belongs to by [`outcome::methods_of`].
    Type(String),
    /// A catch-all variant that keeps the message untyped (`CustomRequest`,
    /// `CustomResult`).
    CatchAll(String),
    /// Nothing to say within the kind (an error response).
    None,
}

/// One decoder under comparison.
pub trait Decoder {
    /// The name in the tables and the benchmark ids.
    const NAME: &'static str;
    /// What a message decodes into.
    type Decoded;
    /// Whether it models protocol version `version` at all (otherwise: n/a, skipped).
    fn supports(version: &str) -> bool;
    /// Decodes a message the way the side receiving it would.
    fn decode(case: &Case) -> Result<Self::Decoded, String>;
    /// Decodes a message as [`decode`](Self::decode) does, into the library's own type,
    /// gives it to [`std::hint::black_box`] and drops it; whether it decoded. What the
    /// benchmark times: a receiver gets the library's type, not the wrapper this crate
    /// keeps every version's messages in for its tables (ours: an enum as large as the
    /// largest message of any version, which costs a move of that size per message).
    fn decode_observed(case: &Case) -> bool {
        Self::decode(case)
            .map(|decoded| {
                std::hint::black_box(&decoded);
            })
            .is_ok()
    }
    /// Encodes what it decoded back to a whole message; `None` for a decoder that keeps
    /// nothing to encode (`IgnoredAny`).
    fn encode(decoded: &Self::Decoded) -> Option<Result<Vec<u8>, String>>;
    /// The variant it chose.
    fn route(decoded: &Self::Decoded) -> Route;
}

/// The name of the variant a derived `Debug` prints first (`CallToolRequest` of
/// `CallToolRequest(CallToolRequest { .. })`), without formatting the rest.
pub fn variant_name<T: fmt::Debug + ?Sized>(value: &T) -> String {
    struct Head(String);
    impl fmt::Write for Head {
        fn write_str(&mut self, s: &str) -> fmt::Result {
            for c in s.chars() {
                if matches!(c, '(' | ' ' | '{') {
                    return Err(fmt::Error);
                }
                self.0.push(c);
            }
            Ok(())
        }
    }
    let mut head = Head(String::new());
    let _ = fmt::write(&mut head, format_args!("{value:?}"));
    head.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug)]
    #[allow(dead_code)]
    enum E {
        Unit,
        Tuple(u8),
        Struct { a: u8 },
    }

    #[test]
    fn variant_name_stops_at_the_payload() {
        assert_eq!(variant_name(&E::Unit), "Unit");
        assert_eq!(variant_name(&E::Tuple(1)), "Tuple");
        assert_eq!(variant_name(&E::Struct { a: 1 }), "Struct");
    }
}
