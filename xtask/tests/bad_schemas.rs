//! A bad schema never gets past `cargo xtask codegen`. For each broken schema in
//! `generator/tests/fixtures/err/` (truncated JSON, an empty file, an unknown `$ref`, a
//! `$ref` cycle, an unsupported keyword, an unknown dialect, colliding Rust names, …), a
//! scratch workspace that generated fine from a good schema gets the broken one, locked:
//! the command exits 2, names the file (and the JSON pointer where there is one), and
//! leaves every generated file byte-for-byte as it was.

mod common;

use std::fs;
use std::path::Path;

use common::*;

const VERSION: &str = "2099-01-01";

fn plant(root: &Path, schema: &[u8]) {
    let dir = root.join("schema").join(VERSION);
    fs::create_dir_all(&dir).unwrap();
    fs::write(dir.join("schema.json"), schema).unwrap();
    let lock = format!(
        r#"{{"versions": [{{"version": "{VERSION}", "repository": "test", "ref": "test",
            "ref_date": "2099-01-01", "path": "schema/{VERSION}/schema.json", "sha256": "{}"}}]}}"#,
        mcp_codegen::sha256_hex(schema)
    );
    fs::write(root.join("schema/lock.json"), lock).unwrap();
}

#[test]
fn every_bad_schema_is_refused_and_generated_files_stay_as_they_were() {
    let fixtures = repo().join("generator/tests/fixtures");
    let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join("bad_schemas");
    let _ = fs::remove_dir_all(&root);
    fs::create_dir_all(&root).unwrap();
    plant(
        &root,
        &fs::read(fixtures.join("ok/enum_and_docs.json")).unwrap(),
    );
    let good = xtask(&root, &["codegen"], &[]);
    assert_eq!(good.code, 0, "{}{}", good.stdout, good.stderr);
    let generated = |root: &Path| {
        let mut all = snapshot(&root.join("generated"));
        all.extend(snapshot(&root.join("tests")));
        all
    };
    let before = generated(&root);
    assert!(
        before.len() > 3,
        "the good schema generated files: {:?}",
        before.keys()
    );

    let mut cases: Vec<_> = fs::read_dir(fixtures.join("err"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    cases.sort();
    assert!(cases.len() >= 8, "{cases:?}");
    for case in &cases {
        let name = case.file_name().unwrap().to_string_lossy().to_string();
        let bytes = fs::read(case).unwrap();
        plant(&root, &bytes);
        let run = xtask(&root, &["codegen"], &[]);
        assert_eq!(
            run.code, 2,
            "{name}: exit code\n{}{}",
            run.stdout, run.stderr
        );
        assert!(
            run.stderr
                .contains(&format!("schema/{VERSION}/schema.json")),
            "{name}: the error names the file: {}",
            run.stderr
        );
        let has_pointer = run.stderr.contains(" at #/");
        let whole_file = name.starts_with("empty") || name.starts_with("truncated");
        assert!(
            has_pointer || whole_file,
            "{name}: the error names a JSON pointer: {}",
            run.stderr
        );
        assert_eq!(generated(&root), before, "{name}: generated files changed");
        let check = xtask(&root, &["codegen", "--check"], &[]);
        assert_eq!(check.code, 2, "{name}: --check also refuses");
        println!("{name}: exit 2: {}", run.stderr.trim());
    }
    println!(
        "{} bad schemas refused, generated files unchanged",
        cases.len()
    );
}
