//! Generates Rust types from `schema/2025-06-18/schema.json` with typify (the library, offline),
//! for the `typify` decoder. typify 0.8 panics on 2025-11-25's `allOf`, so it gets the
//! newest schema it reads.

use std::path::Path;

fn main() {
    let manifest = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
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
