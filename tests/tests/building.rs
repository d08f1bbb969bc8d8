//! Building values: every struct's `new` from its required properties, the shortcuts of
//! the common results, and `ErrorObject`'s named errors. Each value built is held to the
//! JSON it must encode as, and decodes back strictly (nothing a newer version would add,
//! nothing lost).

use mcp_spec_types::rt::jsonrpc::ErrorObject;
use mcp_spec_types::rt::strict::{self, Check};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

/// `value` encodes as `want`, and that JSON decodes strictly back to `value`.
fn encodes_as<T>(value: &T, want: Value)
where
    T: Serialize + DeserializeOwned + Check + PartialEq + std::fmt::Debug,
{
    let got = serde_json::to_value(value).unwrap();
    assert_eq!(got, want);
    let back: T = strict::from_str(&got.to_string()).unwrap_or_else(|e| panic!("{got}: {e}"));
    assert_eq!(&back, value);
}

#[test]
fn new_takes_the_required_properties_strings_first() {
    use mcp_spec_types::v2025_11_25 as m;
    encodes_as(
        &m::TextContent::new("hi"),
        json!({"type": "text", "text": "hi"}),
    );
    encodes_as(
        &m::Tool::new("echo", m::ToolInputSchema::new()),
        json!({"name": "echo", "inputSchema": {"type": "object"}}),
    );
    encodes_as(
        &m::Resource::new("readme", "file:///readme.md"),
        json!({"name": "readme", "uri": "file:///readme.md"}),
    );
    encodes_as(
        &m::Implementation::new("srv", "1.0"),
        json!({"name": "srv", "version": "1.0"}),
    );
    // A property that is required and may be null is an `Option` argument.
    let task = m::Task::new(
        "2025-01-01T00:00:00Z",
        "2025-01-01T00:00:00Z",
        "t1",
        m::TaskStatus::Working,
        None,
    );
    assert_eq!(serde_json::to_value(&task).unwrap()["ttl"], Value::Null);
    // Optional properties are set on the value.
    let mut tool = m::Tool::new("echo", m::ToolInputSchema::new());
    tool.description = Some("Echoes its input".into());
    assert_eq!(
        serde_json::to_value(&tool).unwrap()["description"],
        "Echoes its input"
    );
}

#[test]
fn a_text_block_is_one_call_in_every_union_that_has_one() {
    use mcp_spec_types::{v2024_11_05 as a, v2025_11_25 as m, v2026_07_28 as n};
    let want = json!({"type": "text", "text": "hi"});
    encodes_as(&m::ContentBlock::text("hi"), want.clone());
    encodes_as(&n::ContentBlock::text("hi"), want.clone());
    encodes_as(&a::CallToolResultContentItem::text("hi"), want.clone());
    encodes_as(&m::SamplingMessageContentBlock::text("hi"), want.clone());
    encodes_as(&m::CreateMessageResultContent::text("hi"), want.clone());
    encodes_as(&a::PromptMessageContent::text("hi"), want);
}

#[test]
fn call_tool_results_have_shortcuts_in_every_version() {
    use mcp_spec_types::{
        v2024_11_05 as a, v2025_03_26 as b, v2025_06_18 as c, v2025_11_25 as m, v2026_07_28 as n,
    };
    let text = json!({"content": [{"type": "text", "text": "done"}]});
    let error = json!({"content": [{"type": "text", "text": "no such file"}], "isError": true});
    encodes_as(&a::CallToolResult::text("done"), text.clone());
    encodes_as(&a::CallToolResult::error("no such file"), error.clone());
    encodes_as(&b::CallToolResult::text("done"), text.clone());
    encodes_as(&c::CallToolResult::error("no such file"), error.clone());
    encodes_as(&m::CallToolResult::text("done"), text.clone());

    // Structured output (2025-06-18 on): the value, and its text for clients that read
    // only `content`.
    let value = json!({"temperature": 21, "unit": "C"});
    let Value::Object(map) = value.clone() else {
        unreachable!()
    };
    encodes_as(
        &c::CallToolResult::structured(&map).unwrap(),
        json!({
            "content": [{"type": "text", "text": value.to_string()}],
            "structuredContent": value
        }),
    );
    encodes_as(
        &m::CallToolResult::structured(&map).unwrap(),
        json!({
            "content": [{"type": "text", "text": value.to_string()}],
            "structuredContent": value
        }),
    );

    // Before 2026-07-28 structured content is an object.
    assert!(m::CallToolResult::structured(&[1, 2]).is_err());

    // 2026-07-28 requires `resultType`: a finished call says "complete".
    encodes_as(
        &n::CallToolResult::error("no such file"),
        json!({"content": [{"type": "text", "text": "no such file"}], "isError": true, "resultType": "complete"}),
    );
    encodes_as(
        &n::CallToolResult::structured(&[1, 2]).unwrap(),
        json!({"content": [{"type": "text", "text": "[1,2]"}], "resultType": "complete", "structuredContent": [1, 2]}),
    );
}

