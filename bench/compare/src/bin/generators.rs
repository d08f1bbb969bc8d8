//! Our generator beside typify 0.8 on the same schemas, as each one's user meets it:
//! whether it generates, how many lines, and how long the generated crate alone takes to
//! compile (each in a scratch crate of its own whose dependencies are built first; the
//! time is that of rebuilding the crate after touching it, release, not incremental, as
//! `bench/compile-cost.sh` times a crate alone; best of two).
//!
//! ```sh
//! cargo run --release -p mcp-compare --bin generators
//! ```
//!
//! The schemas: MCP 2025-06-18, the newest typify reads, and 2025-11-25
//! (`schema/<version>/schema.json`), the tasks extension
//! (`MCP_TASKS_SCHEMA`, else `../shared/mcp-spec/ext/tasks/draft/schema.json`; skipped,
//! saying so, where it is not), and a schema that is not MCP's
//! (`generator/tests/fixtures/ok/keywords.json`). typify reads draft-07 documents
//! (`definitions`); a 2020-12 document's `$defs` are renamed for it, as its users do.
//! Ours is run twice: its types alone (what typify makes) and everything it makes of the
//! schema (methods, handlers, `Router`).

use std::panic::AssertUnwindSafe;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use mcp_codegen::settings::{Layers, Layout, Settings};

/// What one generator made of one schema.
struct Made {
    /// The generated crate's `lib.rs`, or why there is none.
    code: Result<String, String>,
    /// Types generated.
    types: usize,
    /// Dependencies of the generated crate, as `Cargo.toml` lines.
    deps: Vec<String>,
}

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

fn ours(schema: &Path, layers: Layers) -> Made {
    let root = workspace();
    let settings = Settings {
        layout: Layout::File,
        module: Some("generated".into()),
        command: "cargo run -p mcp-compare --bin generators".into(),
        layers,
        ..Settings::default()
    };
    let outcome = mcp_codegen::seed::input_from_file(schema)
        .and_then(|input| mcp_codegen::seed::seed(&input, &settings));
    match outcome {
        Ok(seeded) => Made {
            types: seeded.model.types.len(),
            code: Ok(seeded.files.into_iter().map(|(_, text)| text).collect()),
            deps: vec![format!(
                "mcp-spec-rt = {{ path = {:?} }}",
                root.join("runtime").display().to_string()
            )],
        },
        Err(e) => Made {
            code: Err(e.to_string()),
            types: 0,
            deps: Vec::new(),
        },
    }
}

fn typify(schema: &Path) -> Made {
    let failed = |why: String| Made {
        code: Err(why),
        types: 0,
        deps: Vec::new(),
    };
    let text = match std::fs::read_to_string(schema) {
        Ok(t) => t,
        Err(e) => return failed(e.to_string()),
    };
    // typify reads draft-07 (`definitions`); a 2020-12 document's `$defs`, renamed.
    let text = text
        .replace("\"$defs\"", "\"definitions\"")
        .replace("#/$defs/", "#/definitions/");
    let root: schemars::schema::RootSchema = match serde_json::from_str(&text) {
        Ok(r) => r,
        Err(e) => return failed(format!("schemars 0.8 cannot read it: {e}")),
    };
    let run = std::panic::catch_unwind(AssertUnwindSafe(|| {
        let mut space = typify::TypeSpace::new(&typify::TypeSpaceSettings::default());
        space.add_root_schema(root).map_err(|e| e.to_string())?;
        let file: syn::File = syn::parse2(space.to_stream()).map_err(|e| e.to_string())?;
        let mut deps = vec![
            "serde = { version = \"1\", features = [\"derive\"] }".to_string(),
            "serde_json = \"1\"".to_string(),
        ];
        if space.uses_regress() {
            deps.push("regress = \"0.10\"".into());
        }
        if space.uses_chrono() {
            deps.push("chrono = { version = \"0.4\", features = [\"serde\"] }".into());
        }
        if space.uses_uuid() {
            deps.push("uuid = { version = \"1\", features = [\"serde\"] }".into());
        }
        Ok::<_, String>((
            prettyplease::unparse(&file),
            space.iter_types().count(),
            deps,
        ))
    }));
    match run {
        Ok(Ok((code, types, deps))) => Made {
            code: Ok(format!(
                "#[allow(clippy::all, dead_code, unused_imports, irrefutable_let_patterns)]\npub mod generated {{\n{code}\n}}\n"
            )),
            types,
            deps,
        },
        Ok(Err(e)) => failed(e),
        Err(panic) => failed(format!(
            "panics: {}",
            panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default()
                .lines()
                .next()
                .unwrap_or_default()
        )),
    }
}

