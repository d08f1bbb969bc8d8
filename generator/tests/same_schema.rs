//! A version whose schema is another's is generated as that module re-exported; the day
//! its files differ, it is generated in full again.

use std::fs;
use std::path::Path;

use mcp_codegen::{Input, generate};

fn input(version: &str, text: String) -> Input {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let ts = fs::read_to_string(root.join("schema/2026-07-28/schema.ts")).unwrap();
    Input {
        version: version.into(),
        path: format!("schema/{version}/schema.json"),
        text,
        ts: Some(ts),
        ..Default::default()
    }
}

fn released() -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    fs::read_to_string(root.join("schema/2026-07-28/schema.json")).unwrap()
}

/// The files generated for `draft`'s module.
fn draft_files(draft_schema: String) -> Vec<(String, String)> {
    let out = generate(&[
        input("2026-07-28", released()),
        input("draft", draft_schema),
    ])
    .unwrap();
    out.files
        .into_iter()
        .filter(|(path, _)| path.starts_with("generated/src/draft/"))
        .collect()
}

#[test]
fn an_identical_schema_is_the_same_module_re_exported() {
    let files = draft_files(released());
    let names: Vec<&str> = files.iter().map(|(p, _)| p.as_str()).collect();
    assert_eq!(names, ["generated/src/draft/mod.rs"]);
    let text = &files[0].1;
    assert!(text.contains("pub use crate::v2026_07_28::*;"), "{text}");
    assert!(text.contains("byte-identical to `2026-07-28`'s"), "{text}");
    assert!(
        text.contains("Its `schema.ts` is the same file too."),
        "{text}"
    );
}

#[test]
fn a_modified_copy_is_generated_in_full() {
    // One description changed: the schema is no longer the same file.
    let modified = released().replacen("\"description\": \"", "\"description\": \"(changed) ", 1);
    assert_ne!(modified, released());
    let files = draft_files(modified);
    let names: Vec<&str> = files.iter().map(|(p, _)| p.as_str()).collect();
    assert_eq!(
        names,
        [
            "generated/src/draft/consts.rs",
            "generated/src/draft/handlers.rs",
            "generated/src/draft/methods.rs",
            "generated/src/draft/mod.rs",
        ]
    );
    let module = &files[3].1;
    assert!(!module.contains("pub use crate::v2026_07_28"));
    assert!(module.contains("(changed) "));
}
