//! rmcp, the official Rust SDK: its model types `ClientJsonRpcMessage` /
//! `ServerJsonRpcMessage`, decoded with `serde_json` as its transports do. It models no
//! protocol version in particular: every version is fed to it.

use rmcp::model::{ClientJsonRpcMessage, JsonRpcMessage, ServerJsonRpcMessage};

use crate::{Case, Decoder, Kind, Route, Side, Target, variant_name};

/// A message rmcp decoded, by the side that wrote it.
#[derive(Debug)]
pub enum Decoded {
    /// Written by the client.
    FromClient(ClientJsonRpcMessage),
    /// Written by the server.
    FromServer(ServerJsonRpcMessage),
}

/// `rmcp::model`.
#[derive(Debug, Clone, Copy)]
pub struct Rmcp;

fn route<Req: std::fmt::Debug, Resp: std::fmt::Debug, Noti: std::fmt::Debug>(
    message: &JsonRpcMessage<Req, Resp, Noti>,
) -> Route {
    let target = |name: String| {
        if name.starts_with("Custom") {
            Target::CatchAll(name)
        } else {
            Target::Type(name)
        }
    };
    match message {
        JsonRpcMessage::Request(r) => Route::To(Kind::Request, target(variant_name(&r.request))),
        JsonRpcMessage::Notification(n) => {
            Route::To(Kind::Notification, target(variant_name(&n.notification)))
        }
        JsonRpcMessage::Response(r) => Route::To(Kind::Result, target(variant_name(&r.result))),
        JsonRpcMessage::Error(_) => Route::To(Kind::Error, Target::None),
    }
}

impl Decoder for Rmcp {
    const NAME: &'static str = "rmcp";
    type Decoded = Decoded;

    fn supports(_version: &str) -> bool {
        true
    }

    fn decode(case: &Case) -> Result<Decoded, String> {
        match case.from {
            Side::Client => serde_json::from_slice(&case.bytes).map(Decoded::FromClient),
            Side::Server => serde_json::from_slice(&case.bytes).map(Decoded::FromServer),
        }
        .map_err(|e| e.to_string())
    }

    fn decode_observed(case: &Case) -> bool {
        use std::hint::black_box;
        match case.from {
            Side::Client => serde_json::from_slice::<ClientJsonRpcMessage>(&case.bytes)
                .map(|m| {
                    black_box(&m);
                })
                .is_ok(),
            Side::Server => serde_json::from_slice::<ServerJsonRpcMessage>(&case.bytes)
                .map(|m| {
                    black_box(&m);
                })
                .is_ok(),
        }
    }

    fn encode(decoded: &Decoded) -> Option<Result<Vec<u8>, String>> {
        Some(
            match decoded {
                Decoded::FromClient(m) => serde_json::to_vec(m),
                Decoded::FromServer(m) => serde_json::to_vec(m),
            }
            .map_err(|e| e.to_string()),
        )
    }

    fn route(decoded: &Decoded) -> Route {
        match decoded {
            Decoded::FromClient(m) => route(m),
            Decoded::FromServer(m) => route(m),
        }
    }
}
