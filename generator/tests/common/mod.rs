//! Shared by the tests that build generated code as a scratch crate.

#![allow(dead_code)]

use std::fs;
use std::path::Path;
use std::process::{Command, Output};

/// The `serde` and `serde_json` requirement lines of `generated/Cargo.toml`, so the
/// scratch crate builds against what the real crate asks for.
pub fn serde_dependencies(manifest: &Path) -> String {
    let text = fs::read_to_string(manifest)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", manifest.display()));
    let mut section = "";
    let mut lines = Vec::new();
    for line in text.lines() {
        let trimmed = line.trim();
        if trimmed.starts_with('[') {
            section = trimmed;
        } else if section == "[dependencies]"
            && (trimmed.starts_with("serde ") || trimmed.starts_with("serde_json "))
        {
            lines.push(trimmed);
        }
    }
    assert_eq!(
        lines.len(),
        2,
        "expected `serde = …` and `serde_json = …` under [dependencies] of {}",
        manifest.display()
    );
    lines.join("\n") + "\n"
}

/// Writes `src/lib.rs` of a scratch crate: `doc`, the runtime re-exported as `rt` (where
/// generated code finds it, as in `mcp-spec-types`), and one module per name in `modules`
/// (whose files the caller wrote under `src/<module>/`); removes the module folders of
/// earlier runs that are not among them.
pub fn scratch_lib(src: &Path, doc: &str, modules: &[String]) {
    let mut lib = format!("//! {doc}\n#![forbid(unsafe_code)]\n\npub use mcp_spec_rt as rt;\n");
    for module in modules {
        lib.push_str(&format!("#[rustfmt::skip]\npub mod {module};\n"));
    }
    if let Ok(entries) = fs::read_dir(src) {
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().to_string();
            if entry.path().is_dir() && !modules.contains(&name) {
                fs::remove_dir_all(entry.path()).unwrap();
            }
        }
    }
    write_if_changed(&src.join("lib.rs"), &lib);
}

/// Writes `contents` to `path` unless it already holds exactly that, so a rerun with an
/// unchanged generator leaves cargo nothing to rebuild.
pub fn write_if_changed(path: &Path, contents: &str) {
    if fs::read_to_string(path).is_ok_and(|old| old == contents) {
        return;
    }
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, contents).unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
}

/// The first errors of cargo's stderr: from the first `error`/`warning` line, at most
/// `max` lines.
pub fn first_errors(stderr: &str, max: usize) -> String {
    let lines: Vec<&str> = stderr.lines().collect();
    let start = lines
        .iter()
        .position(|l| l.starts_with("error") || l.starts_with("warning"))
        .unwrap_or(0);
    let end = lines.len().min(start + max);
    let mut out = lines[start..end].join("\n");
    if end < lines.len() {
        out.push_str(&format!("\n… ({} more lines)", lines.len() - end));
    }
    out
}

/// Writes the manifest of a scratch crate at `scratch` (its `src/lib.rs` is the caller's,
/// written by [`scratch_lib`]), with the runtime crate, the serde
/// requirements of `generated/Cargo.toml` and the workspace lockfile, and
/// runs `cargo <args> --offline` in it with `flags_var` (`RUSTFLAGS` or `RUSTDOCFLAGS`)
/// set to `-D warnings`.
pub fn scratch_crate(
    workspace: &Path,
    scratch: &Path,
    name: &str,
    args: &[&str],
    flags_var: &str,
) -> Output {
    write_if_changed(
        &scratch.join("Cargo.toml"),
        &format!(
            "[package]\nname = \"{name}\"\nversion = \"0.0.0\"\nedition = \"2024\"\n\
             publish = false\n\n[workspace]\n\n[lib]\npath = \"src/lib.rs\"\n\n\
             # Declared, never enabled: the generated code has `cfg(feature = \"schemars\")` and `cfg(feature = \"json-schema\")`.\n\
             [features]\nschemars = []\njson-schema = []\n\n\
             # A debug build without debug info: the check is that it compiles.\n\
             [profile.dev]\ndebug = false\n\n[dependencies]\nmcp-spec-rt = {{ path = {:?} }}\n{}",
            workspace.join("runtime").display().to_string(),
            serde_dependencies(&workspace.join("generated/Cargo.toml"))
        ),
    );
    // The workspace lockfile pins the versions already in the local registry cache.
    fs::copy(workspace.join("Cargo.lock"), scratch.join("Cargo.lock")).unwrap();
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    Command::new(cargo)
        .current_dir(scratch)
        .args(args)
        .args(["--offline", "--quiet", "--target-dir"])
        .arg(scratch.join("target"))
        .env(flags_var, "-D warnings")
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .env_remove("CARGO_BUILD_RUSTFLAGS")
        .env_remove("CARGO_ENCODED_RUSTDOCFLAGS")
        .env("CARGO_INCREMENTAL", "0")
        .env("CARGO_TERM_COLOR", "never")
        .output()
        .expect("cannot run cargo")
}
