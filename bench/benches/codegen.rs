//! `cargo xtask codegen` for every version, end to end, in process through the generator
//! library (what the xtask binary calls), never touching the workspace's `generated/`:
//!
//! - `check_end_to_end`: `workspace::check`, i.e. `cargo xtask codegen --check` without
//!   process start: read the lock and every schema (verifying their sha256), generate
//!   every file in memory, compare each with the disk;
//! - `generate_and_write`: read the inputs, generate, and write every file into a fresh
//!   temporary directory: `cargo xtask codegen` on an empty tree;
//! - `generate_in_memory`: `generate` alone, on inputs read once.
//!
//! `cargo bench -p mcp-bench --bench codegen`

use std::fs;
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::Duration;

use criterion::{BatchSize, Criterion, SamplingMode};
use mcp_bench::workspace_root;
use mcp_codegen::workspace;

/// A directory under the system's temporary directory, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(root: &Path) -> Self {
        let dir = std::env::temp_dir().join(format!("mcp-bench-codegen-{}", std::process::id()));
        assert!(
            !dir.starts_with(root),
            "the temporary directory must be outside the workspace"
        );
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).expect("create the temporary directory");
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

/// Writes every generated file under `dir`, creating folders.
fn write_all(dir: &Path, output: &mcp_codegen::Output) {
    for (path, contents) in &output.files {
        let target = dir.join(path);
        if let Some(parent) = target.parent() {
            fs::create_dir_all(parent).expect("create a folder");
        }
        fs::write(&target, contents).expect("write a file");
    }
}

fn main() {
    let mut c = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(10))
        .configure_from_args();
    let root = workspace_root();
    let inputs = workspace::inputs(&root).expect("the vendored schemas match the lock");
    let output = mcp_codegen::generate(&inputs).expect("the generator succeeds");
    let lines: usize = output.stats.iter().map(|s| s.lines).sum();
    let bytes: usize = output.files.iter().map(|(_, c)| c.len()).sum();
    eprintln!(
        "codegen: {} versions, {} files, {} lines, {:.1} MB generated",
        output.stats.len(),
        output.files.len(),
        lines,
        bytes as f64 / 1e6
    );
    let (_, fresh) = workspace::check(&root).expect("check runs");
    if !fresh.is_fresh() {
        eprintln!("note: generated/ is not fresh (someone is editing it); timings still hold");
    }
    let temp = TempDir::new(&root);

    let mut g = c.benchmark_group("codegen");
    g.sampling_mode(SamplingMode::Flat);
    g.bench_function("check_end_to_end", |b| {
        b.iter(|| black_box(workspace::check(black_box(&root)).expect("check runs")))
    });
    g.bench_function("generate_and_write", |b| {
        b.iter_batched(
            // Untimed: an empty tree for every run.
            || {
                let dir = temp.0.join("tree");
                let _ = fs::remove_dir_all(&dir);
                dir
            },
            |dir| {
                let inputs = workspace::inputs(&root).expect("inputs");
                let output = mcp_codegen::generate(&inputs).expect("generate");
                write_all(&dir, &output);
                output
            },
            BatchSize::PerIteration,
        )
    });
    g.bench_function("generate_in_memory", |b| {
        b.iter(|| black_box(mcp_codegen::generate(black_box(&inputs)).expect("generate")))
    });
    g.finish();
    drop(temp);
    c.final_summary();
}
