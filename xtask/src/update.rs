//! `cargo xtask fetch` and `cargo xtask drift`: bring upstream schemas into `schema/`, or
//! only say how they differ from the vendored ones: the protocol versions, from the
//! specification's repository, and the official extensions (`schema/ext/`), each from
//! the repository and folder its lock entry names.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use mcp_codegen::diff::{Breaks, ChangeKind, diff, kind_label, label};
use mcp_codegen::model::{Model, Origin, TypeDef};
use mcp_codegen::workspace::{self, LOCK, Lock, LockEntry, read_tree, tree_digest};
use mcp_codegen::{Input, load, model_of, sha256_hex};

use crate::upstream::{Fetched, Source, check_version_name};

/// What `fetch` and `drift` compare for one version or extension.
struct Compared {
    /// The version (`2025-06-18`), or the extension (`tasks`).
    version: String,
    /// The extension's lock entry; `None` for a protocol version.
    extension: Option<LockEntry>,
    /// The vendored folder, relative to the workspace root (`schema/2025-06-18`,
    /// `schema/ext/tasks/draft`).
    dir: String,
    /// The vendored schema bytes, if the version is vendored.
    old_schema: Option<Vec<u8>>,
    /// The vendored `schema.ts`, if there is one.
    old_ts: Option<Vec<u8>>,
    /// The vendored examples.
    old_examples: BTreeMap<String, Vec<u8>>,
    /// Upstream's files; `None` when upstream has no such version.
    new: Option<Fetched>,
}

impl Compared {
    fn schema_changed(&self) -> bool {
        match &self.new {
            Some(n) => self.old_schema.as_deref() != Some(n.schema.as_slice()),
            None => true,
        }
    }

    fn ts_changed(&self) -> bool {
        match &self.new {
            Some(n) => n.ts != self.old_ts,
            None => false,
        }
    }

    fn examples_changed(&self) -> bool {
        match self.new.as_ref().and_then(|n| n.examples.as_ref()) {
            Some(ex) => *ex != self.old_examples,
            None => false,
        }
    }

    fn changed(&self) -> bool {
        self.schema_changed() || self.ts_changed() || self.examples_changed()
    }
}

/// Reads what is vendored for a version and what the source has.
fn compare(root: &Path, source: &Source, version: &str) -> Result<Compared, String> {
    let new = source.fetch(version)?;
    compared(root, version, None, format!("schema/{version}"), new)
}

/// Reads what is vendored for an extension (the folder of its `schema.json`) and what its
/// source (opened at the extension's folder upstream) has.
fn compare_extension(root: &Path, entry: &LockEntry, source: &Source) -> Result<Compared, String> {
    let dir = match entry.path.rsplit_once('/') {
        Some((dir, "schema.json")) => dir.to_string(),
        _ => {
            return Err(format!(
                "{LOCK}: the extension {}'s path `{}` is not a schema.json",
                entry.version, entry.path
            ));
        }
    };
    let new = source.fetch_dir("")?;
    compared(root, &entry.version, Some(entry.clone()), dir, new)
}

