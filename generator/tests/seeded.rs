//! What a seeded crate's settings give builds, and its docs hold, with warnings denied:
//! MCP 2025-11-25 seeded twice into one scratch crate on the runtime, as a crate of one's
//! own would, with the settings a proxy and a crate author reach for:
//! - `proxy`: a folder (`mod.rs` and its submodules), free-form JSON as its text, the
//!   map type `HashMap`, a rename of a definition the lifecycle's messages hold, an
//!   attribute on every type, every `Task...` definition left out (and what needs them);
//! - `types`: one file (as for `OUT_DIR`), the types alone, a replacement (a union held as
//!   a `Value`), a derive on one type, the runtime at `crate::rt`.
//!
//! The seeded crate `examples/seeded` does the same from a `build.rs`, and runs its tests
//! on the official examples and the recorded traffic; `bench/compare` seeds a proxy's
//! crate the same way and measures it.

mod common;

use std::collections::BTreeMap;
use std::path::Path;

use common::*;
use mcp_codegen::seed;
use mcp_codegen::settings::{FreeForm, Layers, Layout, Settings, TypeSettings};

fn workspace() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .canonicalize()
        .unwrap()
}

fn type_settings(f: impl FnOnce(&mut TypeSettings)) -> TypeSettings {
    let mut t = TypeSettings::default();
    f(&mut t);
    t
}

#[test]
fn seeded_modules_build_and_document_without_warnings() {
    let root = workspace();
    let input = seed::input_from_file(&root.join("schema/2025-11-25/schema.json")).unwrap();
    let definitions = mcp_codegen::load::parse(&input.path, &input.text)
        .unwrap()
        .defs;
    let tasks: Vec<String> = definitions
        .keys()
        .filter(|name| name.contains("Task"))
        .cloned()
        .collect();

    let proxy = Settings {
        command: "cargo test -p mcp-codegen --test seeded".into(),
        module: Some("proxy".into()),
        free_form: FreeForm::Raw,
        map_type: Some("::std::collections::HashMap".into()),
        attributes: vec!["#[allow(clippy::derive_partial_eq_without_eq)]".into()],
        types: BTreeMap::from([(
            "Implementation".to_string(),
            type_settings(|t| t.rename = Some("PeerInfo".into())),
        )]),
        exclude: tasks,
        doc_module: Some("seeded_compile::proxy".into()),
        ..Settings::default()
    };
    let seeded_proxy = seed::seed(&input, &proxy).unwrap();
    let names: Vec<&str> = seeded_proxy.files.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["consts.rs", "handlers.rs", "methods.rs", "mod.rs"]);
    let module = &seeded_proxy.files[3].1;
    assert!(
        module.contains("::mcp_spec_rt::raw::RawJson"),
        "free-form JSON as its text"
    );
    assert!(
        module.contains("pub arguments: ::std::option::Option<::mcp_spec_rt::raw::RawObject>,"),
        "an object of free-form values as one text"
    );
    assert!(
        module.contains("::std::collections::HashMap<"),
        "the map type"
    );
    assert!(
        module.contains("pub struct PeerInfo {") && !module.contains("pub struct Implementation {")
    );
    assert!(
        !module.contains("pub struct Task {"),
        "the tasks are left out"
    );
    assert!(
        seeded_proxy
            .applied
            .removed
            .iter()
            .any(|(n, _)| n == "tasks/list"),
        "what needs a task is listed: {:?}",
        seeded_proxy.applied.removed
    );
    let handlers = &seeded_proxy.files[1].1;
    assert!(
        !handlers.contains("pub type Router"),
        "no Router with free-form JSON as text"
    );
    // The old name is nowhere a word: not in code, not in the docs' links.
    for (name, text) in &seeded_proxy.files {
        let mut words = text.split(|c: char| !c.is_alphanumeric() && c != '_');
        assert!(
            !words.any(|w| w == "Implementation"),
            "{name} still names `Implementation`"
        );
    }

    let types = Settings {
        command: "cargo test -p mcp-codegen --test seeded".into(),
        runtime: "crate::rt".into(),
        layout: Layout::File,
        module: Some("types".into()),
        layers: Layers {
            methods: false,
            handlers: false,
        },
        types: BTreeMap::from([
            (
                "ProgressToken".to_string(),
                type_settings(|t| t.replace = Some("crate::rt::serde_json::Value".into())),
            ),
            (
                "Role".to_string(),
                type_settings(|t| t.derives = vec!["PartialOrd".into(), "Ord".into()]),
            ),
        ]),
        ..Settings::default()
    };
    let seeded_types = seed::seed(&input, &types).unwrap();
    assert_eq!(seeded_types.files.len(), 1);
    assert_eq!(
        seeded_types.applied.replaced,
        [(
            "ProgressToken".to_string(),
            "crate::rt::serde_json::Value".to_string()
        )]
    );
    let file = &seeded_types.files[0].1;
    assert!(file.contains("pub type ProgressToken = crate::rt::serde_json::Value;"));
    assert!(!file.contains("pub mod methods") && !file.contains("pub mod handlers"));

    let scratch = Path::new(env!("CARGO_TARGET_TMPDIR")).join("seeded-compile");
    let src = scratch.join("src");
    for (name, contents) in &seeded_proxy.files {
        write_if_changed(&src.join("proxy").join(name), contents);
    }
    write_if_changed(&src.join("types.rs"), &seeded_types.files[0].1);
    let lib = "//! Scratch crate of `generator/tests/seeded.rs`.\n\
               pub use mcp_spec_rt as rt;\n\
               #[rustfmt::skip]\npub mod proxy;\n\
               include!(\"types.rs\");\n";
    write_if_changed(&src.join("lib.rs"), lib);
    for (args, flags) in [
        (&["build"][..], "RUSTFLAGS"),
        (&["doc", "--no-deps"][..], "RUSTDOCFLAGS"),
    ] {
        let out = scratch_crate(&root, &scratch, "seeded-compile", args, flags);
        assert!(
            out.status.success(),
            "cargo {args:?} of the seeded modules failed:\n{}",
            first_errors(&String::from_utf8_lossy(&out.stderr), 60)
        );
    }
}

