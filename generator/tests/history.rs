//! Robustness over real upstream history: every published revision of every schema
//! loads, lowers and emits without error.
//!
//! The corpus (about 230 files, 34 MB) is not vendored; this test reads it from
//! `../shared/mcp-spec/history/` beside the workspace, or from the directory named by
//! `MCP_SPEC_HISTORY`. It is `#[ignore]`d so that `cargo test` on a user's machine does
//! not need it; CI runs it explicitly with `cargo test -p mcp-codegen --test history -- --ignored`.

use std::fs;
use std::path::PathBuf;

use mcp_codegen::{Input, generate};

fn corpus() -> PathBuf {
    match std::env::var_os("MCP_SPEC_HISTORY") {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/mcp-spec/history"),
    }
}

/// Revisions that upstream published broken: `(file, reason)`. Each must fail; one that
/// starts generating fails the test, so the list stays true.
const BROKEN_UPSTREAM: &[(&str, &str)] = &[
    (
        "draft/037-2025-06-10-ace88165.json",
        "CallToolResult refers to #/definitions/ResourceReference, which the file does not define",
    ),
    (
        "draft/121-2025-11-14-78660338.json",
        "a 2020-12 document ($defs) with a $ref into #/definitions/, which it does not have",
    ),
    (
        "draft/181-2026-05-06-0d217bba.json",
        "ListPromptsResult.ttl is allOf an object schema and an integer: no value satisfies it",
    ),
    (
        "draft/182-2026-05-06-888f87a6.json",
        "ListPromptsResult.ttl is allOf an object schema and an integer: no value satisfies it",
    ),
];

#[test]
#[ignore = "needs the upstream history corpus from ../shared/mcp-spec/history"]
fn every_historical_revision_generates() {
    let dir = corpus();
    let versions = fs::read_dir(&dir).unwrap_or_else(|e| {
        panic!(
            "history corpus not found at {} ({e}); set MCP_SPEC_HISTORY",
            dir.display()
        )
    });
    let mut files: Vec<PathBuf> = versions
        .flatten()
        .flat_map(|v| {
            fs::read_dir(v.path())
                .into_iter()
                .flatten()
                .flatten()
                .map(|f| f.path())
        })
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    let mut failures = Vec::new();
    let mut broken_seen = 0;
    for file in &files {
        let version = file
            .parent()
            .unwrap()
            .file_name()
            .unwrap()
            .to_string_lossy()
            .to_string();
        let input = Input {
            version,
            path: file.strip_prefix(&dir).unwrap().display().to_string(),
            text: fs::read_to_string(file).unwrap(),
        };
        let path = input.path.clone();
        let broken = BROKEN_UPSTREAM.iter().find(|(f, _)| *f == path);
        match (generate(&[input]), broken) {
            (Ok(_), None) => {}
            (Err(e), None) => failures.push(e.to_string()),
            (Err(e), Some(_)) => {
                broken_seen += 1;
                println!("expected failure: {e}");
            }
            (Ok(_), Some((_, why))) => failures.push(format!(
                "{path} now generates; remove it from BROKEN_UPSTREAM (was: {why})"
            )),
        }
    }
    println!(
        "{} revisions: {} generate, {} known broken upstream, {} unexpected failures",
        files.len(),
        files.len() - broken_seen - failures.len(),
        broken_seen,
        failures.len()
    );
    assert_eq!(
        broken_seen,
        BROKEN_UPSTREAM.len(),
        "every listed broken revision must be seen"
    );
    assert!(
        files.len() >= 200,
        "expected the full corpus, found {} files",
        files.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