/// The vendored files of the folder `dir` beside `new`, upstream's, once they are checked.
fn compared(
    root: &Path,
    version: &str,
    extension: Option<LockEntry>,
    dir: String,
    new: Option<Fetched>,
) -> Result<Compared, String> {
    let read = |name: &str| match fs::read(root.join(&dir).join(name)) {
        Ok(b) => Ok(Some(b)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(format!("cannot read {dir}/{name}: {e}")),
    };
    let old_schema = read("schema.json")?;
    let old_ts = read("schema.ts")?;
    let old_examples = read_tree(&root.join(&dir).join("examples"))?;
    if let Some(f) = &new {
        validate(version, f)?;
    }
    Ok(Compared {
        version: version.to_string(),
        extension,
        dir,
        old_schema,
        old_ts,
        old_examples,
        new,
    })
}

/// Upstream files must be what the generator reads before anything is written: a JSON
/// schema in a dialect it knows, a `schema.ts` that is text, and examples that are JSON.
fn validate(version: &str, f: &Fetched) -> Result<(), String> {
    let name = format!("upstream {version}/schema.json");
    let text = std::str::from_utf8(&f.schema).map_err(|_| format!("{name}: not UTF-8"))?;
    load::parse(&name, text).map_err(|e| format!("refusing {e}"))?;
    if let Some(ts) = &f.ts {
        let text = std::str::from_utf8(ts)
            .map_err(|_| format!("refusing upstream {version}/schema.ts: not UTF-8"))?;
        // What codegen will read of it must read: its doc comments' tags and links.
        mcp_codegen::ts::read(text)
            .map_err(|e| format!("refusing upstream {version}/schema.ts: {e}"))?;
    }
    for (rel, bytes) in f.examples.iter().flatten() {
        if rel.ends_with(".json") {
            serde_json::from_slice::<serde_json::Value>(bytes).map_err(|e| {
                format!("refusing upstream {version}/examples/{rel}: not JSON: {e}")
            })?;
        }
    }
    Ok(())
}

/// Human-readable lines saying what changed for one version.
fn describe(c: &Compared) -> Vec<String> {
    let v = &c.version;
    let Some(new) = &c.new else {
        return vec![match &c.extension {
            None => {
                format!("{v}: not found upstream (vendored, but upstream has no {v}/schema.json)")
            }
            Some(e) => format!(
                "{v}: not found upstream (vendored, but the source has no schema.json in `{}`)",
                e.upstream.as_deref().unwrap_or_default()
            ),
        }];
    };
    let mut out = Vec::new();
    let model = |bytes: &[u8], path: String| {
        let text = String::from_utf8_lossy(bytes).into_owned();
        model_of(&Input {
            version: v.clone(),
            path,
            text,
            ..Default::default()
        })
    };
    match &c.old_schema {
        None => {
            out.push(format!("{v}: new version upstream, not vendored"));
            match model(&new.schema, format!("upstream {v}/schema.json")) {
                Ok(m) => out.push(format!(
                    "  {} types, {} methods",
                    m.types.len(),
                    m.methods.len()
                )),
                Err(e) => out.push(format!("  the generator cannot read it yet: {e}")),
            }
        }
        Some(old) if old == &new.schema => {
            out.push(format!("{v}: schema unchanged"));
        }
        Some(old) => {
            out.push(format!(
                "{v}: schema changed (sha256 {} → {})",
                short(&sha256_hex(old)),
                short(&sha256_hex(&new.schema))
            ));
            let a = model(old, format!("{}/schema.json", c.dir));
            let b = model(&new.schema, format!("upstream {v}/schema.json"));
            match (a, b) {
                (Ok(a), Ok(b)) => {
                    out.extend(summary(&diff(&a, &b)));
                    let unseen = uncarried_changes(old, &new.schema, &a, &b);
                    if !unseen.is_empty() {
                        out.push(format!(
                            "  changed upstream, but in text no generated type carries: {}",
                            unseen.join(", ")
                        ));
                    }
                }
                (Err(e), _) => out.push(format!("  the vendored schema does not build: {e}")),
                (_, Err(e)) => out.push(format!("  the generator cannot read it yet: {e}")),
            }
        }
    }
    out.extend(describe_ts(c.old_ts.as_deref(), new.ts.as_deref()));
    if let Some(ex) = &new.examples {
        let old = &c.old_examples;
        let added = ex.keys().filter(|k| !old.contains_key(*k)).count();
        let removed = old.keys().filter(|k| !ex.contains_key(*k)).count();
        let edited = ex
            .iter()
            .filter(|(k, b)| old.get(*k).is_some_and(|o| o != *b))
            .count();
        if added + removed + edited > 0 {
            out.push(format!(
                "  examples: {added} added, {removed} removed, {edited} changed ({} upstream)",
                ex.len()
            ));
        }
    } else if c.schema_changed() || c.ts_changed() {
        out.push("  examples: the source does not list them; kept as vendored".to_string());
    }
    out
}

/// A line on how `schema.ts` differs, if it does. The count of `@deprecated` tags says
/// whether the change touches what only the TypeScript carries.
fn describe_ts(old: Option<&[u8]>, new: Option<&[u8]>) -> Option<String> {
    let tags = |b: &[u8]| String::from_utf8_lossy(b).matches("@deprecated").count();
    match (old, new) {
        (Some(o), Some(n)) if o == n => None,
        (Some(o), Some(n)) => Some(format!(
            "  schema.ts differs: {} → {} @deprecated tags (sha256 {} → {})",
            tags(o),
            tags(n),
            short(&sha256_hex(o)),
            short(&sha256_hex(n))
        )),
        (None, Some(n)) => Some(format!(
            "  schema.ts: new upstream, {} @deprecated tags",
            tags(n)
        )),
        (Some(o), None) => Some(format!(
            "  schema.ts: upstream has none (the vendored one has {} @deprecated tags); fetch \
             removes it",
            tags(o)
        )),
        (None, None) => None,
    }
}

/// Schema definitions whose JSON differs between two documents while every model type that
/// comes from them (the definition's own type and the inline types inside it) is the same:
/// text the generated code does not carry, such as the description of an inline object
/// that the generator resolved to another definition's type.
fn uncarried_changes(old: &[u8], new: &[u8], a: &Model, b: &Model) -> Vec<String> {
    let defs = |bytes: &[u8]| -> BTreeMap<String, serde_json::Value> {
        load::parse("", &String::from_utf8_lossy(bytes))
            .map(|doc| doc.defs.into_iter().collect())
            .unwrap_or_default()
    };
    let (da, db) = (defs(old), defs(new));
    let owned = |m: &Model, def: &str| -> Vec<TypeDef> {
        m.types
            .iter()
            .filter(|t| owner(t) == Some(def))
            .cloned()
            .collect()
    };
    da.iter()
        .filter(|(name, json)| db.get(*name).is_some_and(|j| j != *json))
        .filter(|(name, _)| owned(a, name) == owned(b, name))
        .map(|(name, _)| name.clone())
        .collect()
}

/// The schema definition a model type comes from: its own, or the one an inline type sits
/// in (`#/$defs/Tool/properties/inputSchema` → `Tool`).
fn owner(t: &TypeDef) -> Option<&str> {
    match &t.origin {
        Origin::Definition(d) => Some(d),
        Origin::Inline(p) => p
            .strip_prefix("#/definitions/")
            .or_else(|| p.strip_prefix("#/$defs/"))?
            .split('/')
            .next(),
        Origin::Results(_) => None,
    }
}

fn short(sha: &str) -> &str {
    &sha[..12.min(sha.len())]
}

/// The diff in a few lines: counts by kind and by breakage, the changed definitions and
/// methods by name, and the types whose descriptions alone changed.
pub fn summary(d: &mcp_codegen::diff::Diff) -> Vec<String> {
    let mut out = Vec::new();
    let (by_kind, by_breaks) = d.counts();
    if d.changes.is_empty() && d.description_only.is_empty() {
        out.push(
            "  no change to the model: formatting or text outside the definitions".to_string(),
        );
        return out;
    }
    if !d.changes.is_empty() {
        let kinds: Vec<String> = by_kind
            .iter()
            .map(|(k, n)| format!("{n} {}", kind_label(*k)))
            .collect();
        out.push(format!(
            "  {} changes: {}",
            d.changes.len(),
            kinds.join(", ")
        ));
        let breaks: Vec<String> = by_breaks
            .iter()
            .filter(|(b, _)| **b != Breaks::Nobody)
            .map(|(b, n)| format!("{} {n}", label(*b)))
            .collect();
        if !breaks.is_empty() {
            out.push(format!("  breaking: {}", breaks.join(", ")));
        }
    }
    let changed = changed_definitions(d);
    if !changed.is_empty() {
        out.push(format!(
            "  definitions changed: {}",
            changed.into_iter().collect::<Vec<_>>().join(", ")
        ));
    }
    let methods: BTreeSet<&str> = d
        .changes
        .iter()
        .filter(|c| is_method_kind(c.kind))
        .map(|c| c.subject.as_str())
        .collect();
    if !methods.is_empty() {
        out.push(format!(
            "  methods changed: {}",
            methods.into_iter().collect::<Vec<_>>().join(", ")
        ));
    }
    if !d.description_only.is_empty() {
        let shown: Vec<&str> = d
            .description_only
            .iter()
            .take(24)
            .map(String::as_str)
            .collect();
        let more = d.description_only.len() - shown.len();
        out.push(format!(
            "  description-only: {}{}",
            shown.join(", "),
            if more > 0 {
                format!(" and {more} more")
            } else {
                String::new()
            }
        ));
    }
    out
}

/// The types a diff touches, by name: the part of each subject before the first `.`,
/// for changes to definitions, fields, consts, enums and unions.
pub fn changed_definitions(d: &mcp_codegen::diff::Diff) -> BTreeSet<String> {
    d.changes
        .iter()
        .filter(|c| !is_method_kind(c.kind) && !is_protocol_kind(c.kind))
        .flat_map(|c| {
            let mut names = vec![c.subject.split('.').next().unwrap_or_default().to_string()];
            names.extend(c.renamed_to().map(str::to_string));
            names
        })
        .collect()
}

fn is_method_kind(k: ChangeKind) -> bool {
    matches!(
        k,
        ChangeKind::MethodAdded
            | ChangeKind::MethodRemoved
            | ChangeKind::MethodDirectionChanged
            | ChangeKind::MethodCarrierChanged
            | ChangeKind::MethodParamsChanged
            | ChangeKind::MethodResultChanged
    )
}

fn is_protocol_kind(k: ChangeKind) -> bool {
    matches!(
        k,
        ChangeKind::CapabilityAdded
            | ChangeKind::CapabilityRemoved
            | ChangeKind::ErrorCodeAdded
            | ChangeKind::ErrorCodeRemoved
            | ChangeKind::ErrorCodeChanged
    )
}

/// The versions a command looks at: those named, every version upstream has (`all`), or
/// by default the locked ones.
fn targets(
    lock: &Lock,
    source: &Source,
    named: &[String],
    all: bool,
) -> Result<Vec<String>, String> {
    let mut out: Vec<String> = if all {
        let mut v = source.versions()?.ok_or(
            "--all needs a source that can list its versions (GitHub or a folder); name the \
             versions for a URL mirror",
        )?;
        for e in &lock.versions {
            if !v.contains(&e.version) {
                v.push(e.version.clone());
            }
        }
        v
    } else if named.is_empty() {
        lock.versions.iter().map(|e| e.version.clone()).collect()
    } else {
        for v in named {
            check_version_name(v)?;
        }
        named.to_vec()
    };
    out.sort_by_key(|v| order_key(v));
    out.dedup();
    Ok(out)
}

/// Dated versions in date order, then `draft`, then anything else by name.
fn order_key(v: &str) -> (u8, String) {
    let dated = v.len() == 10
        && v.bytes().enumerate().all(|(i, b)| {
            if i == 4 || i == 7 {
                b == b'-'
            } else {
                b.is_ascii_digit()
            }
        });
    let rank = if dated {
        0
    } else if v == "draft" {
        1
    } else {
        2
    };
    (rank, v.to_string())
}

/// The protocol versions a command takes from the specification's repository: the
/// source, the versions named, and whether `--all` was given.
pub struct Core<'a> {
    pub source: &'a Source,
    pub named: &'a [String],
    pub all: bool,
}