/// Builds `code` as the crate `name` with `deps`; the time of a rebuild of it alone.
fn compile(name: &str, code: &str, deps: &[String]) -> Result<Duration, String> {
    let dir = workspace().join("target/generators").join(name);
    std::fs::create_dir_all(dir.join("src")).map_err(|e| e.to_string())?;
    std::fs::write(
        dir.join("Cargo.toml"),
        format!(
            "[package]\nname = {name:?}\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n\
             [dependencies]\n{}\n\n[workspace]\n",
            deps.join("\n")
        ),
    )
    .map_err(|e| e.to_string())?;
    std::fs::write(dir.join("src/lib.rs"), code).map_err(|e| e.to_string())?;
    let target = workspace().join("target/generators/target");
    let build = || {
        let out = Command::new(env!("CARGO"))
            .args(["build", "-q", "--release", "--manifest-path"])
            .arg(dir.join("Cargo.toml"))
            .env("CARGO_TARGET_DIR", &target)
            // A rebuild from scratch: incremental state would make the second build cheap.
            .env("CARGO_INCREMENTAL", "0")
            .env_remove("RUSTFLAGS")
            .output()
            .map_err(|e| e.to_string())?;
        if out.status.success() {
            Ok(())
        } else {
            let stderr = String::from_utf8_lossy(&out.stderr);
            let first = stderr
                .lines()
                .find(|l| l.starts_with("error"))
                .unwrap_or("");
            Err(format!("does not compile: {first}"))
        }
    };
    build()?;
    let mut best = Duration::MAX;
    for _ in 0..2 {
        // A new lib.rs, the same code: cargo rebuilds the crate alone.
        std::fs::write(dir.join("src/lib.rs"), format!("{code}\n")).map_err(|e| e.to_string())?;
        std::fs::write(dir.join("src/lib.rs"), code).map_err(|e| e.to_string())?;
        let started = Instant::now();
        build()?;
        best = best.min(started.elapsed());
    }
    Ok(best)
}

fn main() {
    // typify's panics are reported in the table, not as backtraces.
    std::panic::set_hook(Box::new(|_| {}));
    let root = workspace();
    let tasks = std::env::var_os("MCP_TASKS_SCHEMA")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("../shared/mcp-spec/ext/tasks/draft/schema.json"));
    let schemas = [
        (
            "MCP 2025-06-18",
            "mcp0618",
            root.join("schema/2025-06-18/schema.json"),
        ),
        (
            "MCP 2025-11-25",
            "mcp",
            root.join("schema/2025-11-25/schema.json"),
        ),
        ("MCP tasks extension", "tasks", tasks),
        (
            "not MCP (keywords.json)",
            "keywords",
            root.join("generator/tests/fixtures/ok/keywords.json"),
        ),
    ];
    println!(
        "| schema | generator | generates | types | lines | compile of the generated crate alone |"
    );
    println!("| --- | --- | --- | ---: | ---: | ---: |");
    for (label, short, path) in schemas {
        if !path.is_file() {
            println!(
                "| {label} | (skipped: {} not found) | | | | |",
                path.display()
            );
            continue;
        }
        let types_only = Layers {
            methods: false,
            handlers: false,
        };
        let runs = [
            ("mcp-codegen, types", "ours_types", ours(&path, types_only)),
            (
                "mcp-codegen, everything",
                "ours_all",
                ours(&path, Layers::default()),
            ),
            ("typify 0.8", "typify", typify(&path)),
        ];
        for (tool, tag, made) in runs {
            let row = match &made.code {
                Err(e) => format!("no: {}", e.replace('|', "\\|")),
                Ok(code) => {
                    let lines = code.lines().count();
                    let time = compile(&format!("gen_{short}_{tag}"), code, &made.deps);
                    match time {
                        Ok(t) => {
                            format!("yes | {} | {lines} | {:.1} s", made.types, t.as_secs_f64())
                        }
                        Err(e) => {
                            format!("yes | {} | {lines} | {}", made.types, e.replace('|', "\\|"))
                        }
                    }
                }
            };
            println!("| {label} | {tool} | {row} |");
        }
    }
}
