//! Replays every real upstream update of the released schemas.
//!
//! `xtask/tests/history/<version>/` holds every revision upstream published for each
//! released version (14 files). For each consecutive pair, the older revision is vendored
//! and locked in a scratch workspace, the newer one appears in an upstream folder, and:
//!
//! 1. the lock catches a hand-copied file (`codegen` refuses to run, naming the file);
//! 2. `xtask drift` exits 1 and names the version;
//! 3. the version diff names every definition whose JSON changed structurally (computed
//!    here independently, from the two JSON documents), and reports description-only
//!    changes as such;
//! 4. `xtask fetch` takes the new file and the lock agrees with it afterwards;
//! 5. the generated Rust changes exactly where the model changed: every type whose model
//!    changed has different generated code, and every type whose model did not has the
//!    same.

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use common::*;
use mcp_codegen::diff::diff;
use mcp_codegen::model::{Model, Origin};
use mcp_codegen::{Input, generate, model_of};
use quote::ToTokens;
use serde_json::Value;

/// Keywords whose changes the model does not represent (validation hints, see
/// `mcp_codegen::load::IGNORED_KEYWORDS`) plus `description`: a change confined to them is
/// not structural.
fn non_structural(key: &str) -> bool {
    key == "description"
        || mcp_codegen::load::IGNORED_KEYWORDS
            .iter()
            .any(|(k, _)| *k == key)
}

/// A schema with its non-structural keywords removed, walking only schema positions (a
/// property *named* `description` stays).
fn normalize(schema: &Value) -> Value {
    let Value::Object(map) = schema else {
        return schema.clone();
    };
    let mut out = serde_json::Map::new();
    for (k, v) in map {
        if non_structural(k) {
            continue;
        }
        let v = match (k.as_str(), v) {
            ("properties" | "$defs" | "definitions", Value::Object(props)) => Value::Object(
                props
                    .iter()
                    .map(|(name, s)| (name.clone(), normalize(s)))
                    .collect(),
            ),
            ("items" | "additionalProperties" | "not", s) => normalize(s),
            ("anyOf" | "allOf" | "oneOf", Value::Array(list)) => {
                Value::Array(list.iter().map(normalize).collect())
            }
            _ => v.clone(),
        };
        out.insert(k.clone(), v);
    }
    Value::Object(out)
}

fn definitions(text: &[u8]) -> BTreeMap<String, Value> {
    let root: Value = serde_json::from_slice(text).unwrap();
    let defs = root
        .get("$defs")
        .or_else(|| root.get("definitions"))
        .unwrap();
    defs.as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect()
}

/// The schema definition a model type belongs to: its own, or the one an inline type sits
/// in (`#/definitions/Tool/properties/inputSchema` → `Tool`).
fn owners(model: &Model) -> BTreeMap<String, String> {
    model
        .types
        .iter()
        .filter_map(|t| {
            let owner = match &t.origin {
                Origin::Definition(d) => d.clone(),
                Origin::Inline(p) => p
                    .trim_start_matches("#/definitions/")
                    .trim_start_matches("#/$defs/")
                    .split('/')
                    .next()?
                    .to_string(),
                Origin::Results(_) => return None,
            };
            Some((t.name.clone(), owner))
        })
        .collect()
}

/// Generated Rust of one version, grouped by the type each item is about (a struct or
/// enum and its impl blocks), as token text.
fn items(model_input: &Input) -> BTreeMap<String, String> {
    let out = generate(std::slice::from_ref(model_input)).unwrap();
    let mut by_type: BTreeMap<String, String> = BTreeMap::new();
    for (path, text) in &out.files {
        if !path.starts_with("generated/src/v") && !path.starts_with("generated/src/draft") {
            continue;
        }
        let file = syn::parse_file(text).unwrap_or_else(|e| panic!("{path}: {e}"));
        for item in file.items {
            let name = match &item {
                syn::Item::Struct(s) => s.ident.to_string(),
                syn::Item::Enum(e) => e.ident.to_string(),
                syn::Item::Type(t) => t.ident.to_string(),
                syn::Item::Impl(i) => match &*i.self_ty {
                    syn::Type::Path(p) => p.path.segments.last().unwrap().ident.to_string(),
                    other => other.to_token_stream().to_string(),
                },
                _ => continue,
            };
            let entry = by_type.entry(name).or_default();
            entry.push_str(&item.to_token_stream().to_string());
            entry.push('\n');
        }
    }
    by_type
}

