//! The project's files on disk: the schema lock, the vendored inputs, and the check of
//! generated files. This is the only module that touches the file system; `xtask` and
//! the freshness test both use it.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

use serde_json::Value;

use crate::{Input, Output, generate, sha256_hex};

/// Path of the lock file, relative to the workspace root.
pub const LOCK: &str = "schema/lock.json";

/// Every file under `dir`, keyed by its path relative to `dir` with `/` separators, in
/// sorted order. A missing directory reads as empty.
pub fn read_tree(dir: &Path) -> Result<BTreeMap<String, Vec<u8>>, String> {
    fn walk(dir: &Path, prefix: &str, out: &mut BTreeMap<String, Vec<u8>>) -> Result<(), String> {
        let entries =
            fs::read_dir(dir).map_err(|e| format!("cannot list {}: {e}", dir.display()))?;
        for entry in entries {
            let entry = entry.map_err(|e| format!("cannot list {}: {e}", dir.display()))?;
            let name = entry.file_name().to_string_lossy().to_string();
            let rel = if prefix.is_empty() {
                name
            } else {
                format!("{prefix}/{name}")
            };
            let path = entry.path();
            if path.is_dir() {
                walk(&path, &rel, out)?;
            } else {
                let bytes =
                    fs::read(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
                out.insert(rel, bytes);
            }
        }
        Ok(())
    }
    let mut out = BTreeMap::new();
    if dir.is_dir() {
        walk(dir, "", &mut out)?;
    }
    Ok(out)
}

/// The digest the lock records for a folder of files (a version's `examples/`): the
/// sha256 of one line `<relative path>\0<sha256 of the file>\n` per file, in path order.
/// It changes when a file is added, removed, renamed or edited.
pub fn tree_digest(files: &BTreeMap<String, Vec<u8>>) -> String {
    let mut listing = String::new();
    for (path, bytes) in files {
        listing.push_str(path);
        listing.push('\0');
        listing.push_str(&sha256_hex(bytes));
        listing.push('\n');
    }
    sha256_hex(listing.as_bytes())
}

/// `schema/lock.json`: where each vendored schema came from and the digest it had when
/// it was accepted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lock {
    /// A note for readers of the file.
    pub comment: String,
    /// One entry per version, oldest first, `draft` last.
    pub versions: Vec<LockEntry>,
    /// One entry per official extension (`schema/ext/`), its name in `version` (`tasks`,
    /// `server-card`; the key `extension` in the file).
    pub extensions: Vec<LockEntry>,
}

/// One version's entry in the lock.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LockEntry {
    /// The protocol version, `2025-06-18` or `draft`.
    pub version: String,
    /// Where it came from: `owner/repo` on GitHub, or the `--from` folder or URL.
    pub repository: String,
    /// An extension's folder in its repository, where its `schema.json` is (`schema/draft`;
    /// `""` for the top); `None` for a protocol version, which is `schema/<version>` of
    /// the specification's repository.
    pub upstream: Option<String>,
    /// The commit (or the ref given for a source without commits) it was taken at.
    pub reference: String,
    /// The date of that commit, or of the fetch when the source has no commits.
    pub ref_date: String,
    /// `schema/<version>/schema.json`.
    pub path: String,
    /// sha256 of the schema file.
    pub sha256: String,
    /// The examples folder, relative to the workspace root, when the version has one.
    pub examples: Option<String>,
    /// [`tree_digest`] of the examples folder, when the version has one.
    pub examples_sha256: Option<String>,
    /// `schema/<version>/schema.ts` (an extension's: beside its `schema.json`), upstream's
    /// TypeScript source of the schema, when it is vendored.
    pub ts: Option<String>,
    /// sha256 of the TypeScript file, when it is vendored.
    pub ts_sha256: Option<String>,
}

