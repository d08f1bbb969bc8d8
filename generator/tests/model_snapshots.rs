//! Snapshots of the model of every vendored schema version, in the compact rendering of
//! [`mcp_codegen::compact`]: one line per struct field, union arm, alias, enum, const and
//! method, without descriptions or the schema's hash.
//!
//! When upstream changes a schema (and `cargo xtask lock` accepts it), this test fails with
//! a `cargo insta review` diff of exactly what changed in the protocol. Review that diff,
//! then accept it with `cargo insta review` (or
//! `INSTA_UPDATE=always cargo test -p mcp-codegen --test model_snapshots`), together with
//! `cargo xtask codegen` for the generated Rust files.

use std::panic::{self, AssertUnwindSafe};
use std::path::Path;

use mcp_codegen::{compact, model_of, workspace};

#[test]
fn model_snapshots() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the generator crate lives inside the workspace");
    let inputs = workspace::inputs(root).unwrap_or_else(|e| panic!("{e}"));
    assert!(!inputs.is_empty(), "schema/lock.json lists no versions");
    // Check every version before failing, so one run shows (and leaves pending for
    // review) the diffs of all the versions that changed.
    let mut failed = Vec::new();
    for input in &inputs {
        let model = model_of(input).unwrap_or_else(|e| panic!("{}: {e}", input.version));
        let checked = panic::catch_unwind(AssertUnwindSafe(|| {
            insta::assert_snapshot!(format!("model-{}", input.version), compact::render(&model));
        }));
        if checked.is_err() {
            failed.push(input.version.as_str());
        }
    }
    assert!(
        failed.is_empty(),
        "the model changed for {}: review with `cargo insta review`, and run `cargo xtask \
         codegen`",
        failed.join(", ")
    );
}

/// A request whose result is one of several types gets a readable name from
/// `overrides::INLINE_NAMES` (`CallToolOutcome`), in every vendored version: a new
/// path-built result name (`…ResultResponseResult`) fails here until the table names it,
/// and every entry of the table is used by some version.
#[test]
fn result_unions_have_readable_names() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let inputs = workspace::inputs(root).unwrap_or_else(|e| panic!("{e}"));
    let mut used = std::collections::BTreeSet::new();
    for input in &inputs {
        let model = model_of(input).unwrap_or_else(|e| panic!("{}: {e}", input.version));
        for t in &model.types {
            assert!(
                !t.name.ends_with("ResultResponseResult"),
                "{}: `{}` is path-built: add it to overrides::INLINE_NAMES",
                input.version,
                t.name
            );
            if let Some(built) = mcp_codegen::overrides::inline_name_of(&t.name) {
                used.insert(built);
            }
        }
    }
    let unused: Vec<_> = mcp_codegen::overrides::INLINE_NAMES
        .iter()
        .filter(|(from, _, _)| !used.contains(from))
        .map(|(from, _, _)| *from)
        .collect();
    assert!(unused.is_empty(), "entries no version uses: {unused:?}");
}