/// A model type as JSON with trailing whitespace removed from every line of every string.
fn trimmed(t: &mcp_codegen::model::TypeDef) -> Value {
    fn walk(v: Value) -> Value {
        match v {
            Value::String(s) => {
                Value::String(s.lines().map(str::trim_end).collect::<Vec<_>>().join("\n"))
            }
            Value::Array(a) => Value::Array(a.into_iter().map(walk).collect()),
            Value::Object(m) => Value::Object(m.into_iter().map(|(k, v)| (k, walk(v))).collect()),
            other => other,
        }
    }
    walk(serde_json::to_value(t).unwrap())
}

#[test]
fn every_upstream_update_of_a_released_version_is_caught() {
    let history = repo().join("xtask/tests/history");
    let mut versions: Vec<_> = std::fs::read_dir(&history)
        .unwrap()
        .flatten()
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().to_string())
        .collect();
    versions.sort();
    let mut pairs = 0;
    let mut files = 0;
    for version in &versions {
        let mut revisions: Vec<_> = std::fs::read_dir(history.join(version))
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .collect();
        revisions.sort();
        files += revisions.len();
        for pair in revisions.windows(2) {
            replay(version, &pair[0], &pair[1]);
            pairs += 1;
        }
    }
    println!("{files} revisions, {pairs} consecutive pairs replayed");
    assert_eq!(files, 14, "the vendored history has 14 revisions");
    assert_eq!(pairs, 9);
}

