//! `mcp-codegen`: generates Rust types for the Model Context Protocol from the official
//! `schema.json` of each protocol version.
//!
//! The pipeline is a chain of pure functions over the inputs it is given:
//! [`load`] (parse, detect dialect, check keywords) → [`lower`] (the [`model`]) →
//! [`emit`] (Rust source). [`generate`] runs the chain for a set of versions and returns
//! every output file's path and contents; it does no I/O.

pub mod compact;
pub mod compat;
pub mod diff;
pub mod docs;
pub mod emit;
pub mod extension;
mod files;
pub mod load;
pub mod lower;
pub mod methods;
pub mod model;
pub mod names;
pub mod overrides;
pub mod seed;
pub mod settings;
pub mod ts;
pub mod workspace;

/// The README's example, compiled as a doctest.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;

use std::fmt;

use sha2::{Digest, Sha256};

/// A generator error: what went wrong, in which file, at which JSON pointer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    /// The input file, if the error is about one.
    pub file: Option<String>,
    /// JSON pointer inside the file (`#/$defs/Tool/properties/name`), if known.
    pub pointer: Option<String>,
    /// What is wrong.
    pub message: String,
}

impl Error {
    /// An error about a place in an input file.
    pub fn at(file: &str, pointer: &str, message: impl Into<String>) -> Self {
        let pointer = if pointer.is_empty() || pointer.starts_with('#') {
            pointer.to_string()
        } else {
            format!("#{pointer}")
        };
        Error {
            file: Some(file.to_string()),
            pointer: (!pointer.is_empty()).then_some(pointer),
            message: message.into(),
        }
    }

