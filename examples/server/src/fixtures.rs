//! What the server serves: the fixtures the official conformance suite asks for, built
//! with the constructors of 2026-07-28, the version its one handler is written for (older
//! clients get them converted). 2026-07-28 deprecates sampling and logging (SEP-2577);
//! the suite still asks for them.
#![allow(deprecated)]

use mcp_spec_types::rt::jsonrpc::ErrorObject;
use mcp_spec_types::v2026_07_28 as v;
use serde_json::{Map, Value, json};

use crate::internal;

/// A 1×1 PNG.
pub const PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
/// A tiny WAV file.
pub const WAV: &str = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=";
/// The log lines `test_tool_with_logging` sends while it runs.
pub const LOG_LINES: [&str; 3] = [
    "Tool execution started",
    "Tool processing data",
    "Tool execution completed",
];
pub const INSTRUCTIONS: &str = "Serves the fixtures of the MCP conformance suite.";

/// The members of a tool's input schema besides `"type": "object"`, for no arguments or one
/// string argument it requires: free JSON Schema, as 2026-07-28's type leaves them.
pub fn schema_members(arg: Option<&str>) -> Map<String, Value> {
    let schema = match arg {
        Some(arg) => json!({"properties": {arg: {"type": "string"}}, "required": [arg]}),
        None => json!({"properties": {}}),
    };
    schema.as_object().cloned().unwrap_or_default()
}

/// The input schema of `json_schema_2020_12_tool`, with the keywords the suite looks for
/// at its top: `$schema`, `$defs` with an `$anchor`, `allOf` around `anyOf`,
/// `if`/`then`/`else`, `additionalProperties`.
pub fn json_schema_2020_12() -> Map<String, Value> {
    let schema = json!({
        "type": "object",
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$defs": {"address": {
            "$anchor": "addressDef",
            "type": "object",
            "properties": {"street": {"type": "string"}, "city": {"type": "string"}},
        }},
        "properties": {
            "name": {"type": "string"},
            "address": {"$ref": "#/$defs/address"},
            "reach": {"type": "string", "enum": ["phone", "email"]},
            "phone": {"type": "string"},
            "email": {"type": "string"},
        },
        "allOf": [{"anyOf": [{"required": ["phone"]}, {"required": ["email"]}]}],
        "if": {"properties": {"reach": {"const": "phone"}}, "required": ["reach"]},
        "then": {"required": ["phone"]},
        "else": {"required": ["email"]},
        "additionalProperties": false,
    });
    schema.as_object().cloned().unwrap_or_default()
}

/// The text of `test://template/{id}/data`.
pub fn template_data(id: &str) -> String {
    json!({"id": id, "templateTest": true, "data": format!("Data for ID: {id}")}).to_string()
}

pub type Fields = std::collections::BTreeMap<String, v::PrimitiveSchemaDefinition>;

/// The request a tool sends the client before it can answer.
pub enum Ask {
    Sampling(v::CreateMessageRequestParams),
    Elicitation(v::ElicitRequestParams),
}

/// The client's answer to an [`Ask`].
pub enum Reply {
    Sampled(Box<v::CreateMessageResult>),
    Elicited(v::ElicitResult),
}

pub fn server_info() -> v::Implementation {
    v::Implementation::new("mcp-example-server", env!("CARGO_PKG_VERSION"))
}

pub fn capabilities() -> v::ServerCapabilities {
    let resources = v::ServerCapabilitiesResources {
        subscribe: Some(true),
        ..Default::default()
    };
    v::ServerCapabilities {
        tools: Some(Default::default()),
        resources: Some(resources),
        prompts: Some(Default::default()),
        logging: Some(Default::default()),
        completions: Some(Default::default()),
        ..Default::default()
    }
}

