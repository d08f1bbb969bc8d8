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
        r#"{"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": {"A": {"type": "string", "pattern": "x"}}}"#,
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
