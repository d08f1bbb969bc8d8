//! Types typify 0.8 generates from our vendored `schema/2025-06-18/schema.json` (in
//! `build.rs`; typify panics on 2025-11-25's `allOf`), used as a typify user would: the
//! message is decoded as the schema's `JSONRPCMessage` (`JsonrpcMessage`), whose request
//! and notification have an untyped `method` and `params`, so these are then decoded as
//! the schema's `ClientRequest` / `ServerNotification` / ... unions, and a response's
//! `result` as `ServerResult` / `ClientResult`. Encoding puts the typed part back into
//! the envelope.

use serde::Serialize;

use crate::{Case, Decoder, Kind, Route, Side, Target, variant_name};

/// What typify generates from `schema/2025-06-18/schema.json`.
#[allow(
    clippy::all,
    clippy::pedantic,
    missing_docs,
    dead_code,
    unused_imports,
    irrefutable_let_patterns
)]
pub mod types {
    include!(concat!(env!("OUT_DIR"), "/typify_2025_06_18.rs"));
}

use types::{
    ClientNotification, ClientRequest, ClientResult, JsonrpcError, JsonrpcMessage, RequestId,
    ServerNotification, ServerRequest, ServerResult,
};

/// A request or response: the envelope and the typed part.
#[derive(Debug, Serialize)]
pub struct WithId<B> {
    jsonrpc: String,
    id: RequestId,
    #[serde(flatten)]
    body: B,
}

/// A notification: the envelope and the typed part.
#[derive(Debug, Serialize)]
pub struct WithoutId<B> {
    jsonrpc: String,
    #[serde(flatten)]
    body: B,
}

/// A result response.
#[derive(Debug, Serialize)]
pub struct Answer<R> {
    jsonrpc: String,
    id: RequestId,
    result: R,
}

/// A message decoded with typify's types.
#[derive(Debug)]
#[allow(clippy::large_enum_variant)]
pub enum Decoded {
    /// A request the client wrote.
    ClientRequest(WithId<ClientRequest>),
    /// A request the server wrote.
    ServerRequest(WithId<ServerRequest>),
    /// A notification the client wrote.
    ClientNotification(WithoutId<ClientNotification>),
    /// A notification the server wrote.
    ServerNotification(WithoutId<ServerNotification>),
    /// A result the client wrote.
    ClientResult(Answer<ClientResult>),
    /// A result the server wrote.
    ServerResult(Answer<ServerResult>),
    /// An error response.
    Error(JsonrpcError),
}

/// The schema's `method` + `params` of a request or notification, as one object.
fn body(
    method: String,
    params: Option<impl Serialize>,
) -> Result<serde_json::Value, serde_json::Error> {
    let mut object = serde_json::Map::new();
    object.insert("method".into(), method.into());
    if let Some(params) = params {
        object.insert("params".into(), serde_json::to_value(params)?);
    }
    Ok(object.into())
}

/// `typify` 0.8 on 2025-06-18.
#[derive(Debug, Clone, Copy)]
pub struct Typify;

fn target(name: String) -> Target {
    Target::Type(name)
}

impl Decoder for Typify {
    const NAME: &'static str = "typify";
    type Decoded = Decoded;

    fn supports(version: &str) -> bool {
        version == "2025-06-18"
    }

    fn decode(case: &Case) -> Result<Decoded, String> {
        let message: JsonrpcMessage =
            serde_json::from_slice(&case.bytes).map_err(|e| e.to_string())?;
        let typed = match (message, case.from) {
            (JsonrpcMessage::Request(r), Side::Client) => body(r.method, r.params)
                .and_then(serde_json::from_value)
                .map(|body| {
                    Decoded::ClientRequest(WithId {
                        jsonrpc: r.jsonrpc,
                        id: r.id,
                        body,
                    })
                }),
            (JsonrpcMessage::Request(r), Side::Server) => body(r.method, r.params)
                .and_then(serde_json::from_value)
                .map(|body| {
                    Decoded::ServerRequest(WithId {
                        jsonrpc: r.jsonrpc,
                        id: r.id,
                        body,
                    })
                }),
            (JsonrpcMessage::Notification(n), Side::Client) => body(n.method, n.params)
                .and_then(serde_json::from_value)
                .map(|body| {
                    Decoded::ClientNotification(WithoutId {
                        jsonrpc: n.jsonrpc,
                        body,
                    })
                }),
            (JsonrpcMessage::Notification(n), Side::Server) => body(n.method, n.params)
                .and_then(serde_json::from_value)
                .map(|body| {
                    Decoded::ServerNotification(WithoutId {
                        jsonrpc: n.jsonrpc,
                        body,
                    })
                }),
            (JsonrpcMessage::Response(r), Side::Client) => serde_json::to_value(r.result)
                .and_then(serde_json::from_value)
                .map(|result| {
                    Decoded::ClientResult(Answer {
                        jsonrpc: r.jsonrpc,
                        id: r.id,
                        result,
                    })
                }),
            (JsonrpcMessage::Response(r), Side::Server) => serde_json::to_value(r.result)
                .and_then(serde_json::from_value)
                .map(|result| {
                    Decoded::ServerResult(Answer {
                        jsonrpc: r.jsonrpc,
                        id: r.id,
                        result,
                    })
                }),
            (JsonrpcMessage::Error(e), _) => Ok(Decoded::Error(e)),
        };
        typed.map_err(|e| e.to_string())
    }

    fn encode(decoded: &Decoded) -> Option<Result<Vec<u8>, String>> {
        Some(
            match decoded {
                Decoded::ClientRequest(m) => serde_json::to_vec(m),
                Decoded::ServerRequest(m) => serde_json::to_vec(m),
                Decoded::ClientNotification(m) => serde_json::to_vec(m),
                Decoded::ServerNotification(m) => serde_json::to_vec(m),
                Decoded::ClientResult(m) => serde_json::to_vec(m),
                Decoded::ServerResult(m) => serde_json::to_vec(m),
                Decoded::Error(m) => serde_json::to_vec(m),
            }
            .map_err(|e| e.to_string()),
        )
    }

    fn route(decoded: &Decoded) -> Route {
        match decoded {
            Decoded::ClientRequest(m) => Route::To(Kind::Request, target(variant_name(&m.body))),
            Decoded::ServerRequest(m) => Route::To(Kind::Request, target(variant_name(&m.body))),
            Decoded::ClientNotification(m) => {
                Route::To(Kind::Notification, target(variant_name(&m.body)))
            }
            Decoded::ServerNotification(m) => {
                Route::To(Kind::Notification, target(variant_name(&m.body)))
            }
            Decoded::ClientResult(m) => Route::To(Kind::Result, target(variant_name(&m.result))),
            Decoded::ServerResult(m) => Route::To(Kind::Result, target(variant_name(&m.result))),
            Decoded::Error(_) => Route::To(Kind::Error, Target::None),
        }
    }
}
