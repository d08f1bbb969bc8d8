//! `cargo xtask`: the project's maintenance commands.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use clap::{Parser, Subcommand};
use mcp_codegen::sha256_hex;
use mcp_codegen::workspace::{self, LOCK};

mod update;
mod upstream;

#[derive(Parser)]
#[command(about = "Maintenance commands of the MCP code generator")]
struct Cli {
    /// The workspace to work on (default: the one this xtask belongs to).
    #[arg(long, global = true, value_name = "DIR")]
    root: Option<PathBuf>,
    #[command(subcommand)]
    command: Command,
}

/// Where `fetch` and `drift` read upstream from.
#[derive(clap::Args)]
struct From {
    /// Branch, tag or commit of the upstream repository (default `main`); substituted for
    /// `{ref}` in a `--from` URL.
    #[arg(long = "ref", value_name = "REF")]
    reference: Option<String>,
    /// A local checkout of the specification repository (or its `schema/` folder), or the
    /// base URL of a static mirror of `schema/` (may contain `{ref}`). Default: GitHub,
    /// `modelcontextprotocol/modelcontextprotocol`.
    #[arg(long, value_name = "DIR|URL")]
    from: Option<String>,
    /// Give up on a request after this many seconds.
    #[arg(long, value_name = "SECS", default_value_t = 30)]
    timeout: u64,
}

impl From {
    fn open(&self) -> Result<upstream::Source, String> {
        upstream::Source::open(
            self.from.as_deref(),
            self.reference.as_deref(),
            std::time::Duration::from_secs(self.timeout.max(1)),
        )
    }

    /// Whether neither `--from` nor `--ref` was given.
    fn names_nothing(&self) -> bool {
        self.from.is_none() && self.reference.is_none()
    }