    /// An error about no particular place.
    pub fn msg(message: impl Into<String>) -> Self {
        Error {
            file: None,
            pointer: None,
            message: message.into(),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.file, &self.pointer) {
            (Some(file), Some(p)) => write!(f, "{file} at {p}: {}", self.message),
            (Some(file), None) => write!(f, "{file}: {}", self.message),
            _ => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for Error {}

/// One schema to generate from.
#[derive(Debug, Clone, Default)]
pub struct Input {
    /// Protocol version name (`2025-06-18`, `draft`).
    pub version: String,
    /// Path of the file relative to the workspace, used in headers and errors.
    pub path: String,
    /// File contents.
    pub text: String,
    /// Upstream's `schema.ts` of the same version and commit, when vendored: the only
    /// source of its `@deprecated` tags and of the links from definitions to the
    /// official examples. Shapes come from [`text`](Self::text) alone.
    pub ts: Option<String>,
    /// The official examples the TypeScript links to, by path relative to the version's
    /// `examples/` folder (`Tool/simple.json`), as text.
    pub examples: std::collections::BTreeMap<String, String>,
}

/// Figures about one generated version.
#[derive(Debug, Clone)]
pub struct Stats {
    /// Protocol version.
    pub version: String,
    /// Schema definitions.
    pub definitions: usize,
    /// Generated Rust types (definitions and named anonymous schemas).
    pub items: usize,
    /// Lines of generated Rust.
    pub lines: usize,
    /// Time taken to load, lower and emit this version.
    pub elapsed: std::time::Duration,
    /// What the generator ignored or normalised in the schema (see `Model::notes`).
    pub notes: Vec<String>,
}

/// What [`generate`] produces.
#[derive(Debug, Clone)]
pub struct Output {
    /// Files to write, by path relative to the workspace root, sorted.
    pub files: Vec<(String, String)>,
    /// Per-version figures, in input order.
    pub stats: Vec<Stats>,
    /// The models, in input order.
    pub models: Vec<model::Model>,
}

/// Lowercase hex sha256 of some bytes.
pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Builds the model of one schema.
pub fn model_of(input: &Input) -> Result<model::Model, Error> {
    let doc = load::load(&input.path, &input.text)?;
    let mut model = lower::lower(&doc, &input.version, &sha256_hex(input.text.as_bytes()))?;
    if let Some(ts) = &input.ts {
        let file = match input.path.strip_suffix("schema.json") {
            Some(dir) => format!("{dir}schema.ts"),
            None => format!("{} (its schema.ts)", input.path),
        };
        let annotations = ts::read(ts).map_err(|e| Error::at(&file, "", e))?;
        let notes = ts::annotate(&mut model, &annotations, &input.examples, &file);
        model.notes.extend(notes);
    }
    Ok(model)
}

/// What one version gives: its files and figures.
struct Version {
    files: Vec<(String, String)>,
    stats: Stats,
}

/// Loads and lowers one version, timed.
fn load_version(input: &Input) -> Result<(model::Model, std::time::Duration), Error> {
    let started = std::time::Instant::now();
    let model = model_of(input)?;
    Ok((model, started.elapsed()))
}

/// Emits one version's module (what `shared` names re-exported from the module that
/// defines it for several versions) and its test harness.
fn emit_version(
    input: &Input,
    model: &model::Model,
    shared: &emit::Shared,
    loaded: std::time::Duration,
) -> Result<Version, Error> {
    let started = std::time::Instant::now();
    let module = emit::module_name(&input.version);
    let mut files = Vec::new();
    let mut lines = 0;
    for (name, contents) in emit::emit_sharing(model, &input.path, shared)? {
        lines += contents.lines().count();
        files.push((format!("generated/src/{module}/{name}"), contents));
    }
    files.push((
        format!("tests/src/{module}.rs"),
        emit::emit_harness(model, &input.path)?,
    ));
    let stats = Stats {
        version: input.version.clone(),
        definitions: model
            .types
            .iter()
            .filter(|t| matches!(t.origin, model::Origin::Definition(_)))
            .count(),
        items: model.types.len(),
        lines,
        elapsed: loaded + started.elapsed(),
        notes: model.notes.clone(),
    };
    Ok(Version { files, stats })
}

/// `work` for every item, on as many threads as the machine has cores (the versions are
/// independent); the outcomes in input order, so the output does not depend on which
/// thread finished first.
fn in_parallel<I: Sync, O: Send>(items: &[I], work: impl Fn(usize, &I) -> O + Sync) -> Vec<O> {
    let threads = std::thread::available_parallelism()
        .map_or(1, usize::from)
        .min(items.len());
    if threads <= 1 {
        return items.iter().enumerate().map(|(i, x)| work(i, x)).collect();
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut done: Vec<(usize, O)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(item) = items.get(i) else {
                            return mine;
                        };
                        mine.push((i, work(i, item)));
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| match w.join() {
                Ok(mine) => mine,
                Err(panic) => std::panic::resume_unwind(panic),
            })
            .collect()
    });
    done.sort_by_key(|(i, _)| *i);
    done.into_iter().map(|(_, v)| v).collect()
}

/// Runs the whole pipeline for every input. Paths in the output are relative to the
/// workspace root (`generated/src/v2025_06_18/mod.rs`, `generated/diffs/2025-06-18..2025-11-25.md`).
/// The versions are loaded and emitted side by side on the machine's cores; the output is
/// the same whatever the number of cores. An error is that of the first input, in order,
/// that fails.
///
/// A version whose schema and model are an earlier one's is that module re-exported
/// ([`emit::same_as`]); a type or const marker that consecutive versions define
/// identically is defined once, in `generated/src/shared/`, and re-exported by each
/// ([`emit::plan`]).
pub fn generate(inputs: &[Input]) -> Result<Output, Error> {
    let mut models = Vec::new();
    let mut loaded = Vec::new();
    for outcome in in_parallel(inputs, |_, input| load_version(input)) {
        let (model, elapsed) = outcome?;
        models.push(model);
        loaded.push(elapsed);
    }
    let aliases: Vec<Option<&model::Model>> = (0..models.len())
        .map(|i| emit::same_as(&models[i], &models[..i]))
        .collect();
    // The distinct versions in date order (`draft` last): each shares with its neighbours.
    let mut distinct: Vec<usize> = (0..models.len())
        .filter(|i| aliases[*i].is_none())
        .collect();
    distinct.sort_by_key(|i| (models[*i].version == "draft", models[*i].version.clone()));
    let distinct_models: Vec<&model::Model> = distinct.iter().map(|i| &models[*i]).collect();
    let plan = emit::plan(&distinct_models);
    let nothing = emit::Shared::default();
    let shared_of = |i: usize| match distinct.iter().position(|d| *d == i) {
        Some(at) => plan.located(at),
        None => &nothing,
    };
    let mut files = Vec::new();
    let mut stats = Vec::new();
    for version in in_parallel(inputs, |i, input| {
        emit_version(input, &models[i], shared_of(i), loaded[i])
    }) {
        let version = version?;
        files.extend(version.files);
        stats.push(version.stats);
    }
    let sources: Vec<&str> = distinct.iter().map(|i| inputs[*i].path.as_str()).collect();
    for (name, contents) in emit::emit_shared(&plan, &distinct_models, &sources)? {
        files.push((format!("generated/src/shared/{name}"), contents));
    }
    // A version whose schema and model are an earlier one's is that module re-exported.
    for (i, input) in inputs.iter().enumerate() {
        let Some(target) = aliases[i] else {
            continue;
        };
        let target_input = inputs.iter().find(|x| x.version == target.version);
        let ts_note = match (&input.ts, target_input.and_then(|x| x.ts.as_ref())) {
            (Some(a), Some(b)) if a == b => "Its `schema.ts` is the same file too.".to_string(),
            (Some(a), Some(b)) => {
                let differ = a.lines().zip(b.lines()).filter(|(x, y)| x != y).count()
                    + a.lines().count().abs_diff(b.lines().count());
                format!(
                    "Its `schema.ts` differs in {differ} lines, none of them a fact the \
                     generator reads: the two models are the same."
                )
            }
            _ => String::new(),
        };
        let module = emit::module_name(&input.version);
        let prefix = format!("generated/src/{module}/");
        files.retain(|(path, _)| !path.starts_with(&prefix));
        let alias = emit::alias_module(&models[i], target, &input.path, &ts_note)?;
        stats[i].lines = alias.lines().count();
        files.push((format!("{prefix}mod.rs"), alias));
    }
    let sources: Vec<String> = inputs
        .iter()
        .zip(&models)
        .map(|(i, m)| format!("//   {} (sha256 {})\n", i.path, m.schema_sha256))
        .collect();
    let header = format!(
        "// @generated by `cargo xtask codegen` from the version list of schema/lock.json:\n{}\
         // Do not edit by hand: change the generator and run `cargo xtask codegen`.\n\n",
        sources.concat()
    );
    // Version diffs and the compatibility matrix, dated versions first, `draft` last.
    let mut ordered: Vec<model::Model> = models.clone();
    ordered.sort_by_key(|m| (m.version == "draft", m.version.clone()));
    files.extend(diff::reports(&ordered));
    files.push((
        "generated/src/convert.rs".to_string(),
        emit::emit_conversions(&ordered, &header, &plan)?,
    ));
    files.push((
        "tests/src/convert.rs".to_string(),
        emit::emit_convert_harness(&ordered, &header, &plan)?,
    ));
    files.push((
        "generated/src/protocol_version.rs".to_string(),
        emit::emit_protocol_versions(&models, &header)?,
    ));
    files.sort();
    Ok(Output {
        files,
        stats,
        models,
    })
}
