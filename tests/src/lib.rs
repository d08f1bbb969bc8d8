//! Shared helpers of the integration tests, and the generated per-version harnesses
//! (`tests/src/v*.rs`, written by `cargo xtask codegen`).

use mcp_spec_types::rt::strict::{self, Check};
use serde::{Serialize, de::DeserializeOwned};

/// Decodes `value` as `T`, strictly, and encodes it back. Strict: a value the tolerant
/// decoder keeps in a catch-all (an unknown tag or enum value) is an error here, as
/// `rt::strict` reports it. On the way it holds the crate's own writer (`rt::write::to_vec`)
/// to the bytes `serde_json::to_vec` writes for the typed value: every test that
/// round-trips a value checks that too.
pub fn roundtrip<T: DeserializeOwned + Serialize + Check>(
    value: serde_json::Value,
) -> Result<serde_json::Value, String> {
    let typed: T = serde_json::from_value(value).map_err(|e| e.to_string())?;
    let issues = strict::issues(&typed);
    if !issues.is_empty() {
        return Err(strict::StrictError::Issues(issues).to_string());
    }
    let ours = mcp_spec_types::rt::write::to_vec(&typed).map_err(|e| e.to_string())?;
    let theirs = serde_json::to_vec(&typed).map_err(|e| e.to_string())?;
    if ours != theirs {
        return Err(format!(
            "rt::write::to_vec wrote {} where serde_json::to_vec wrote {}",
            String::from_utf8_lossy(&ours),
            String::from_utf8_lossy(&theirs)
        ));
    }
    serde_json::to_value(&typed).map_err(|e| e.to_string())
}

/// Decodes `value` as `T` tolerantly, and returns it encoded back with what a strict check
/// finds in it.
pub fn checked<T: DeserializeOwned + Serialize + Check>(
    value: serde_json::Value,
) -> Result<(serde_json::Value, Vec<strict::Issue>), String> {
    let typed: T = mcp_spec_types::rt::path::from_value(value).map_err(|e| e.to_string())?;
    let issues = strict::issues(&typed);
    Ok((
        serde_json::to_value(&typed).map_err(|e| e.to_string())?,
        issues,
    ))
}

/// The workspace root.
pub fn root() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ is in the workspace")
        .to_path_buf()
}

/// One official example: the definition its folder names, `Folder/file.json`, the value.
pub struct Example {
    /// The definition (folder name).
    pub definition: String,
    /// `Folder/file.json`.
    pub case: String,
    /// The parsed file.
    pub value: serde_json::Value,
}

/// The official examples of a version (`schema/<version>/examples/<Definition>/*.json`),
/// sorted; empty where upstream publishes none.
pub fn examples(version: &str) -> Vec<Example> {
    let dir = root().join("schema").join(version).join("examples");
    let sorted = |dir: &std::path::Path| -> Vec<std::path::PathBuf> {
        let mut all: Vec<_> = std::fs::read_dir(dir)
            .map(|d| d.flatten().map(|e| e.path()).collect())
            .unwrap_or_default();
        all.sort();
        all
    };
    let mut out = Vec::new();
    for folder in sorted(&dir) {
        let definition = folder.file_name().unwrap().to_string_lossy().to_string();
        for file in sorted(&folder) {
            let text = std::fs::read_to_string(&file).unwrap();
            out.push(Example {
                case: format!(
                    "{definition}/{}",
                    file.file_name().unwrap().to_string_lossy()
                ),
                definition: definition.clone(),
                value: serde_json::from_str(&text)
                    .unwrap_or_else(|e| panic!("{}: {e}", file.display())),
            });
        }
    }
    out
}

pub mod fuzz;

#[rustfmt::skip]
pub mod draft;
#[rustfmt::skip]
pub mod v2024_11_05;
#[rustfmt::skip]
pub mod v2025_03_26;
#[rustfmt::skip]
pub mod v2025_06_18;
#[rustfmt::skip]
pub mod v2025_11_25;
#[rustfmt::skip]
pub mod v2026_07_28;

/// The generated harness of one version.
pub struct Harness {
    /// Protocol version.
    pub version: &'static str,
    /// `(schema name, Rust name)` of every definition.
    pub definitions: &'static [(&'static str, &'static str)],
    /// Decodes a value as a definition and encodes it back.
    pub roundtrip: fn(&str, serde_json::Value) -> Option<Result<serde_json::Value, String>>,
    /// Decodes a value tolerantly as a type (by Rust name) and returns it encoded back
    /// with what a strict check finds in it.
    pub checked: Checked,
    /// The Rust name of every string enum.
    pub string_enums: &'static [&'static str],
    /// The decoding facts of a union definition.
    pub union: fn(&str) -> Option<mcp_spec_types::rt::union::Union>,
    /// `(Rust name, decoding facts)` of every union, definitions and inline ones.
    pub unions: &'static [(&'static str, mcp_spec_types::rt::union::Union)],
    /// The JSON Schema `schemars` derives for a definition.
    pub schema: fn(&str) -> Option<schemars::Schema>,
    /// The generated `Method` enum: string, direction, kind of every method.
    pub methods: MethodList,
    /// Decodes a message through the version's entry point (as a server when the flag
    /// says it comes from a client), returning its method and the message encoded back.
    pub decode_message: DecodeMessage,
    /// Decodes a result by the method of its request (`ServerResult` when the server
    /// answers it) and encodes it back.
    pub decode_result: fn(&str, bool, serde_json::Value) -> Result<serde_json::Value, String>,
}

/// What [`Harness::checked`] is.
pub type Checked =
    fn(&str, serde_json::Value) -> Option<Result<(serde_json::Value, Vec<strict::Issue>), String>>;

/// What [`Harness::decode_message`] is.
pub type DecodeMessage =
    fn(
        &[u8],
        bool,
        bool,
    ) -> Result<(String, serde_json::Value), mcp_spec_types::rt::jsonrpc::ProtocolError>;

/// What [`Harness::methods`] returns.
pub type MethodList = fn() -> Vec<(
    &'static str,
    mcp_spec_types::rt::method::Direction,
    mcp_spec_types::rt::method::MessageKind,
)>;

macro_rules! harness {
    ($version:literal, $module:ident) => {
        Harness {
            version: $version,
            definitions: $module::DEFINITIONS,
            roundtrip: $module::roundtrip,
            checked: $module::checked,
            string_enums: $module::STRING_ENUMS,
            union: $module::union,
            unions: $module::UNIONS,
            schema: $module::schema,
            methods: $module::methods,
            decode_message: $module::decode_message,
            decode_result: $module::decode_result,
        }
    };
}

/// Every version's harness.
pub const VERSIONS: &[Harness] = &[
    harness!("2024-11-05", v2024_11_05),
    harness!("2025-03-26", v2025_03_26),
    harness!("2025-06-18", v2025_06_18),
    harness!("2025-11-25", v2025_11_25),
    harness!("2026-07-28", v2026_07_28),
    harness!("draft", draft),
];

/// The README's Rust examples, compiled and run as doctests.
#[doc = include_str!("../../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;

/// The Rust example of the published crate's README (`generated/README.md`), compiled and
/// run as a doctest.
#[doc = include_str!("../../generated/README.md")]
#[cfg(doctest)]
pub struct CrateReadmeDoctests;