pub fn tools() -> Vec<v::Tool> {
    let tool = |name: &str, arg| v::Tool {
        description: Some(name.into()),
        ..v::Tool::new(name, input_schema(arg))
    };
    vec![
        tool("test_simple_text", None),
        tool("test_image_content", None),
        tool("test_audio_content", None),
        tool("test_embedded_resource", None),
        tool("test_multiple_content_types", None),
        tool("test_tool_with_logging", None),
        tool("test_tool_with_progress", None),
        tool("test_error_handling", None),
        tool("test_sampling", Some("prompt")),
        tool("test_elicitation", Some("message")),
        tool("test_elicitation_sep1034_defaults", None),
        tool("test_elicitation_sep1330_enums", None),
        tool("test_reconnection", None),
        json_schema_tool(),
    ]
}

/// A tool whose input schema uses JSON Schema 2020-12 keywords, kept whole.
pub fn json_schema_tool() -> v::Tool {
    let schema = Value::Object(json_schema_2020_12());
    let schema = serde_json::from_value(schema)
        .unwrap_or_else(|e| panic!("a version's tool input schema takes any object schema: {e}"));
    v::Tool {
        description: Some("Its input schema uses JSON Schema 2020-12".into()),
        ..v::Tool::new("json_schema_2020_12_tool", schema)
    }
}

/// Sends `test_tool_with_logging`'s log lines, `pause` apart.
pub async fn send_log(
    peer: &v::handlers::ClientPeer,
    pause: Option<std::time::Duration>,
) -> Result<(), ErrorObject> {
    for (i, line) in LOG_LINES.into_iter().enumerate() {
        if i > 0
            && let Some(pause) = pause
        {
            tokio::time::sleep(pause).await;
        }
        let note = v::LoggingMessageNotificationParams::new(line.into(), v::LoggingLevel::Info);
        peer.notify_logging_message(&note).await.map_err(internal)?;
    }
    Ok(())
}

/// Sends `test_tool_with_progress`'s progress, 0, 50 and 100 of 100, `pause` apart, for
/// the token as the request's `_meta` carried it (2025-06-18's params do not name
/// `_meta`). A token no notification can carry is an internal error.
pub async fn send_progress(
    peer: &v::handlers::ClientPeer,
    token: &Value,
    pause: Option<std::time::Duration>,
) -> Result<(), ErrorObject> {
    let token: v::ProgressToken = serde_json::from_value(token.clone())
        .map_err(|e| internal(format!("the server built an invalid value: {e}")))?;
    for (i, progress) in [0, 50, 100].into_iter().enumerate() {
        if i > 0
            && let Some(pause) = pause
        {
            tokio::time::sleep(pause).await;
        }
        let note = v::ProgressNotificationParams::new(progress.into(), token.clone());
        let note = v::ProgressNotificationParams {
            total: Some(100.into()),
            ..note
        };
        peer.notify_progress(&note).await.map_err(internal)?;
    }
    Ok(())
}

/// What a tool asks the client before it can answer, if anything.
pub fn tool_request(name: &str, args: &Map<String, Value>) -> Option<Ask> {
    let arg = |k| {
        args.get(k)
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string()
    };
    let (message, fields, required) = match name {
        "test_sampling" => {
            let prompt = v::SamplingMessageContent::text(arg("prompt"));
            let messages = vec![v::SamplingMessage::new(prompt, v::Role::User)];
            let params = v::CreateMessageRequestParams::new(100, messages);
            return Some(Ask::Sampling(params));
        }
        "test_elicitation" => {
            let string = |d: &str| v::StringSchema {
                description: Some(d.into()),
                ..Default::default()
            };
            let fields = [
                ("username", string("User's response")),
                ("email", string("User's email address")),
            ];
            let required = vec!["username".into(), "email".into()];
            (
                arg("message"),
                fields.map(|(k, s)| (k.into(), s.into())).into(),
                required,
            )
        }
        _ => {
            let (message, fields) = form_fields(name)?;
            (message.to_string(), fields, vec![])
        }
    };
    Some(Ask::Elicitation(elicit_form(message, fields, required)))
}

pub fn image() -> v::ContentBlock {
    v::ImageContent::new(PNG, "image/png").into()
}

