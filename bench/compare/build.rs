//! Generates Rust types from `schema/2025-06-18/schema.json` with typify (the library, offline),
//! for the `typify` decoder. typify 0.8 panics on 2025-11-25's `allOf`, so it gets the
//! newest schema it reads.
//!
//! And seeds, with our generator, the modules of the `proxy` decoder: 2025-06-18,
//! 2025-11-25 and 2026-07-28 (the versions the benchmark measures by default), types and
//! methods, free-form JSON held as its text (`free_form: raw`), as a proxy's crate would.

use std::path::Path;

/// The versions the proxy decoder seeds.
const PROXY_VERSIONS: [&str; 3] = ["2025-06-18", "2025-11-25", "2026-07-28"];

fn seed_proxy(manifest: &str, out: &Path) {
    for version in PROXY_VERSIONS {
        let schema = Path::new(manifest).join(format!("../../schema/{version}/schema.json"));
        println!("cargo::rerun-if-changed={}", schema.display());
        let settings = mcp_codegen::settings::Settings {
            command: "cargo build -p mcp-compare (bench/compare/build.rs)".into(),
            runtime: "::mcp_spec_types::rt".into(),
            layout: mcp_codegen::settings::Layout::File,
            module: Some(format!("proxy_{}", version.replace('-', "_"))),
            layers: mcp_codegen::settings::Layers {
                methods: true,
                handlers: false,
            },
            free_form: mcp_codegen::settings::FreeForm::Raw,
            ..Default::default()
        };
        let seeded = mcp_codegen::seed::input_from_file(&schema)
            .and_then(|input| mcp_codegen::seed::seed(&input, &settings))
            .unwrap_or_else(|e| panic!("seeding the proxy's {version}: {e}"));
        mcp_codegen::seed::write(out, &seeded)
            .unwrap_or_else(|e| panic!("writing the proxy's {version}: {e}"));
    }
}

fn main() {
    let manifest = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    seed_proxy(
        &manifest,
        Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")),
    );
    let schema = Path::new(&manifest).join("../../schema/2025-06-18/schema.json");
    println!("cargo::rerun-if-changed={}", schema.display());
    println!("cargo::rerun-if-changed=build.rs");
    let text = std::fs::read_to_string(&schema)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", schema.display()));
    let root: schemars::schema::RootSchema =
        serde_json::from_str(&text).expect("schema.json is a draft-07 schema");
    let mut space = typify::TypeSpace::new(&typify::TypeSpaceSettings::default());
    space
        .add_root_schema(root)
        .expect("typify reads the 2025-06-18 schema");
    let file: syn::File = syn::parse2(space.to_stream()).expect("typify writes Rust");
    let out = Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"))
        .join("typify_2025_06_18.rs");
    std::fs::write(&out, prettyplease::unparse(&file))
        .unwrap_or_else(|e| panic!("cannot write {}: {e}", out.display()));
}
