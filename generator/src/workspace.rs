//! The project's files on disk: the schema lock, the vendored inputs, and the check of
//! generated files. This is the only module that touches the file system; `xtask` and
//! the freshness test both use it.

use std::collections::BTreeSet;
use std::fs;
use std::path::Path;

use serde_json::Value;

use crate::{Input, Output, generate, sha256_hex};

/// Path of the lock file, relative to the workspace root.
pub const LOCK: &str = "schema/lock.json";

/// Reads the lock file.
pub fn read_lock(root: &Path) -> Result<Value, String> {
    let text =
        fs::read_to_string(root.join(LOCK)).map_err(|e| format!("cannot read {LOCK}: {e}"))?;
    serde_json::from_str(&text).map_err(|e| format!("{LOCK} is not valid JSON: {e}"))
}

/// The versions the lock lists, in order.
pub fn locked_versions(lock: &Value) -> Result<Vec<(String, String)>, String> {
    let entries = lock
        .get("versions")
        .and_then(Value::as_array)
        .ok_or_else(|| format!("{LOCK}: `versions` must be an array"))?;
    entries
        .iter()
        .map(|e| {
            let get = |k: &str| {
                e.get(k)
                    .and_then(Value::as_str)
                    .map(str::to_string)
                    .ok_or_else(|| format!("{LOCK}: an entry has no string `{k}`"))
            };
            Ok((get("version")?, get("sha256")?))
        })
        .collect()
}

/// Reads every locked schema, refusing any whose sha256 differs from the lock and
/// saying which file changed and how to accept it.
pub fn inputs(root: &Path) -> Result<Vec<Input>, String> {
    let lock = read_lock(root)?;
    let mut out = Vec::new();
    let mut changed = Vec::new();
    for (version, locked) in locked_versions(&lock)? {
        let path = format!("schema/{version}/schema.json");
        let bytes = fs::read(root.join(&path)).map_err(|e| format!("cannot read {path}: {e}"))?;
        let actual = sha256_hex(&bytes);
        if actual != locked {
            changed.push(format!(
                "  {path}: locked sha256 {locked}, file has {actual}"
            ));
        }
        let text = String::from_utf8(bytes).map_err(|_| format!("{path} is not UTF-8"))?;
        out.push(Input {
            version,
            path,
            text,
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

/// Generated files on disk that codegen owns: version modules, test harnesses, IR files.
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
            if entry.path().is_dir() && is_version(&name) {
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
    if let Ok(dir) = fs::read_dir(root.join("generated/ir")) {
        for entry in dir.flatten() {
            out.insert(format!(
                "generated/ir/{}",
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
    let output = generate(&inputs).map_err(|e| e.to_string())?;
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

/// Writes a file by writing a temporary sibling and renaming it over the target.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let tmp = write_temp(path, bytes)?;
    fs::rename(&tmp, path).map_err(|e| format!("cannot replace {}: {e}", path.display()))
}

fn write_temp(path: &Path, bytes: &[u8]) -> Result<std::path::PathBuf, String> {
    if let Some(dir) = path.parent() {
        fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    // `name.ext` → `name.ext.tmp~`: distinct for files that differ only in extension.
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".tmp~");
    let tmp = path.with_file_name(name);
    fs::write(&tmp, bytes).map_err(|e| format!("cannot write {}: {e}", tmp.display()))?;
    Ok(tmp)
}

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
