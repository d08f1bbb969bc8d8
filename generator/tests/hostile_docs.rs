//! Descriptions that are hostile to rustdoc (unbalanced backticks and brackets, HTML,
//! comment markers, unclosed code fences, broken links, odd Unicode) are handled: the
//! Rust generated from `fixtures/ok/hostile_docs.json` builds, and documents with
//! `RUSTDOCFLAGS=-D warnings`, in a scratch crate on the hand-written runtime
//! (`runtime/`), and every description's text reaches the rendered page.

mod common;

use std::fs;
use std::path::Path;

use common::*;
use mcp_codegen::{Input, generate};

#[test]
fn hostile_descriptions_document_without_warnings() {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .canonicalize()
        .unwrap();
    let fixture = "generator/tests/fixtures/ok/hostile_docs.json";
    let text = fs::read_to_string(workspace.join(fixture)).unwrap();
    let output = generate(&[Input {
        version: "draft".into(),
        path: fixture.into(),
        text: text.clone(),
        ..Default::default()
    }])
    .unwrap_or_else(|e| panic!("{fixture}: {e}"));

    let scratch = Path::new(env!("CARGO_TARGET_TMPDIR")).join("hostile-docs");
    let src = scratch.join("src");
    let mut written = 0;
    for (out, contents) in &output.files {
        if let Some(rest) = out.strip_prefix("generated/src/draft/") {
            write_if_changed(&src.join("hostile").join(rest), contents);
            written += 1;
        }
    }
    assert!(written > 0, "no module generated");
    scratch_lib(
        &src,
        "Scratch crate of `generator/tests/hostile_docs.rs`.",
        &["hostile".to_string()],
    );

    for (args, flags) in [
        (&["build"][..], "RUSTFLAGS"),
        (&["doc", "--no-deps"][..], "RUSTDOCFLAGS"),
    ] {
        let out = scratch_crate(&workspace, &scratch, "hostile-docs", args, flags);
        assert!(
            out.status.success(),
            "cargo {} with {flags}=-D warnings fails in {}:\n{}",
            args.join(" "),
            scratch.display(),
            first_errors(&String::from_utf8_lossy(&out.stderr), 60)
        );
    }

    // Every planted description reaches the rendered pages: its marker and its last
    // word are there, and none of its HTML became markup.
    let doc = scratch.join("target/doc/hostile_docs/hostile");
    let mut html = String::new();
    for entry in fs::read_dir(&doc).unwrap().flatten() {
        if entry.path().extension().is_some_and(|e| e == "html") {
            html.push_str(&fs::read_to_string(entry.path()).unwrap());
        }
    }
    let schema: serde_json::Value = serde_json::from_str(&text).unwrap();
    let mut markers = 0;
    for (name, prop) in schema["definitions"]["Msg"]["properties"]
        .as_object()
        .unwrap()
    {
        let description = prop["description"].as_str().unwrap_or_default();
        let Some(marker) = description.split_whitespace().next() else {
            continue;
        };
        assert!(
            html.contains(marker),
            "{name}: `{marker}` is missing from the rendered docs"
        );
        markers += 1;
    }
    assert!(markers >= 9, "only {markers} descriptions were checked");
    assert!(
        !html.contains("<script>alert(1)"),
        "HTML from a description became markup"
    );
    assert!(
        html.contains("&lt;script&gt;alert(1)"),
        "the HTML is shown as text"
    );
}
