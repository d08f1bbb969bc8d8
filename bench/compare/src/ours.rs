//! Our decoder, `mcp-spec-types`: every use of its API is in this module, so that it can
//! follow the API when it changes.
//!
//! A request, notification or error is decoded by `methods::decode_from_client` /
//! `decode_from_server` (unknown methods rejected); a result response by
//! `rt::jsonrpc::receive_typed` with the method it answers, into the version's
//! `methods::ServerResult` / `methods::ClientResult`. Encoding is
//! `rt::jsonrpc::encode_to_vec` / `encode_response`.

use mcp_spec_types::rt::jsonrpc::{
    self, Id, Incoming, Message, MethodSet, Options, ResultSet, UnknownMethods,
};
use mcp_spec_types::rt::method::{Direction, MessageKind};

use crate::{Case, Decoder, Kind, Route, Side, Target, variant_name};

/// What one version decodes a message into.
#[derive(Debug)]
pub enum One<C, S, SR, CR> {
    /// A request, notification or error the client wrote.
    FromClient(C),
    /// A request, notification or error the server wrote.
    FromServer(S),
    /// A result response the server wrote, its result typed by the method it answers.
    ServerAnswer(Id, SR),
    /// A result response the client wrote.
    ClientAnswer(Id, CR),
}

fn route_message<R: MethodSet, N: MethodSet>(message: &Message<R, N>) -> Route {
    match message {
        Message::Request { request, .. } => {
            Route::To(Kind::Request, Target::Method(request.method().to_string()))
        }
        Message::Notification {
            notification: n, ..
        } => Route::To(Kind::Notification, Target::Method(n.method().to_string())),
        Message::Response { .. } => {
            Route::To(Kind::Result, Target::CatchAll("Response (raw)".into()))
        }
        Message::Error { .. } => Route::To(Kind::Error, Target::None),
        Message::Batch(_) => Route::To(Kind::Request, Target::CatchAll("Batch".into())),
    }
}

/// Decodes a result response by the method it answers.
fn answer<R: MethodSet, N: MethodSet, S: ResultSet>(
    case: &Case,
    method: Option<S::Method>,
) -> Result<(Id, S), String> {
    let method = method.ok_or_else(|| {
        format!(
            "method `{}` unknown to {}",
            case.method.as_deref().unwrap_or_default(),
            case.version
        )
    })?;
    match jsonrpc::receive_typed::<R, N, S>(&case.bytes, Options::default(), |_| Some(method)) {
        Ok(Incoming::Result { id, result, .. }) => Ok((id, result.map_err(|e| e.to_string())?)),
        // A message, or (before main's 23e869f) a response to an id not matched.
        Ok(_) => Err("not a result response to a known request".into()),
        Err(e) => Err(e.to_string()),
    }
}

