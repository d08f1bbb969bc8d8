//! Seeds two modules into `OUT_DIR` with the generator's library, as a crate of one's own
//! would:
//! - `mcp.rs`: MCP 2025-11-25, with settings: `Implementation` renamed `PeerInfo`, `Role`
//!   deriving `PartialOrd` and `Ord`, `Icon` replaced by this crate's own type, the tasks
//!   left out (every definition named `Task...`, and what needs them);
//! - `mcp_next.rs`: the types alone of 2026-07-28, the first version upstream publishes
//!   examples for.
//!
//! And `definitions.rs`: a table of `mcp_next`'s definitions for the tests, which decode
//! each official example into the type its folder names.
//!
//! The schemas are read from the repository (`../../schema`), or from `MCP_SCHEMAS` when
//! this crate is built from a copy elsewhere.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;

use mcp_codegen::model::Origin;
use mcp_codegen::seed;
use mcp_codegen::settings::{Layers, Layout, Settings, TypeSettings};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR")?);
    let schemas = match std::env::var_os("MCP_SCHEMAS") {
        Some(dir) => PathBuf::from(dir),
        None => manifest.join("../../schema"),
    };
    let out = PathBuf::from(std::env::var("OUT_DIR")?);
    println!("cargo::rerun-if-env-changed=MCP_SCHEMAS");

    let current = schemas.join("2025-11-25/schema.json");
    println!("cargo::rerun-if-changed={}", current.display());
    let input = seed::input_from_file(&current)?;
    // The subset: no tasks. What needs them goes too, and is listed.
    let definitions = mcp_codegen::load::parse(&input.path, &input.text)?.defs;
    let exclude = definitions
        .keys()
        .filter(|name| name.starts_with("Task") || name.contains("Task"))
        .cloned()
        .collect();
    let types = BTreeMap::from([
        (
            "Implementation".to_string(),
            TypeSettings {
                rename: Some("PeerInfo".into()),
                ..TypeSettings::default()
            },
        ),
        (
            "Role".to_string(),
            TypeSettings {
                derives: vec!["PartialOrd".into(), "Ord".into()],
                ..TypeSettings::default()
            },
        ),
        (
            "Icon".to_string(),
            TypeSettings {
                replace: Some("crate::icon::Icon".into()),
                ..TypeSettings::default()
            },
        ),
    ]);
    let settings = Settings {
        command: "cargo build (examples/seeded/build.rs)".into(),
        layout: Layout::File,
        module: Some("mcp".into()),
        doc_module: Some("seeded::mcp".into()),
        types,
        exclude,
        ..Settings::default()
    };
    let seeded = seed::seed(&input, &settings)?;
    seed::write(&out, &seeded)?;
    // What the subset left out, for the tests to hold to.
    let left_out: Vec<String> = seeded
        .applied
        .removed
        .iter()
        .map(|(n, _)| n.clone())
        .collect();
    std::fs::write(out.join("left_out.txt"), left_out.join("\n"))?;

    let next = schemas.join("2026-07-28/schema.json");
    println!("cargo::rerun-if-changed={}", next.display());
    let input = seed::input_from_file(&next)?;
    let settings = Settings {
        command: "cargo build (examples/seeded/build.rs)".into(),
        layout: Layout::File,
        module: Some("mcp_next".into()),
        layers: Layers {
            methods: false,
            handlers: false,
        },
        ..Settings::default()
    };
    let seeded = seed::seed(&input, &settings)?;
    seed::write(&out, &seeded)?;
    let mut table = String::from(
        "/// Decodes `value` as the definition named `definition`, and encodes it back.\n\
         pub fn round_trip(definition: &str, value: mcp_spec_rt::serde_json::Value) \
         -> Option<Result<mcp_spec_rt::serde_json::Value, String>> {\n    \
         fn go<T: mcp_spec_rt::serde::de::DeserializeOwned + mcp_spec_rt::serde::Serialize>(\
         v: mcp_spec_rt::serde_json::Value) -> Result<mcp_spec_rt::serde_json::Value, String> {\n        \
         let t: T = mcp_spec_rt::serde_json::from_value(v).map_err(|e| e.to_string())?;\n        \
         mcp_spec_rt::serde_json::to_value(&t).map_err(|e| e.to_string())\n    }\n    \
         Some(match definition {\n",
    );
    for t in &seeded.model.types {
        if let Origin::Definition(d) = &t.origin {
            writeln!(
                table,
                "        {d:?} => go::<crate::mcp_next::{}>(value),",
                t.name
            )?;
        }
    }
    table.push_str("        _ => return None,\n    })\n}\n");
    std::fs::write(out.join("definitions.rs"), table)?;
    Ok(())
}
