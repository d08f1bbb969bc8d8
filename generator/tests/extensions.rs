//! The official extensions' schemas (`schema/ext/`, written unlike the core files: the
//! tasks extension by a Zod converter, with `allOf` over core definitions, unions inside
//! `allOf`, copies of definitions inlined, a `$schema` in every definition) generate, and
//! their Rust builds with warnings denied.

mod common;

use std::path::Path;

use common::*;
use mcp_codegen::seed;
use mcp_codegen::settings::{Layout, Settings};

fn workspace() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

#[test]
fn the_extensions_generate_and_build() {
    let root = workspace();
    let scratch = Path::new(env!("CARGO_TARGET_TMPDIR")).join("extensions-compile");
    let src = scratch.join("src");
    let mut lib = String::from("//! Scratch crate of `generator/tests/extensions.rs`.\n");
    let mut report = Vec::new();
    // Read as locked: a file that differs from `schema/lock.json` is refused.
    let inputs = mcp_codegen::workspace::extension_inputs(&root).unwrap();
    let names: Vec<&str> = inputs.iter().map(|i| i.version.as_str()).collect();
    assert_eq!(names, ["tasks", "server-card"]);
    for input in inputs {
        let module = mcp_codegen::emit::module_name(&input.version);
        let path = input.path.clone();
        let settings = Settings {
            command: "cargo test -p mcp-codegen --test extensions".into(),
            module: Some(module.clone()),
            layout: Layout::File,
            ..Default::default()
        };
        let seeded = seed::seed(&input, &settings).unwrap_or_else(|e| panic!("{path}: {e}"));
        let (_, text) = &seeded.files[0];
        let items = text
            .lines()
            .filter(|l| {
                ["pub struct ", "pub enum ", "pub type "]
                    .iter()
                    .any(|p| l.trim_start().starts_with(p))
            })
            .count();
        report.push(format!("{path}: {items} items"));
        write_if_changed(&src.join(format!("{module}.rs")), text);
        lib.push_str(&format!("include!(\"{module}.rs\");\n"));
    }
    println!("{}", report.join("\n"));
    // The tasks extension's result of `tasks/get` is a union of the task's shapes, tagged
    // by `status`, each with what every result holds.
    let tasks = std::fs::read_to_string(src.join("tasks.rs")).unwrap();
    assert!(
        tasks.contains("pub enum GetTaskResult {"),
        "no GetTaskResult union"
    );
    assert!(
        tasks.contains("The `status` property picks the arm"),
        "GetTaskResult is not tagged by status"
    );
    // The server card's official instances, in the scratch crate's tests: each valid one
    // decodes strictly and writes back the same JSON; each invalid one is refused, and the
    // error says where.
    let examples = root.join("schema/ext/server-card/examples/ServerCard");
    let mut cards = String::from(
        "#[cfg(test)]\nmod cards {\n    use mcp_spec_rt::strict;\n\n    const VALID: &[(&str, &str)] = &[\n",
    );
    let listed = |kind: &str| {
        let mut files: Vec<String> = std::fs::read_dir(examples.join(kind))
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().to_string())
            .collect();
        files.sort();
        files
    };
    let (valid, invalid) = (listed("valid"), listed("invalid"));
    for file in &valid {
        let path = examples.join("valid").join(file);
        cards.push_str(&format!(
            "        ({file:?}, include_str!({:?})),\n",
            path.display().to_string()
        ));
    }
    cards.push_str("    ];\n    const INVALID: &[(&str, &str)] = &[\n");
    for file in &invalid {
        let path = examples.join("invalid").join(file);
        cards.push_str(&format!(
            "        ({file:?}, include_str!({:?})),\n",
            path.display().to_string()
        ));
    }
    let report = scratch.join("cards.txt");
    let _ = std::fs::remove_file(&report);
    cards.push_str(&format!(
        "    ];\n    const REPORT: &str = {:?};\n",
        report.display().to_string()
    ));
    cards.push_str(
        r#"
    #[test]
    fn cards() {
        let mut lines = String::new();
        let mut println = |line: String| {
            lines.push_str(&line);
            lines.push('\n');
        };
        for (file, text) in VALID {
            let card: crate::server_card::ServerCard =
                strict::from_str(text).unwrap_or_else(|e| panic!("valid/{file}: {e}"));
            let back = serde_json::to_value(&card).unwrap();
            let came: serde_json::Value = serde_json::from_str(text).unwrap();
            assert_eq!(back, came, "valid/{file} writes back otherwise");
            println(format!("valid/{file}: decoded, written back"));
        }
        for (file, text) in INVALID {
            match strict::from_str::<crate::server_card::ServerCard>(text) {
                Ok(_) => panic!("invalid/{file} decoded"),
                Err(e) => println(format!("invalid/{file}: refused: {e}")),
            }
        }
        std::fs::write(REPORT, lines).unwrap();
    }
}
"#,
    );
    write_if_changed(&src.join("cards.rs"), &cards);
    lib.push_str("include!(\"cards.rs\");\n");
    write_if_changed(&src.join("lib.rs"), &lib);
    let out = scratch_crate(
        &root,
        &scratch,
        "extensions-compile",
        &["build"],
        "RUSTFLAGS",
    );
    assert!(
        out.status.success(),
        "the extensions' Rust does not build:\n{}",
        first_errors(&String::from_utf8_lossy(&out.stderr), 60)
    );
    let out = scratch_crate(
        &root,
        &scratch,
        "extensions-compile",
        &["test", "--lib"],
        "RUSTFLAGS",
    );
    assert!(
        out.status.success(),
        "the server card's instances:\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        first_errors(&String::from_utf8_lossy(&out.stderr), 60)
    );
    let stdout = std::fs::read_to_string(&report).unwrap();
    println!("{stdout}");
    // Every official instance is accounted for, each invalid one refused with its path.
    assert_eq!((valid.len(), invalid.len()), (2, 5));
    for expected in [
        "valid/minimal.json: decoded, written back",
        "valid/templated-remote.json: decoded, written back",
        "invalid/bad-name-pattern.json: refused: at `name`: \"no-slash-in-name\" does not match the pattern `^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$`",
        "invalid/date-versioned-schema.json: refused: at `$schema`: \"https://static.modelcontextprotocol.io/schemas/2025-11-25/server-card.schema.json\" does not match",
        "invalid/missing-name.json: refused: at `name`: missing field `name`",
        "invalid/missing-schema.json: refused: at `$schema`: missing field `$schema`",
        "invalid/wrong-schema-name.json: refused: at `$schema`: \"https://static.modelcontextprotocol.io/schemas/v1/server.schema.json\" does not match",
    ] {
        assert!(stdout.contains(expected), "{expected}\n{stdout}");
    }
}

