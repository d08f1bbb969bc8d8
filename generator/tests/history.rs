//! Robustness over real upstream history: every published revision of every schema
//! loads, lowers and emits without error (through the library, and through the
//! `mcp-codegen` command), and the Rust emitted for a sample of the `draft` revisions
//! compiles.
//!
//! The corpus (about 230 files, 34 MB: `<version>/NNN-<date>-<commit>.json`) is not
//! vendored. These tests read it only from the directory named by `MCP_SPEC_HISTORY`;
//! without it they fail with a "not run" message rather than pass without checking
//! anything. They are `#[ignore]`d so that `cargo test` on a user's machine does not
//! need the corpus; `.ci/run` runs them explicitly with
//! `MCP_SPEC_HISTORY="$PWD/../shared/mcp-spec/history" cargo test --release -p mcp-codegen --test history -- --ignored --nocapture`.
//!
//! The compile check builds one scratch crate (under `CARGO_TARGET_TMPDIR`, debug,
//! `--offline`, `RUSTFLAGS=-D warnings` as CI builds `mcp-spec-types`) with one module
//! per picked revision beside the hand-written runtime (`runtime/`, the crate `mcp-spec-rt`).

use std::fs;
use std::path::{Path, PathBuf};
use std::time::Instant;

use mcp_codegen::{Input, generate};

mod common;
use common::*;

/// The corpus directory, from `MCP_SPEC_HISTORY` only.
fn corpus() -> PathBuf {
    match std::env::var_os("MCP_SPEC_HISTORY") {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir),
        _ => panic!(
            "not run: set MCP_SPEC_HISTORY to the upstream history corpus \
             (e.g. ../shared/mcp-spec/history); CI does"
        ),
    }
}

