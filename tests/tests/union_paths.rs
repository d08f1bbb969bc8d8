//! A union decodes the same way whatever the order of its properties and whatever the
//! input: same value, same error, same error path (the path inside the arm joined to the
//! union's), whether decoded from text (untracked, then tracked) or from a
//! `serde_json::Value`.

use mcp_spec_types::rt::path;
use mcp_spec_types::v2025_11_25 as v;
use serde_json::{Value, json};

/// `{"content":[block]}` as text with the block's properties in the given order.
fn call_result(block: &[(&str, Value)]) -> String {
    let props: Vec<String> = block
        .iter()
        .map(|(k, val)| format!("{}:{}", json!(k), val))
        .collect();
    format!("{{\"content\":[{{{}}}]}}", props.join(","))
}

/// The text with the tag first and with the tag last.
fn both_orders(block: &[(&str, Value)]) -> [String; 2] {
    let mut last: Vec<(&str, Value)> = block
        .iter()
        .filter(|(k, _)| *k != "type")
        .cloned()
        .collect();
    last.extend(block.iter().filter(|(k, _)| *k == "type").cloned());
    let mut first: Vec<(&str, Value)> = block
        .iter()
        .filter(|(k, _)| *k == "type")
        .cloned()
        .collect();
    first.extend(block.iter().filter(|(k, _)| *k != "type").cloned());
    [call_result(&first), call_result(&last)]
}

#[test]
fn tag_first_and_tag_last_decode_alike() {
    let blocks: Vec<Vec<(&str, Value)>> = vec![
        vec![("type", json!("text")), ("text", json!("hi"))],
        vec![
            ("type", json!("image")),
            ("data", json!("aGk=")),
            ("mimeType", json!("image/png")),
            (
                "annotations",
                json!({"priority": 0.5, "audience": ["user"]}),
            ),
        ],
        vec![
            ("type", json!("resource_link")),
            ("uri", json!("file:///a")),
            ("name", json!("a")),
            ("extra", json!({"kept": true})),
        ],
        vec![
            ("type", json!("resource")),
            ("resource", json!({"uri": "file:///b", "text": "body"})),
            ("_meta", json!({"k": 1})),
        ],
    ];
    for block in &blocks {
        let [first, last] = both_orders(block);
        let a: v::CallToolResult =
            path::from_str(&first).unwrap_or_else(|e| panic!("{first}: {e}"));
        let b: v::CallToolResult = path::from_str(&last).unwrap_or_else(|e| panic!("{last}: {e}"));
        let c: v::CallToolResult = path::from_value(serde_json::from_str(&last).unwrap())
            .unwrap_or_else(|e| panic!("{e}"));
        // Plain serde_json: one untracked pass, the tag-first block straight into its arm
        // (no second attempt to fall back on).
        let d: v::CallToolResult =
            serde_json::from_str(&first).unwrap_or_else(|e| panic!("{first}: {e}"));
        assert_eq!(a, b, "{first} vs {last}");
        assert_eq!(a, c, "{first} vs its Value");
        assert_eq!(a, d, "{first} in one untracked pass");
        // What we write puts the tag first, and reads back the same.
        let written = serde_json::to_string(&a).unwrap();
        assert!(written.starts_with("{\"content\":[{\"type\":"), "{written}");
        let again: v::CallToolResult = path::from_str(&written).unwrap();
        assert_eq!(again, a);
    }
}