/// Every revision of an extension's schema that upstream published (vendored in
/// `schema/ext/<extension>/history/`, oldest first: the tasks extension's three) generates,
/// and the newest is the vendored schema.
#[test]
fn every_extension_revision_generates() {
    let root = workspace();
    let lock = mcp_codegen::workspace::read_lock(&root).unwrap();
    let mut report = Vec::new();
    let mut failures = Vec::new();
    let mut seen = 0;
    for entry in &lock.extensions {
        let dir = root.join(format!("schema/ext/{}/history", entry.version));
        let Ok(listing) = std::fs::read_dir(&dir) else {
            // An extension without published revisions (the server card) has no folder.
            continue;
        };
        let mut files: Vec<std::path::PathBuf> = listing
            .flatten()
            .map(|f| f.path())
            .filter(|p| p.extension().is_some_and(|e| e == "json"))
            .collect();
        files.sort();
        for file in &files {
            let input = mcp_codegen::Input {
                version: entry.version.clone(),
                path: file.display().to_string(),
                text: std::fs::read_to_string(file).unwrap(),
                ..Default::default()
            };
            match mcp_codegen::generate(&[input]) {
                Ok(out) => report.push(format!(
                    "{}: {} types",
                    file.display(),
                    out.models[0].types.len()
                )),
                Err(e) => failures.push(e.to_string()),
            }
            seen += 1;
        }
        let newest = files.last().expect("a history folder holds revisions");
        assert_eq!(
            std::fs::read(newest).unwrap(),
            std::fs::read(root.join(&entry.path)).unwrap(),
            "the newest revision of {} is not the vendored {}",
            entry.version,
            entry.path
        );
    }
    println!("{}", report.join("\n"));
    assert!(
        seen >= 3,
        "expected the tasks extension's three revisions, found {seen}"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The core definitions an extension's schema copies in are the core version's types in
/// its module, and a copy that differs from the core's definition is a note that says
/// where. The vendored tasks schema copies 56 of 2026-07-28's, each as 2026-07-28 has it;
/// its revision of 2026-05-22 copied four input definitions from an earlier core draft.
#[test]
fn copied_core_definitions_are_held_to_the_core() {
    use mcp_codegen::extension::{self, Core};
    let root = workspace();
    let versions = mcp_codegen::workspace::inputs(&root).unwrap();
    let core_input = versions.iter().find(|v| v.version == "2026-07-28").unwrap();
    let core_model = mcp_codegen::model_of(core_input).unwrap();
    let core = Core {
        input: core_input,
        model: &core_model,
    };
    let tasks = mcp_codegen::overrides::extension("tasks").unwrap();
    let inputs = mcp_codegen::workspace::extension_inputs(&root).unwrap();
    let vendored = inputs.iter().find(|i| i.version == "tasks").unwrap();
    let settings = extension::repository_settings("tasks");
    let copies = extension::copies(vendored, core_input).unwrap();
    assert_eq!(copies.len(), 56, "{:?}", copies.keys());
    assert!(copies.values().all(Option::is_none), "{copies:?}");
    let seeded = extension::generate(
        vendored,
        tasks,
        Some((core, "crate::v2026_07_28")),
        &settings,
    )
    .unwrap();
    let differs: Vec<&String> = seeded
        .notes
        .iter()
        .filter(|n| n.contains("differs from"))
        .collect();
    assert!(differs.is_empty(), "{differs:?}");
    let module = &seeded.files.iter().find(|(p, _)| p == "mod.rs").unwrap().1;
    for name in copies.keys() {
        let rust = core_model
            .types
            .iter()
            .find(|t| matches!(&t.origin, mcp_codegen::model::Origin::Definition(d) if d == name))
            .unwrap()
            .name
            .clone();
        let alias = format!("pub type {rust} = crate::v2026_07_28::{rust};");
        assert!(module.contains(&alias), "no `{alias}`");
    }

    let revision = root.join("schema/ext/tasks/history/002-2026-05-22-29f83d5.json");
    let input = mcp_codegen::Input {
        version: "tasks".into(),
        path: "schema/ext/tasks/history/002-2026-05-22-29f83d5.json".into(),
        text: std::fs::read_to_string(&revision).unwrap(),
        ..Default::default()
    };
    let seeded =
        extension::generate(&input, tasks, Some((core, "crate::v2026_07_28")), &settings).unwrap();
    let differs: Vec<&String> = seeded
        .notes
        .iter()
        .filter(|n| n.contains("differs from"))
        .collect();
    println!(
        "{}",
        differs
            .iter()
            .map(|n| n.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert_eq!(differs.len(), 4, "{differs:?}");
    for (note, name) in differs.iter().zip([
        "InputRequest",
        "InputRequests",
        "InputResponse",
        "InputResponses",
    ]) {
        assert!(
            note.starts_with(&format!(
                "schema/ext/tasks/history/002-2026-05-22-29f83d5.json at #/$defs/{name}: differs from 2026-07-28's `{name}` at `/"
            )),
            "{note}"
        );
    }
}
