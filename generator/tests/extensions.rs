//! The official extensions' schemas (`schema/ext/`, written unlike the core files: the
//! tasks extension by a Zod converter, with `allOf` over core definitions, unions inside
//! `allOf`, copies of definitions inlined, a `$schema` in every definition) generate, and
//! their Rust builds with warnings denied.

mod common;

use std::path::Path;

use common::*;
use mcp_codegen::seed;
use mcp_codegen::settings::{Layout, Settings};

fn workspace() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

#[test]
fn the_extensions_generate_and_build() {
    let root = workspace();
    let scratch = Path::new(env!("CARGO_TARGET_TMPDIR")).join("extensions-compile");
    let src = scratch.join("src");
    let mut lib = String::from("//! Scratch crate of `generator/tests/extensions.rs`.\n");
    let mut report = Vec::new();
    // Read as locked: a file that differs from `schema/lock.json` is refused.
    let inputs = mcp_codegen::workspace::extension_inputs(&root).unwrap();
    let names: Vec<&str> = inputs.iter().map(|i| i.version.as_str()).collect();
    assert_eq!(names, ["tasks", "server-card"]);
    for input in inputs {
        let module = mcp_codegen::emit::module_name(&input.version);
        let path = input.path.clone();
        let settings = Settings {
            command: "cargo test -p mcp-codegen --test extensions".into(),
            module: Some(module.clone()),
            layout: Layout::File,
            ..Default::default()
        };
        let seeded = seed::seed(&input, &settings).unwrap_or_else(|e| panic!("{path}: {e}"));
        let (_, text) = &seeded.files[0];
        let items = text
            .lines()
            .filter(|l| {
                ["pub struct ", "pub enum ", "pub type "]
                    .iter()
                    .any(|p| l.trim_start().starts_with(p))
            })
            .count();
        report.push(format!("{path}: {items} items"));
        write_if_changed(&src.join(format!("{module}.rs")), text);
        lib.push_str(&format!("include!(\"{module}.rs\");\n"));
    }
    println!("{}", report.join("\n"));
    // The tasks extension's result of `tasks/get` is a union of the task's shapes, tagged
    // by `status`, each with what every result holds.
    let tasks = std::fs::read_to_string(src.join("tasks.rs")).unwrap();
    assert!(
        tasks.contains("pub enum GetTaskResult {"),
        "no GetTaskResult union"
    );
    assert!(
        tasks.contains("The `status` property picks the arm"),
        "GetTaskResult is not tagged by status"
    );
    write_if_changed(&src.join("lib.rs"), &lib);
    let out = scratch_crate(
        &root,
        &scratch,
        "extensions-compile",
        &["build"],
        "RUSTFLAGS",
    );
    assert!(
        out.status.success(),
        "the extensions' Rust does not build:\n{}",
        first_errors(&String::from_utf8_lossy(&out.stderr), 60)
    );
}

/// Every revision of an extension's schema that upstream published (vendored in
/// `schema/ext/<extension>/history/`, oldest first: the tasks extension's three) generates,
/// and the newest is the vendored schema.
#[test]
fn every_extension_revision_generates() {
    let root = workspace();
    let lock = mcp_codegen::workspace::read_lock(&root).unwrap();
    let mut report = Vec::new();
    let mut failures = Vec::new();
    let mut seen = 0;
    for entry in &lock.extensions {
        let dir = root.join(format!("schema/ext/{}/history", entry.version));
        let Ok(listing) = std::fs::read_dir(&dir) else {
            // An extension without published revisions (the server card) has no folder.
            continue;
        };
        let mut files: Vec<std::path::PathBuf> = listing
            .flatten()
            .map(|f| f.path())
            .filter(|p| p.extension().is_some_and(|e| e == "json"))
            .collect();
        files.sort();
        for file in &files {
            let input = mcp_codegen::Input {
                version: entry.version.clone(),
                path: file.display().to_string(),
                text: std::fs::read_to_string(file).unwrap(),
                ..Default::default()
            };
            match mcp_codegen::generate(&[input]) {
                Ok(out) => report.push(format!(
                    "{}: {} types",
                    file.display(),
                    out.models[0].types.len()
                )),
                Err(e) => failures.push(e.to_string()),
            }
            seen += 1;
        }
        let newest = files.last().expect("a history folder holds revisions");
        assert_eq!(
            std::fs::read(newest).unwrap(),
            std::fs::read(root.join(&entry.path)).unwrap(),
            "the newest revision of {} is not the vendored {}",
            entry.version,
            entry.path
        );
    }
    println!("{}", report.join("\n"));
    assert!(
        seen >= 3,
        "expected the tasks extension's three revisions, found {seen}"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
