//! Newer peers: a value that a later protocol version defines (a new kind of content
//! block, a new enum value) decodes into a catch-all, is written back as it came, and is
//! reported, with its path, by the strict check (`rt::strict`).

use mcp_spec_types::rt::strict::{self, Issue, IssueKind};
use mcp_tests::{Harness, VERSIONS};
use serde_json::{Value, json};

/// A `tools/call` result as server-everything 2026.8.31 sends it whatever version was
/// negotiated: a `resource_link` block, which 2025-06-18 introduced.
fn result_with_resource_link() -> Value {
    json!({
        "content": [
            {"type": "text", "text": "Here is the file:"},
            {"type": "resource_link", "uri": "file:///readme.md", "name": "readme.md", "mimeType": "text/markdown"}
        ]
    })
}

fn unknown_block_issue(path: &str) -> Issue {
    Issue {
        path: path.to_string(),
        kind: IssueKind::UnknownArm {
            union: "CallToolResultContentItem",
            tag: "type",
            value: "resource_link".to_string(),
        },
    }
}

#[test]
fn a_resource_link_reaches_a_client_that_negotiated_an_older_version() {
    use mcp_spec_types::{v2024_11_05 as a, v2025_03_26 as b};
    let value = result_with_resource_link();
    // As the encoder writes it: a known block's tag first, an unknown block's members
    // sorted (it is a `serde_json::Value`).
    let text = r#"{"content":[{"type":"text","text":"Here is the file:"},{"mimeType":"text/markdown","name":"readme.md","type":"resource_link","uri":"file:///readme.md"}]}"#;
    assert_eq!(serde_json::from_str::<Value>(text).unwrap(), value);

    let old: a::CallToolResult = mcp_spec_types::rt::path::from_str(text).unwrap();
    assert!(matches!(
        old.content[1],
        a::CallToolResultContentItem::Unknown(_)
    ));
    assert_eq!(serde_json::to_value(&old).unwrap(), value);
    assert_eq!(serde_json::to_string(&old).unwrap(), text);
    assert_eq!(strict::issues(&old), [unknown_block_issue("content[1]")]);

    let newer: b::CallToolResult = mcp_spec_types::rt::path::from_str(text).unwrap();
    assert!(matches!(
        newer.content[1],
        b::CallToolResultContentItem::Unknown(_)
    ));
    assert_eq!(serde_json::to_string(&newer).unwrap(), text);
    assert_eq!(strict::issues(&newer), [unknown_block_issue("content[1]")]);

    // Strictly, it is refused, saying where and what.
    let e = strict::from_str::<a::CallToolResult>(text).unwrap_err();
    assert_eq!(
        e.to_string(),
        "at `content[1]`: CallToolResultContentItem has no arm for `type` \"resource_link\""
    );
    // 2025-06-18 defines it: nothing to report.
    let known: mcp_spec_types::v2025_06_18::CallToolResult =
        strict::from_str(text).expect("2025-06-18 defines resource_link");
    assert_eq!(serde_json::to_value(&known).unwrap(), value);
}

#[test]
fn the_same_result_decodes_alike_through_a_whole_response() {
    use mcp_spec_types::rt::jsonrpc::{Message, UnknownMethods};
    use mcp_spec_types::v2024_11_05::methods as m;
    let response = json!({"jsonrpc": "2.0", "id": 7, "result": result_with_resource_link()});
    let bytes = response.to_string().into_bytes();
    let message = m::decode_from_server(&bytes, UnknownMethods::Reject).unwrap();
    let Message::Response { result, .. } = &message else {
        panic!("a response: {message:?}")
    };
    let decoded = m::ServerResult::decode(m::Method::CallTool, result).expect("the result decodes");
    let m::ServerResult::CallTool(outcome) = &decoded else {
        panic!("a tools/call result: {decoded:?}")
    };
    assert_eq!(strict::issues(outcome).len(), 1);
    assert_eq!(serde_json::to_value(&message).unwrap(), response);

    // In one call, as a client receives it: the result decoded by the method of the
    // request it answers.
    use mcp_spec_types::rt::jsonrpc::{Id, Incoming};
    let incoming = m::receive_from_server(&bytes, UnknownMethods::Reject, |id| {
        (*id == Id::Integer(7)).then_some(m::Method::CallTool)
    })
    .unwrap();
    let Incoming::Result {
        id,
        result: Ok(m::ServerResult::CallTool(received)),
        ..
    } = incoming
    else {
        panic!("a decoded tools/call result: {incoming:?}")
    };
    assert_eq!((id, &received), (Id::Integer(7), outcome));
}

