//! What a failed decode reports: the error the first, untracked attempt found, with its
//! line and column, and the JSON path of the value at fault, which the second attempt
//! finds by decoding the document again, tracked, from a buffer read whole (not from the
//! text: see `rt::path::from_str`).

use mcp_spec_types::rt::jsonrpc::{self, Incoming, Options};
use mcp_spec_types::rt::path::{self, DecodeError};
use mcp_spec_types::v2025_11_25 as v;

/// The error of decoding `text` as a `CallToolResult`, held to the error of decoding the
/// same document as a `Value` first (same path, same text without the position) where
/// the text is JSON.
fn call_tool_result_error(text: &str) -> DecodeError {
    let e = path::from_str::<v::CallToolResult>(text).expect_err(text);
    let from_bytes = path::from_slice::<v::CallToolResult>(text.as_bytes()).expect_err(text);
    assert_eq!(
        (from_bytes.path(), from_bytes.to_string()),
        (e.path(), e.to_string()),
        "{text}: from_slice and from_str disagree"
    );
    if let Ok(value) = serde_json::from_str::<serde_json::Value>(text) {
        let of_value = path::from_value::<v::CallToolResult>(value).expect_err(text);
        assert_eq!(of_value.path(), e.path(), "{text}: path of the Value");
        assert_eq!(
            of_value.inner().to_string(),
            without_position(&e.inner().to_string()),
            "{text}: error of the Value"
        );
        assert_eq!(of_value.inner().line(), 0, "a Value has no positions");
    }
    e
}

/// serde_json's text of an error without its " at line L column C".
fn without_position(text: &str) -> &str {
    text.rsplit_once(" at line ")
        .map_or(text, |(before, _)| before)
}

/// (path, error text, line, column, syntax?)
fn facts(e: &DecodeError) -> (&str, String, usize, usize, bool) {
    (
        e.path(),
        e.inner().to_string(),
        e.line(),
        e.column(),
        e.is_syntax(),
    )
}

