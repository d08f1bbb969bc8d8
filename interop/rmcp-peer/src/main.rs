//! The official Rust SDK (rmcp 3.11.0) as an MCP peer of our examples over stdio, so that
//! `interop/record` can record what rmcp writes (tests/data/traffic/rmcp-*.jsonl).
//!
//! `mcp-rmcp-peer client [--tool-args JSON] [--tool-meta JSON] -- COMMAND [ARGS...]` starts
//! COMMAND (our `mcp-example-server`) and, with rmcp's client and its `initialize`
//! handshake, lists and calls what that server offers: tools/list, a tools/call of
//! `test_tool_with_progress` with the given arguments and request `_meta` (rmcp adds a
//! `progressToken` of its own to every request, replacing any given), resources/list,
//! resources/read, prompts/list, prompts/get with arguments, ping, then closes. It prints a JSON summary on stdout; on any failure it
//! prints the error on stderr and exits 1.
//!
//! `mcp-rmcp-peer server` is an rmcp server on stdin/stdout for our `mcp-example-client`:
//! tools whose results vary in content (text, several blocks, an image, structured
//! content, embedded resources, a tool error), two resources and a prompt with arguments.

use std::process::ExitCode;

use rmcp::model::{
    Annotations, CallToolRequestParams, CallToolResponse, CallToolResult, ClientRequest,
    ContentBlock, EmbeddedResource, GetPromptRequestParams, GetPromptResponse, GetPromptResult,
    Implementation, JsonObject, ListPromptsResult, ListResourcesResult, ListToolsResult,
    MetaObject, PaginatedRequestParams, PingRequest, Prompt, PromptArgument, PromptMessage,
    ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult, RequestMetaObject,
    Resource, ResourceContents, Role, ServerCapabilities, ServerConfig, ServerResult, TextContent,
    Tool,
};
use rmcp::service::RequestContext;
use rmcp::transport::{TokioChildProcess, stdio};
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};
use serde_json::{Value, json};

/// A 1×1 PNG, base64.
const PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

const USAGE: &str = "usage: mcp-rmcp-peer client [--tool-args JSON] [--tool-meta JSON] -- COMMAND [ARGS...]\n       mcp-rmcp-peer server";

#[tokio::main]
async fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let outcome = match args.first().map(String::as_str) {
        Some("client") => client(&args[1..]).await,
        Some("server") => server().await,
        _ => Err(USAGE.into()),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("mcp-rmcp-peer: {e}");
            ExitCode::FAILURE
        }
    }
}

/// A JSON object given on the command line.
fn object(option: &str, text: &str) -> Result<JsonObject, String> {
    match serde_json::from_str(text) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(_) => Err(format!("{option}: not a JSON object")),
        Err(e) => Err(format!("{option}: {e}")),
    }
}

fn error(e: impl std::fmt::Display) -> String {
    e.to_string()
}

/// What the client asserts of each answer.
fn expect(ok: bool, what: impl FnOnce() -> String) -> Result<(), String> {
    if ok { Ok(()) } else { Err(what()) }
}