fn replay(version: &str, old_path: &Path, new_path: &Path) {
    let label = format!(
        "{version}: {} → {}",
        old_path.file_name().unwrap().to_string_lossy(),
        new_path.file_name().unwrap().to_string_lossy()
    );
    let old = std::fs::read(old_path).unwrap();
    let new = std::fs::read(new_path).unwrap();
    let name = format!(
        "replay_{version}_{}",
        old_path.file_stem().unwrap().to_string_lossy()
    );
    let root = scratch(&name);
    let vendored = root.join("schema").join(version).join("schema.json");

    // Start from the older revision, vendored and accepted.
    std::fs::write(&vendored, &old).unwrap();
    let lock = xtask(&root, &["lock"], &[]);
    assert_eq!(lock.code, 0, "{label}: {}", lock.stderr);
    mcp_codegen::workspace::inputs(&root).expect("the older revision is locked");

    // 1. A file copied over by hand: codegen refuses, naming the file and the fix.
    std::fs::write(&vendored, &new).unwrap();
    let refused = mcp_codegen::workspace::inputs(&root).expect_err("lock mismatch is detected");
    assert!(
        refused.contains(&format!("schema/{version}/schema.json: locked sha256"))
            && refused.contains("cargo xtask lock"),
        "{label}: {refused}"
    );
    std::fs::write(&vendored, &old).unwrap();

    // 2. Upstream has the newer revision: drift says so and writes nothing.
    let upstream = root.join("upstream");
    copy_tree(&repo().join("schema"), &upstream);
    std::fs::remove_file(upstream.join("lock.json")).unwrap();
    std::fs::write(upstream.join(version).join("schema.json"), &new).unwrap();
    let before = snapshot(&root.join("schema"));
    let drift = xtask(&root, &["drift", "--from", upstream.to_str().unwrap()], &[]);
    assert_eq!(drift.code, 1, "{label}: {}{}", drift.stdout, drift.stderr);
    assert!(
        drift.stdout.contains(&format!("{version}: schema changed")),
        "{label}: {}",
        drift.stdout
    );
    assert_eq!(
        drift.stdout.matches(": unchanged").count(),
        5,
        "{label}: the other versions are unchanged\n{}",
        drift.stdout
    );
    assert_eq!(
        snapshot(&root.join("schema")),
        before,
        "{label}: drift wrote"
    );

    // 3. The version diff against an independent reading of the two documents.
    let input = |bytes: &[u8], tag: &str| Input {
        version: version.to_string(),
        path: format!("{tag}/{version}/schema.json"),
        text: String::from_utf8(bytes.to_vec()).unwrap(),
        ..Default::default()
    };
    let (old_input, new_input) = (input(&old, "old"), input(&new, "new"));
    let (a, b) = (model_of(&old_input).unwrap(), model_of(&new_input).unwrap());
    let d = diff(&a, &b);
    let (da, db) = (definitions(&old), definitions(&new));
    let names: BTreeSet<&String> = da.keys().chain(db.keys()).collect();
    let structural: BTreeSet<String> = names
        .iter()
        .filter(|n| da.get(**n).map(normalize) != db.get(**n).map(normalize))
        .map(|n| n.to_string())
        .collect();
    let text_only: BTreeSet<String> = names
        .iter()
        .filter(|n| da.get(**n) != db.get(**n) && !structural.contains(**n))
        .map(|n| n.to_string())
        .collect();
    let mut owner = owners(&a);
    owner.extend(owners(&b));
    let owned = |rust: &str| owner.get(rust).cloned().unwrap_or_else(|| rust.to_string());
    let type_subjects: BTreeSet<String> = d
        .changes
        .iter()
        .filter(|c| !c.subject.contains('/'))
        .flat_map(|c| {
            let mut names = vec![owned(c.subject.split('.').next().unwrap())];
            names.extend(c.renamed_to().map(owned));
            names
        })
        .collect();
    let described: BTreeSet<String> = d.description_only.iter().map(|t| owned(t)).collect();
    let missing: Vec<&String> = structural.difference(&type_subjects).collect();
    assert!(
        missing.is_empty(),
        "{label}: definitions changed in the JSON but not named by the diff: {missing:?}\n{:#?}",
        d.changes
    );
    let unexplained: Vec<&String> = text_only
        .iter()
        .filter(|n| !described.contains(*n) && !type_subjects.contains(*n))
        .collect();
    // The rest changed text that no generated type carries (step 5 checks that their code
    // is the same); drift must still name them.
    if !unexplained.is_empty() {
        let line = drift
            .stdout
            .lines()
            .find(|l| l.contains("in text no generated type carries:"))
            .unwrap_or_else(|| panic!("{label}: {unexplained:?} not reported:\n{}", drift.stdout));
        for def in &unexplained {
            assert!(
                line.contains(def.as_str()),
                "{label}: {def} not in `{line}`"
            );
        }
    }
    assert_eq!(
        structural.is_empty(),
        d.changes.is_empty(),
        "{label}: the diff has changes iff a definition changed structurally ({structural:?})"
    );
    for def in &structural {
        let rust = b
            .types
            .iter()
            .chain(&a.types)
            .find(|t| t.origin == Origin::Definition(def.clone()));
        let rust = rust.map(|t| t.name.clone()).unwrap_or_else(|| def.clone());
        if !drift.stdout.contains(&rust) {
            panic!(
                "{label}: drift's summary does not name {rust}:\n{}",
                drift.stdout
            );
        }
    }
    if structural.is_empty() && !text_only.is_empty() {
        assert!(
            drift.stdout.contains("description-only:"),
            "{label}: {}",
            drift.stdout
        );
    }

    // 4. fetch takes it; the lock agrees.
    let fetch = xtask(
        &root,
        &["fetch", version, "--from", upstream.to_str().unwrap()],
        &[],
    );
    assert_eq!(fetch.code, 0, "{label}: {}{}", fetch.stdout, fetch.stderr);
    assert_eq!(std::fs::read(&vendored).unwrap(), new, "{label}");
    mcp_codegen::workspace::inputs(&root).expect("the lock agrees after fetch");

    // 5. Generated code changes exactly where the model changed.
    let (ia, ib) = (items(&old_input), items(&new_input));
    let ta: BTreeMap<&str, _> = a.types.iter().map(|t| (t.name.as_str(), t)).collect();
    let tb: BTreeMap<&str, _> = b.types.iter().map(|t| (t.name.as_str(), t)).collect();
    let mut changed_types = 0;
    for (name, old_t) in &ta {
        let Some(new_t) = tb.get(name) else {
            assert!(
                !ib.contains_key(*name),
                "{label}: {name} was removed from the model but not from the code"
            );
            continue;
        };
        let (code_a, code_b) = (&ia[*name], &ib[*name]);
        // Trailing spaces in descriptions do not reach rustdoc: compare without them.
        if trimmed(old_t) != trimmed(new_t) {
            changed_types += 1;
            assert_ne!(
                code_a, code_b,
                "{label}: the model of {name} changed but its code did not"
            );
        } else {
            assert_eq!(
                code_a, code_b,
                "{label}: the model of {name} did not change but its code did"
            );
        }
    }
    for name in tb.keys().filter(|n| !ta.contains_key(*n)) {
        assert!(
            ib.contains_key(*name),
            "{label}: new type {name} has no code"
        );
    }
    println!(
        "{label}: {} structural, {} description-only definitions; diff: {} changes; {} types \
         with new code; drift {:?}",
        structural.len(),
        text_only.len(),
        d.changes.len(),
        changed_types,
        drift.elapsed
    );
}
