//! A crate seeded for a proxy: our generator's modules of 2025-06-18, 2025-11-25 and
//! 2026-07-28 (types and methods; `build.rs`), with free-form JSON held as its text
//! (`rt::raw::RawObject`: a tool's arguments, each of a schema's properties, `_meta`;
//! `RawJson`: other free-form values), decoded and encoded through the same entry points
//! as [`Ours`](crate::ours::Ours).

use mcp_spec_types::rt::jsonrpc::{self, UnknownMethods};

use crate::ours::{One, answer, result_route, route_message};
use crate::{Case, Decoder, Kind, Route, Side, variant_name};

/// The seeded modules.
#[allow(clippy::all, missing_docs, deprecated, rustdoc::all)]
pub mod seeded {
    include!(concat!(env!("OUT_DIR"), "/proxy_2025_06_18.rs"));
    include!(concat!(env!("OUT_DIR"), "/proxy_2025_11_25.rs"));
    include!(concat!(env!("OUT_DIR"), "/proxy_2026_07_28.rs"));
}

crate::typed_decoder!(
    Proxy,
    "proxy",
    "Modules seeded for a proxy: free-form JSON as its text.",
    [seeded];
    V2025_06_18, proxy_2025_06_18, "2025-06-18";
    V2025_11_25, proxy_2025_11_25, "2025-11-25";
    V2026_07_28, proxy_2026_07_28, "2026-07-28";
);