pub fn text_contents(text: &str, uri: impl Into<String>, mime: &str) -> v::TextResourceContents {
    let mime_type = Some(mime.into());
    v::TextResourceContents {
        mime_type,
        ..v::TextResourceContents::new(text, uri)
    }
}

pub fn embedded(text: &str, uri: impl Into<String>, mime_type: &str) -> v::ContentBlock {
    v::EmbeddedResource::new(text_contents(text, uri, mime_type).into()).into()
}

/// `action=…, content=…` of the answer to an elicitation.
pub fn form_answer(reply: Option<Reply>) -> String {
    let (action, content) = match reply {
        Some(Reply::Elicited(r)) => (r.action.to_string(), r.content.unwrap_or_default()),
        _ => Default::default(),
    };
    let content = serde_json::to_string(&content).unwrap_or_default();
    format!("action={action}, content={content}")
}

/// The result of a tool call, given the client's answer to its [`tool_request`] and
/// the progress token as the client wrote it. `Err` is an unknown tool.
pub fn tool_result(
    name: &str,
    reply: Option<Reply>,
    progress_token: Option<&Value>,
) -> Result<v::CallToolResult, String> {
    let text = |t: &str| v::CallToolResult::text(t);
    Ok(match name {
        "test_simple_text" => text("This is a simple text response for testing."),
        "test_image_content" => call_result(vec![image()]),
        "test_audio_content" => call_result(vec![v::AudioContent::new(WAV, "audio/wav").into()]),
        "test_embedded_resource" => {
            let resource = embedded(
                "This is an embedded resource content.",
                "test://embedded-resource",
                "text/plain",
            );
            call_result(vec![resource])
        }
        "test_multiple_content_types" => call_result(vec![
            v::ContentBlock::text("Multiple content types test:"),
            image(),
            embedded(
                r#"{"test":"data","value":123}"#,
                "test://mixed-content-resource",
                "application/json",
            ),
        ]),
        "test_tool_with_logging" => text("Tool with logging executed successfully"),
        "test_tool_with_progress" => {
            let token = progress_token.map_or("none".into(), Value::to_string);
            text(&format!("progress token {token}"))
        }
        "test_reconnection" => text("Reconnection test completed"),
        "json_schema_2020_12_tool" => text("The schema came through whole."),
        "test_error_handling" => {
            v::CallToolResult::error("This tool intentionally returns an error for testing")
        }
        "test_sampling" => {
            let said = if let Some(Reply::Sampled(r)) = reply
                && let v::CreateMessageResultContent::TextContent(t) = r.content
            {
                t.text
            } else {
                String::new()
            };
            text(&format!("LLM response: {said}"))
        }
        "test_elicitation" => text(&format!("User response: {}", form_answer(reply))),
        "test_elicitation_sep1034_defaults" | "test_elicitation_sep1330_enums" => {
            text(&format!("Elicitation completed: {}", form_answer(reply)))
        }
        other => return Err(format!("Unknown tool: {other}")),
    })
}

pub fn resources() -> Vec<v::Resource> {
    let resource = |name: &str, description: &str, mime_type: &str| v::Resource {
        description: Some(description.into()),
        mime_type: Some(mime_type.into()),
        ..v::Resource::new(name, format!("test://{name}"))
    };
    vec![
        resource("static-text", "A static text resource", "text/plain"),
        resource("static-binary", "A static binary resource", "image/png"),
        resource(
            "watched-resource",
            "A resource to subscribe to",
            "text/plain",
        ),
    ]
}

pub fn resource_templates() -> Vec<v::ResourceTemplate> {
    let template = v::ResourceTemplate::new("template", "test://template/{id}/data");
    vec![v::ResourceTemplate {
        description: Some("Data by id".into()),
        mime_type: Some("application/json".into()),
        ..template
    }]
}

