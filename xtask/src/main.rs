//! `cargo xtask`: the project's maintenance commands.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use clap::{Parser, Subcommand};
use mcp_codegen::{generate, sha256_hex, Input};
use serde_json::Value;

#[derive(Parser)]
#[command(about = "Maintenance commands of the MCP code generator")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Regenerate `generated/` from the vendored schemas in `schema/`.
    Codegen {
        /// Write nothing; exit 1 naming every stale, missing or orphaned file.
        #[arg(long)]
        check: bool,
    },
    /// Accept the vendored schema files as they are: record their sha256 in `schema/lock.json`.
    Lock,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let root = workspace_root();
    let result = match cli.command {
        Command::Codegen { check } => codegen(&root, check),
        Command::Lock => lock(&root),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives one level below the workspace root")
        .to_path_buf()
}

const LOCK: &str = "schema/lock.json";

fn read_lock(root: &Path) -> Result<Value, String> {
    let text = fs::read_to_string(root.join(LOCK)).map_err(|e| format!("cannot read {LOCK}: {e}"))?;
    serde_json::from_str(&text).map_err(|e| format!("{LOCK} is not valid JSON: {e}"))
}

fn lock_entries(lock: &Value) -> Result<Vec<&serde_json::Map<String, Value>>, String> {
    lock.get("versions")
        .and_then(Value::as_array)
        .ok_or_else(|| format!("{LOCK}: `versions` must be an array"))?
        .iter()
        .map(|v| v.as_object().ok_or_else(|| format!("{LOCK}: each version entry must be an object")))
        .collect()
}

fn field<'a>(entry: &'a serde_json::Map<String, Value>, key: &str) -> Result<&'a str, String> {
    entry
        .get(key)
        .and_then(Value::as_str)
        .ok_or_else(|| format!("{LOCK}: an entry has no string `{key}`"))
}

/// Reads every locked schema, refusing any whose sha256 differs from the lock.
fn inputs(root: &Path) -> Result<Vec<Input>, String> {
    let lock = read_lock(root)?;
    let mut out = Vec::new();
    let mut changed = Vec::new();
    for entry in lock_entries(&lock)? {
        let version = field(entry, "version")?;
        let path = format!("schema/{version}/schema.json");
        let bytes = fs::read(root.join(&path)).map_err(|e| format!("cannot read {path}: {e}"))?;
        let actual = sha256_hex(&bytes);
        let locked = field(entry, "sha256")?;
        if actual != locked {
            changed.push(format!("  {path}: locked sha256 {locked}, file has {actual}"));
        }
        let text = String::from_utf8(bytes).map_err(|_| format!("{path} is not UTF-8"))?;
        out.push(Input { version: version.to_string(), path, text });
    }
    if !changed.is_empty() {
        return Err(format!(
            "vendored schemas differ from {LOCK}:\n{}\nIf the change is intended, accept it with `cargo xtask lock`, \
             then run `cargo xtask codegen`.",
            changed.join("\n")
        ));
    }
    Ok(out)
}

fn lock(root: &Path) -> Result<ExitCode, String> {
    let mut lock = read_lock(root)?;
    let versions = lock
        .get_mut("versions")
        .and_then(Value::as_array_mut)
        .ok_or_else(|| format!("{LOCK}: `versions` must be an array"))?;
    for entry in versions {
        let version = entry["version"].as_str().unwrap_or_default().to_string();
        let path = format!("schema/{version}/schema.json");
        let bytes = fs::read(root.join(&path)).map_err(|e| format!("cannot read {path}: {e}"))?;
        let sha = sha256_hex(&bytes);
        if entry["sha256"] != sha.as_str() {
            println!("{path}: sha256 now {sha}");
            entry["sha256"] = Value::String(sha);
        }
    }
    let text = serde_json::to_string_pretty(&lock).map_err(|e| e.to_string())? + "\n";
    write_atomic(&root.join(LOCK), text.as_bytes())?;
    Ok(ExitCode::SUCCESS)
}

/// The generated files this command owns: version modules and IR files.
fn owned_files(root: &Path) -> Result<BTreeSet<String>, String> {
    let mut out = BTreeSet::new();
    let src = root.join("generated/src");
    for entry in fs::read_dir(&src).map_err(|e| format!("cannot list generated/src: {e}"))? {
        let entry = entry.map_err(|e| e.to_string())?;
        let name = entry.file_name().to_string_lossy().to_string();
        let is_version_dir = entry.path().is_dir()
            && (name == "draft" || (name.starts_with('v') && name[1..].starts_with(|c: char| c.is_ascii_digit())));
        if is_version_dir {
            for file in fs::read_dir(entry.path()).map_err(|e| e.to_string())? {
                let file = file.map_err(|e| e.to_string())?;
                out.insert(format!("generated/src/{name}/{}", file.file_name().to_string_lossy()));
            }
        }
    }
    if let Ok(ir) = fs::read_dir(root.join("generated/ir")) {
        for file in ir {
            let file = file.map_err(|e| e.to_string())?;
            out.insert(format!("generated/ir/{}", file.file_name().to_string_lossy()));
        }
    }
    Ok(out)
}

fn codegen(root: &Path, check: bool) -> Result<ExitCode, String> {
    let started = Instant::now();
    let inputs = inputs(root)?;
    let output = generate(&inputs).map_err(|e| e.to_string())?;
    let elapsed = started.elapsed();

    let mut stale = Vec::new();
    let mut missing = Vec::new();
    let expected: BTreeSet<String> = output.files.iter().map(|(p, _)| p.clone()).collect();
    let orphans: Vec<String> = owned_files(root)?.difference(&expected).cloned().collect();
    for (path, contents) in &output.files {
        match fs::read(root.join(path)) {
            Ok(bytes) if bytes == contents.as_bytes() => {}
            Ok(_) => stale.push(path.clone()),
            Err(_) => missing.push(path.clone()),
        }
    }

    if check {
        if stale.is_empty() && missing.is_empty() && orphans.is_empty() {
            println!("generated files are fresh ({} files)", output.files.len());
            return Ok(ExitCode::SUCCESS);
        }
        for p in &stale {
            eprintln!("stale:    {p}");
        }
        for p in &missing {
            eprintln!("missing:  {p}");
        }
        for p in &orphans {
            eprintln!("orphaned: {p}");
        }
        eprintln!("generated/ is out of date: run `cargo xtask codegen`");
        return Ok(ExitCode::FAILURE);
    }

    for (path, contents) in &output.files {
        if stale.contains(path) || missing.contains(path) {
            let full = root.join(path);
            if let Some(dir) = full.parent() {
                fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
            }
            write_atomic(&full, contents.as_bytes())?;
        }
    }
    for p in &orphans {
        fs::remove_file(root.join(p)).map_err(|e| format!("cannot remove orphaned {p}: {e}"))?;
    }
    for s in &output.stats {
        println!(
            "{:<11} {:>4} definitions {:>4} items {:>6} lines",
            s.version, s.definitions, s.items, s.lines
        );
    }
    println!(
        "generated {} files ({} written, {} removed) in {:.0} ms",
        output.files.len(),
        stale.len() + missing.len(),
        orphans.len(),
        elapsed.as_secs_f64() * 1000.0
    );
    Ok(ExitCode::SUCCESS)
}

fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let tmp = path.with_extension("tmp~");
    fs::write(&tmp, bytes).map_err(|e| format!("cannot write {}: {e}", tmp.display()))?;
    fs::rename(&tmp, path).map_err(|e| format!("cannot replace {}: {e}", path.display()))
}