impl Lock {
    /// Parses the lock's JSON text.
    pub fn parse(text: &str) -> Result<Lock, String> {
        let value: Value =
            serde_json::from_str(text).map_err(|e| format!("{LOCK} is not valid JSON: {e}"))?;
        let comment = value
            .get("_comment")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();
        let entries = |list: &str, name: &str, required: bool| -> Result<Vec<LockEntry>, String> {
            let entries = match value.get(list) {
                Some(Value::Array(entries)) => entries.as_slice(),
                None if !required => &[],
                _ => return Err(format!("{LOCK}: `{list}` must be an array")),
            };
            entries
                .iter()
                .enumerate()
                .map(|(i, e)| parse_entry(e, &format!("/{list}/{i}"), name))
                .collect()
        };
        Ok(Lock {
            comment,
            versions: entries("versions", "version", true)?,
            extensions: entries("extensions", "extension", false)?,
        })
    }

    /// The lock as JSON text, keys in a fixed order, ending in a newline.
    pub fn render(&self) -> String {
        let q = |s: &str| Value::String(s.to_string()).to_string();
        let mut out = format!(
            "{{\n  \"_comment\": {},\n  \"versions\": [\n",
            q(&self.comment)
        );
        render_entries(&mut out, &self.versions, "version");
        if !self.extensions.is_empty() {
            out.push_str("  ],\n  \"extensions\": [\n");
            render_entries(&mut out, &self.extensions, "extension");
        }
        out.push_str("  ]\n}\n");
        out
    }

    /// The entry of a version.
    pub fn get(&self, version: &str) -> Option<&LockEntry> {
        self.versions.iter().find(|e| e.version == version)
    }
}

/// One entry of the lock at `at` (`/versions/0`), its name under the key `name`.
fn parse_entry(e: &Value, at: &str, name: &str) -> Result<LockEntry, String> {
    let text = |k: &str| e.get(k).and_then(Value::as_str).map(str::to_string);
    let need = |k: &str| text(k).ok_or_else(|| format!("{LOCK}: {at} has no string `{k}`"));
    let (ts, ts_sha256) = (text("ts"), text("ts_sha256"));
    if ts.is_some() != ts_sha256.is_some() {
        return Err(format!(
            "{LOCK}: {at} needs both `ts` and `ts_sha256`, or neither"
        ));
    }
    Ok(LockEntry {
        version: need(name)?,
        repository: need("repository")?,
        upstream: text("upstream"),
        reference: need("ref")?,
        ref_date: need("ref_date")?,
        path: need("path")?,
        sha256: need("sha256")?,
        examples: text("examples"),
        examples_sha256: text("examples_sha256"),
        ts,
        ts_sha256,
    })
}

/// `entries` as the lock writes them, each name under the key `name`.
fn render_entries(out: &mut String, entries: &[LockEntry], name: &str) {
    let q = |s: &str| Value::String(s.to_string()).to_string();
    for (i, e) in entries.iter().enumerate() {
        let mut fields = vec![(name, &e.version), ("repository", &e.repository)];
        if let Some(x) = &e.upstream {
            fields.push(("upstream", x));
        }
        fields.extend([
            ("ref", &e.reference),
            ("ref_date", &e.ref_date),
            ("path", &e.path),
        ]);
        if let Some(x) = &e.examples {
            fields.push(("examples", x));
        }
        if let Some(x) = &e.examples_sha256 {
            fields.push(("examples_sha256", x));
        }
        if let Some(x) = &e.ts {
            fields.push(("ts", x));
        }
        if let Some(x) = &e.ts_sha256 {
            fields.push(("ts_sha256", x));
        }
        fields.push(("sha256", &e.sha256));
        let body: Vec<String> = fields
            .iter()
            .map(|(k, v)| format!("      \"{k}\": {}", q(v)))
            .collect();
        out.push_str(&format!("    {{\n{}\n    }}", body.join(",\n")));
        out.push_str(if i + 1 < entries.len() { ",\n" } else { "\n" });
    }
}

/// Reads the lock file.
pub fn read_lock(root: &Path) -> Result<Lock, String> {
    let text =
        fs::read_to_string(root.join(LOCK)).map_err(|e| format!("cannot read {LOCK}: {e}"))?;
    Lock::parse(&text)
}

