//! Rust types for the Model Context Protocol, generated from the official JSON Schema
//! of each protocol version by `cargo xtask codegen`.
//!
//! One module per protocol version, each behind a cargo feature of the same name; any
//! combination of features compiles. The default feature is the newest released version.
//!
//! | feature | module | schema dialect |
//! | --- | --- | --- |
//! | `v2024_11_05` | `v2024_11_05` | draft-07 |
//! | `v2025_03_26` | `v2025_03_26` | draft-07 |
//! | `v2025_06_18` | `v2025_06_18` | draft-07 |
//! | `v2025_11_25` | `v2025_11_25` | 2020-12 |
//! | `v2026_07_28` (default) | `v2026_07_28` | 2020-12 |
//! | `draft` | `draft` | 2020-12 |
//! | `schemars` | a tool's input and output schemas from Rust types (`Tool::for_input`, `with_output`) | |
//! | `json-schema` | derives `schemars::JsonSchema` on every type (turns on `schemars`) | |
//! | `ext-tasks` | `ext::tasks`: the tasks extension (turns on `v2026_07_28`) | 2020-12 |
//! | `ext-server-card` | `ext::server_card`: the server card (experimental) | 2020-12 |
//! | `convert` | `convert`: `From` / `TryFrom` between consecutive versions' types, and the adapters that serve older peers with a newer handler | |
//!
//! [`rt`] is the hand-written runtime the generated modules build on: the crate
//! `mcp-spec-rt`, re-exported.
//!
//! The guide (generating, decoding, serving and calling, every version, comparing
//! versions, fidelity, performance) is the repository's `docs/`:
//! <https://github.com/mcp-codegen/mcp-codegen/blob/main/docs/README.md>.
#![cfg_attr(docsrs, feature(doc_cfg))]

pub use mcp_spec_rt as rt;
/// The `serde` the generated types implement (so a user's `serde` cannot be a different
/// major version by accident).
pub use mcp_spec_rt::serde;
/// The `serde_json` the generated types use (`Value`, `Map`, `Number`).
pub use mcp_spec_rt::serde_json;
pub mod version;

#[rustfmt::skip]
pub mod convert;

#[rustfmt::skip]
mod protocol_version;

/// What consecutive versions define identically, defined once for all of them (each
/// version's module re-exports it).
#[rustfmt::skip]
mod shared;

pub use version::ProtocolVersion;

/// The official extensions, each generated from its own schema (`schema/ext/`) and behind
/// a feature of its own: `ext-tasks` (the tasks extension, `io.modelcontextprotocol/tasks`,
/// built on `v2026_07_28`, whose types it uses for the core definitions its schema
/// copies) and `ext-server-card` (the experimental server card).
#[cfg(any(feature = "ext-tasks", feature = "ext-server-card"))]
pub mod ext {
    #[cfg(feature = "ext-server-card")]
    #[rustfmt::skip]
    pub mod server_card;
    #[cfg(feature = "ext-tasks")]
    #[rustfmt::skip]
    pub mod tasks;
}

#[cfg(feature = "draft")]
#[rustfmt::skip]
pub mod draft;
#[cfg(feature = "v2024_11_05")]
#[rustfmt::skip]
pub mod v2024_11_05;
#[cfg(feature = "v2025_03_26")]
#[rustfmt::skip]
pub mod v2025_03_26;
#[cfg(feature = "v2025_06_18")]
#[rustfmt::skip]
pub mod v2025_06_18;
#[cfg(feature = "v2025_11_25")]
#[rustfmt::skip]
pub mod v2025_11_25;
#[cfg(feature = "v2026_07_28")]
#[rustfmt::skip]
pub mod v2026_07_28;
