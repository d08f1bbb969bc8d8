//! What the server serves, as JSON, the same in every protocol version: the fixtures the
//! official conformance suite asks for. Each version's handler turns these into its own
//! typed results.

use serde_json::{Map, Value, json};

/// A 1×1 PNG.
pub const PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
/// A tiny WAV file.
pub const WAV: &str = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=";

pub fn tools() -> Value {
    let no_args = json!({"type": "object", "properties": {}});
    let with = |name: &str| json!({"type": "object", "properties": {name: {"type": "string"}}, "required": [name]});
    let list = [
        ("test_simple_text", no_args.clone()),
        ("test_image_content", no_args.clone()),
        ("test_audio_content", no_args.clone()),
        ("test_embedded_resource", no_args.clone()),
        ("test_multiple_content_types", no_args.clone()),
        ("test_tool_with_logging", no_args.clone()),
        ("test_tool_with_progress", no_args.clone()),
        ("test_error_handling", no_args.clone()),
        ("test_sampling", with("prompt")),
        ("test_elicitation", with("message")),
        ("test_elicitation_sep1034_defaults", no_args.clone()),
        ("test_elicitation_sep1330_enums", no_args),
    ];
    let tools: Vec<Value> = list
        .into_iter()
        .map(|(name, schema)| json!({"name": name, "description": name, "inputSchema": schema}))
        .collect();
    json!({ "tools": tools })
}

fn text(t: &str) -> Value {
    json!({"content": [{"type": "text", "text": t}]})
}

/// The request a tool sends to the client before it can answer, if any:
/// `(method, params)`.
pub fn tool_request(name: &str, args: &Map<String, Value>) -> Option<(&'static str, Value)> {
    let arg = |k: &str| {
        args.get(k)
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string()
    };
    let elicit = |message: &str, properties: Value| json!({"message": message, "requestedSchema": {"type": "object", "properties": properties, "required": []}});
    match name {
        "test_sampling" => Some((
            "sampling/createMessage",
            json!({"messages": [{"role": "user", "content": {"type": "text", "text": arg("prompt")}}], "maxTokens": 100}),
        )),
        "test_elicitation" => Some((
            "elicitation/create",
            json!({"message": arg("message"), "requestedSchema": {"type": "object", "properties": {
                "username": {"type": "string", "description": "User's response"},
                "email": {"type": "string", "description": "User's email address"},
            }, "required": ["username", "email"]}}),
        )),
        "test_elicitation_sep1034_defaults" => Some((
            "elicitation/create",
            elicit(
                "Please review and update the form fields with defaults",
                json!({
                    "name": {"type": "string", "description": "User name", "default": "John Doe"},
                    "age": {"type": "integer", "description": "User age", "default": 30},
                    "score": {"type": "number", "description": "User score", "default": 95.5},
                    "status": {"type": "string", "description": "User status", "enum": ["active", "inactive", "pending"], "default": "active"},
                    "verified": {"type": "boolean", "description": "Verification status", "default": true},
                }),
            ),
        )),
        "test_elicitation_sep1330_enums" => Some((
            "elicitation/create",
            elicit(
                "Please select options from the enum fields",
                json!({
                    "untitledSingle": {"type": "string", "description": "Select one option", "enum": ["option1", "option2", "option3"]},
                    "titledSingle": {"type": "string", "description": "Select one option with titles", "oneOf": [
                        {"const": "value1", "title": "First Option"}, {"const": "value2", "title": "Second Option"}, {"const": "value3", "title": "Third Option"}]},
                    "legacyEnum": {"type": "string", "description": "Select one option (legacy)", "enum": ["opt1", "opt2", "opt3"], "enumNames": ["Option One", "Option Two", "Option Three"]},
                    "untitledMulti": {"type": "array", "description": "Select multiple options", "minItems": 1, "maxItems": 3, "items": {"type": "string", "enum": ["option1", "option2", "option3"]}},
                    "titledMulti": {"type": "array", "description": "Select multiple options with titles", "minItems": 1, "maxItems": 3, "items": {"anyOf": [
                        {"const": "value1", "title": "First Choice"}, {"const": "value2", "title": "Second Choice"}, {"const": "value3", "title": "Third Choice"}]}},
                }),
            ),
        )),
        _ => None,
    }
}

/// The log lines `test_tool_with_logging` sends while it runs.
pub const LOG_LINES: [&str; 3] = [
    "Tool execution started",
    "Tool processing data",
    "Tool execution completed",
];