/// Every `<version>/*.json` file of the corpus, sorted.
fn corpus_files(dir: &Path) -> Vec<PathBuf> {
    let versions = fs::read_dir(dir).unwrap_or_else(|e| {
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
    files
}

/// The generator input for one corpus file: its version is the name of its directory.
fn input_of(dir: &Path, file: &Path) -> Input {
    let version = file
        .parent()
        .unwrap()
        .file_name()
        .unwrap()
        .to_string_lossy()
        .to_string();
    Input {
        version,
        path: relative(dir, file),
        text: fs::read_to_string(file)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", file.display())),
        ..Default::default()
    }
}

/// `file` relative to the corpus, with `/` separators (the form `BROKEN_UPSTREAM` uses).
fn relative(dir: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(dir).unwrap();
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}

fn is_broken(path: &str) -> bool {
    BROKEN_UPSTREAM.iter().any(|(f, _, _)| *f == path)
}

/// Revisions that upstream published broken: `(file, error the generator must give, why
/// the file is broken)`. Each must fail with that error; one that starts generating, or
/// fails for another reason, fails the test, so the list stays true.
const BROKEN_UPSTREAM: &[(&str, &str, &str)] = &[
    (
        "draft/037-2025-06-10-ace88165.json",
        "$ref `#/definitions/ResourceReference` points at no definition",
        "CallToolResult refers to #/definitions/ResourceReference, which the file does not define",
    ),
    (
        "draft/121-2025-11-14-78660338.json",
        "unsupported $ref `#/definitions/TaskMetadata`",
        "a 2020-12 document ($defs) with a $ref into #/definitions/, which it does not have",
    ),
    (
        "draft/181-2026-05-06-0d217bba.json",
        "ListPromptsResult/properties/ttl/allOf/1: `type` inside `allOf` is not supported",
        "ListPromptsResult.ttl is allOf an object schema and an integer: no value satisfies \
         it, so the generator does not merge a `type` into an `allOf`",
    ),
    (
        "draft/182-2026-05-06-888f87a6.json",
        "ListPromptsResult/properties/ttl/allOf/1: `type` inside `allOf` is not supported",
        "ListPromptsResult.ttl is allOf an object schema and an integer: no value satisfies \
         it, so the generator does not merge a `type` into an `allOf`",
    ),
];

#[test]
#[ignore = "needs the upstream history corpus: set MCP_SPEC_HISTORY"]
fn every_historical_revision_generates() {
    let started = Instant::now();
    let dir = corpus();
    let files = corpus_files(&dir);
    let mut failures = Vec::new();
    let mut broken_seen = 0;
    let mut drafts_generated = 0;
    for file in &files {
        let input = input_of(&dir, file);
        let path = input.path.clone();
        let draft = input.version == "draft";
        let broken = BROKEN_UPSTREAM.iter().find(|(f, _, _)| *f == path);
        match (generate(&[input]), broken) {
            (Ok(_), None) => drafts_generated += usize::from(draft),
            (Err(e), None) => failures.push(e.to_string()),
            (Err(e), Some((_, expected, _))) if e.to_string().contains(expected) => {
                broken_seen += 1;
                println!("expected failure: {e}");
            }
            (Err(e), Some((_, expected, _))) => failures.push(format!(
                "{path} fails for another reason than listed (`{expected}`): {e}"
            )),
            (Ok(_), Some((_, _, why))) => failures.push(format!(
                "{path} now generates; remove it from BROKEN_UPSTREAM (was: {why})"
            )),
        }
    }
    println!(
        "{} revisions: {} generate ({} of them draft), {} known broken upstream, \
         {} unexpected failures; {:.1?}",
        files.len(),
        files.len() - broken_seen - failures.len(),
        drafts_generated,
        broken_seen,
        failures.len(),
        started.elapsed()
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

/// The `mcp-codegen` command, as a user runs it, on every revision (each into a folder of
/// its own): the same outcome as the library above, the broken ones with their error.
#[test]
#[ignore = "needs the upstream history corpus: set MCP_SPEC_HISTORY"]
fn the_command_generates_every_revision() {
    let started = Instant::now();
    let dir = corpus();
    let files = corpus_files(&dir);
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("history-command");
    let _ = fs::remove_dir_all(&out);
    let (mut generated, mut broken_seen, mut failures) = (0, 0, Vec::new());
    for file in &files {
        let path = relative(&dir, file);
        let version = file
            .parent()
            .unwrap()
            .file_name()
            .unwrap()
            .to_string_lossy();
        let folder = out.join(path.replace(['/', '.'], "_"));
        let run = std::process::Command::new(env!("CARGO_BIN_EXE_mcp-codegen"))
            .args(["generate", "--quiet", "--version", &version])
            .arg("--schema")
            .arg(file)
            .arg("--out")
            .arg(&folder)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&run.stderr);
        let broken = BROKEN_UPSTREAM.iter().find(|(f, _, _)| *f == path);
        match (run.status.success(), broken) {
            (true, None) if folder.join("mod.rs").is_file() => generated += 1,
            (true, None) => failures.push(format!("{path}: no mod.rs written")),
            (false, Some((_, expected, _))) if stderr.contains(expected) => broken_seen += 1,
            (false, _) => failures.push(format!("{path}: {stderr}")),
            (true, Some(_)) => failures.push(format!("{path} now generates; see BROKEN_UPSTREAM")),
        }
        let _ = fs::remove_dir_all(&folder);
    }
    println!(
        "the command: {} revisions, {generated} generated, {broken_seen} known broken, {} \
         unexpected failures; {:.1?}",
        files.len(),
        failures.len(),
        started.elapsed()
    );
    assert_eq!(broken_seen, BROKEN_UPSTREAM.len());
    assert!(
        files.len() >= 200,
        "expected the full corpus, found {}",
        files.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Picks every 10th draft revision (by index in sorted order) plus the first and the
/// last; a pick that is broken upstream moves to the next working revision.
fn pick_drafts<'a>(drafts: &[&'a str]) -> Vec<&'a str> {
    let mut wanted: Vec<usize> = (0..drafts.len()).step_by(10).collect();
    wanted.extend(drafts.len().checked_sub(1));
    let mut picked: Vec<usize> = Vec::new();
    for i in wanted {
        if let Some(j) = (i..drafts.len()).find(|&j| !is_broken(drafts[j])) {
            if !picked.contains(&j) {
                picked.push(j);
            }
        }
    }
    picked.sort_unstable();
    picked.into_iter().map(|j| drafts[j]).collect()
}

#[test]
#[ignore = "needs the upstream history corpus: set MCP_SPEC_HISTORY"]
fn sampled_draft_revisions_compile() {
    let started = Instant::now();
    let dir = corpus();
    let files = corpus_files(&dir);
    let rel: Vec<String> = files.iter().map(|f| relative(&dir, f)).collect();
    let drafts: Vec<&str> = rel
        .iter()
        .map(String::as_str)
        .filter(|p| p.starts_with("draft/"))
        .collect();
    assert!(
        drafts.len() >= 200,
        "expected the full draft history, found {} files",
        drafts.len()
    );
    let picked = pick_drafts(&drafts);

    let workspace = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .canonicalize()
        .unwrap();
    let scratch = Path::new(env!("CARGO_TARGET_TMPDIR")).join("history-compile");
    let src = scratch.join("src");

    // One module per picked revision: `draft_NNN`, NNN from the file name.
    let mut modules = Vec::new();
    let mut legend = Vec::new();
    for path in &picked {
        let file = dir.join(path);
        let name = file.file_name().unwrap().to_string_lossy();
        let module = format!("draft_{}", &name[..3]);
        let output = generate(&[input_of(&dir, &file)])
            .unwrap_or_else(|e| panic!("{path} does not generate: {e}"));
        let mut written = 0;
        for (out, contents) in &output.files {
            if let Some(rest) = out.strip_prefix("generated/src/draft/") {
                write_if_changed(&src.join(&module).join(rest), contents);
                written += 1;
            }
        }
        assert!(written > 0, "{path}: no files under generated/src/draft/");
        legend.push(format!("  {module}: {path}"));
        modules.push(module);
    }
    scratch_lib(
        &src,
        "Scratch crate of `generator/tests/history.rs`: sampled draft revisions.",
        &modules,
    );
    let generated = started.elapsed();
    let build = Instant::now();
    let out = scratch_crate(
        &workspace,
        &scratch,
        "history-compile",
        &["build"],
        "RUSTFLAGS",
    );
    let took = build.elapsed();
    if !out.status.success() {
        panic!(
            "the generated code of the sampled draft revisions does not compile \
             (cargo build in {}: {}, after {:.1?}):\n{}\n\nmodules:\n{}",
            scratch.display(),
            out.status,
            took,
            first_errors(&String::from_utf8_lossy(&out.stderr), 80),
            legend.join("\n")
        );
    }
    println!(
        "{} of {} draft revisions compiled (picked: {}); generated in {:.1?}, \
         cargo build took {:.1?}",
        picked.len(),
        drafts.len(),
        modules.join(" "),
        generated,
        took
    );
}