/// `Err` is an unknown resource.
pub fn read_resource(uri: &str) -> Result<v::ReadResourceResultContentsItem, String> {
    let text = |text: &str, mime_type| text_contents(text, uri, mime_type).into();
    let id = uri
        .strip_prefix("test://template/")
        .and_then(|r| r.strip_suffix("/data"));
    Ok(match (uri, id) {
        ("test://static-text", _) => text(
            "This is the content of the static text resource.",
            "text/plain",
        ),
        ("test://static-binary", _) => {
            let blob = v::BlobResourceContents::new(PNG, uri);
            v::BlobResourceContents {
                mime_type: Some("image/png".into()),
                ..blob
            }
            .into()
        }
        ("test://watched-resource", _) => text("Watched resource content.", "text/plain"),
        (_, Some(id)) if !id.is_empty() && !id.contains('/') => {
            text(&template_data(id), "application/json")
        }
        _ => return Err(format!("Unknown resource: {uri}")),
    })
}

pub fn prompts() -> Vec<v::Prompt> {
    let prompt = |name: &str, description: &str, args: &[&str]| {
        let required = |a: &&str| v::PromptArgument {
            required: Some(true),
            ..v::PromptArgument::new(*a)
        };
        v::Prompt {
            description: Some(description.into()),
            arguments: (!args.is_empty()).then(|| args.iter().map(required).collect()),
            ..v::Prompt::new(name)
        }
    };
    vec![
        prompt("test_simple_prompt", "A prompt without arguments", &[]),
        prompt(
            "test_prompt_with_arguments",
            "A prompt with two arguments",
            &["arg1", "arg2"],
        ),
        prompt(
            "test_prompt_with_embedded_resource",
            "A prompt with a resource",
            &["resourceUri"],
        ),
        prompt("test_prompt_with_image", "A prompt with an image", &[]),
    ]
}

/// `Err` is an unknown prompt.
pub fn get_prompt(
    name: &str,
    args: &std::collections::BTreeMap<String, String>,
) -> Result<Vec<v::PromptMessage>, String> {
    let arg = |k: &str| args.get(k).cloned().unwrap_or_default();
    let user = |content| v::PromptMessage::new(content, v::Role::User);
    let text = |t: &str| user(v::ContentBlock::text(t));
    Ok(match name {
        "test_simple_prompt" => vec![text("This is a simple prompt for testing.")],
        "test_prompt_with_arguments" => {
            let (arg1, arg2) = (arg("arg1"), arg("arg2"));
            vec![text(&format!(
                "Prompt with arguments: arg1='{arg1}', arg2='{arg2}'"
            ))]
        }
        "test_prompt_with_embedded_resource" => {
            let resource = embedded(
                "Embedded resource content for testing.",
                arg("resourceUri"),
                "text/plain",
            );
            vec![
                user(resource),
                text("Please process the embedded resource above."),
            ]
        }
        "test_prompt_with_image" => {
            vec![user(image()), text("Please analyze the image above.")]
        }
        other => return Err(format!("Unknown prompt: {other}")),
    })
}

pub fn completion() -> v::CompleteResultCompletion {
    let none = v::CompleteResultCompletion::new(vec![]);
    v::CompleteResultCompletion {
        total: Some(0),
        has_more: Some(false),
        ..none
    }
}

pub fn input_schema(arg: Option<&str>) -> v::ToolInputSchema {
    let extra = schema_members(arg);
    v::ToolInputSchema {
        extra,
        ..v::ToolInputSchema::new()
    }
}

pub fn call_result(content: Vec<v::ContentBlock>) -> v::CallToolResult {
    v::CallToolResult::new("complete", content)
}
pub fn elicit_form(
    message: String,
    fields: Fields,
    required: Vec<String>,
) -> v::ElicitRequestParams {
    let schema = v::ElicitRequestFormParamsRequestedSchema {
        required: Some(required),
        ..v::ElicitRequestFormParamsRequestedSchema::new(fields)
    };
    v::ElicitRequestFormParams::new(message, schema).into()
}

