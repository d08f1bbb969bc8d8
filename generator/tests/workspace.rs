//! The on-disk side of codegen: the lock is enforced, and a failed run changes nothing.

use std::fs;
use std::path::{Path, PathBuf};

use mcp_codegen::{sha256_hex, workspace};

const GOOD: &str = r#"{"$schema": "https://json-schema.org/draft/2020-12/schema",
  "$defs": {"Ping": {"type": "object", "properties": {"method": {"type": "string", "const": "ping"}}, "required": ["method"]}}}"#;

/// A scratch workspace with one locked version `2099-01-01`.
fn scratch(name: &str, schema: &str, locked_sha: Option<&str>) -> PathBuf {
    let root = std::env::temp_dir().join(format!("mcp-codegen-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&root);
    fs::create_dir_all(root.join("schema/2099-01-01")).unwrap();
    fs::create_dir_all(root.join("generated/src")).unwrap();
    fs::write(root.join("schema/2099-01-01/schema.json"), schema).unwrap();
    let sha = locked_sha
        .map(str::to_string)
        .unwrap_or_else(|| sha256_hex(schema.as_bytes()));
    let lock = lock_json(&sha);
    fs::write(root.join(workspace::LOCK), lock.to_string()).unwrap();
    root
}

fn snapshot(root: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![root.join("generated")];
    while let Some(dir) = stack.pop() {
        for e in fs::read_dir(&dir).unwrap().flatten() {
            if e.path().is_dir() {
                stack.push(e.path());
            } else {
                out.push((e.path(), fs::read(e.path()).unwrap()));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn generates_then_is_fresh_then_removes_orphans() {
    let root = scratch("fresh", GOOD, None);
    let (output, fresh) = workspace::check(&root).unwrap();
    assert!(!fresh.is_fresh());
    assert!(
        fresh
            .missing
            .contains(&"generated/src/v2099_01_01/mod.rs".to_string())
    );
    workspace::apply(&root, &output, &fresh).unwrap();
    let (_, again) = workspace::check(&root).unwrap();
    assert!(again.is_fresh(), "{}", again.report());
    fs::write(root.join("generated/src/v2099_01_01/stray.rs"), "// old").unwrap();
    let (output, fresh) = workspace::check(&root).unwrap();
    assert_eq!(fresh.orphaned, ["generated/src/v2099_01_01/stray.rs"]);
    assert!(fresh.report().contains("run `cargo xtask codegen`"));
    workspace::apply(&root, &output, &fresh).unwrap();
    assert!(!root.join("generated/src/v2099_01_01/stray.rs").exists());
    fs::remove_dir_all(&root).unwrap();
}

#[test]
fn a_schema_that_differs_from_the_lock_is_refused() {
    let root = scratch("lock", GOOD, Some("0000"));
    let err = workspace::check(&root).unwrap_err();
    assert!(
        err.contains("schema/2099-01-01/schema.json: locked sha256 0000"),
        "{err}"
    );
    assert!(err.contains("cargo xtask lock"), "{err}");
    fs::remove_dir_all(&root).unwrap();
}

#[test]
fn a_failed_run_leaves_generated_untouched() {
    let root = scratch("fail", GOOD, None);
    let (output, fresh) = workspace::check(&root).unwrap();
    workspace::apply(&root, &output, &fresh).unwrap();
    let before = snapshot(&root);
    for broken in [
        r#"{"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": {"A": {"type": "string", "not": {"const": "x"}}}}"#,
        r##"{"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": {"A": {"$ref": "#/$defs/Nope"}}}"##,
        r#"{"$schema": "https://json-schema.org/draft/2020-12/sch"#,
        "",
    ] {
        fs::write(root.join("schema/2099-01-01/schema.json"), broken).unwrap();
        let lock = lock_json(&sha256_hex(broken.as_bytes()));
        fs::write(root.join(workspace::LOCK), lock.to_string()).unwrap();
        let err = workspace::check(&root).unwrap_err();
        assert!(err.contains("schema/2099-01-01/schema.json"), "{err}");
        assert_eq!(snapshot(&root), before, "generated/ changed after: {err}");
    }
    fs::remove_dir_all(&root).unwrap();
}

/// A lock with one entry for version `2099-01-01`.
fn lock_json(sha: &str) -> serde_json::Value {
    serde_json::json!({"versions": [{
        "version": "2099-01-01",
        "repository": "test",
        "ref": "test",
        "ref_date": "2099-01-01",
        "path": "schema/2099-01-01/schema.json",
        "sha256": sha,
    }]})
}

const TS: &str = "/** A ping. */\nexport interface Ping { method: \"ping\" }\n/** @deprecated Old. */\nexport interface Old {}\n";

/// A scratch workspace whose locked version also has a `schema.ts` (locked with `ts_sha`,
/// or its true sha256) and an examples folder with two files.
fn scratch_with_ts(name: &str, ts_sha: Option<&str>) -> PathBuf {
    let root = scratch(name, GOOD, None);
    let dir = root.join("schema/2099-01-01");
    fs::write(dir.join("schema.ts"), TS).unwrap();
    fs::create_dir_all(dir.join("examples/Ping")).unwrap();
    fs::write(
        dir.join("examples/Ping/simple.json"),
        r#"{"method":"ping"}"#,
    )
    .unwrap();
    fs::write(
        dir.join("examples/Ping/second.json"),
        "{\"method\": \"ping\"}\n",
    )
    .unwrap();
    let examples = workspace::tree_digest(&workspace::read_tree(&dir.join("examples")).unwrap());
    let mut lock = lock_json(&sha256_hex(GOOD.as_bytes()));
    let entry = &mut lock["versions"][0];
    entry["ts"] = "schema/2099-01-01/schema.ts".into();
    entry["ts_sha256"] = ts_sha
        .map(str::to_string)
        .unwrap_or_else(|| sha256_hex(TS.as_bytes()))
        .into();
    entry["examples"] = "schema/2099-01-01/examples".into();
    entry["examples_sha256"] = examples.into();
    fs::write(root.join(workspace::LOCK), lock.to_string()).unwrap();
    root
}

#[test]
fn inputs_carry_the_locked_schema_ts_and_the_examples() {
    let root = scratch_with_ts("ts_read", None);
    let inputs = workspace::inputs(&root).unwrap();
    assert_eq!(inputs.len(), 1);
    assert_eq!(inputs[0].ts.as_deref(), Some(TS));
    let examples: Vec<(&str, &str)> = inputs[0]
        .examples
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    assert_eq!(
        examples,
        [
            ("Ping/second.json", "{\"method\": \"ping\"}\n"),
            ("Ping/simple.json", r#"{"method":"ping"}"#),
        ]
    );
    fs::remove_dir_all(&root).unwrap();
}

#[test]
fn an_entry_without_ts_reads_no_ts_and_no_examples() {
    let root = scratch("no_ts", GOOD, None);
    // A schema.ts on disk that the lock does not list is not read.
    fs::write(root.join("schema/2099-01-01/schema.ts"), TS).unwrap();
    let inputs = workspace::inputs(&root).unwrap();
    assert_eq!(inputs[0].ts, None);
    assert!(inputs[0].examples.is_empty());
    fs::remove_dir_all(&root).unwrap();
}

#[test]
fn a_schema_ts_that_differs_from_the_lock_is_refused() {
    let stale = scratch_with_ts("ts_lock", Some("1111"));
    let err = workspace::inputs(&stale).unwrap_err();
    assert!(
        err.contains("schema/2099-01-01/schema.ts: locked sha256 1111, file has"),
        "{err}"
    );
    assert!(err.contains("cargo xtask lock"), "{err}");
    assert!(!err.contains("schema.json"), "{err}");
    fs::remove_dir_all(&stale).unwrap();
    // Edited on disk after locking: refused the same way, in the same list as a schema.
    let root = scratch_with_ts("ts_edit", None);
    workspace::inputs(&root).unwrap();
    fs::write(
        root.join("schema/2099-01-01/schema.ts"),
        format!("{TS}// edited\n"),
    )
    .unwrap();
    fs::write(
        root.join("schema/2099-01-01/schema.json"),
        GOOD.replace("ping", "pong"),
    )
    .unwrap();
    let err = workspace::check(&root).unwrap_err();
    let listed: Vec<&str> = err.lines().filter(|l| l.starts_with("  ")).collect();
    assert_eq!(listed.len(), 2, "{err}");
    assert!(listed[0].starts_with("  schema/2099-01-01/schema.json: locked sha256"));
    assert!(listed[1].starts_with("  schema/2099-01-01/schema.ts: locked sha256"));
    fs::remove_dir_all(&root).unwrap();
}

/// A lock as written before `schema.ts` was vendored: parsed and rendered, it is the same text.
const OLD_LOCK: &str = r#"{
  "_comment": "Vendored upstream schemas.",
  "versions": [
    {
      "version": "2025-06-18",
      "repository": "modelcontextprotocol/modelcontextprotocol",
      "ref": "b0f60ba5",
      "ref_date": "2026-08-22",
      "path": "schema/2025-06-18/schema.json",
      "sha256": "af845e7e5b9d27107d1690f0936022546177a1403e63ffb11470135b296a2e01"
    },
    {
      "version": "draft",
      "repository": "modelcontextprotocol/modelcontextprotocol",
      "ref": "b0f60ba5",
      "ref_date": "2026-08-22",
      "path": "schema/draft/schema.json",
      "examples": "schema/draft/examples",
      "examples_sha256": "467b18e3baf0e0b6e1d4668d1619aaf58ced78386af42d8c5d9b00db915dd10e",
      "sha256": "ef70b61f99b6d2e5e3b46863822eab08dff6a45bedc7a08914e0e5b133f40203"
    }
  ]
}
"#;

#[test]
fn a_lock_without_ts_keys_parses_and_renders_unchanged() {
    let lock = workspace::Lock::parse(OLD_LOCK).unwrap();
    assert!(
        lock.versions
            .iter()
            .all(|e| e.ts.is_none() && e.ts_sha256.is_none())
    );
    assert_eq!(lock.render(), OLD_LOCK);
}

#[test]
fn ts_keys_round_trip_in_a_fixed_place() {
    let mut lock = workspace::Lock::parse(OLD_LOCK).unwrap();
    lock.versions[1].ts = Some("schema/draft/schema.ts".into());
    lock.versions[1].ts_sha256 = Some("abcd".into());
    let text = lock.render();
    let expected = OLD_LOCK.replace(
        "      \"sha256\": \"ef70",
        "      \"ts\": \"schema/draft/schema.ts\",\n      \"ts_sha256\": \"abcd\",\n      \"sha256\": \"ef70",
    );
    assert_eq!(text, expected);
    assert_eq!(workspace::Lock::parse(&text).unwrap(), lock);
    // One without the other is refused.
    let half = expected.replace("      \"ts_sha256\": \"abcd\",\n", "");
    let err = workspace::Lock::parse(&half).unwrap_err();
    assert!(
        err.contains("/versions/1 needs both `ts` and `ts_sha256`"),
        "{err}"
    );
    // The vendored lock lists a schema.ts for every version.
    let vendored =
        workspace::read_lock(Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap()).unwrap();
    for e in &vendored.versions {
        assert_eq!(
            e.ts.as_deref(),
            Some(format!("schema/{}/schema.ts", e.version).as_str())
        );
    }
}

/// The official extensions have entries of their own (`extensions`, each named by
/// `extension`): they round-trip, and a file that differs from its entry is refused by
/// `extension_inputs` as a version's is by `inputs`.
#[test]
fn extension_entries_round_trip_and_are_enforced() {
    let root = scratch("ext-lock", GOOD, None);
    fs::create_dir_all(root.join("schema/ext/tasks")).unwrap();
    fs::write(root.join("schema/ext/tasks/schema.json"), GOOD).unwrap();
    let mut lock = workspace::read_lock(&root).unwrap();
    assert!(lock.extensions.is_empty());
    let mut entry = lock.versions[0].clone();
    entry.version = "tasks".into();
    entry.repository = "modelcontextprotocol/ext-tasks".into();
    entry.path = "schema/ext/tasks/schema.json".into();
    lock.extensions.push(entry);
    let text = lock.render();
    assert!(
        text.contains("  \"extensions\": [\n    {\n      \"extension\": \"tasks\",\n"),
        "{text}"
    );
    assert_eq!(workspace::Lock::parse(&text).unwrap(), lock);
    fs::write(root.join(workspace::LOCK), &text).unwrap();
    let inputs = workspace::extension_inputs(&root).unwrap();
    assert_eq!(inputs.len(), 1);
    assert_eq!(inputs[0].version, "tasks");
    // The versions read as before, without the extension.
    assert_eq!(workspace::inputs(&root).unwrap().len(), 1);
    fs::write(
        root.join("schema/ext/tasks/schema.json"),
        format!("{GOOD} "),
    )
    .unwrap();
    let err = workspace::extension_inputs(&root).unwrap_err();
    assert!(
        err.contains("schema/ext/tasks/schema.json: locked sha256"),
        "{err}"
    );
    fs::remove_dir_all(&root).unwrap();
}