#[test]
fn a_wrong_value_is_named_by_path_with_its_position() {
    let text_5 = "ContentBlock (as TextContent): invalid type: integer `5`, expected a string";
    // Tag first (the arm decoded straight from the text) and tag last (buffered).
    for text in [
        r#"{"content":[{"type":"text","text":5}]}"#,
        r#"{"content":[{"text":5,"type":"text"}]}"#,
    ] {
        let e = call_tool_result_error(text);
        assert_eq!(
            facts(&e),
            (
                "content[0].text",
                format!("{text_5} at line 1 column 36"),
                1,
                36,
                false
            ),
            "{text}"
        );
    }
    let e = call_tool_result_error("{\"content\":\n[{\"type\":\"text\",\n\"text\":5}]}");
    assert_eq!(
        facts(&e),
        (
            "content[0].text",
            format!("{text_5} at line 3 column 9"),
            3,
            9,
            false
        )
    );
    assert_eq!(
        e.to_string(),
        format!("at `content[0].text`: {text_5} at line 3 column 9")
    );

    let e = call_tool_result_error(r#"{"content":[{"type":"text","text":"a"}],"isError":"no"}"#);
    assert_eq!(
        facts(&e),
        (
            "isError",
            "invalid type: string \"no\", expected a boolean at line 1 column 54".into(),
            1,
            54,
            false
        )
    );
    let e = call_tool_result_error(
        r#"{"content":[{"type":"text","text":"a"}],"structuredContent":[1]}"#,
    );
    assert_eq!(e.path(), "structuredContent");
    assert_eq!(
        e.inner().to_string(),
        "invalid type: sequence, expected a map at line 1 column 60"
    );
}

#[test]
fn a_missing_property_is_named_by_the_object_and_the_arm() {
    let e = call_tool_result_error(r#"{"content":[{"type":"image","data":"x"}]}"#);
    assert_eq!(
        facts(&e),
        (
            "content[0].mimeType",
            "ContentBlock (as ImageContent): missing field `mimeType` at line 1 column 39".into(),
            1,
            39,
            false
        )
    );
    // A tag that is not a string chooses no arm (an unknown string would be kept: a
    // newer version's kind of block).
    let e = call_tool_result_error(r#"{"content":[{"type":7,"data":"x"}]}"#);
    assert_eq!(e.path(), "content[0]");
    assert!(e.inner().to_string().starts_with("ContentBlock"), "{e}");
}

#[test]
fn broken_json_is_a_syntax_error_at_its_place() {
    let e = call_tool_result_error(r#"{"content":[{"type":"text","text":"a"]}"#);
    assert_eq!(
        facts(&e),
        (
            "content[0]",
            "expected `,` or `}` at line 1 column 38".into(),
            1,
            38,
            true
        )
    );
    let e = call_tool_result_error(r#"{"content":[{"type":"text","text":"a"#);
    assert!(e.is_syntax(), "{e}");
    assert_eq!((e.line(), e.column()), (1, 36));
    assert!(
        e.inner()
            .to_string()
            .starts_with("EOF while parsing a string"),
        "{e}"
    );
    let e = call_tool_result_error(r#"{"content":[]} x"#);
    assert_eq!(
        facts(&e),
        (
            "",
            "trailing characters at line 1 column 16".into(),
            1,
            16,
            true
        )
    );
}

/// A wrong value followed by broken JSON further on is broken JSON: the JSON layer reads
/// the whole text before anything is decoded, so the answer does not depend on which
/// fault a decoder meets first. (Until the JSON layer, this was a known limitation: the
/// type error was reported, without a path.)
#[test]
fn a_wrong_value_before_broken_json_is_broken_json() {
    let e = path::from_str::<v::CallToolResult>(r#"{"content":[{"type":"text","text":5},"#)
        .unwrap_err();
    assert_eq!(
        facts(&e),
        (
            "content[1]",
            "EOF while parsing a value at line 1 column 37".into(),
            1,
            37,
            true
        )
    );
}

#[test]
fn messages_report_the_path_from_the_envelope() {
    type In = Incoming<
        v::methods::ServerRequest,
        v::methods::ServerNotification,
        v::methods::ServerResult,
    >;
    let receive = |text: &'static str| -> Result<In, jsonrpc::ProtocolError> {
        jsonrpc::receive_typed(text.as_bytes(), Options::default(), |_| {
            Some(v::methods::Method::CallTool)
        })
    };

    let result_error = |text| match receive(text) {
        Ok(Incoming::Result { result: Err(e), .. }) => e,
        other => panic!("{text}: not a result error: {other:?}"),
    };
    let e =
        result_error(r#"{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":5}]}}"#);
    assert_eq!(e.method, "tools/call");
    assert_eq!(e.error.path(), "content[0].text");
    assert_eq!(
        e.to_string(),
        "the result does not fit `tools/call`: at `content[0].text`: CallToolOutcome \
         (as CallToolResult): ContentBlock (as TextContent): invalid type: integer `5`, expected a string"
    );

    let protocol_error = |text| match receive(text) {
        Err(e) => e,
        Ok(other) => panic!("{text}: decoded: {other:?}"),
    };
    let e = protocol_error(
        r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":"x"}}"#,
    );
    assert_eq!(
        (e.code, e.path.as_deref()),
        (-32602, Some("params.progress"))
    );
    assert_eq!(
        e.message,
        "invalid params for `notifications/progress` at `params.progress`: invalid type: string \"x\", expected a JSON number"
    );
    for (text, message) in [
        (
            r#"{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"a"]}}"#,
            "parse error: expected `,` or `}` at `result.content[0]` (line 1 column 71)",
        ),
        (
            r#"{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"a"#,
            "parse error: EOF while parsing a string at `result.content[0].text` (line 1 column 69)",
        ),
        (
            r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1"#,
            "parse error: EOF while parsing a value at `params` (line 1 column 91)",
        ),
    ] {
        let e = protocol_error(text);
        assert_eq!((e.code, e.message.as_str()), (-32700, message), "{text}");
        assert!(message.contains(&format!("`{}`", e.path.as_deref().unwrap())));
    }
}
