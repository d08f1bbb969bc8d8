//! Snapshots of version diffs on small fixture schema pairs, one kind of change each
//! (`diff_fixtures/<case>/{old,new}.json`). Review changes with `cargo insta review`.

use std::fs;
use std::path::Path;

use mcp_codegen::diff::diff;
use mcp_codegen::{Input, model_of};

#[test]
fn diff_fixture_reports() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/diff_fixtures");
    let mut cases: Vec<_> = fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    cases.sort();
    assert!(cases.len() >= 11, "fixtures are missing");
    for case in cases {
        let name = case.file_name().unwrap().to_string_lossy().to_string();
        let load = |side: &str| {
            let input = Input {
                version: side.to_string(),
                path: format!("{name}/{side}.json"),
                text: fs::read_to_string(case.join(format!("{side}.json"))).unwrap(),
                ..Default::default()
            };
            model_of(&input).unwrap_or_else(|e| panic!("{name}: {e}"))
        };
        let (old, new) = (load("old"), load("new"));
        let d = diff(&old, &new);
        assert!(
            !d.changes.is_empty() || !d.description_only.is_empty(),
            "{name}: no change found"
        );
        insta::assert_snapshot!(format!("diff-{name}"), d.markdown(false));
    }
}