/// The result of a tool call, given the client's answer to [`tool_request`] when there
/// was one. `Err` is an unknown tool.
pub fn tool_result(
    name: &str,
    answer: Option<&Value>,
    progress_token: Option<&Value>,
) -> Result<Value, String> {
    let content = |c: Value| json!({"content": c});
    Ok(match name {
        "test_simple_text" => text("This is a simple text response for testing."),
        "test_image_content" => {
            content(json!([{"type": "image", "data": PNG, "mimeType": "image/png"}]))
        }
        "test_audio_content" => {
            content(json!([{"type": "audio", "data": WAV, "mimeType": "audio/wav"}]))
        }
        "test_embedded_resource" => content(json!([{"type": "resource", "resource": {
            "uri": "test://embedded-resource", "mimeType": "text/plain", "text": "This is an embedded resource content."}}])),
        "test_multiple_content_types" => content(json!([
            {"type": "text", "text": "Multiple content types test:"},
            {"type": "image", "data": PNG, "mimeType": "image/png"},
            {"type": "resource", "resource": {"uri": "test://mixed-content-resource", "mimeType": "application/json",
                "text": "{\"test\":\"data\",\"value\":123}"}},
        ])),
        "test_tool_with_logging" => text("Tool with logging executed successfully"),
        "test_tool_with_progress" => text(&format!(
            "progress token {}",
            progress_token
                .map(Value::to_string)
                .unwrap_or_else(|| "none".into())
        )),
        "test_error_handling" => {
            json!({"isError": true, "content": [{"type": "text", "text": "This tool intentionally returns an error for testing"}]})
        }
        "test_sampling" => {
            let said = answer
                .and_then(|a| a["content"]["text"].as_str())
                .unwrap_or_default();
            text(&format!("LLM response: {said}"))
        }
        "test_elicitation" => {
            let a = answer.cloned().unwrap_or_default();
            text(&format!(
                "User response: action={}, content={}",
                a["action"].as_str().unwrap_or_default(),
                a.get("content").cloned().unwrap_or(json!({}))
            ))
        }
        "test_elicitation_sep1034_defaults" | "test_elicitation_sep1330_enums" => {
            let a = answer.cloned().unwrap_or_default();
            text(&format!(
                "Elicitation completed: action={}, content={}",
                a["action"].as_str().unwrap_or_default(),
                a.get("content").cloned().unwrap_or(json!({}))
            ))
        }
        other => return Err(format!("Unknown tool: {other}")),
    })
}

pub fn resources() -> Value {
    json!({"resources": [
        {"uri": "test://static-text", "name": "static-text", "description": "A static text resource", "mimeType": "text/plain"},
        {"uri": "test://static-binary", "name": "static-binary", "description": "A static binary resource", "mimeType": "image/png"},
        {"uri": "test://watched-resource", "name": "watched-resource", "description": "A resource to subscribe to", "mimeType": "text/plain"},
    ]})
}

pub fn resource_templates() -> Value {
    json!({"resourceTemplates": [
        {"uriTemplate": "test://template/{id}/data", "name": "template", "description": "Data by id", "mimeType": "application/json"},
    ]})
}

/// `Err` is an unknown resource.
pub fn read_resource(uri: &str) -> Result<Value, String> {
    let one = |c: Value| json!({"contents": [c]});
    if uri == "test://static-text" {
        return Ok(one(
            json!({"uri": uri, "mimeType": "text/plain", "text": "This is the content of the static text resource."}),
        ));
    }
    if uri == "test://static-binary" {
        return Ok(one(
            json!({"uri": uri, "mimeType": "image/png", "blob": PNG}),
        ));
    }
    if uri == "test://watched-resource" {
        return Ok(one(
            json!({"uri": uri, "mimeType": "text/plain", "text": "Watched resource content."}),
        ));
    }
    if let Some(id) = uri
        .strip_prefix("test://template/")
        .and_then(|r| r.strip_suffix("/data"))
    {
        if !id.is_empty() && !id.contains('/') {
            let body =
                json!({"id": id, "templateTest": true, "data": format!("Data for ID: {id}")});
            return Ok(one(
                json!({"uri": uri, "mimeType": "application/json", "text": body.to_string()}),
            ));
        }
    }
    Err(format!("Unknown resource: {uri}"))
}

pub fn prompts() -> Value {
    let arg = |n: &str| json!({"name": n, "required": true});
    json!({"prompts": [
        {"name": "test_simple_prompt", "description": "A prompt without arguments"},
        {"name": "test_prompt_with_arguments", "description": "A prompt with two arguments", "arguments": [arg("arg1"), arg("arg2")]},
        {"name": "test_prompt_with_embedded_resource", "description": "A prompt with a resource", "arguments": [arg("resourceUri")]},
        {"name": "test_prompt_with_image", "description": "A prompt with an image"},
    ]})
}

/// `Err` is an unknown prompt.
pub fn get_prompt(name: &str, args: &Map<String, Value>) -> Result<Value, String> {
    let arg = |k: &str| {
        args.get(k)
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string()
    };
    let user = |c: Value| json!({"role": "user", "content": c});
    let text = |t: &str| json!({"type": "text", "text": t});
    let messages = match name {
        "test_simple_prompt" => vec![user(text("This is a simple prompt for testing."))],
        "test_prompt_with_arguments" => vec![user(text(&format!(
            "Prompt with arguments: arg1='{}', arg2='{}'",
            arg("arg1"),
            arg("arg2")
        )))],
        "test_prompt_with_embedded_resource" => vec![
            user(
                json!({"type": "resource", "resource": {"uri": arg("resourceUri"), "mimeType": "text/plain",
                "text": "Embedded resource content for testing."}}),
            ),
            user(text("Please process the embedded resource above.")),
        ],
        "test_prompt_with_image" => vec![
            user(json!({"type": "image", "data": PNG, "mimeType": "image/png"})),
            user(text("Please analyze the image above.")),
        ],
        other => return Err(format!("Unknown prompt: {other}")),
    };
    Ok(json!({ "messages": messages }))
}

pub fn completion() -> Value {
    json!({"completion": {"values": [], "total": 0, "hasMore": false}})
}

pub fn capabilities() -> Value {
    json!({"tools": {}, "resources": {"subscribe": true}, "prompts": {}, "logging": {}, "completions": {}})
}
