//! A union's facts (what decoding uses to choose an arm) come from the facts of the types
//! inside it, unions among them: they are computed to a fixpoint, however deep unions nest
//! and in whatever order their names sort.

use mcp_codegen::model::{Kind, Model};
use mcp_codegen::{Input, model_of};
use serde_json::{Value, json};

/// `U0 = U1 | B`, `U1 = U2 | B1`, ..., `U{n-1} = A | C`: only the innermost union says
/// which properties its objects require, and the outer unions sort before the inner ones,
/// so each pass settles one more level.
fn nested(depth: usize) -> Model {
    let mut defs = serde_json::Map::new();
    for i in 0..depth - 1 {
        defs.insert(
            format!("U{i}"),
            json!({ "anyOf": [ { "$ref": format!("#/definitions/U{}", i + 1) },
                               { "$ref": format!("#/definitions/B{i}") } ] }),
        );
        defs.insert(
            format!("B{i}"),
            json!({ "type": "object", "properties": { format!("b{i}"): { "type": "string" } },
                    "required": [format!("b{i}")] }),
        );
    }
    defs.insert(
        format!("U{}", depth - 1),
        json!({ "anyOf": [ { "$ref": "#/definitions/A" }, { "$ref": "#/definitions/C" } ] }),
    );
    for name in ["A", "C"] {
        let prop = name.to_lowercase();
        defs.insert(
            name.to_string(),
            json!({ "type": "object", "properties": { prop.clone(): { "type": "string" } },
                    "required": [prop] }),
        );
    }
    let schema = json!({ "$schema": "http://json-schema.org/draft-07/schema#", "definitions": Value::Object(defs) });
    model_of(&Input {
        version: "draft".into(),
        path: "union_facts.json".into(),
        text: schema.to_string(),
        ..Default::default()
    })
    .unwrap_or_else(|e| panic!("depth {depth}: {e}"))
}

#[test]
fn facts_settle_through_unions_nested_deeper_than_any_fixed_number_of_passes() {
    for depth in [2, 5, 12] {
        let model = nested(depth);
        // The outermost union's first arm (U1) knows the innermost arms' required sets.
        let u0 = model.types.iter().find(|t| t.name == "U0").unwrap();
        let Kind::Union { variants, .. } = &u0.kind else {
            panic!("U0 is not a union");
        };
        let inner = &variants[0].signature;
        let mut required: Vec<String> = inner
            .alts
            .iter()
            .flat_map(|a| a.alts.iter().chain([a]))
            .flat_map(|a| a.required.iter().flatten().cloned())
            .collect();
        required.sort();
        required.dedup();
        if depth == 2 {
            assert_eq!(required, ["a", "c"], "depth {depth}: {inner:?}");
        } else {
            assert!(
                required.contains(&"a".to_string()) && required.contains(&"c".to_string()),
                "depth {depth}: the outermost union does not see the innermost arms: {inner:?}"
            );
        }
    }
}
