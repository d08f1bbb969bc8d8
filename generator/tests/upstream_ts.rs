//! The vendored `schema.ts` of every version against its `schema.json`: every
//! `@deprecated` tag and every `{@includeCode}` example link is read (as many as the text
//! has), and each lands on something the JSON defines. A tag that names nothing in the
//! JSON would be a deprecation the generated crate silently lacks.

use std::path::Path;

use mcp_codegen::model::Kind;
use mcp_codegen::{model_of, ts, workspace};

#[test]
fn every_tag_and_example_link_of_schema_ts_lands_in_the_json() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let inputs = workspace::inputs(root).unwrap();
    let mut report = Vec::new();
    let mut with_ts = 0;
    for input in &inputs {
        let Some(text) = &input.ts else { continue };
        with_ts += 1;
        let annotations = ts::read(text).unwrap();
        // Read all of them: as many as the text spells (a link repeated counts once).
        assert_eq!(
            annotations.deprecated.len(),
            text.matches("@deprecated").count(),
            "{}: @deprecated tags read",
            input.version
        );
        let mut links: Vec<&str> = text
            .split("{@includeCode ./examples/")
            .skip(1)
            .filter_map(|rest| rest.split('}').next())
            .collect();
        links.sort_unstable();
        links.dedup();
        assert_eq!(
            annotations.examples.len(),
            links.len(),
            "{}: example links read",
            input.version
        );

        let model = model_of(input).unwrap();
        // Nothing left unplaced: such notes say "not applied" or "not shown".
        let unplaced: Vec<&String> = model
            .notes
            .iter()
            .filter(|n| n.contains("schema.ts"))
            .collect();
        assert!(unplaced.is_empty(), "{}: {unplaced:#?}", input.version);

        let types = model
            .types
            .iter()
            .filter(|t| t.deprecated.is_some())
            .count();
        let fields = model
            .types
            .iter()
            .map(|t| match &t.kind {
                Kind::Struct { fields, .. } => {
                    fields.iter().filter(|f| f.deprecated.is_some()).count()
                }
                _ => 0,
            })
            .sum::<usize>();
        let values = model
            .types
            .iter()
            .map(|t| t.deprecated_values.len())
            .sum::<usize>();
        let examples = model.types.iter().map(|t| t.examples.len()).sum::<usize>();
        // Every link is shown on one type.
        assert_eq!(examples, links.len(), "{}: examples shown", input.version);
        report.push(format!(
            "{}: {} @deprecated tags -> {types} types, {fields} properties, {values} enum values; \
             {examples} examples in the docs",
            input.version,
            annotations.deprecated.len()
        ));
    }
    println!("{}", report.join("\n"));
    assert_eq!(with_ts, inputs.len(), "every version vendors its schema.ts");
    // 2026-07-28 is the version that deprecates (sampling, roots, logging): its 21 tags
    // are on 16 definitions, 4 properties, and 2 values of `includeContext`.
    let modern = report
        .iter()
        .find(|r| r.starts_with("2026-07-28:"))
        .expect("2026-07-28 is vendored");
    assert!(
        modern
            .contains("21 @deprecated tags -> 16 types, 4 properties, 2 enum values; 126 examples"),
        "{modern}"
    );
}
