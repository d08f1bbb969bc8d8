//! Seeding a crate of one's own: one schema, the [settings](crate::settings::Settings), a folder.
//!
//! [`seed`] generates (no I/O); [`write`](write()) puts the files in a folder, and [`check`] says
//! whether the folder holds what `seed` gives. Both know the generator's own files by a
//! manifest written beside them ([`manifest_name`]: one for a folder that is a module,
//! one a module for modules of one file each, as in `OUT_DIR`): a file the generator did
//! not write is never overwritten or removed, and a file it wrote that is no longer
//! generated is removed only if it is as it was written. The `mcp-codegen` command and a `build.rs`
//! go through these three functions.
//!
//! ```no_run
//! // build.rs of a crate that depends on `mcp-spec-rt` and has `mcp-codegen` as a
//! // build dependency; src/lib.rs says
//! // `include!(concat!(env!("OUT_DIR"), "/mcp.rs"));`.
//! use mcp_codegen::settings::{Layout, Settings};
//!
//! let settings = Settings {
//!     layout: Layout::File,
//!     module: Some("mcp".into()),
//!     command: "cargo build (build.rs)".into(),
//!     derives: vec!["Hash".into()],
//!     exclude: vec!["Task".into()],
//!     ..Settings::default()
//! };
//! let input = mcp_codegen::seed::input_from_file("schema/2025-11-25/schema.json".as_ref())?;
//! let seeded = mcp_codegen::seed::seed(&input, &settings)?;
//! let out = std::env::var("OUT_DIR").unwrap();
//! mcp_codegen::seed::write(out.as_ref(), &seeded)?;
//! println!("cargo::rerun-if-changed=schema/2025-11-25/schema.json");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::settings::{self, Applied, Settings};
use crate::{Error, Input, emit, model};

/// The manifest of what the generator wrote for `seeded` in a folder:
/// `.mcp-codegen.json` where the folder is the module ([`Layout::Tree`]: another module
/// generated there replaces it), `.mcp-codegen.<module>.json` where the module is one file
/// among others ([`Layout::File`], as in `OUT_DIR`).
///
/// [`Layout::Tree`]: crate::settings::Layout::Tree
/// [`Layout::File`]: crate::settings::Layout::File
pub fn manifest_name(seeded: &Seeded) -> String {
    match seeded.layout {
        crate::settings::Layout::Tree => MANIFEST_PREFIX.to_string() + ".json",
        crate::settings::Layout::File => format!("{MANIFEST_PREFIX}.{}.json", seeded.module),
    }
}

/// How every manifest's name starts.
const MANIFEST_PREFIX: &str = ".mcp-codegen";

/// What [`seed`] gives.
#[derive(Debug, Clone)]
pub struct Seeded {
    /// The module's name.
    pub module: String,
    /// How it is laid out (which names its manifest: [`manifest_name`]).
    pub layout: crate::settings::Layout,
    /// The files, by path relative to the output folder, sorted.
    pub files: Vec<(String, String)>,
    /// What the settings left out, dropped and replaced.
    pub applied: Applied,
    /// What the generator ignored or normalised in the schema, each `file at pointer: what`.
    pub notes: Vec<String>,
    /// The model the files were emitted from (after the settings).
    pub model: model::Model,
}

/// An [`Input`] from a schema file: its version is the name of the folder it is in when
/// the file is `schema.json` (as upstream lays versions out), else the file's stem.
pub fn input_from_file(path: &Path) -> Result<Input, Error> {
    let text = fs::read_to_string(path)
        .map_err(|e| Error::msg(format!("cannot read {}: {e}", path.display())))?;
    let stem = |p: &Path| p.file_stem().map(|s| s.to_string_lossy().into_owned());
    let version = match path.file_name().and_then(|n| n.to_str()) {
        Some("schema.json") => path
            .parent()
            .and_then(|p| p.file_name().map(|s| s.to_string_lossy().into_owned())),
        _ => stem(path),
    }
    .filter(|v| !v.is_empty())
    .unwrap_or_else(|| "schema".to_string());
    Ok(Input {
        version,
        path: path.display().to_string(),
        text,
        ..Input::default()
    })
}

/// The definitions a schema maps to Rust types of their own, by `x-rust-type` (with a
/// `path`, as typify reads it), by schema name.
fn rust_types(input: &Input) -> Result<BTreeMap<String, String>, Error> {
    let doc = crate::load::parse(&input.path, &input.text)?;
    let mut out = BTreeMap::new();
    for (name, schema) in &doc.defs {
        let Some(spec) = schema.get("x-rust-type") else {
            continue;
        };
        let at = format!("{}/x-rust-type", doc.def_pointer(name));
        let path = spec
            .get("path")
            .and_then(serde_json::Value::as_str)
            .ok_or_else(|| Error::at(&input.path, &at, "`x-rust-type` has no string `path`"))?;
        syn::parse_str::<syn::Type>(path).map_err(|e| {
            Error::at(
                &input.path,
                &at,
                format!("`{path}` is not a Rust type: {e}"),
            )
        })?;
        out.insert(name.clone(), path.to_string());
    }
    Ok(out)
}