/// `cargo xtask fetch`: the versions of `core`, and each extension from its source.
pub fn fetch(
    root: &Path,
    core: Option<Core<'_>>,
    extensions: &[(LockEntry, Source)],
) -> Result<ExitCode, String> {
    let lock = workspace::read_lock(root)?;
    let mut compared: Vec<(Compared, &Source)> = Vec::new();
    if let Some(core) = &core {
        for v in &targets(&lock, core.source, core.named, core.all)? {
            let c = compare(root, core.source, v)?;
            if c.new.is_none() {
                return Err(format!(
                    "upstream has no {v}/schema.json ({}); nothing written",
                    describe_source(core.source)
                ));
            }
            compared.push((c, core.source));
        }
    }
    for (entry, source) in extensions {
        let c = compare_extension(root, entry, source)?;
        if c.new.is_none() {
            return Err(format!(
                "the {} extension's upstream has no schema.json ({}); nothing written",
                entry.version,
                describe_source(source)
            ));
        }
        compared.push((c, source));
    }
    // Everything is in memory and valid: stage, then swap into place, lock last.
    let mut lock = lock;
    let mut stage = Stage::default();
    let result = (|| -> Result<(), String> {
        for (c, source) in compared.iter().filter(|(c, _)| c.changed()) {
            let provenance = source.provenance();
            let new = c.new.as_ref().expect("checked above");
            let dir = root.join(&c.dir);
            if c.schema_changed() {
                stage.file(&dir.join("schema.json"), &new.schema)?;
                if c.extension.is_some() {
                    history(root, c, provenance, &mut stage)?;
                }
            }
            if c.ts_changed() {
                match &new.ts {
                    Some(ts) => stage.file(&dir.join("schema.ts"), ts)?,
                    None => stage.remove(&dir.join("schema.ts")),
                }
            }
            if c.examples_changed() {
                stage.tree(
                    &dir.join("examples"),
                    new.examples.as_ref().expect("changed"),
                )?;
            }
            let examples = match &new.examples {
                Some(ex) if ex.is_empty() => None,
                Some(ex) => Some(tree_digest(ex)),
                None if c.old_examples.is_empty() => None,
                None => Some(tree_digest(&c.old_examples)),
            };
            let entry = LockEntry {
                version: c.version.clone(),
                // An extension's entry keeps its repository, which says where the next
                // plain `drift` and `fetch` read it; the ref says what this one read.
                repository: match &c.extension {
                    Some(e) => e.repository.clone(),
                    None => provenance.repository.clone(),
                },
                upstream: c.extension.as_ref().and_then(|e| e.upstream.clone()),
                reference: provenance.reference.clone(),
                ref_date: provenance.date.clone(),
                path: format!("{}/schema.json", c.dir),
                sha256: sha256_hex(&new.schema),
                examples: examples.as_ref().map(|_| format!("{}/examples", c.dir)),
                examples_sha256: examples,
                ts: new.ts.as_ref().map(|_| format!("{}/schema.ts", c.dir)),
                ts_sha256: new.ts.as_deref().map(sha256_hex),
            };
            let entries = match c.extension {
                Some(_) => &mut lock.extensions,
                None => &mut lock.versions,
            };
            match entries.iter_mut().find(|e| e.version == c.version) {
                Some(e) => *e = entry,
                None => {
                    entries.push(entry);
                    entries.sort_by_key(|e| order_key(&e.version));
                }
            }
        }
        if compared.iter().any(|(c, _)| c.changed()) {
            stage.file(&root.join(LOCK), lock.render().as_bytes())?;
        }
        Ok(())
    })();
    if let Err(e) = result {
        stage.abandon();
        return Err(format!("{e}; nothing written"));
    }
    stage.commit()?;
    let mut shown = None;
    for (c, source) in &compared {
        let from = describe_source(source);
        if shown.as_ref() != Some(&from) {
            println!("source: {from}");
            shown = Some(from);
        }
        for line in describe(c) {
            println!("{line}");
        }
    }
    let changed: Vec<String> = compared
        .iter()
        .filter(|(c, _)| c.changed())
        .map(|(c, _)| format!("{}/", c.dir))
        .collect();
    if changed.is_empty() {
        println!("nothing to update");
    } else {
        println!(
            "updated {} and {LOCK}.\nNext: `cargo xtask codegen`, then `cargo test --workspace` \
             (review the model snapshots with `cargo insta review`) and read `git diff`.",
            changed.join(", ")
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// An extension whose schema changed keeps every revision (`schema/ext/<name>/history/`,
/// `NNN-<date>-<commit>.json`, oldest first), when it has that folder: the new one is
/// staged as the next.
fn history(
    root: &Path,
    c: &Compared,
    provenance: &crate::upstream::Provenance,
    stage: &mut Stage,
) -> Result<(), String> {
    let name = &c.version;
    let dir = root.join("schema/ext").join(name).join("history");
    if !dir.is_dir() {
        return Ok(());
    }
    let last = fs::read_dir(&dir)
        .map_err(|e| format!("cannot list {}: {e}", dir.display()))?
        .flatten()
        .filter_map(|e| {
            let file = e.file_name().to_string_lossy().to_string();
            let (number, _) = file.strip_suffix(".json")?.split_once('-')?;
            number.parse::<u32>().ok()
        })
        .max()
        .unwrap_or(0);
    let reference: String = provenance
        .reference
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .take(7)
        .collect();
    let file = format!("{:03}-{}-{reference}.json", last + 1, provenance.date);
    let new = c.new.as_ref().expect("a changed schema arrived");
    stage.file(&dir.join(file), &new.schema)
}

/// `cargo xtask drift`: exit 1 when any version of `core` or any extension differs from
/// upstream.
pub fn drift(
    root: &Path,
    core: Option<&Source>,
    extensions: &[(LockEntry, Source)],
) -> Result<ExitCode, String> {
    let lock = workspace::read_lock(root)?;
    let mut drifted = Vec::new();
    let mut count = 0;
    if let Some(source) = core {
        let mut versions: Vec<String> = lock.versions.iter().map(|e| e.version.clone()).collect();
        if let Some(upstream) = source.versions()? {
            for v in upstream {
                if !versions.contains(&v) {
                    versions.push(v);
                }
            }
        }
        versions.sort_by_key(|v| order_key(v));
        println!("source: {}", describe_source(source));
        for v in &versions {
            let c = compare(root, source, v)?;
            count += 1;
            report(&c, &mut drifted);
        }
    }
    for (entry, source) in extensions {
        println!(
            "source of the {} extension: {}",
            entry.version,
            describe_source(source)
        );
        let c = compare_extension(root, entry, source)?;
        report(&c, &mut drifted);
    }
    let n = extensions.len();
    let exts = format!("{n} extension{}", if n == 1 { "" } else { "s" });
    let versions = format!("{count} version{}", if count == 1 { "" } else { "s" });
    let what = match (core.is_some(), n) {
        (true, 0) => versions,
        (false, _) => exts,
        (true, _) => format!("{versions} and {exts}"),
    };
    if drifted.is_empty() {
        let verb = if count + n == 1 { "matches" } else { "match" };
        println!("no drift: {what} {verb} upstream");
        Ok(ExitCode::SUCCESS)
    } else {
        let (versions, exts): (Vec<&Drifted>, Vec<&Drifted>) =
            drifted.iter().partition(|(_, extension)| !extension);
        let mut commands = Vec::new();
        if !versions.is_empty() {
            let names: Vec<&str> = versions.iter().map(|(name, _)| name.as_str()).collect();
            commands.push(format!("`cargo xtask fetch {}`", names.join(" ")));
        }
        if !exts.is_empty() {
            let names: Vec<String> = exts
                .iter()
                .map(|(name, _)| format!("--ext {name}"))
                .collect();
            commands.push(format!("`cargo xtask fetch {}`", names.join(" ")));
        }
        let names: Vec<&str> = drifted.iter().map(|(name, _)| name.as_str()).collect();
        println!(
            "drift in {}: run {} to take the changes",
            names.join(", "),
            commands.join(" and ")
        );
        Ok(ExitCode::from(1))
    }
}

/// A version or extension that differs from upstream: its name, and whether it is an
/// extension.
type Drifted = (String, bool);

/// Prints what differs for `c` (or that nothing does), and keeps it in `drifted` if
/// anything does.
fn report(c: &Compared, drifted: &mut Vec<Drifted>) {
    if c.changed() {
        for line in describe(c) {
            println!("{line}");
        }
        drifted.push((c.version.clone(), c.extension.is_some()));
    } else {
        println!("{}: unchanged", c.version);
    }
}

fn describe_source(source: &Source) -> String {
    let p = source.provenance();
    format!("{} at {} ({})", p.repository, p.reference, p.date)
}

/// Files and folders written beside their targets, swapped in only when every one is
/// written.
#[derive(Default)]
struct Stage {
    /// (temporary path, target) pairs.
    staged: Vec<(PathBuf, PathBuf)>,
    /// Files and folders to remove (a `schema.ts` or an examples folder upstream removed).
    removals: Vec<PathBuf>,
}

impl Stage {
    fn temp_of(target: &Path) -> PathBuf {
        let mut name = target.file_name().unwrap_or_default().to_os_string();
        name.push(".fetch~");
        target.with_file_name(name)
    }

    fn file(&mut self, target: &Path, bytes: &[u8]) -> Result<(), String> {
        let tmp = workspace::write_temp(target, bytes)?;
        self.staged.push((tmp, target.to_path_buf()));
        Ok(())
    }

    fn remove(&mut self, target: &Path) {
        self.removals.push(target.to_path_buf());
    }

    fn tree(&mut self, target: &Path, files: &BTreeMap<String, Vec<u8>>) -> Result<(), String> {
        if files.is_empty() {
            self.removals.push(target.to_path_buf());
            return Ok(());
        }
        let tmp = Self::temp_of(target);
        if tmp.exists() {
            fs::remove_dir_all(&tmp).map_err(|e| format!("cannot clear {}: {e}", tmp.display()))?;
        }
        self.staged.push((tmp.clone(), target.to_path_buf()));
        fs::create_dir_all(&tmp).map_err(|e| format!("cannot create {}: {e}", tmp.display()))?;
        for (rel, bytes) in files {
            let path = tmp.join(rel);
            if let Some(dir) = path.parent() {
                fs::create_dir_all(dir)
                    .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
            }
            fs::write(&path, bytes).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        }
        Ok(())
    }

    fn abandon(self) {
        for (tmp, _) in self.staged {
            if tmp.is_dir() {
                let _ = fs::remove_dir_all(tmp);
            } else {
                let _ = fs::remove_file(tmp);
            }
        }
    }

    fn commit(self) -> Result<(), String> {
        for (tmp, target) in &self.staged {
            // A folder cannot be renamed over another: move the old one aside first.
            let aside = tmp.is_dir() && target.exists();
            let old = target.with_extension("old~");
            if aside {
                fs::rename(target, &old)
                    .map_err(|e| format!("cannot move {} aside: {e}", target.display()))?;
            }
            fs::rename(tmp, target)
                .map_err(|e| format!("cannot replace {}: {e}", target.display()))?;
            if aside {
                fs::remove_dir_all(&old)
                    .map_err(|e| format!("cannot remove {}: {e}", old.display()))?;
            }
        }
        for path in &self.removals {
            let removed = if path.is_dir() {
                fs::remove_dir_all(path)
            } else if path.exists() {
                fs::remove_file(path)
            } else {
                Ok(())
            };
            removed.map_err(|e| format!("cannot remove {}: {e}", path.display()))?;
        }
        Ok(())
    }
}