/// Reads a vendored file, noting in `changed` when its sha256 differs from the locked one.
fn read_locked(
    path: &str,
    locked: &str,
    root: &Path,
    changed: &mut Vec<String>,
) -> Result<String, String> {
    let bytes = fs::read(root.join(path)).map_err(|e| format!("cannot read {path}: {e}"))?;
    let actual = sha256_hex(&bytes);
    if actual != locked {
        changed.push(format!(
            "  {path}: locked sha256 {locked}, file has {actual}"
        ));
    }
    String::from_utf8(bytes).map_err(|_| format!("{path} is not UTF-8"))
}

/// Reads a version's examples folder, noting in `changed` when its digest differs from the
/// locked one: each file as text, by path relative to the folder.
fn read_examples(
    dir: &str,
    locked: Option<&str>,
    root: &Path,
    changed: &mut Vec<String>,
) -> Result<BTreeMap<String, String>, String> {
    let files = read_tree(&root.join(dir))?;
    if let Some(locked) = locked {
        let actual = tree_digest(&files);
        if actual != locked {
            changed.push(format!(
                "  {dir}/: locked digest {locked}, files have {actual}"
            ));
        }
    }
    files
        .into_iter()
        .map(|(rel, bytes)| {
            String::from_utf8(bytes)
                .map(|text| (rel.clone(), text))
                .map_err(|_| format!("{dir}/{rel} is not UTF-8"))
        })
        .collect()
}

/// Reads every locked schema, with its `schema.ts` and examples when the lock lists them,
/// refusing any file whose sha256 differs from the lock (or an examples folder that differs
/// from its locked digest) and saying which file changed and how to accept it.
pub fn inputs(root: &Path) -> Result<Vec<Input>, String> {
    locked_inputs(root, &read_lock(root)?.versions)
}

/// [`inputs`] for the official extensions of the lock (`schema/ext/`), each named after
/// its extension (`tasks`, `server-card`).
pub fn extension_inputs(root: &Path) -> Result<Vec<Input>, String> {
    locked_inputs(root, &read_lock(root)?.extensions)
}

/// The inputs of `entries`, each file checked against the lock.
fn locked_inputs(root: &Path, entries: &[LockEntry]) -> Result<Vec<Input>, String> {
    let mut out = Vec::new();
    let mut changed = Vec::new();
    for entry in entries {
        let text = read_locked(&entry.path, &entry.sha256, root, &mut changed)?;
        let ts = match (&entry.ts, &entry.ts_sha256) {
            (Some(path), Some(locked)) => Some(read_locked(path, locked, root, &mut changed)?),
            _ => None,
        };
        let examples = match &entry.examples {
            Some(dir) => read_examples(dir, entry.examples_sha256.as_deref(), root, &mut changed)?,
            None => BTreeMap::new(),
        };
        out.push(Input {
            version: entry.version.clone(),
            path: entry.path.clone(),
            text,
            ts,
            examples,
        });
    }
    if !changed.is_empty() {
        return Err(format!(
            "vendored schemas differ from {LOCK}:\n{}\nIf the change is intended, accept it with \
             `cargo xtask lock`, then run `cargo xtask codegen`.",
            changed.join("\n")
        ));
    }
    Ok(out)
}