/// Generates one schema's module under `settings`; writes nothing.
pub fn seed(input: &Input, settings: &Settings) -> Result<Seeded, Error> {
    settings.validate()?;
    let mut model = crate::model_of(input)?;
    settings::check_names(settings, &model)?;
    let applied = settings::prune(&mut model, &settings.exclude)?;
    settings::unordered_maps(&mut model, settings);
    let mut replacements = rust_types(input)?;
    for (name, t) in &settings.types {
        if let Some(path) = &t.replace {
            replacements.insert(name.clone(), path.clone());
        }
    }
    emit_seeded(input, model, settings, applied, &replacements)
}

/// Emits a model [`seed`] (or an extension's generation) has built and applied the settings
/// to, with `replacements` (definition → the Rust type used instead).
pub(crate) fn emit_seeded(
    input: &Input,
    mut model: model::Model,
    settings: &Settings,
    mut applied: Applied,
    replacements: &BTreeMap<String, String>,
) -> Result<Seeded, Error> {
    let kept: std::collections::BTreeSet<&str> = model
        .types
        .iter()
        .filter_map(|t| match &t.origin {
            model::Origin::Definition(d) => Some(d.as_str()),
            _ => None,
        })
        .collect();
    applied.replaced = replacements
        .iter()
        .filter(|(name, _)| kept.contains(name.as_str()))
        .map(|(n, p)| (n.clone(), p.clone()))
        .collect();
    // A type of the user's holds the string its own way: the strict step's string rule
    // is not given to it.
    let replaced: std::collections::BTreeSet<String> = model
        .types
        .iter()
        .filter(|t| match &t.origin {
            model::Origin::Definition(d) => replacements.contains_key(d),
            _ => false,
        })
        .map(|t| t.name.clone())
        .collect();
    for t in &mut model.types {
        if let model::Kind::Struct { fields, .. } = &mut t.kind {
            for f in fields {
                if matches!(&f.ty, model::TypeRef::Named(n) if replaced.contains(n)) {
                    f.text = None;
                }
            }
        }
    }
    let mut files = emit::emit_with(&model, &input.path, settings, replacements)?;
    files.sort();
    let module = settings
        .module
        .clone()
        .unwrap_or_else(|| emit::module_name(&input.version));
    Ok(Seeded {
        module,
        layout: settings.layout,
        files,
        applied,
        notes: model.notes.clone(),
        model,
    })
}

/// The manifest: each file the generator wrote, with the sha256 of what it wrote.
#[derive(Debug, Default, Serialize, Deserialize)]
struct Manifest {
    generator: String,
    files: BTreeMap<String, String>,
}

/// Whether a manifest's entry names a file the generator could have written in the
/// folder: a plain file name (a manifest edited to name `../x` or `/etc/x` must not make
/// the generator read or remove files elsewhere).
fn plain_file_name(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with('.')
        && name.ends_with(".rs")
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
}

fn read_manifest(path: &Path) -> Result<Manifest, Error> {
    let bad = |why: String| {
        Error::msg(format!(
            "{}: not a manifest the generator wrote ({why}); remove it to start afresh",
            path.display()
        ))
    };
    match fs::read_to_string(path) {
        Ok(text) => {
            let manifest: Manifest = serde_json::from_str(&text).map_err(|e| bad(e.to_string()))?;
            match manifest.files.keys().find(|n| !plain_file_name(n)) {
                Some(name) => Err(bad(format!(
                    "it names `{name}`, which is no file of the folder"
                ))),
                None => Ok(manifest),
            }
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Manifest::default()),
        Err(e) => Err(Error::msg(format!("cannot read {}: {e}", path.display()))),
    }
}

/// The manifests in `dir`: `seeded`'s own, and every other one by file name (the files
/// they list are the generator's too, never in the way).
fn manifests(dir: &Path, seeded: &Seeded) -> Result<(Manifest, BTreeMap<String, Manifest>), Error> {
    let own_name = manifest_name(seeded);
    let own = read_manifest(&dir.join(&own_name))?;
    let mut others = BTreeMap::new();
    if let Ok(entries) = fs::read_dir(dir) {
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.starts_with(MANIFEST_PREFIX) && name.ends_with(".json") && name != own_name {
                others.insert(name, read_manifest(&entry.path())?);
            }
        }
    }
    Ok((own, others))
}

fn write_manifest(path: &Path, files: BTreeMap<String, String>) -> Result<(), Error> {
    let manifest = Manifest {
        generator: emit::GENERATOR.to_string(),
        files,
    };
    let text =
        serde_json::to_string_pretty(&manifest).map_err(|e| Error::msg(e.to_string()))? + "\n";
    crate::files::write_atomic(path, text.as_bytes()).map_err(Error::msg)
}