#[test]
fn error_objects_have_named_constructors() {
    for (e, code) in [
        (ErrorObject::invalid_params("no tool `x`"), -32602),
        (ErrorObject::invalid_request("no method"), -32600),
        (ErrorObject::method_not_found("tools/frobnicate"), -32601),
        (ErrorObject::internal_error("disk full"), -32603),
    ] {
        assert_eq!(e.code, code);
        let v = serde_json::to_value(&e).unwrap();
        assert_eq!(v["code"], code);
        assert!(v.get("data").is_none(), "{v}");
    }
    // A version's own codes are named too.
    assert_eq!(
        mcp_spec_types::v2025_11_25::methods::error_codes::URL_ELICITATION_REQUIRED,
        -32042
    );
}

#[test]
fn the_crate_re_exports_the_serde_it_implements() {
    use mcp_spec_types::serde_json as sj;
    let block = mcp_spec_types::v2026_07_28::ContentBlock::text("x");
    let v: sj::Value = sj::to_value(&block).unwrap();
    assert_eq!(v["text"], "x");
    fn is_serialize<T: mcp_spec_types::serde::Serialize>(_: &T) {}
    is_serialize(&block);
}

/// The arguments of a tool, as a Rust type.
#[derive(Debug, PartialEq, serde::Deserialize, schemars::JsonSchema)]
struct WeatherArgs {
    /// The city.
    city: String,
    /// How many days ahead.
    days: Option<u8>,
}

/// What the tool returns as structured content.
#[derive(serde::Serialize, schemars::JsonSchema)]
struct Forecast {
    summary: String,
}

#[test]
fn tool_schemas_come_from_rust_types_and_arguments_decode_into_them() {
    use mcp_spec_types::v2025_11_25 as m;
    let tool = m::Tool::for_input::<WeatherArgs>("weather")
        .unwrap()
        .with_output::<Forecast>()
        .unwrap();
    let v = serde_json::to_value(&tool).unwrap();
    assert_eq!(v["name"], "weather");
    assert_eq!(v["inputSchema"]["type"], "object", "{v}");
    assert_eq!(
        v["inputSchema"]["properties"]["city"]["type"], "string",
        "{v}"
    );
    assert_eq!(v["inputSchema"]["required"], json!(["city"]), "{v}");
    assert_eq!(v["outputSchema"]["required"], json!(["summary"]), "{v}");
    // The tool decodes back strictly: its schema is a valid `inputSchema`.
    let back: m::Tool = strict::from_str(&v.to_string()).unwrap();
    assert_eq!(back, tool);

    // A schema that is not an object's cannot be an input schema.
    assert!(m::Tool::for_input::<String>("x").is_err());

    let params: m::CallToolRequestParams = strict::from_str(
        &json!({"name": "weather", "arguments": {"city": "Oslo", "days": 2}}).to_string(),
    )
    .unwrap();
    assert_eq!(
        params.arguments_as::<WeatherArgs>().unwrap(),
        WeatherArgs {
            city: "Oslo".into(),
            days: Some(2)
        }
    );
    let bad: m::CallToolRequestParams =
        strict::from_str(&json!({"name": "weather", "arguments": {"city": 5}}).to_string())
            .unwrap();
    let e = bad.arguments_as::<WeatherArgs>().unwrap_err();
    assert_eq!(e.path(), "city");
    assert_eq!(ErrorObject::invalid_params(e.to_string()).code, -32602);
    // No arguments at all: an empty object.
    let none: m::CallToolRequestParams =
        strict::from_str(&json!({"name": "weather"}).to_string()).unwrap();
    assert!(
        none.arguments_as::<WeatherArgs>()
            .unwrap_err()
            .to_string()
            .contains("city")
    );
}
