//! `rust-mcp-schema` 2.0: its `schema_utils::ClientMessage` / `ServerMessage` of version
//! 2025-11-25 (features `2025_11_25`, `schema_utils`). The crate has features for 2024-11-05 to 2026-07-28
//! and a draft, but two of them together do not compile (2.0.0: each defines a private
//! `mod validators` at the crate root, E0428), so one version it is: 2025-11-25, the
//! newest final one.

use rust_mcp_schema::mcp_2025_11_25 as v2025_11_25;

use crate::{Case, Decoder, Kind, Route, Side, Target, variant_name};

/// A message rust-mcp-schema decoded, by the side that wrote it.
#[derive(Debug)]
#[allow(clippy::large_enum_variant)]
pub enum Decoded {
    /// 2025-11-25, written by the client.
    Client2025_11_25(v2025_11_25::schema_utils::ClientMessage),
    /// 2025-11-25, written by the server.
    Server2025_11_25(v2025_11_25::schema_utils::ServerMessage),
}

fn target(name: String) -> Target {
    if name.starts_with("Custom") {
        Target::CatchAll(name)
    } else {
        Target::Type(name)
    }
}

/// The route of a `ClientMessage` / `ServerMessage`: the same four variants, each its
/// own types.
macro_rules! route {
    ($message:expr, $ty:path) => {{
        use $ty as M;
        match $message {
            M::Request(r) => Route::To(Kind::Request, target(variant_name(r))),
            M::Notification(n) => Route::To(Kind::Notification, target(variant_name(n))),
            M::Response(r) => Route::To(Kind::Result, target(variant_name(&r.result))),
            M::Error(_) => Route::To(Kind::Error, Target::None),
        }
    }};
}

/// `rust-mcp-schema`.
#[derive(Debug, Clone, Copy)]
pub struct RustMcpSchema;

impl Decoder for RustMcpSchema {
    const NAME: &'static str = "rust-mcp-schema";
    type Decoded = Decoded;

    fn supports(version: &str) -> bool {
        version == "2025-11-25"
    }

    fn decode(case: &Case) -> Result<Decoded, String> {
        let bytes = &case.bytes;
        match (case.version, case.from) {
            ("2025-11-25", Side::Client) => {
                serde_json::from_slice(bytes).map(Decoded::Client2025_11_25)
            }
            ("2025-11-25", Side::Server) => {
                serde_json::from_slice(bytes).map(Decoded::Server2025_11_25)
            }
            (other, _) => return Err(format!("version {other} not modelled")),
        }
        .map_err(|e| e.to_string())
    }

    fn encode(decoded: &Decoded) -> Option<Result<Vec<u8>, String>> {
        Some(
            match decoded {
                Decoded::Client2025_11_25(m) => serde_json::to_vec(m),
                Decoded::Server2025_11_25(m) => serde_json::to_vec(m),
            }
            .map_err(|e| e.to_string()),
        )
    }

    fn route(decoded: &Decoded) -> Route {
        match decoded {
            Decoded::Client2025_11_25(m) => route!(m, v2025_11_25::schema_utils::ClientMessage),
            Decoded::Server2025_11_25(m) => route!(m, v2025_11_25::schema_utils::ServerMessage),
        }
    }
}