#[test]
fn each_version_has_options_that_say_whether_it_has_batches() {
    use mcp_spec_types::*;
    let batches: Vec<bool> = [
        v2024_11_05::methods::OPTIONS,
        v2025_03_26::methods::OPTIONS,
        v2025_06_18::methods::OPTIONS,
        v2025_11_25::methods::OPTIONS,
        v2026_07_28::methods::OPTIONS,
    ]
    .iter()
    .map(|o| o.batches)
    .collect();
    assert_eq!(batches, [false, true, false, false, false]);
    let batch = br#"[{"jsonrpc":"2.0","method":"notifications/initialized"}]"#;
    assert!(v2025_03_26::methods::receive_from_client(batch, Default::default(), |_| None).is_ok());
    assert!(
        v2025_06_18::methods::receive_from_client(batch, Default::default(), |_| None).is_err()
    );
}

/// `value`, decoded tolerantly as the type `name` of `h`'s version, is written back as it
/// came and strictly reported at the root as `kind`.
fn kept_and_reported(h: &Harness, name: &str, value: Value, kind: IssueKind) {
    let (back, issues) = (h.checked)(name, value.clone())
        .unwrap_or_else(|| panic!("{}: no type {name}", h.version))
        .unwrap_or_else(|e| panic!("{} {name}: does not decode: {e}", h.version));
    assert_eq!(back, value, "{} {name}", h.version);
    let want = Issue {
        path: String::new(),
        kind,
    };
    assert_eq!(issues, [want], "{} {name}", h.version);
}

/// Every string enum of every version: a value no version defines decodes into the
/// catch-all, is written back, and is reported at the root.
#[test]
fn every_string_enum_keeps_a_value_it_does_not_define() {
    let mut cases = 0;
    for h in VERSIONS {
        assert!(!h.string_enums.is_empty(), "{}: no string enum", h.version);
        for name in h.string_enums {
            kept_and_reported(
                h,
                name,
                json!("a-value-of-a-newer-version"),
                IssueKind::UnknownValue {
                    enumeration: name,
                    value: "a-value-of-a-newer-version".to_string(),
                },
            );
            // Not a string: still an error.
            let not_a_string = (h.checked)(name, json!(3)).unwrap();
            assert!(not_a_string.is_err(), "{} {name}", h.version);
            cases += 1;
        }
    }
    assert!(cases >= 40, "only {cases} string enums");
}

/// Every tagged union of every version: an object whose tag names no arm decodes into
/// the catch-all, is written back, and is reported; a tag that is not a string, or no tag
/// where one is required, is still an error.
#[test]
fn every_tagged_union_keeps_a_value_with_a_tag_it_does_not_define() {
    let mut cases = 0;
    for h in VERSIONS {
        for (name, facts) in h.unions {
            let Some(tag) = facts.tag else {
                continue;
            };
            kept_and_reported(
                h,
                name,
                json!({tag: "a-kind-of-a-newer-version", "payload": [1, {"b": null}]}),
                IssueKind::UnknownArm {
                    union: name,
                    tag,
                    value: "a-kind-of-a-newer-version".to_string(),
                },
            );
            let bad_tag = (h.checked)(name, json!({tag: 5})).unwrap();
            assert!(bad_tag.is_err(), "{} {name}: a numeric tag", h.version);
            cases += 1;
        }
    }
    assert!(cases >= 40, "only {cases} tagged unions");
}

#[test]
fn a_newer_value_deep_inside_is_reported_at_its_path() {
    use mcp_spec_types::v2025_11_25 as m;
    let text = json!({
        "messages": [
            {"role": "user", "content": {"type": "text", "text": "hi"}},
            {"role": "narrator", "content": {"type": "hologram", "frames": 2}}
        ],
        "maxTokens": 10,
        "modelPreferences": {"hints": [{"name": "x"}]}
    })
    .to_string();
    let params: m::CreateMessageRequestParams = strict::from_str(&text)
        .map(|_: m::CreateMessageRequestParams| panic!("strictly, this is refused"))
        .unwrap_or_else(|e| {
            let strict::StrictError::Issues(issues) = &e else {
                panic!("issues: {e}")
            };
            let paths: Vec<&str> = issues.iter().map(|i| i.path.as_str()).collect();
            assert_eq!(paths, ["messages[1].content", "messages[1].role"], "{e}");
            mcp_spec_types::rt::path::from_str(&text).unwrap()
        });
    assert_eq!(
        params.messages[1].role,
        m::Role::Unknown("narrator".to_string())
    );
    assert_eq!(params.messages[1].role.as_str(), "narrator");
    assert!("narrator".parse::<m::Role>().is_err(), "FromStr is strict");
}