/// Generated code against a runtime of another interface does not compile, and says why:
/// a runtime whose `CODEGEN_INTERFACE` is another number (the real runtime's items, that
/// one constant changed).
#[test]
fn generated_code_refuses_a_runtime_of_another_interface() {
    let root = workspace();
    let schema = root.join("generator/tests/fixtures/ok/keywords.json");
    let input = seed::input_from_file(&schema).unwrap();
    let settings = Settings {
        runtime: "crate::other_rt".into(),
        module: Some("keywords".into()),
        ..Settings::default()
    };
    let seeded = seed::seed(&input, &settings).unwrap();
    let scratch = Path::new(env!("CARGO_TARGET_TMPDIR")).join("seeded-other-runtime");
    let src = scratch.join("src");
    for (name, contents) in &seeded.files {
        write_if_changed(&src.join("keywords").join(name), contents);
    }
    let other = mcp_codegen::settings::RUNTIME_INTERFACE + 1;
    // The runtime's items, with or without that one constant changed.
    let build_with = |constant: &str| {
        write_if_changed(
            &src.join("lib.rs"),
            &format!(
                "//! The runtime, its interface {constant}.\n\
                 pub mod other_rt {{\n    pub use mcp_spec_rt::*;\n    {constant}\n}}\n\
                 #[rustfmt::skip]\npub mod keywords;\n"
            ),
        );
        scratch_crate(
            &root,
            &scratch,
            "seeded-other-runtime",
            &["build"],
            "RUSTFLAGS",
        )
    };
    let out = build_with(&format!("pub const CODEGEN_INTERFACE: u32 = {other};"));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success(),
        "it compiled against interface {other}"
    );
    assert!(
        stderr.contains("generated by mcp-codegen") && stderr.contains("the runtime interface"),
        "the error does not say why:\n{}",
        first_errors(&stderr, 30)
    );
    // The same module on the real runtime compiles.
    let out = build_with("");
    assert!(
        out.status.success(),
        "{}",
        first_errors(&String::from_utf8_lossy(&out.stderr), 30)
    );
}

/// A string definition replaced by a type of the user's keeps no string rule: the strict
/// step's check is for `String`s, and the user's type holds the string its own way.
#[test]
fn a_replaced_string_definition_keeps_no_string_rule() {
    let schema = workspace().join("generator/tests/fixtures/ok/keywords.json");
    let input = seed::input_from_file(&schema).unwrap();
    let plain = Settings {
        module: Some("keywords".into()),
        ..Settings::default()
    };
    let rule = "sku: \"sku\" =>";
    let module = |settings: &Settings| {
        let seeded = seed::seed(&input, settings).unwrap();
        seeded
            .files
            .iter()
            .map(|(_, text)| text.clone())
            .collect::<String>()
    };
    assert!(
        module(&plain).contains(rule),
        "the plain module checks `sku`"
    );
    let replaced = Settings {
        types: BTreeMap::from([(
            "Sku".to_string(),
            type_settings(|t| t.replace = Some("crate::MySku".into())),
        )]),
        ..plain
    };
    let text = module(&replaced);
    assert!(text.contains("pub type Sku = crate::MySku;"), "replaced");
    assert!(!text.contains(rule), "a replaced type keeps no rule");
}
