//! Every official example under `schema/<version>/examples/<Definition>/*.json` decodes
//! into the type its folder names and encodes back to an equal JSON value.

use std::fs;

use mcp_codegen::model::{Kind, Model, Origin, TypeRef};
use mcp_tests::{VERSIONS, root};
use serde_json::Value;

/// Examples that contradict their own schema: `(version, "Folder/file.json", reason)`.
/// Each must fail; one that starts passing fails the test, so the list stays true.
const EXPECTED_FAILURES: &[(&str, &str, &str)] = &[
    (
        "2026-07-28",
        "ReadResourceResultResponse/read-resource-result-response.json",
        "its `result` has no `cacheScope` and no `ttlMs`, which `ReadResourceResult` requires",
    ),
    (
        "draft",
        "ReadResourceResultResponse/read-resource-result-response.json",
        "its `result` has no `cacheScope` and no `ttlMs`, which `ReadResourceResult` requires",
    ),
];

#[test]
fn official_examples_round_trip() {
    let mut report = Vec::new();
    let mut unexpected = Vec::new();
    let mut expected = Vec::new();
    for h in VERSIONS {
        let (version, roundtrip) = (&h.version, h.roundtrip);
        let (mut total, mut passed) = (0, 0);
        for example in mcp_tests::examples(version) {
            let (definition, case, value) = (example.definition, example.case, example.value);
            total += 1;
            let outcome = match roundtrip(&definition, value.clone()) {
                None => Err(format!("no generated type for definition `{definition}`")),
                Some(Err(e)) => Err(e),
                Some(Ok(back)) if back == value => Ok(()),
                Some(Ok(back)) => Err(format!(
                    "changed on the round trip:\n  in:  {value}\n  out: {back}"
                )),
            };
            let expected_failure = EXPECTED_FAILURES
                .iter()
                .find(|(v, c, _)| v == version && *c == case);
            match (outcome, expected_failure) {
                (Ok(()), None) => passed += 1,
                (Err(e), Some(_)) => expected.push(format!("{version} {case}: {e}")),
                (Ok(()), Some((_, _, why))) => unexpected.push(format!(
                    "{version} {case} now passes; remove it from EXPECTED_FAILURES (was: {why})"
                )),
                (Err(e), None) => unexpected.push(format!("{version} {case}: {e}")),
            }
        }
        if total > 0 {
            report.push(format!(
                "{version}: {passed} of {total} examples round-trip"
            ));
        }
    }
    println!("{}", report.join("\n"));
    println!("expected failures:\n{}", expected.join("\n"));
    assert_eq!(
        expected.len(),
        EXPECTED_FAILURES.len(),
        "every listed failure must be seen"
    );
    assert_eq!(
        report.len(),
        2,
        "examples are expected for 2026-07-28 and draft: {report:?}"
    );
    assert!(
        unexpected.is_empty(),
        "{} examples failed:\n{}",
        unexpected.len(),
        unexpected.join("\n")
    );
}

/// Every official example also decodes through every union definition it is an arm of,
/// landing in exactly its own arm (never "the first arm that fits"), and round-trips
/// there too. This is what mis-routed `tools/call` into `server/discover` elsewhere.
#[test]
fn official_examples_choose_their_own_arm_in_every_union() {
    let mut checked = 0;
    let mut wrong = Vec::new();
    let inputs = mcp_codegen::workspace::inputs(&root()).unwrap();
    let models: Vec<Model> = inputs
        .iter()
        .map(|i| mcp_codegen::model_of(i).unwrap())
        .collect();
    for h in VERSIONS {
        let dir = root().join("schema").join(h.version).join("examples");
        let Ok(folders) = fs::read_dir(&dir) else {
            continue;
        };
        let model = models
            .iter()
            .find(|m| m.version == h.version)
            .unwrap_or_else(|| panic!("no model of {}", h.version));
        for folder in folders.flatten() {
            let definition = folder.file_name().to_string_lossy().to_string();
            let Some((_, rust)) = h.definitions.iter().find(|(d, _)| *d == definition) else {
                continue;
            };
            // The union definitions that have this definition as an arm, from the model.
            let unions: Vec<&str> = model
                .types
                .iter()
                .filter_map(|t| match (&t.origin, &t.kind) {
                    (Origin::Definition(d), Kind::Union { variants, .. })
                        if variants.iter().any(|v| {
                            v.ty == TypeRef::Named(rust.to_string())
                                && v.signature.shadowed_by.is_none()
                        }) =>
                    {
                        Some(d.as_str())
                    }
                    _ => None,
                })
                .collect();
            for file in fs::read_dir(folder.path()).unwrap().flatten() {
                let value: Value =
                    serde_json::from_str(&fs::read_to_string(file.path()).unwrap()).unwrap();
                let case = format!(
                    "{} {definition}/{}",
                    h.version,
                    file.file_name().to_string_lossy()
                );
                if EXPECTED_FAILURES
                    .iter()
                    .any(|(v, c, _)| format!("{v} {c}") == case)
                {
                    continue;
                }
                for union in &unions {
                    checked += 1;
                    let facts = (h.union)(union).unwrap();
                    match facts.select(&value) {
                        Ok(i) if facts.arms[i].name == *rust => {}
                        Ok(i) => {
                            wrong.push(format!("{case}: {union} chose {}", facts.arms[i].name))
                        }
                        Err(e) => wrong.push(format!("{case}: {union}: {e}")),
                    }
                    match (h.roundtrip)(union, value.clone()) {
                        Some(Ok(back)) if back == value => {}
                        other => wrong.push(format!("{case}: {union} round trip: {other:?}")),
                    }
                }
            }
        }
    }
    println!("{checked} (example, union) pairs checked");
    assert!(checked > 100, "too few pairs: {checked}");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The examples each generated type shows in its rustdoc (those upstream's `schema.ts`
/// links to) decode into exactly that type: the definition the docs put them on is the
/// one whose generated type the round trip above uses, and each round-trips (the listed
/// failures aside).
#[test]
fn the_examples_in_the_docs_decode_into_the_type_they_document() {
    let inputs = mcp_codegen::workspace::inputs(&root()).unwrap();
    let mut report = Vec::new();
    for h in VERSIONS {
        let input = inputs.iter().find(|i| i.version == h.version).unwrap();
        let model: Model = mcp_codegen::model_of(input).unwrap();
        let mut shown = 0;
        for t in &model.types {
            for e in &t.examples {
                shown += 1;
                let Origin::Definition(definition) = &t.origin else {
                    panic!(
                        "{}: {} shows {} but is no definition",
                        h.version, t.name, e.file
                    )
                };
                assert_eq!(
                    e.file.split('/').next(),
                    Some(definition.as_str()),
                    "{}: the example's folder names the type it documents",
                    h.version
                );
                let value: Value = serde_json::from_str(&e.json).unwrap();
                let outcome = (h.roundtrip)(definition, value.clone());
                let listed = EXPECTED_FAILURES
                    .iter()
                    .any(|(v, c, _)| *v == h.version && *c == e.file);
                match outcome {
                    Some(Ok(back)) if back == value => {
                        assert!(!listed, "{} {} now passes", h.version, e.file)
                    }
                    other => assert!(listed, "{} {}: {other:?}", h.version, e.file),
                }
            }
        }
        report.push(format!("{}: {shown}", h.version));
    }
    println!("examples in the docs: {}", report.join(", "));
    assert!(
        report.contains(&"2026-07-28: 126".to_string()),
        "2026-07-28 documents its 126 linked examples: {report:?}"
    );
}
