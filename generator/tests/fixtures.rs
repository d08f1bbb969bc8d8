//! Snapshots of the generator on small fixture schemas, one construct each: the model (in
//! the compact rendering reviewers read) and the emitted Rust for `fixtures/ok/*.json`,
//! the error for `fixtures/err/*.json`. Review changes with `cargo insta review`. The
//! emitted Rust of every fixture is also built, with warnings denied.

mod common;

use std::fs;
use std::path::Path;

use common::*;
use mcp_codegen::{Input, compact, emit, generate};

fn fixtures(kind: &str) -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(kind);
    let mut out: Vec<(String, String)> = fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| {
            let name = e.path().file_stem().unwrap().to_string_lossy().to_string();
            (name, fs::read_to_string(e.path()).unwrap())
        })
        .collect();
    out.sort();
    out
}

fn input(name: &str, text: &str) -> Input {
    Input {
        version: "fixture".into(),
        path: format!("fixtures/{name}.json"),
        text: text.into(),
        ..Default::default()
    }
}

#[test]
fn fixture_models_and_rust() {
    let all = fixtures("ok");
    assert!(all.len() >= 7, "fixtures are missing");
    for (name, text) in all {
        let output = generate(&[input(&name, &text)]).unwrap_or_else(|e| panic!("{name}: {e}"));
        let model = &output.models[0];
        insta::assert_snapshot!(format!("{name}.model"), compact::render(model));
        let rust = emit::emit(model, &format!("fixtures/{name}.json")).unwrap();
        let joined: String = rust
            .iter()
            .map(|(file, text)| format!("// ---- {file} ----\n{text}"))
            .collect();
        insta::assert_snapshot!(format!("{name}.rust"), joined);
    }
}

#[test]
fn fixture_errors_name_file_and_pointer() {
    let all = fixtures("err");
    assert!(all.len() >= 9, "fixtures are missing");
    for (name, text) in all {
        let err = match generate(&[input(&name, &text)]) {
            Ok(_) => panic!("{name} should fail"),
            Err(e) => e,
        };
        assert_eq!(
            err.file.as_deref(),
            Some(format!("fixtures/{name}.json").as_str())
        );
        insta::assert_snapshot!(format!("{name}.error"), err.to_string());
    }
}

/// The Rust of every `fixtures/ok` schema (the goldens above) builds, with warnings
/// denied, in one scratch crate on the runtime: a module per fixture.
#[test]
fn fixture_rust_builds_without_warnings() {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .canonicalize()
        .unwrap();
    let scratch = Path::new(env!("CARGO_TARGET_TMPDIR")).join("fixtures-compile");
    let src = scratch.join("src");
    let mut modules = Vec::new();
    for (name, text) in fixtures("ok") {
        let output = generate(&[input(&name, &text)]).unwrap_or_else(|e| panic!("{name}: {e}"));
        let module = format!("fixture_{name}");
        for (file, contents) in
            emit::emit(&output.models[0], &format!("fixtures/{name}.json")).unwrap()
        {
            write_if_changed(&src.join(&module).join(file), &contents);
        }
        modules.push(module);
    }
    // Each fixture's module glob-imported beside serde_json's, as a user writes it: the
    // prelude and `Value`/`Map` must still mean what they mean (a definition named
    // `Option` or `Value` would shadow or clash with them).
    let mut globs = String::from(
        "//! Each fixture glob-imported: the prelude still works.\n\n\
         mod serde_json_names {\n    pub use crate::rt::serde_json::{Map, Value};\n}\n",
    );
    for module in &modules {
        globs.push_str(&format!(
            r#"
mod {module} {{
    #[allow(unused_imports)]
    use super::super::{module}::*;
    #[allow(unused_imports)]
    use super::serde_json_names::*;

    #[allow(dead_code)]
    fn prelude_intact() -> Option<Result<Vec<String>, Box<str>>> {{
        let value: Value = Value::Object(Map::new());
        let _: String = value.to_string();
        let _: Option<u8> = None;
        let _: Result<u8, ()> = Err(());
        let _: Vec<u8> = <Vec<u8> as Default>::default();
        Some(Ok(vec![String::new()]))
    }}

    #[allow(dead_code)]
    fn futures_intact() -> impl Future<Output = ()> + Send {{
        async {{}}
    }}
}}
"#
        ));
    }
    write_if_changed(&src.join("globs.rs"), &globs);
    modules.push("globs".to_string());
    scratch_lib(
        &src,
        "Scratch crate of `generator/tests/fixtures.rs`.",
        &modules,
    );
    let out = scratch_crate(
        &workspace,
        &scratch,
        "fixtures-compile",
        &["build"],
        "RUSTFLAGS",
    );
    assert!(
        out.status.success(),
        "the fixtures' Rust does not build with -D warnings in {}:\n{}",
        scratch.display(),
        first_errors(&String::from_utf8_lossy(&out.stderr), 60)
    );
}
