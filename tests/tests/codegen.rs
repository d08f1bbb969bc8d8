//! The generated tree as a whole: fresh, deterministic, headed, one item per definition.

use std::collections::BTreeMap;
use std::fs;

use mcp_codegen::workspace;
use mcp_tests::{VERSIONS, root};
use serde_json::Value;

/// `cargo test` alone catches a stale tree: the same check as `cargo xtask codegen --check`.
#[test]
fn generated_files_are_fresh() {
    let (_, fresh) = workspace::check(&root()).expect("codegen runs");
    assert!(fresh.is_fresh(), "\n{}", fresh.report());
}

/// Whether `path` matches a `.gitattributes` pattern of the forms the file uses: a path,
/// `dir/**` (everything under it), `*` within one name.
fn matches(pattern: &str, path: &str) -> bool {
    fn name(pattern: &str, name: &str) -> bool {
        match pattern.split_once('*') {
            None => pattern == name,
            Some((head, tail)) => {
                name.len() >= head.len() + tail.len()
                    && name.starts_with(head)
                    && name.ends_with(tail)
            }
        }
    }
    if let Some(dir) = pattern.strip_suffix("/**") {
        let (dirs, rest): (Vec<&str>, Vec<&str>) =
            (dir.split('/').collect(), path.split('/').collect());
        return rest.len() > dirs.len() && dirs.iter().zip(&rest).all(|(p, n)| name(p, n));
    }
    let (parts, names): (Vec<&str>, Vec<&str>) =
        (pattern.split('/').collect(), path.split('/').collect());
    parts.len() == names.len() && parts.iter().zip(&names).all(|(p, n)| name(p, n))
}

/// Code hosts collapse generated files in reviews by `.gitattributes`: every file codegen
/// writes is marked, and every mark covers something it writes.
#[test]
fn every_generated_file_is_marked_generated() {
    let inputs = workspace::inputs(&root()).unwrap();
    let output = mcp_codegen::generate(&inputs).unwrap();
    let attributes = fs::read_to_string(root().join(".gitattributes")).unwrap();
    let patterns: Vec<&str> = attributes
        .lines()
        .filter(|l| l.contains("linguist-generated=true"))
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert!(matches(
        "generated/src/v*/**",
        "generated/src/v2025_11_25/mod.rs"
    ));
    assert!(!matches("tests/src/v*.rs", "tests/src/lib.rs"));
    for (path, _) in &output.files {
        assert!(
            patterns.iter().any(|p| matches(p, path)),
            "{path} is generated but .gitattributes does not mark it linguist-generated"
        );
    }
    for p in &patterns {
        assert!(
            output.files.iter().any(|(path, _)| matches(p, path)),
            ".gitattributes marks {p} generated, but codegen writes nothing there"
        );
    }
}

#[test]
fn output_is_byte_identical_across_runs() {
    let inputs = workspace::inputs(&root()).unwrap();
    let a = mcp_codegen::generate(&inputs).unwrap();
    let b = mcp_codegen::generate(&inputs).unwrap();
    assert_eq!(a.files, b.files);
}

#[test]
fn every_generated_file_has_the_header() {
    let inputs = workspace::inputs(&root()).unwrap();
    let output = mcp_codegen::generate(&inputs).unwrap();
    for (path, contents) in &output.files {
        let head: String = contents.lines().take(8).collect::<Vec<_>>().join("\n");
        assert!(
            head.contains("@generated"),
            "{path} lacks @generated: {head}"
        );
        assert!(
            head.contains("cargo xtask codegen"),
            "{path} does not name the command"
        );
        // The schemas a file is generated from: all of them for the cross-version files,
        // the two compared for a diff, else the one version the path names.
        let sources: Vec<&mcp_codegen::Input> = if path.ends_with("protocol_version.rs")
            || path.ends_with("COMPATIBILITY.md")
            || path.ends_with("/convert.rs")
        {
            inputs.iter().collect()
        } else if let Some(name) = path.strip_prefix("generated/src/shared/") {
            // What a span of versions shares names each of them, in date order (`draft`
            // last); `mod.rs` every one.
            let mut dated: Vec<&mcp_codegen::Input> = inputs.iter().collect();
            dated.sort_by_key(|i| (i.version == "draft", i.version.clone()));
            let at = |module: &str| {
                dated
                    .iter()
                    .position(|i| mcp_codegen::emit::module_name(&i.version) == module)
                    .unwrap_or_else(|| panic!("{path}: no version {module}"))
            };
            match name.strip_suffix(".rs").and_then(|s| s.split_once("_to_")) {
                Some((first, last)) => dated[at(first)..=at(last)].to_vec(),
                None => dated,
            }
        } else if let Some(name) = path.strip_prefix("generated/diffs/") {
            let stem = name.rsplit_once('.').unwrap().0;
            let (a, b) = stem.split_once("..").unwrap();
            inputs
                .iter()
                .filter(|i| i.version == a || i.version == b)
                .collect()
        } else {
            inputs
                .iter()
                .filter(|i| {
                    let module = mcp_codegen::emit::module_name(&i.version);
                    path.contains(&format!("/{module}/"))
                        || path.ends_with(&format!("/{module}.rs"))
                        || path.ends_with(&format!("/{}.json", i.version))
                })
                .collect()
        };
        assert!(!sources.is_empty(), "{path} belongs to no version");
        for input in sources {
            let sha = mcp_codegen::sha256_hex(input.text.as_bytes());
            assert!(
                head.contains(&sha),
                "{path} does not name {} (sha256 {sha})",
                input.path
            );
        }
    }
}