/// The message and the fields of the forms of SEP-1034 (defaults) and SEP-1330 (enums).
pub fn form_fields(name: &str) -> Option<(&'static str, Fields)> {
    let text = |s: &str| Some(s.to_string());
    let strings = |list: [&str; 3]| list.map(String::from).to_vec();
    let (message, fields): (_, [(&str, v::PrimitiveSchemaDefinition); 5]) = match name {
        "test_elicitation_sep1034_defaults" => {
            let name = v::StringSchema {
                description: text("User name"),
                default: text("John Doe"),
                ..Default::default()
            };
            let age = v::NumberSchema {
                description: text("User age"),
                default: Some(30.into()),
                ..v::NumberSchema::new(v::NumberSchemaType::Integer)
            };
            let score = v::NumberSchema {
                description: text("User score"),
                default: serde_json::Number::from_f64(95.5),
                ..v::NumberSchema::new(v::NumberSchemaType::Number)
            };
            let statuses = strings(["active", "inactive", "pending"]);
            let status = v::UntitledSingleSelectEnumSchema {
                description: text("User status"),
                default: text("active"),
                ..v::UntitledSingleSelectEnumSchema::new(statuses)
            };
            let verified = v::BooleanSchema {
                description: text("Verification status"),
                default: Some(true),
                ..Default::default()
            };
            let fields = [
                ("name", name.into()),
                ("age", age.into()),
                ("score", score.into()),
                ("status", status.into()),
                ("verified", verified.into()),
            ];
            (
                "Please review and update the form fields with defaults",
                fields,
            )
        }
        "test_elicitation_sep1330_enums" => {
            let options = strings(["option1", "option2", "option3"]);
            let untitled_single = v::UntitledSingleSelectEnumSchema {
                description: text("Select one option"),
                ..v::UntitledSingleSelectEnumSchema::new(options.clone())
            };
            let titled_single = [
                ("value1", "First Option"),
                ("value2", "Second Option"),
                ("value3", "Third Option"),
            ];
            let titled_single = titled_single
                .map(|(c, t)| v::TitledSingleSelectEnumSchemaOneOfItem::new(c, t))
                .to_vec();
            let titled_single = v::TitledSingleSelectEnumSchema {
                description: text("Select one option with titles"),
                ..v::TitledSingleSelectEnumSchema::new(titled_single)
            };
            let legacy = v::LegacyTitledEnumSchema {
                description: text("Select one option (legacy)"),
                enum_names: Some(strings(["Option One", "Option Two", "Option Three"])),
                ..v::LegacyTitledEnumSchema::new(strings(["opt1", "opt2", "opt3"]))
            };
            let untitled_multi = v::UntitledMultiSelectEnumSchema::new(
                v::UntitledMultiSelectEnumSchemaItems::new(options),
            );
            let untitled_multi = v::UntitledMultiSelectEnumSchema {
                description: text("Select multiple options"),
                min_items: Some(1),
                max_items: Some(3),
                ..untitled_multi
            };
            let titled_multi = [
                ("value1", "First Choice"),
                ("value2", "Second Choice"),
                ("value3", "Third Choice"),
            ];
            let titled_multi = titled_multi
                .map(|(c, t)| v::TitledMultiSelectEnumSchemaItemsAnyOfItem::new(c, t))
                .to_vec();
            let titled_multi = v::TitledMultiSelectEnumSchema::new(
                v::TitledMultiSelectEnumSchemaItems::new(titled_multi),
            );
            let titled_multi = v::TitledMultiSelectEnumSchema {
                description: text("Select multiple options with titles"),
                min_items: Some(1),
                max_items: Some(3),
                ..titled_multi
            };
            let fields = [
                ("untitledSingle", untitled_single.into()),
                ("titledSingle", titled_single.into()),
                ("legacyEnum", legacy.into()),
                ("untitledMulti", untitled_multi.into()),
                ("titledMulti", titled_multi.into()),
            ];
            ("Please select options from the enum fields", fields)
        }
        _ => return None,
    };
    Some((message, fields.map(|(k, s)| (k.to_string(), s)).into()))
}