#[test]
fn strictly_a_null_where_the_schema_allows_none_is_reported() {
    use mcp_spec_types::v2025_11_25 as m;
    let text = r#"{"name":"t","title":null,"inputSchema":{"type":"object"}}"#;
    // Tolerantly: read as absent.
    let tool: m::Tool = mcp_spec_types::rt::path::from_str(text).unwrap();
    assert_eq!(tool.title, None);
    let e = strict::from_str::<m::Tool>(text).unwrap_err();
    assert_eq!(
        e.to_string(),
        "at `title`: null is not allowed here and is not kept"
    );
}

#[test]
fn integer_properties_take_any_number_json_schema_counts_as_an_integer() {
    use mcp_spec_types::v2025_11_25 as m;
    for (written, value) in [
        ("10", 10),
        ("10.0", 10),
        ("1E1", 10),
        ("1e1", 10),
        ("-0", 0),
        ("0.0", 0),
    ] {
        let text = format!(r#"{{"messages":[],"maxTokens":{written}}}"#);
        for decoded in [
            mcp_spec_types::rt::path::from_str::<m::CreateMessageRequestParams>(&text),
            mcp_spec_types::rt::path::from_value(serde_json::from_str(&text).unwrap()),
        ] {
            let params = decoded.unwrap_or_else(|e| panic!("{written}: {e}"));
            assert_eq!(params.max_tokens, value, "{written}");
        }
        // The same number: nothing for a strict check to report.
        strict::from_str::<m::CreateMessageRequestParams>(&text).unwrap();
    }
    for written in [
        "10.5",
        "1E300",
        "-1E19",
        "9223372036854775808",
        // Written with an exponent or a fraction, an integer counts below 2^53, where a
        // double holds every one (2^53 + 1 would read as 2^53).
        "9007199254740993.0",
        "9.007199254740992E15",
    ] {
        let text = format!(r#"{{"messages":[],"maxTokens":{written}}}"#);
        let e = mcp_spec_types::rt::path::from_str::<m::CreateMessageRequestParams>(&text)
            .expect_err(written);
        assert_eq!(e.path(), "maxTokens", "{written}: {e}");
    }
    // Optional and nullable integers likewise.
    let task: m::Task = mcp_spec_types::rt::path::from_str(
        r#"{"taskId":"t","status":"working","createdAt":"a","lastUpdatedAt":"b","ttl":6E4,"pollInterval":5.0}"#,
    )
    .unwrap();
    assert_eq!((task.ttl, task.poll_interval), (Some(60000), Some(5)));
}

#[test]
fn integer_union_arms_take_any_number_json_schema_counts_as_an_integer() {
    use mcp_spec_types::v2025_11_25 as m;
    for (written, value) in [("4", 4), ("4.0", 4), ("4E0", 4), ("0.4e1", 4), ("-0", 0)] {
        let text = format!(r#"{{"requestId":{written},"reason":"late"}}"#);
        let progress = format!(r#"{{"progressToken":{written},"progress":1}}"#);
        for (cancelled, note) in [
            (
                mcp_spec_types::rt::path::from_str::<m::CancelledNotificationParams>(&text),
                mcp_spec_types::rt::path::from_str::<m::ProgressNotificationParams>(&progress),
            ),
            (
                mcp_spec_types::rt::path::from_value(serde_json::from_str(&text).unwrap()),
                mcp_spec_types::rt::path::from_value(serde_json::from_str(&progress).unwrap()),
            ),
        ] {
            let cancelled = cancelled.unwrap_or_else(|e| panic!("{written}: {e}"));
            assert_eq!(cancelled.request_id, Some(m::RequestId::Integer(value)));
            let note = note.unwrap_or_else(|e| panic!("{written}: {e}"));
            assert_eq!(note.progress_token, m::ProgressToken::Integer(value));
        }
        strict::from_str::<m::CancelledNotificationParams>(&text).unwrap();
    }
    for written in ["4.5", "1E19", "-1E300"] {
        let text = format!(r#"{{"requestId":{written}}}"#);
        let e = mcp_spec_types::rt::path::from_str::<m::CancelledNotificationParams>(&text)
            .expect_err(written);
        assert_eq!(e.path(), "requestId", "{written}: {e}");
    }
}