/// Generated files on disk that codegen owns and may find orphaned: the files of the
/// version modules (`generated/src/<module>/`), of what versions share
/// (`generated/src/shared/`) and of the extensions (`generated/src/ext/<module>/`), the
/// version harnesses of the tests crate
/// (`tests/src/<module>.rs`) and the diff reports (`generated/diffs/`).
pub fn owned_files(root: &Path) -> Result<BTreeSet<String>, String> {
    let mut out = BTreeSet::new();
    let is_version = |name: &str| {
        name == "draft"
            || name
                .strip_prefix('v')
                .is_some_and(|r| r.starts_with(|c: char| c.is_ascii_digit()))
    };
    if let Ok(dir) = fs::read_dir(root.join("generated/src")) {
        for entry in dir.flatten() {
            let name = entry.file_name().to_string_lossy().to_string();
            if entry.path().is_dir() && (is_version(&name) || name == "shared") {
                for file in fs::read_dir(entry.path())
                    .map_err(|e| e.to_string())?
                    .flatten()
                {
                    out.insert(format!(
                        "generated/src/{name}/{}",
                        file.file_name().to_string_lossy()
                    ));
                }
            }
        }
    }
    if let Ok(dir) = fs::read_dir(root.join("generated/src/ext")) {
        for entry in dir.flatten() {
            if !entry.path().is_dir() {
                continue;
            }
            let name = entry.file_name().to_string_lossy().to_string();
            for file in fs::read_dir(entry.path())
                .map_err(|e| e.to_string())?
                .flatten()
            {
                out.insert(format!(
                    "generated/src/ext/{name}/{}",
                    file.file_name().to_string_lossy()
                ));
            }
        }
    }
    if let Ok(dir) = fs::read_dir(root.join("tests/src")) {
        for entry in dir.flatten() {
            let name = entry.file_name().to_string_lossy().to_string();
            if name.strip_suffix(".rs").is_some_and(is_version) {
                out.insert(format!("tests/src/{name}"));
            }
        }
    }
    if let Ok(dir) = fs::read_dir(root.join("generated/diffs")) {
        for entry in dir.flatten() {
            out.insert(format!(
                "generated/diffs/{}",
                entry.file_name().to_string_lossy()
            ));
        }
    }
    Ok(out)
}

/// How the files on disk compare with what codegen produces.
#[derive(Debug, Default)]
pub struct Freshness {
    /// Files whose contents differ.
    pub stale: Vec<String>,
    /// Files codegen produces that are not on disk.
    pub missing: Vec<String>,
    /// Files codegen owns that it no longer produces.
    pub orphaned: Vec<String>,
}

impl Freshness {
    /// Whether everything is up to date.
    pub fn is_fresh(&self) -> bool {
        self.stale.is_empty() && self.missing.is_empty() && self.orphaned.is_empty()
    }

    /// One line per problem, and the command that fixes them.
    pub fn report(&self) -> String {
        let mut out = String::new();
        for (what, list) in [
            ("stale", &self.stale),
            ("missing", &self.missing),
            ("orphaned", &self.orphaned),
        ] {
            for p in list {
                out.push_str(&format!("{what:<9} {p}\n"));
            }
        }
        out.push_str("generated files are out of date: run `cargo xtask codegen`\n");
        out
    }
}

/// Generates everything from the vendored schemas and compares it with the disk.
pub fn check(root: &Path) -> Result<(Output, Freshness), String> {
    let inputs = inputs(root)?;
    let mut output = generate(&inputs).map_err(|e| e.to_string())?;
    extensions(&extension_inputs(root)?, &inputs, &mut output).map_err(|e| e.to_string())?;
    let mut fresh = Freshness::default();
    let expected: BTreeSet<String> = output.files.iter().map(|(p, _)| p.clone()).collect();
    fresh.orphaned = owned_files(root)?.difference(&expected).cloned().collect();
    for (path, contents) in &output.files {
        match fs::read(root.join(path)) {
            Ok(bytes) if bytes == contents.as_bytes() => {}
            Ok(_) => fresh.stale.push(path.clone()),
            Err(_) => fresh.missing.push(path.clone()),
        }
    }
    Ok((output, fresh))
}

