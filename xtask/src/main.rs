//! `cargo xtask`: the project's maintenance commands.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use clap::{Parser, Subcommand};
use mcp_codegen::sha256_hex;
use mcp_codegen::workspace::{self, LOCK};
use serde_json::Value;

#[derive(Parser)]
#[command(about = "Maintenance commands of the MCP code generator")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Regenerate `generated/` (and the test harnesses in `tests/src/`) from the vendored
    /// schemas in `schema/`.
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

fn lock(root: &Path) -> Result<ExitCode, String> {
    let mut lock = workspace::read_lock(root)?;
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
    workspace::write_atomic(&root.join(LOCK), text.as_bytes())?;
    Ok(ExitCode::SUCCESS)
}

fn codegen(root: &Path, check: bool) -> Result<ExitCode, String> {
    let started = Instant::now();
    let (output, fresh) = workspace::check(root)?;
    let elapsed = started.elapsed();
    if check {
        if fresh.is_fresh() {
            println!("generated files are fresh ({} files)", output.files.len());
            return Ok(ExitCode::SUCCESS);
        }
        eprint!("{}", fresh.report());
        return Ok(ExitCode::FAILURE);
    }
    workspace::apply(root, &output, &fresh)?;
    for s in &output.stats {
        println!(
            "{:<11} {:>4} definitions {:>4} items {:>6} lines {:>6.1} ms",
            s.version,
            s.definitions,
            s.items,
            s.lines,
            s.elapsed.as_secs_f64() * 1000.0
        );
    }
    println!(
        "{} files: {} written, {} removed; generated in {:.0} ms",
        output.files.len(),
        fresh.stale.len() + fresh.missing.len(),
        fresh.orphaned.len(),
        elapsed.as_secs_f64() * 1000.0
    );
    Ok(ExitCode::SUCCESS)
}
