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
    let modified = modified_schema();
    assert_ne!(modified, released());
    let all = modified_output(&modified);
    let files: Vec<(String, String)> = all
        .iter()
        .filter(|(path, _)| path.starts_with("generated/src/draft/"))
        .cloned()
        .collect();
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
    assert!(!module.contains("pub use crate::v2026_07_28::*"));
    // The changed definition is still the same type (only its docs differ): defined once
    // for both versions, with both texts.
    let shared = shared_file(all);
    assert!(shared.contains("(changed) "), "{shared}");
    assert!(
        shared.contains("As `2026-07-28` documents it (the text above is `draft`'s):"),
        "{shared}"
    );
}

fn modified_schema() -> String {
    released().replacen("\"description\": \"", "\"description\": \"(changed) ", 1)
}

fn modified_output(draft_schema: &str) -> Vec<(String, String)> {
    generate(&[
        input("2026-07-28", released()),
        input("draft", draft_schema.to_string()),
    ])
    .unwrap()
    .files
}

/// The module of what both versions define identically.
fn shared_file(files: Vec<(String, String)>) -> String {
    files
        .into_iter()
        .find(|(p, _)| p == "generated/src/shared/v2026_07_28_to_draft.rs")
        .map(|(_, text)| text)
        .expect("a shared module")
}

/// Whether `module` defines the type `name` (rather than re-exporting it).
fn defines(module: &str, name: &str) -> bool {
    ["pub struct ", "pub enum ", "pub type "]
        .iter()
        .any(|p| module.contains(&format!("{p}{name} ")))
}

#[test]
fn what_the_versions_define_identically_is_one_type_and_what_differs_is_not() {
    // `Role` gains a value in the copy: it differs, and so does every type that holds it
    // (`Annotations`, then what holds annotations); the rest is the same.
    let role = "\"Role\": {\n            \"description\": \"The sender or recipient of messages and data in a conversation.\",\n            \"enum\": [\n                \"assistant\",";
    assert_eq!(released().matches(role).count(), 1);
    let modified = released().replacen(role, &format!("{role}\n                \"system\","), 1);
    let files = modified_output(&modified);
    let file = |path: &str| {
        files
            .iter()
            .find(|(p, _)| p == path)
            .map(|(_, text)| text.clone())
            .unwrap_or_else(|| panic!("no {path}"))
    };
    let (old, new) = (
        file("generated/src/v2026_07_28/mod.rs"),
        file("generated/src/draft/mod.rs"),
    );
    let shared = shared_file(files.clone());
    for differs in ["Role", "Annotations", "PromptMessage", "TextContent"] {
        assert!(defines(&old, differs), "2026-07-28 defines {differs}");
        assert!(defines(&new, differs), "draft defines {differs}");
        assert!(!defines(&shared, differs), "{differs} is not shared");
    }
    for same in [
        "Implementation",
        "ProgressToken",
        "ListToolsRequest",
        "Tool",
    ] {
        let reexport = format!("pub use crate::shared::v2026_07_28_to_draft::{same};");
        assert!(old.contains(&reexport), "2026-07-28 re-exports {same}");
        assert!(new.contains(&reexport), "draft re-exports {same}");
        assert!(defines(&shared, same), "{same} is defined once");
    }
    // Conversions exist between the types that differ only.
    let convert = file("generated/src/convert.rs");
    assert!(
        convert.contains("            Role: lossless lossy("),
        "{convert}"
    );
    assert!(convert.contains("            Annotations: "), "{convert}");
    assert!(
        !convert.contains("            Implementation: "),
        "{convert}"
    );
}