    /// The extensions a command looks at, each with its source: those named with `--ext`
    /// (from `--from` when given: a checkout or mirror of that extension's repository),
    /// or, when `every`, each locked extension from GitHub, the repository and folder its
    /// lock entry names.
    fn extensions(
        &self,
        root: &Path,
        named: &[String],
        every: bool,
    ) -> Result<Vec<(workspace::LockEntry, upstream::Source)>, String> {
        let lock = workspace::read_lock(root)?;
        let mut named = named.to_vec();
        named.sort();
        named.dedup();
        if named.len() > 1 && !self.names_nothing() {
            return Err(
                "--from and --ref name one extension's repository: give one --ext with them"
                    .to_string(),
            );
        }
        let entries: Vec<&workspace::LockEntry> = if named.is_empty() {
            if every {
                lock.extensions.iter().collect()
            } else {
                Vec::new()
            }
        } else {
            named
                .iter()
                .map(|n| {
                    lock.extensions
                        .iter()
                        .find(|e| &e.version == n)
                        .ok_or_else(|| {
                            let known: Vec<&str> =
                                lock.extensions.iter().map(|e| e.version.as_str()).collect();
                            format!(
                                "no extension `{n}` in {LOCK} (it has: {})",
                                known.join(", ")
                            )
                        })
                })
                .collect::<Result<_, _>>()?
        };
        entries
            .into_iter()
            .map(|e| {
                let folder = e.upstream.as_deref().ok_or_else(|| {
                    format!(
                        "{LOCK}: the {} extension has no `upstream` (its folder in {})",
                        e.version, e.repository
                    )
                })?;
                let source = upstream::Source::open_repo(
                    &e.repository,
                    folder,
                    self.from.as_deref(),
                    self.reference.as_deref(),
                    std::time::Duration::from_secs(self.timeout.max(1)),
                )
                .map_err(|err| format!("the {} extension: {err}", e.version))?;
                Ok((e.clone(), source))
            })
            .collect()
    }
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
    /// Accept the vendored schema files as they are: record the sha256 of each `schema.json`
    /// (and `schema.ts`, when vendored) and the digest of its examples in `schema/lock.json`,
    /// for each version and each official extension (`schema/ext/`).
    Lock,
    /// Download schemas (with `schema.ts` and examples) from upstream into `schema/`, update the lock, and
    /// print what changed. Nothing is written unless every file arrives whole and valid.
    /// Without arguments (and without `--from` and `--ref`): every locked version and every
    /// official extension, from GitHub.
    Fetch {
        /// Versions to fetch (default: every locked version).
        #[arg(value_name = "VERSION", conflicts_with_all = ["all", "ext"])]
        versions: Vec<String>,
        /// Every version upstream has, including ones not vendored yet.
        #[arg(long, conflicts_with = "ext")]
        all: bool,
        /// Only this official extension (`tasks`, `server-card`; repeatable), from the
        /// repository and folder its lock entry names, or from `--from` (a checkout or
        /// mirror of that repository).
        #[arg(long, value_name = "NAME")]
        ext: Vec<String>,
        #[command(flatten)]
        from: From,
    },
    /// Compare the vendored schemas with upstream without writing anything; exit 1 if any
    /// version differs, or upstream has a version that is not vendored. Without `--from`,
    /// `--ref` and `--ext`, the official extensions too, each from its own repository.
    Drift {
        /// Only this official extension (repeatable), from its repository or `--from`.
        #[arg(long, value_name = "NAME")]
        ext: Vec<String>,
        #[command(flatten)]
        from: From,
    },
    /// Report what changed between two protocol versions, each a version name
    /// (`2025-06-18`) or a path to a schema.json.
    Diff {
        /// The older side.
        old: String,
        /// The newer side.
        new: String,
        /// Output format.
        #[arg(long, value_enum, default_value = "markdown")]
        format: Format,
        /// Only changes that break someone.
        #[arg(long)]
        breaking_only: bool,
    },
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum Format {
    Markdown,
    Json,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let root = cli.root.unwrap_or_else(workspace_root);
    let result = match cli.command {
        Command::Fetch {
            versions,
            all,
            ext,
            from,
        } => (|| {
            // Every extension too when nothing narrows the command down (`--from` and
            // `--ref` name a place in the specification's repository unless `--ext` is
            // given).
            let every = versions.is_empty() && !all && from.names_nothing();
            let source = if ext.is_empty() {
                Some(from.open()?)
            } else {
                None
            };
            let extensions = from.extensions(&root, &ext, every)?;
            let core = source.as_ref().map(|source| update::Core {
                source,
                named: &versions,
                all,
            });
            update::fetch(&root, core, &extensions)
        })(),
        Command::Drift { ext, from } => (|| {
            let source = if ext.is_empty() {
                Some(from.open()?)
            } else {
                None
            };
            let extensions = from.extensions(&root, &ext, from.names_nothing())?;
            update::drift(&root, source.as_ref(), &extensions)
        })(),
        Command::Codegen { check } => codegen(&root, check),
        Command::Lock => lock(&root),
        Command::Diff {
            old,
            new,
            format,
            breaking_only,
        } => diff(&root, &old, &new, format, breaking_only),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

/// The workspace `cargo xtask` was run in: `cargo run` sets `CARGO_MANIFEST_DIR` for the
/// process, so a binary built in one checkout and run from another (a shared target
/// directory) still works on the right tree. Run directly, it falls back to the checkout
/// it was built in.
fn workspace_root() -> PathBuf {
    let manifest = std::env::var_os("CARGO_MANIFEST_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")));
    manifest
        .parent()
        .expect("xtask lives one level below the workspace root")
        .to_path_buf()
}

fn lock(root: &Path) -> Result<ExitCode, String> {
    let mut lock = workspace::read_lock(root)?;
    let workspace::Lock {
        versions,
        extensions,
        ..
    } = &mut lock;
    // A version's `schema.ts` is `schema/<version>/schema.ts`; an extension's sits beside
    // its `schema.json`.
    let versions = versions
        .iter_mut()
        .map(|e| (format!("schema/{}/schema.ts", e.version), e));
    let extensions = extensions.iter_mut().map(|e| {
        let ts = match e.path.rsplit_once('/') {
            Some((dir, _)) => format!("{dir}/schema.ts"),
            None => "schema.ts".to_string(),
        };
        (ts, e)
    });
    for (ts, entry) in versions.chain(extensions) {
        let path = &entry.path;
        let bytes = fs::read(root.join(path)).map_err(|e| format!("cannot read {path}: {e}"))?;
        let sha = sha256_hex(&bytes);
        if entry.sha256 != sha {
            println!("{path}: sha256 now {sha}");
            entry.sha256 = sha;
        }
        if let Some(dir) = &entry.examples {
            let digest = workspace::tree_digest(&workspace::read_tree(&root.join(dir))?);
            if entry.examples_sha256.as_deref() != Some(digest.as_str()) {
                println!("{dir}/: digest now {digest}");
                entry.examples_sha256 = Some(digest);
            }
        }
        let ts_sha = match fs::read(root.join(&ts)) {
            Ok(bytes) => Some(sha256_hex(&bytes)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => return Err(format!("cannot read {ts}: {e}")),
        };
        if entry.ts_sha256 != ts_sha {
            match &ts_sha {
                Some(sha) => println!("{ts}: sha256 now {sha}"),
                None => println!("{ts}: gone, dropped from the lock"),
            }
        }
        entry.ts = ts_sha.as_ref().map(|_| ts);
        entry.ts_sha256 = ts_sha;
    }
    workspace::write_atomic(&root.join(LOCK), lock.render().as_bytes())?;
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
        for note in &s.notes {
            println!("  note: {note}");
        }
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

/// Loads a side of a diff: a vendored version by name, or a schema file by path.
fn side(root: &Path, spec: &str) -> Result<mcp_codegen::model::Model, String> {
    // A vendored version reads as codegen reads it (its schema.ts and examples too), so
    // its deprecations show in the diff as they do in generated/diffs/.
    if let Ok(inputs) = workspace::inputs(root) {
        if let Some(input) = inputs.iter().find(|i| i.version == spec) {
            return mcp_codegen::model_of(input).map_err(|e| e.to_string());
        }
    }
    let vendored = root.join("schema").join(spec).join("schema.json");
    let (path, version) = if vendored.is_file() {
        (vendored, spec.to_string())
    } else {
        let p = PathBuf::from(spec);
        if !p.is_file() {
            return Err(format!(
                "`{spec}` is neither a vendored version (schema/{spec}/schema.json) nor a file"
            ));
        }
        let version = p
            .file_stem()
            .map(|s| s.to_string_lossy().to_string())
            .unwrap_or_default();
        (p, version)
    };
    let text =
        fs::read_to_string(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let input = mcp_codegen::Input {
        version,
        path: path.display().to_string(),
        text,
        ..Default::default()
    };
    mcp_codegen::model_of(&input).map_err(|e| e.to_string())
}

fn diff(
    root: &Path,
    old: &str,
    new: &str,
    format: Format,
    breaking_only: bool,
) -> Result<ExitCode, String> {
    let (a, b) = (side(root, old)?, side(root, new)?);
    let mut d = mcp_codegen::diff::diff(&a, &b);
    if breaking_only {
        d.changes
            .retain(|c| c.breaks != mcp_codegen::diff::Breaks::Nobody);
    }
    match format {
        Format::Markdown => print!("{}", d.markdown(breaking_only)),
        Format::Json => println!(
            "{}",
            serde_json::to_string_pretty(&d).map_err(|e| e.to_string())?
        ),
    }
    Ok(ExitCode::SUCCESS)
}