/// How a folder compares with what [`seed`] gives.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Status {
    /// Files that differ from what is generated.
    pub stale: Vec<String>,
    /// Files generated that are not there.
    pub missing: Vec<String>,
    /// Files the generator wrote before that it no longer generates.
    pub orphaned: Vec<String>,
    /// Files in the way: there, not written by the generator, and generated now.
    pub foreign: Vec<String>,
}

impl Status {
    /// Whether the folder holds exactly what is generated.
    pub fn is_fresh(&self) -> bool {
        self.stale.is_empty()
            && self.missing.is_empty()
            && self.orphaned.is_empty()
            && self.foreign.is_empty()
    }

    /// One line a file, for a person.
    pub fn report(&self) -> String {
        let mut out = String::new();
        for (label, files) in [
            ("stale", &self.stale),
            ("missing", &self.missing),
            ("no longer generated", &self.orphaned),
            ("not written by the generator, in the way", &self.foreign),
        ] {
            for f in files {
                out.push_str(&format!("{label}: {f}\n"));
            }
        }
        out
    }
}

/// Compares `dir` with `seeded`; writes nothing.
pub fn check(dir: &Path, seeded: &Seeded) -> Result<Status, Error> {
    let (own, others) = manifests(dir, seeded)?;
    let ours = |name: &str| {
        own.files.contains_key(name) || others.values().any(|m| m.files.contains_key(name))
    };
    let mut status = Status::default();
    for (name, contents) in &seeded.files {
        let path = dir.join(name);
        match fs::read(&path) {
            Ok(bytes) => {
                if !ours(name) {
                    status.foreign.push(name.clone());
                } else if bytes != contents.as_bytes() {
                    status.stale.push(name.clone());
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => status.missing.push(name.clone()),
            Err(e) => return Err(Error::msg(format!("cannot read {}: {e}", path.display()))),
        }
    }
    for name in own.files.keys() {
        if !seeded.files.iter().any(|(n, _)| n == name) && dir.join(name).exists() {
            status.orphaned.push(name.clone());
        }
    }
    Ok(status)
}

/// What [`write`](write()) did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Written {
    /// Files written (new or changed).
    pub written: Vec<String>,
    /// Files the generator wrote before, no longer generated, removed.
    pub removed: Vec<String>,
    /// Files the generator wrote before, no longer generated, changed since: left.
    pub kept: Vec<String>,
}

/// Writes `seeded` into `dir` (created if need be), and the manifest. Refuses, writing
/// nothing, when a file to write is there and the generator did not write it. Removes a
/// file it wrote before and no longer generates, unless it changed since. A file another
/// manifest of the folder lists is taken over (its entry moves to this one). The manifest
/// is written before the files (listing both what it held and what is being written), so
/// a run cut short leaves no file the next run would take for someone else's.
pub fn write(dir: &Path, seeded: &Seeded) -> Result<Written, Error> {
    let status = check(dir, seeded)?;
    if !status.foreign.is_empty() {
        return Err(Error::msg(format!(
            "{}: {} already there and not written by the generator (in no manifest of the \
             folder); move it away or choose another folder",
            dir.display(),
            status.foreign.join(", "),
        )));
    }
    let (own, others) = manifests(dir, seeded)?;
    fs::create_dir_all(dir)
        .map_err(|e| Error::msg(format!("cannot create {}: {e}", dir.display())))?;
    let own_path = dir.join(manifest_name(seeded));
    let new_entries: BTreeMap<String, String> = seeded
        .files
        .iter()
        .map(|(name, contents)| (name.clone(), crate::sha256_hex(contents.as_bytes())))
        .collect();
    let mut interim = own.files.clone();
    interim.extend(new_entries.clone());
    write_manifest(&own_path, interim)?;
    for (name, mut other) in others {
        let before = other.files.len();
        other
            .files
            .retain(|file, _| !new_entries.contains_key(file));
        let path = dir.join(&name);
        if other.files.is_empty() {
            fs::remove_file(&path)
                .map_err(|e| Error::msg(format!("cannot remove {}: {e}", path.display())))?;
        } else if other.files.len() != before {
            write_manifest(&path, other.files)?;
        }
    }
    let mut done = Written::default();
    for name in &status.orphaned {
        let path = dir.join(name);
        let bytes = fs::read(&path).unwrap_or_default();
        if own.files.get(name) == Some(&crate::sha256_hex(&bytes)) {
            fs::remove_file(&path)
                .map_err(|e| Error::msg(format!("cannot remove {}: {e}", path.display())))?;
            done.removed.push(name.clone());
        } else {
            done.kept.push(name.clone());
        }
    }
    for (name, contents) in &seeded.files {
        if status.stale.contains(name) || status.missing.contains(name) {
            crate::files::write_atomic(&dir.join(name), contents.as_bytes()).map_err(Error::msg)?;
            done.written.push(name.clone());
        }
    }
    // Files changed since and left stay in the manifest: the next run still knows them.
    let mut files = new_entries;
    for name in &done.kept {
        if let Some(sha) = own.files.get(name) {
            files.insert(name.clone(), sha.clone());
        }
    }
    write_manifest(&own_path, files)?;
    Ok(done)
}