macro_rules! versions {
    ($($V:ident, $m:ident, $version:literal;)*) => {
        /// A message decoded by the typed entry point of its version.
        #[derive(Debug)]
        #[allow(clippy::large_enum_variant)]
        pub enum Decoded {
            $(
                #[doc = concat!("Version `", $version, "`.")]
                $V(One<
                    mcp_spec_types::$m::methods::ClientMessage,
                    mcp_spec_types::$m::methods::ServerMessage,
                    mcp_spec_types::$m::methods::ServerResult,
                    mcp_spec_types::$m::methods::ClientResult,
                >),
            )*
        }

        /// Who sends `method` (as a request or notification) in `version`: the client,
        /// the server, or for either side (`ping`, `notifications/progress`) the client
        /// for a request and the server for a notification. `None` for a method the
        /// version does not have.
        pub fn sender(version: &str, method: &str, kind: Kind) -> Option<Side> {
            let direction = match version {
                $($version => method.parse::<mcp_spec_types::$m::methods::Method>().ok().map(|m| {
                    debug_assert!(matches!(
                        (m.kind(), kind),
                        (MessageKind::Request, Kind::Request) | (MessageKind::Notification, Kind::Notification)
                    ));
                    m.direction()
                })?,)*
                _ => return None,
            };
            Some(match (direction, kind) {
                (Direction::ClientToServer, _) => Side::Client,
                (Direction::ServerToClient, _) => Side::Server,
                (Direction::Both, Kind::Request) => Side::Client,
                (Direction::Both, _) => Side::Server,
            })
        }

        /// The method of the result variant named `variant` (`CallTool` → `tools/call`).
        fn method_of_variant(version: &str, variant: &str) -> Option<&'static str> {
            match version {
                $($version => mcp_spec_types::$m::methods::Method::ALL
                    .iter()
                    .find(|m| variant_name(m) == variant)
                    .map(|m| m.as_str()),)*
                _ => None,
            }
        }

        /// `mcp-spec-types`.
        #[derive(Debug, Clone, Copy)]
        pub struct Ours;

        impl Decoder for Ours {
            const NAME: &'static str = "ours";
            type Decoded = Decoded;

            fn supports(version: &str) -> bool {
                matches!(version, $($version)|*)
            }

            fn decode(case: &Case) -> Result<Decoded, String> {
                match case.version {
                    $($version => {
                        use mcp_spec_types::$m::methods as ms;
                        let method = case.method.as_deref().and_then(|m| m.parse::<ms::Method>().ok());
                        Ok(Decoded::$V(match (case.kind, case.from) {
                            (Kind::Result, Side::Server) => {
                                let (id, r) = answer::<ms::ServerRequest, ms::ServerNotification, ms::ServerResult>(case, method)?;
                                One::ServerAnswer(id, r)
                            }
                            (Kind::Result, Side::Client) => {
                                let (id, r) = answer::<ms::ClientRequest, ms::ClientNotification, ms::ClientResult>(case, method)?;
                                One::ClientAnswer(id, r)
                            }
                            (_, Side::Client) => One::FromClient(
                                ms::decode_from_client(&case.bytes, UnknownMethods::Reject).map_err(|e| e.to_string())?,
                            ),
                            (_, Side::Server) => One::FromServer(
                                ms::decode_from_server(&case.bytes, UnknownMethods::Reject).map_err(|e| e.to_string())?,
                            ),
                        }))
                    })*
                    other => Err(format!("version {other} unknown")),
                }
            }

            fn decode_observed(case: &Case) -> bool {
                use std::hint::black_box;
                match case.version {
                    $($version => {
                        use mcp_spec_types::$m::methods as ms;
                        let method = case.method.as_deref().and_then(|m| m.parse::<ms::Method>().ok());
                        match (case.kind, case.from) {
                            (Kind::Result, Side::Server) => {
                                answer::<ms::ServerRequest, ms::ServerNotification, ms::ServerResult>(case, method)
                                    .map(|r| { black_box(&r); })
                                    .is_ok()
                            }
                            (Kind::Result, Side::Client) => {
                                answer::<ms::ClientRequest, ms::ClientNotification, ms::ClientResult>(case, method)
                                    .map(|r| { black_box(&r); })
                                    .is_ok()
                            }
                            (_, Side::Client) => ms::decode_from_client(&case.bytes, UnknownMethods::Reject)
                                .map(|m| { black_box(&m); })
                                .is_ok(),
                            (_, Side::Server) => ms::decode_from_server(&case.bytes, UnknownMethods::Reject)
                                .map(|m| { black_box(&m); })
                                .is_ok(),
                        }
                    })*
                    _ => false,
                }
            }

            fn encode(decoded: &Decoded) -> Option<Result<Vec<u8>, String>> {
                Some(match decoded {
                    $(Decoded::$V(one) => match one {
                        One::FromClient(m) => jsonrpc::encode_to_vec(m),
                        One::FromServer(m) => jsonrpc::encode_to_vec(m),
                        One::ServerAnswer(id, r) => jsonrpc::encode_response(id, r),
                        One::ClientAnswer(id, r) => jsonrpc::encode_response(id, r),
                    }
                    .map_err(|e| e.to_string()),)*
                })
            }

            fn route(decoded: &Decoded) -> Route {
                match decoded {
                    $(Decoded::$V(one) => match one {
                        One::FromClient(m) => route_message(m),
                        One::FromServer(m) => route_message(m),
                        One::ServerAnswer(_, r) => result_route($version, &variant_name(r)),
                        One::ClientAnswer(_, r) => result_route($version, &variant_name(r)),
                    },)*
                }
            }
        }
    };
}

fn result_route(version: &str, variant: &str) -> Route {
    Route::To(
        Kind::Result,
        match method_of_variant(version, variant) {
            Some(m) => Target::Method(m.to_string()),
            None => Target::CatchAll(variant.to_string()),
        },
    )
}

versions! {
    V2024_11_05, v2024_11_05, "2024-11-05";
    V2025_03_26, v2025_03_26, "2025-03-26";
    V2025_06_18, v2025_06_18, "2025-06-18";
    V2025_11_25, v2025_11_25, "2025-11-25";
    V2026_07_28, v2026_07_28, "2026-07-28";
    Draft, draft, "draft";
}