/// A content block as (property, value) pairs.
type Block = Vec<(&'static str, Value)>;

/// (block, the path of the error, words the message must contain)
fn bad_blocks() -> Vec<(Block, &'static str, &'static str)> {
    vec![
        (
            vec![("type", json!("text")), ("text", json!(5))],
            "content[0].text",
            "ContentBlock (as TextContent): invalid type: integer `5`, expected a string",
        ),
        (
            vec![("type", json!("text"))],
            "content[0].text",
            "ContentBlock (as TextContent): missing field `text`",
        ),
        (
            vec![
                ("type", json!("image")),
                ("data", json!("aGk=")),
                ("mimeType", json!("image/png")),
                ("annotations", json!({"priority": "high"})),
            ],
            "content[0].annotations.priority",
            "ContentBlock (as ImageContent): invalid type: string \"high\", expected a JSON number",
        ),
        (
            vec![("type", json!(3)), ("text", json!("x"))],
            "content[0]",
            "ContentBlock: `type` must be a string, found an integer",
        ),
    ]
}

#[test]
fn errors_name_the_same_path_in_either_order() {
    for (block, want_path, want) in bad_blocks() {
        let texts = both_orders(&block);
        let mut seen = Vec::new();
        for text in &texts {
            let e = path::from_str::<v::CallToolResult>(text).expect_err(text);
            seen.push((e.path().to_string(), e.to_string()));
            let value: Value = serde_json::from_str(text).unwrap();
            let e = path::from_value::<v::CallToolResult>(value).expect_err(text);
            seen.push((e.path().to_string(), e.to_string()));
        }
        // Plain serde_json (one untracked pass, no path): a block whose tag comes first
        // goes straight into its arm, yet says the same, with one position.
        for text in &texts {
            let message = serde_json::from_str::<v::CallToolResult>(text)
                .expect_err(text)
                .to_string();
            assert!(message.contains(want), "{text}: {message:?} lacks {want:?}");
            assert_eq!(
                message.matches(" at line ").count(),
                1,
                "one position: {message}"
            );
        }
        for (path, message) in &seen {
            assert_eq!(path, want_path, "{texts:?}: {message}");
            assert!(
                message.contains(want),
                "{texts:?}: {message:?} lacks {want:?}"
            );
            assert_eq!(
                message.matches(" at line ").count(),
                usize::from(message.contains(" at line ")),
                "one position at most: {message}"
            );
        }
    }
}

#[test]
fn scalar_arms_decode_without_a_buffer_and_say_what_is_wrong() {
    let s: v::ProgressToken = serde_json::from_str("\"op-1\"").unwrap();
    assert_eq!(s, v::ProgressToken::String("op-1".into()));
    let i: v::ProgressToken = serde_json::from_str("17").unwrap();
    assert!(matches!(i, v::ProgressToken::Integer(17)), "{i:?}");
    let e = serde_json::from_str::<v::ProgressToken>("1.5").unwrap_err();
    assert!(e.to_string().contains("ProgressToken"), "{e}");
    let e = serde_json::from_str::<v::ProgressToken>("[1]").unwrap_err();
    assert!(e.to_string().contains("found an array"), "{e}");
}

#[test]
fn a_property_given_twice_is_an_error_in_either_order() {
    for (text, name) in [
        (
            r#"{"content":[{"type":"text","text":"a","text":"b"}]}"#,
            "text",
        ),
        (
            r#"{"content":[{"text":"a","text":"b","type":"text"}]}"#,
            "text",
        ),
        // A property the type does not name, kept in `extra`: keeping one of the two
        // would lose the other.
        (
            r#"{"content":[{"type":"text","text":"a","x":1,"x":2}]}"#,
            "x",
        ),
        (
            r#"{"content":[{"x":1,"text":"a","x":2,"type":"text"}]}"#,
            "x",
        ),
    ] {
        // The JSON layer refuses it, whatever the type, naming the member.
        let e = path::from_str::<v::CallToolResult>(text).expect_err(text);
        assert!(
            e.to_string()
                .contains(&format!("duplicate member `{name}`")),
            "{text}: {e}"
        );
        assert_eq!(e.path(), format!("content[0].{name}"), "{text}: {e}");
        assert!(e.is_syntax(), "{text}: {e}");
        // The typed decoders refuse it too, for users of plain serde_json: `serde_json`
        // hands a union the text of its value, which our parser reads, so the JSON
        // layer's words again.
        let want = format!("duplicate member `{name}`");
        let e = serde_json::from_str::<v::CallToolResult>(text).expect_err(text);
        assert!(e.to_string().contains(&want), "{text}: {e}");
    }
    // Outside a union too.
    let text = r#"{"content":[],"x":1,"x":2}"#;
    let e = path::from_str::<v::CallToolResult>(text).expect_err(text);
    assert!(e.to_string().contains("duplicate member `x`"), "{e}");
    assert_eq!(e.path(), "x", "{e}");
    let e = serde_json::from_str::<v::CallToolResult>(text).expect_err(text);
    assert!(e.to_string().contains("duplicate field `x`"), "{e}");
}

/// Every union of every version, definitions and inline ones: (version, Rust name,
/// decoding facts).
fn every_union() -> Vec<(&'static str, &'static str, mcp_spec_types::rt::union::Union)> {
    mcp_tests::VERSIONS
        .iter()
        .flat_map(|h| {
            h.unions
                .iter()
                .map(|(name, facts)| (h.version, *name, *facts))
        })
        .collect()
}

/// For every union of every version with a tag, and every tag value its arms name: an
/// object with that tag is given an arm that names it (itself or through its own arms),
/// or refused as ambiguous; a value no arm names is refused as unknown.
#[test]
fn the_tag_chooses_an_arm_that_names_it_in_every_union() {
    let mut chosen = 0;
    for (version, name, facts) in every_union() {
        let Some(tag) = facts.tag else {
            continue;
        };
        let names = |arm: &mcp_spec_types::rt::union::Arm, t: &str| {
            arm.tags.contains(&t) || arm.alts.iter().any(|alt| alt.tags.contains(&t))
        };
        for arm in facts.arms {
            for t in arm.tags.iter().chain(arm.alts.iter().flat_map(|a| a.tags)) {
                match facts.select(&json!({ tag: t })) {
                    Ok(i) => {
                        assert!(names(&facts.arms[i], t), "{version} {name}: {t:?} -> {i}");
                        chosen += 1;
                    }
                    Err(e) => assert!(
                        e.reason.contains("ambiguous") || e.reason.contains("no arm fits"),
                        "{version} {name}: {t:?}: {e}"
                    ),
                }
            }
        }
        // A tag no arm names: the catch-all (every tagged union has one).
        assert_eq!(
            facts.select(&json!({ tag: "no-such-tag" })),
            Ok(facts.arms.len()),
            "{version} {name}"
        );
        let e = facts.select(&json!({ tag: 5 })).unwrap_err();
        assert!(
            e.reason.contains("must be a string"),
            "{version} {name}: {e}"
        );
    }
    assert!(
        chosen > 50,
        "only {chosen} choices by tag: the sample is too thin"
    );
}

/// A union of results (`tools/call`: the result or a task in 2025-11-25, the result or a
/// request for input in 2026-07-28) decoded by its method: the arm the rules choose, or
/// the error that says why none fits.
#[test]
fn a_result_union_decodes_to_the_arm_the_rules_choose() {
    use mcp_spec_types::rt::jsonrpc::{RawResult, decode_result};
    let raw = |text: &str| RawResult::from_text(text).expect("JSON");
    use mcp_spec_types::v2026_07_28 as w;
    let task = r#"{"taskId":"t","status":"working","createdAt":"2025-01-01T00:00:00Z","lastUpdatedAt":"2025-01-01T00:00:00Z","ttl":null}"#;
    let arm = |r: Result<v::CallToolOutcome, _>| match r {
        Ok(v::CallToolOutcome::CallToolResult(_)) => "result",
        Ok(v::CallToolOutcome::CreateTaskResult(_)) => "task",
        Err(_) => "-",
    };
    let cases = [
        (
            r#"{"content":[{"type":"text","text":"a"}]}"#.to_string(),
            "result",
        ),
        (
            r#" { "content" : [ ] , "extra" : 1 } "#.to_string(),
            "result",
        ),
        (format!(r#"{{"task":{task}}}"#), "task"),
        (format!(r#"{{"content":[],"task":{task}}}"#), "-"),
        (r#"{"content":1}"#.to_string(), "-"),
        ("{}".to_string(), "-"),
        ("[]".to_string(), "-"),
    ];
    for (text, want) in &cases {
        let got = arm(decode_result::<v::methods::CallTool>(&raw(text.trim())));
        assert_eq!(got, *want, "{text}");
    }
    let arm = |r: Result<w::CallToolOutcome, _>| match r {
        Ok(w::CallToolOutcome::CallToolResult(_)) => "result",
        Ok(w::CallToolOutcome::InputRequiredResult(_)) => "input",
        Ok(w::CallToolOutcome::Unknown(_)) => "unknown",
        Err(_) => "-",
    };
    let cases = [
        (
            r#"{"content":[{"type":"text","text":"a"}],"resultType":"complete"}"#,
            "result",
        ),
        // 2026-07-28 requires `resultType`: without it no arm is chosen.
        (r#"{"content":[]}"#, "-"),
        (
            r#"{"resultType":"input_required","inputRequests":{}}"#,
            "input",
        ),
        (r#"{"resultType":1,"content":[]}"#, "-"),
        // A result type no version defines: a newer peer's, kept (strict reports it).
        (r#"{"resultType":"nope","content":[]}"#, "unknown"),
    ];
    for (text, want) in cases {
        let got = arm(decode_result::<w::methods::CallTool>(&raw(text)));
        assert_eq!(got, want, "{text}");
    }
}

/// A tagged union of schemas (an elicitation property schema) decodes the same value with
/// its tag first or last, and says the same of a wrong one.
#[test]
fn a_schema_union_decodes_alike_in_either_order() {
    let schemas: Vec<Block> = vec![
        vec![
            ("type", json!("number")),
            ("minimum", json!(1)),
            ("maximum", json!(5)),
        ],
        vec![
            ("type", json!("boolean")),
            ("default", json!(true)),
            ("x-kept", json!([1])),
        ],
        vec![("type", json!("string")), ("enum", json!(["a", "b"]))],
        vec![
            ("type", json!("string")),
            ("title", json!("Name")),
            ("minLength", json!(1)),
        ],
    ];
    let text = |block: &Block| {
        let props: Vec<String> = block
            .iter()
            .map(|(k, val)| format!("{}:{}", json!(k), val))
            .collect();
        format!("{{{}}}", props.join(","))
    };
    for block in &schemas {
        let first = text(block);
        let mut reversed = block.clone();
        reversed.reverse();
        let last = text(&reversed);
        let a: v::PrimitiveSchemaDefinition =
            serde_json::from_str(&first).unwrap_or_else(|e| panic!("{first}: {e}"));
        let b: v::PrimitiveSchemaDefinition =
            path::from_str(&last).unwrap_or_else(|e| panic!("{last}: {e}"));
        assert_eq!(a, b, "{first} vs {last}");
    }
    let bad = r#"{"type":"number","minimum":"one"}"#;
    let plain = serde_json::from_str::<v::PrimitiveSchemaDefinition>(bad)
        .expect_err(bad)
        .to_string();
    let tracked = path::from_str::<v::PrimitiveSchemaDefinition>(bad).expect_err(bad);
    let want = "PrimitiveSchemaDefinition (as NumberSchema): invalid type: string \"one\"";
    assert!(plain.contains(want), "{plain}");
    assert!(tracked.to_string().contains(want), "{tracked}");
    assert_eq!(tracked.path(), "minimum");
    // `serde_json` places no error a union returns from the text of its value (its
    // `RawValue`): the position is `path::from_str`'s to give.
    assert_eq!(plain.matches(" at line ").count(), 0, "{plain}");
    assert_eq!(
        tracked.to_string().matches(" at line ").count(),
        1,
        "{tracked}"
    );
    // Broken JSON inside the object: serde_json's own error, with its position.
    let broken = r#"{"type":"number","minimum":1,}"#;
    let e = serde_json::from_str::<v::PrimitiveSchemaDefinition>(broken).expect_err(broken);
    assert!(e.is_syntax(), "{e}");
}

/// The generated scalar unions (`ProgressToken`, `RequestId`: a string or an integer)
/// take the arm the rules choose from text, from a `Value` and through the path-tracking
/// decoder alike: an integer past `i64`, a fraction and anything not a scalar are refused.
#[test]
fn generated_scalar_unions_take_their_arms() {
    use mcp_spec_types::v2026_07_28::{ProgressToken, RequestId};
    let cases: &[(&str, Option<&str>)] = &[
        (r#""a""#, Some("String")),
        (r#""\u00e9\n""#, Some("String")),
        ("0", Some("Integer")),
        ("-7", Some("Integer")),
        ("9223372036854775807", Some("Integer")),
        ("9223372036854775808", None),
        ("1.5", None),
        ("true", None),
        ("null", None),
        ("[1]", None),
        (r#"{"a":1}"#, None),
    ];
    fn arm<T: std::fmt::Debug>(value: &T) -> String {
        format!("{value:?}")
            .split('(')
            .next()
            .unwrap_or_default()
            .to_string()
    }
    for &(text, expected) in cases {
        let value: Value = serde_json::from_str(text).unwrap();
        let token = serde_json::from_str::<ProgressToken>(text).ok();
        assert_eq!(
            token.as_ref().map(arm).as_deref(),
            expected,
            "ProgressToken {text}"
        );
        assert_eq!(
            serde_json::from_value::<ProgressToken>(value.clone()).ok(),
            token,
            "ProgressToken from a Value, {text}"
        );
        assert_eq!(
            path::from_slice::<ProgressToken>(text.as_bytes()).ok(),
            token,
            "ProgressToken tracked, {text}"
        );
        let id = serde_json::from_str::<RequestId>(text).ok();
        assert_eq!(
            id.as_ref().map(arm).as_deref(),
            expected,
            "RequestId {text}"
        );
        assert_eq!(
            serde_json::from_value::<RequestId>(value).ok(),
            id,
            "RequestId from a Value, {text}"
        );
    }
    assert_eq!(
        serde_json::from_str::<ProgressToken>("-3").unwrap(),
        ProgressToken::Integer(-3)
    );
}