/// Every schema definition becomes exactly one public Rust item of the version module,
/// and the counts match the schema read independently of the generator.
#[test]
fn one_public_item_per_definition() {
    let mut report = Vec::new();
    for h in VERSIONS {
        let (version, definitions) = (&h.version, h.definitions);
        let schema: Value = serde_json::from_str(
            &fs::read_to_string(root().join(format!("schema/{version}/schema.json"))).unwrap(),
        )
        .unwrap();
        let defs = schema
            .get("$defs")
            .or_else(|| schema.get("definitions"))
            .and_then(Value::as_object)
            .unwrap();
        assert_eq!(
            definitions.len(),
            defs.len(),
            "{version}: definitions in the harness"
        );
        for name in defs.keys() {
            assert!(
                definitions.iter().any(|(d, _)| d == name),
                "{version}: definition {name} has no Rust item"
            );
        }
        let module = mcp_codegen::emit::module_name(version);
        let read = |module: &str| {
            fs::read_to_string(root().join(format!("generated/src/{module}/mod.rs"))).unwrap()
        };
        let mut source = read(&module);
        // A version that is another's module re-exported has that module's items.
        let alias = source
            .lines()
            .find_map(|l| l.strip_prefix("pub use crate::")?.strip_suffix("::*;"))
            .map(str::to_owned);
        if let Some(target) = alias {
            source = read(&target);
        }
        let defines = |source: &str, name: &str| {
            source
                .lines()
                .filter(|line| {
                    ["pub struct ", "pub enum ", "pub type "]
                        .iter()
                        .any(|prefix| {
                            line.strip_prefix(prefix).is_some_and(|rest| {
                                rest.split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
                                    .next()
                                    == Some(name)
                            })
                        })
                })
                .count()
        };
        let mut items: BTreeMap<&str, usize> = BTreeMap::new();
        for line in source.lines() {
            for prefix in ["pub struct ", "pub enum ", "pub type "] {
                if let Some(rest) = line.strip_prefix(prefix) {
                    let name = rest
                        .split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
                        .next()
                        .unwrap();
                    *items.entry(name).or_default() += 1;
                }
            }
            // A type that neighbouring versions define identically: defined once in
            // `shared/`, re-exported here.
            if let Some(path) = line
                .strip_prefix("pub use crate::shared::")
                .and_then(|rest| rest.strip_suffix(';'))
            {
                let (module, name) = path.split_once("::").unwrap();
                let shared =
                    fs::read_to_string(root().join(format!("generated/src/shared/{module}.rs")))
                        .unwrap();
                assert_eq!(
                    defines(&shared, name),
                    1,
                    "{version}: shared::{module} must define `{name}` once"
                );
                *items.entry(name).or_default() += 1;
            }
        }
        for (schema_name, rust) in definitions {
            assert_eq!(
                items.get(rust),
                Some(&1),
                "{version}: definition {schema_name} must be exactly one public item `{rust}`"
            );
        }
        report.push(format!(
            "{version}: {} definitions, {} public items",
            defs.len(),
            items.len()
        ));
    }
    println!("{}", report.join("\n"));
}

/// Anonymous objects are named by their path, so the same object gets the same name in
/// every version, whether upstream inlined it or made it a definition.
#[test]
fn path_derived_names_are_stable_across_versions() {
    let inputs = workspace::inputs(&root()).unwrap();
    let output = mcp_codegen::generate(&inputs).unwrap();
    for name in [
        // Inline before 2025-11-25, definitions from then on.
        "CallToolRequestParams",
        "ReadResourceRequestParams",
        "CreateMessageRequestParams",
        "GetPromptRequestParams",
        "CompleteRequestParams",
        "ProgressNotificationParams",
        // Inline in every version.
        "ServerCapabilitiesTools",
        "ServerCapabilitiesPrompts",
    ] {
        for model in &output.models {
            assert!(
                model.get(name).is_some(),
                "{}: no type named {name}",
                model.version
            );
        }
    }
}

/// The model is sorted, so the compact snapshots reviewers read give stable diffs.
#[test]
fn model_is_sorted() {
    let inputs = workspace::inputs(&root()).unwrap();
    for model in mcp_codegen::generate(&inputs).unwrap().models {
        let names: Vec<&str> = model.types.iter().map(|t| t.name.as_str()).collect();
        let mut sorted = names.clone();
        sorted.sort();
        assert_eq!(names, sorted, "{}", model.version);
    }
}

/// The generator emits code for the interface the runtime has: a generator and a runtime
/// of one release agree (generated code checks it when it compiles).
#[test]
fn the_generator_targets_the_runtime_interface_it_ships_with() {
    assert_eq!(
        mcp_codegen::settings::RUNTIME_INTERFACE,
        mcp_spec_types::rt::CODEGEN_INTERFACE
    );
}