async fn client(args: &[String]) -> Result<(), String> {
    let (mut tool_args, mut meta) = (JsonObject::new(), JsonObject::new());
    let mut rest = args.iter();
    while let Some(a) = rest.next() {
        let mut value = || rest.next().ok_or(format!("{a} needs a value"));
        match a.as_str() {
            "--tool-args" => tool_args = object(a, value()?)?,
            "--tool-meta" => meta = object(a, value()?)?,
            "--" => break,
            other => return Err(format!("unknown option {other}\n{USAGE}")),
        }
    }
    let command: Vec<&String> = rest.collect();
    let Some((program, program_args)) = command.split_first() else {
        return Err(USAGE.into());
    };
    let mut child = tokio::process::Command::new(program);
    child.args(program_args);
    let (transport, _) = TokioChildProcess::builder(child)
        .stderr(std::process::Stdio::inherit())
        .spawn()
        .map_err(|e| format!("cannot start {program}: {e}"))?;
    // `()`: the default client handler, with rmcp's own client info and no capabilities.
    let client = ().serve(transport).await.map_err(error)?;
    let version = client
        .peer_info()
        .map(|info| info.protocol_version.to_string())
        .unwrap_or_default();

    let tools = client.list_tools(None).await.map_err(error)?;
    let mut call = CallToolRequestParams::new("test_tool_with_progress").with_arguments(tool_args);
    call.meta = Some(RequestMetaObject(MetaObject(meta)));
    let called = client.call_tool(call).await.map_err(error)?;
    let text = called.content.first().and_then(|c| c.as_text());
    let text = text.map(|t| t.text.clone()).unwrap_or_default();
    // The server echoes the progress token it was given (rmcp sets its own on every
    // request, over any in `_meta`) and reports progress with it.
    expect(text.starts_with("progress token "), || {
        format!("tools/call: {text:?}")
    })?;

    let resources = client.list_resources(None).await.map_err(error)?;
    let read = ReadResourceRequestParams::new("test://static-text");
    let read = client.read_resource(read).await.map_err(error)?;
    expect(read.contents.len() == 1, || {
        format!("resources/read: {read:?}")
    })?;

    let prompts = client.list_prompts(None).await.map_err(error)?;
    let mut prompt_args = JsonObject::new();
    prompt_args.insert(
        "arg1".into(),
        json!("première valeur, «quoted» \"and\" \\ slashed"),
    );
    prompt_args.insert("arg2".into(), json!("二番目 🦀\n\ttabbed"));
    let get = GetPromptRequestParams::new("test_prompt_with_arguments").with_arguments(prompt_args);
    let prompt = client.get_prompt(get).await.map_err(error)?;
    expect(prompt.messages.len() == 1, || {
        format!("prompts/get: {prompt:?}")
    })?;

    let ping = ClientRequest::PingRequest(PingRequest::default());
    let pong = client.send_request(ping).await.map_err(error)?;
    expect(matches!(pong, ServerResult::EmptyResult(_)), || {
        format!("ping: {pong:?}")
    })?;
    client.cancel().await.map_err(error)?;
    let summary = json!({
        "ok": true, "sdk": "rmcp 3.11.0", "protocol_version": version,
        "tools": tools.tools.len(), "tool_result": text,
        "resources": resources.resources.len(), "prompts": prompts.prompts.len(),
    });
    println!("{summary}");
    Ok(())
}

async fn server() -> Result<(), String> {
    let running = Server.serve(stdio()).await.map_err(error)?;
    running.waiting().await.map_err(error)?;
    Ok(())
}

/// The server's tools, resources and prompt.
struct Server;

fn schema(value: Value) -> JsonObject {
    match value {
        Value::Object(map) => map,
        _ => JsonObject::new(),
    }
}

fn text_block(text: &str, audience: Vec<Role>, priority: f32) -> ContentBlock {
    let annotations = Annotations::default()
        .with_audience(audience)
        .with_priority(priority);
    ContentBlock::Text(TextContent::new(text).with_annotations(annotations))
}

const README: &str =
    "# rmcp peer\n\nServed by rmcp 3.11.0 — «ünïcödé», 日本語, emoji 🦀, a tab\tand \"quotes\".\n";

fn readme(uri: &str) -> ResourceContents {
    ResourceContents::text(README, uri).with_mime_type("text/markdown")
}

fn logo(uri: &str) -> ResourceContents {
    ResourceContents::blob(PNG, uri).with_mime_type("image/png")
}

impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        let capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_resources()
            .enable_prompts()
            .build();
        ServerConfig::new(capabilities)
            .with_server_info(Implementation::new("mcp-rmcp-peer", "0.0.0"))
            .with_instructions("rmcp 3.11.0, serving varied results for interop/record.")
    }

    async fn list_tools(
        &self,
        _: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let none = || schema(json!({"type": "object", "properties": {}}));
        let echo = schema(json!({"type": "object", "required": ["text"],
                                 "properties": {"text": {"type": "string"}}}));
        let city = schema(json!({"type": "object", "required": ["city"],
            "properties": {"city": {"type": "string", "description": "A city"}}}));
        let weather_out = schema(json!({"type": "object", "required": ["city", "celsius"],
            "properties": {"city": {"type": "string"}, "celsius": {"type": "number"},
                           "conditions": {"type": "array", "items": {"type": "string"}},
                           "wind": {"type": "object"}}}));
        Ok(ListToolsResult::with_all_items(vec![
            Tool::new("echo", "Echoes its text", echo),
            Tool::new(
                "several_blocks",
                "Three blocks: text, annotated text, a link",
                none(),
            ),
            Tool::new("image", "A caption and a 1x1 PNG", none()),
            Tool::new("weather", "Structured weather for a city", city)
                .with_raw_output_schema(weather_out.into())
                .with_title("Weather"),
            Tool::new("embedded", "Two embedded resources, text and blob", none()),
            Tool::new("fail", "Always a tool error (isError)", none()),
        ]))
    }

    async fn call_tool(
        &self,
        p: CallToolRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let args = p.arguments.unwrap_or_default();
        let arg = |k: &str| {
            args.get(k)
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string()
        };
        let result = match p.name.as_ref() {
            "echo" => CallToolResult::success(vec![ContentBlock::text(arg("text"))]),
            "several_blocks" => CallToolResult::success(vec![
                ContentBlock::text("first block"),
                text_block("second block, for the user", vec![Role::User], 0.75),
                ContentBlock::resource_link(
                    Resource::new("memo://readme", "readme").with_mime_type("text/markdown"),
                ),
            ]),
            "image" => CallToolResult::success(vec![
                ContentBlock::text("a 1x1 PNG:"),
                ContentBlock::image(PNG, "image/png"),
            ]),
            "weather" => {
                let weather = json!({"city": arg("city"), "celsius": -3.5,
                    "conditions": ["snow", "wind"], "wind": {"kmh": 42, "from": "NNE"}});
                let mut result =
                    CallToolResult::success(vec![ContentBlock::text(weather.to_string())]);
                result.structured_content = Some(weather);
                result
            }
            "embedded" => CallToolResult::success(vec![
                ContentBlock::Resource(EmbeddedResource::new(readme("memo://readme"))),
                ContentBlock::resource(logo("memo://logo")),
            ]),
            "fail" => CallToolResult::error(vec![ContentBlock::text("this tool always fails")]),
            other => {
                return Err(ErrorData::invalid_params(
                    format!("unknown tool {other}"),
                    None,
                ));
            }
        };
        Ok(result.into())
    }

    async fn list_resources(
        &self,
        _: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        Ok(ListResourcesResult::with_all_items(vec![
            Resource::new("memo://readme", "readme")
                .with_description("A markdown note")
                .with_mime_type("text/markdown"),
            Resource::new("memo://logo", "logo")
                .with_mime_type("image/png")
                .with_size(68),
        ]))
    }

    async fn read_resource(
        &self,
        p: ReadResourceRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let contents = match p.uri.as_str() {
            "memo://readme" => readme(&p.uri),
            "memo://logo" => logo(&p.uri),
            other => {
                let data = json!({"uri": other});
                return Err(ErrorData::resource_not_found(
                    "no such resource",
                    Some(data),
                ));
            }
        };
        Ok(ReadResourceResult::new(vec![contents]).into())
    }

    async fn list_prompts(
        &self,
        _: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        let arguments = vec![
            PromptArgument::new("code")
                .with_description("The code to review")
                .with_required(true),
            PromptArgument::new("language").with_description("Its language"),
        ];
        let review = Prompt::new("review", Some("Asks for a code review"), Some(arguments));
        Ok(ListPromptsResult::with_all_items(vec![review]))
    }

    async fn get_prompt(
        &self,
        p: GetPromptRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        if p.name != "review" {
            return Err(ErrorData::invalid_params("unknown prompt", None));
        }
        let args = p.arguments.unwrap_or_default();
        let arg = |k: &str| {
            args.get(k)
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string()
        };
        let language = Some(arg("language")).filter(|l| !l.is_empty());
        let language = language.unwrap_or_else(|| "text".into());
        let messages = vec![
            PromptMessage::new_text(Role::User, format!("Review this {language}:")),
            PromptMessage::new(
                Role::User,
                ContentBlock::resource(ResourceContents::text(arg("code"), "memo://code")),
            ),
            PromptMessage::new_text(Role::Assistant, "I will look at it line by line."),
        ];
        let result = GetPromptResult::new(messages).with_description("A code review");
        Ok(result.into())
    }
}