/// Adds the module of each official extension (`generated/src/ext/<module>/`, built on the
/// core version [`overrides::EXTENSIONS`](crate::overrides::EXTENSIONS) names) to `output`.
pub fn extensions(
    extensions: &[Input],
    versions: &[Input],
    output: &mut Output,
) -> Result<(), crate::Error> {
    type Rows = (
        &'static crate::overrides::Extension,
        crate::model::Model,
        BTreeSet<String>,
        usize,
        String,
    );
    let mut rows: Vec<Rows> = Vec::new();
    for input in extensions {
        let started = std::time::Instant::now();
        let extension = crate::overrides::extension(&input.version).ok_or_else(|| {
            crate::Error::msg(format!(
                "{LOCK} lists the extension `{}`, which overrides::EXTENSIONS does not",
                input.version
            ))
        })?;
        let core =
            match extension.core {
                None => None,
                Some(version) => {
                    let at = versions.iter().position(|v| v.version == version).ok_or_else(|| {
                    crate::Error::msg(format!(
                        "the extension `{}` is built on {version}, which {LOCK} does not list",
                        extension.name
                    ))
                })?;
                    let core = crate::extension::Core {
                        input: &versions[at],
                        model: &output.models[at],
                    };
                    Some((
                        core,
                        format!("crate::{}", crate::emit::module_name(version)),
                    ))
                }
            };
        let module = crate::emit::module_name(&input.version);
        let settings = crate::extension::repository_settings(&module);
        let seeded = crate::extension::generate(
            input,
            extension,
            core.as_ref().map(|(c, p)| (*c, p.as_str())),
            &settings,
        )?;
        // Its own definitions: those of its file that are not copies of the core's.
        let upstream = crate::load::parse(&input.path, &input.text)?;
        let own: BTreeSet<String> = seeded
            .model
            .types
            .iter()
            .filter(|t| match &t.origin {
                crate::model::Origin::Definition(d) => {
                    upstream.defs.contains_key(d)
                        && !seeded.applied.replaced.iter().any(|(n, _)| n == d)
                }
                _ => false,
            })
            .map(|t| t.name.clone())
            .collect();
        let copies = seeded
            .applied
            .replaced
            .iter()
            .filter(|(d, _)| upstream.defs.contains_key(d))
            .count();
        rows.push((
            extension,
            seeded.model.clone(),
            own,
            copies,
            input.path.clone(),
        ));
        let mut lines = 0;
        for (name, contents) in seeded.files {
            lines += contents.lines().count();
            output
                .files
                .push((format!("generated/src/ext/{module}/{name}"), contents));
        }
        output.stats.push(crate::Stats {
            version: format!("ext {}", input.version),
            definitions: seeded
                .model
                .types
                .iter()
                .filter(|t| matches!(t.origin, crate::model::Origin::Definition(_)))
                .count(),
            items: seeded.model.types.len(),
            lines,
            elapsed: started.elapsed(),
            notes: seeded.notes,
        });
    }
    // The compatibility matrix gains the extensions' rows.
    let mut ordered: Vec<&crate::model::Model> = output.models.iter().collect();
    ordered.sort_by_key(|m| (m.version == "draft", m.version.clone()));
    let ordered: Vec<crate::model::Model> = ordered.into_iter().cloned().collect();
    let ext_rows: Vec<crate::diff::ExtensionRows<'_>> = rows
        .iter()
        .map(
            |(extension, model, own, copies, source)| crate::diff::ExtensionRows {
                extension,
                model,
                own,
                copies: *copies,
                source,
            },
        )
        .collect();
    let matrix = crate::diff::compatibility_with(&ordered, &ext_rows);
    for (path, contents) in &mut output.files {
        if path == "generated/COMPATIBILITY.md" {
            *contents = matrix.clone();
        }
    }
    output.files.sort();
    Ok(())
}

pub use crate::files::{write_atomic, write_temp};

/// Applies a check's findings: writes stale and missing files, removes orphans.
/// Every file is generated in memory before anything is written, and every new file is
/// written to a temporary sibling before any is renamed into place, so a generator error
/// or a failed write leaves the tree as it was.
pub fn apply(root: &Path, output: &Output, fresh: &Freshness) -> Result<(), String> {
    let mut staged = Vec::new();
    for (path, contents) in &output.files {
        if fresh.stale.contains(path) || fresh.missing.contains(path) {
            let target = root.join(path);
            match write_temp(&target, contents.as_bytes()) {
                Ok(tmp) => staged.push((tmp, target)),
                Err(e) => {
                    for (tmp, _) in &staged {
                        let _ = fs::remove_file(tmp);
                    }
                    return Err(e);
                }
            }
        }
    }
    for (tmp, target) in &staged {
        fs::rename(tmp, target).map_err(|e| format!("cannot replace {}: {e}", target.display()))?;
    }
    for p in &fresh.orphaned {
        fs::remove_file(root.join(p)).map_err(|e| format!("cannot remove orphaned {p}: {e}"))?;
    }
    Ok(())
}
