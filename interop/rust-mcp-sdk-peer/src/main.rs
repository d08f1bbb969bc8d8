//! rust-mcp-sdk 2.0.0 (an MCP SDK written apart from the official ones, on its own generated
//! schema crate, rust-mcp-schema) as an MCP peer of our examples over stdio, so that
//! `interop/record` can record what it writes (tests/data/traffic/rust-mcp-sdk-*.jsonl).
//!
//! `mcp-rust-mcp-sdk-peer client [--tool-args JSON] [--tool-meta JSON] -- COMMAND [ARGS...]`
//! starts COMMAND (our `mcp-example-server`) and, with the SDK's 2026-07-28 client, calls
//! `server/discover`, tools/list, a tools/call of `test_simple_text` with the given
//! arguments and extra request `_meta`, resources/list, resources/read, prompts/list and
//! prompts/get with arguments; it prints a JSON summary on stdout, and on any failure the
//! error on stderr with exit status 1.
//!
//! `mcp-rust-mcp-sdk-peer server` is the SDK's server on stdin/stdout for our
//! `mcp-example-client`: tools whose results carry text, several blocks, structured
//! content and a tool error; no resources and no prompts (empty lists).

use std::process::ExitCode;
use std::sync::Arc;

use async_trait::async_trait;
use rust_mcp_sdk::mcp_client::{
    ClientHandler, McpClientOptions, ToMcpClientHandler, client_runtime,
};
use rust_mcp_sdk::mcp_server::{McpServerOptions, ServerHandler, server_runtime};
use rust_mcp_sdk::schema::schema_utils::CallToolError;
use rust_mcp_sdk::schema::{
    CallToolRequestParams, CallToolResult, ClientCapabilities, GetPromptRequestParams,
    Implementation, ListPromptsResult, ListPromptsResultCacheScope, ListResourcesResult,
    ListResourcesResultCacheScope, ListToolsResult, ListToolsResultCacheScope,
    PaginatedRequestParams, ReadResourceRequestParams, RequestMetaObject, RpcError,
    ServerCapabilities, ServerCapabilitiesTools, ServerResult, Tool, ToolInputSchema,
};
use rust_mcp_sdk::{
    ClientDetails, McpClient, McpServer, RequestContext, ServerDetails, StdioTransport,
    ToMcpServerHandler, TransportOptions,
};
use serde_json::{Map, Value, json};

const USAGE: &str = "usage: mcp-rust-mcp-sdk-peer client [--tool-args JSON] [--tool-meta JSON] -- COMMAND [ARGS...]\n       mcp-rust-mcp-sdk-peer server";

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
            eprintln!("mcp-rust-mcp-sdk-peer: {e}");
            ExitCode::FAILURE
        }
    }
}

fn error(e: impl std::fmt::Display) -> String {
    e.to_string()
}

/// A JSON object given on the command line.
fn object(option: &str, text: &str) -> Result<Map<String, Value>, String> {
    match serde_json::from_str(text) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(_) => Err(format!("{option}: not a JSON object")),
        Err(e) => Err(format!("{option}: {e}")),
    }
}

fn info(name: &str) -> Implementation {
    Implementation {
        name: name.into(),
        version: "2.0.0".into(),
        description: None,
        icons: vec![],
        title: None,
        website_url: None,
    }
}

struct Client;
#[async_trait]
impl ClientHandler for Client {}

async fn client(args: &[String]) -> Result<(), String> {
    let (mut tool_args, mut meta) = (Map::new(), Map::new());
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
    let command: Vec<String> = rest.cloned().collect();
    let Some((program, program_args)) = command.split_first() else {
        return Err(USAGE.into());
    };
    let transport = StdioTransport::create_with_server_launch(
        program.as_str(),
        program_args.to_vec(),
        None,
        TransportOptions::default(),
    )
    .map_err(error)?;
    let details = ClientDetails {
        client_info: info("rust-mcp-sdk-peer"),
        capabilities: ClientCapabilities::default(),
    };
    let client = client_runtime::create_client(McpClientOptions::new(
        details,
        transport,
        Client.to_mcp_client_handler(),
    ));
    client.clone().start().await.map_err(error)?;
    let discovered = client
        .request_discover(Default::default())
        .await
        .map_err(error)?;
    let tools = client.request_tool_list(None).await.map_err(error)?.tools;
    let request_meta = RequestMetaObject {
        extra: (!meta.is_empty()).then_some(meta),
        ..Default::default()
    };
    let call = CallToolRequestParams {
        name: "test_simple_text".into(),
        arguments: Some(tool_args),
        meta: request_meta,
        input_responses: None,
        request_state: None,
    };
    let called = client.request_tool_call(call).await.map_err(error)?;
    let text = called
        .content
        .first()
        .and_then(|c| c.as_text_content().ok())
        .map(|t| t.text.clone())
        .unwrap_or_default();
    if text != "This is a simple text response for testing." {
        return Err(format!("tools/call: {text:?}"));
    }
    let resources = client.request_resource_list(None).await.map_err(error)?;
    let read = ReadResourceRequestParams {
        uri: "test://static-text".into(),
        meta: RequestMetaObject::default(),
        input_responses: None,
        request_state: None,
    };
    let read = client.request_resource_read(read).await.map_err(error)?;
    let prompts = client.request_prompt_list(None).await.map_err(error)?;
    let mut arguments = std::collections::BTreeMap::new();
    arguments.insert("arg1".to_string(), "testValue1".to_string());
    arguments.insert("arg2".to_string(), "testValue2".to_string());
    let get = GetPromptRequestParams {
        name: "test_prompt_with_arguments".into(),
        arguments: Some(arguments),
        meta: RequestMetaObject::default(),
        input_responses: None,
        request_state: None,
    };
    let prompt = client.request_prompt(get).await.map_err(error)?;
    let summary = json!({
        "ok": true,
        "capabilities": serde_json::to_value(&discovered.capabilities).map_err(error)?,
        "tools": tools.len(),
        "call": text,
        "resources": resources.resources.len(),
        "read": read.contents.len(),
        "prompts": prompts.prompts.len(),
        "prompt_messages": prompt.messages.len(),
    });
    println!("{summary}");
    client.shut_down().await.map_err(error)?;
    Ok(())
}

struct Server;

fn tool(name: &str, description: &str) -> Tool {
    Tool {
        annotations: None,
        description: Some(description.into()),
        icons: vec![],
        input_schema: ToolInputSchema::new(None, None),
        meta: None,
        name: name.into(),
        output_schema: None,
        title: None,
    }
}

#[async_trait]
impl ServerHandler for Server {
    async fn handle_list_tools_request(
        &self,
        _: Option<PaginatedRequestParams>,
        _: &RequestContext,
        _: Arc<dyn McpServer>,
    ) -> Result<ListToolsResult, RpcError> {
        Ok(ListToolsResult {
            tools: vec![
                tool("hello", "Says hello"),
                tool(
                    "several",
                    "Answers with several text blocks and structured content",
                ),
                tool("fails", "Answers with a tool error"),
            ],
            cache_scope: ListToolsResultCacheScope::Private,
            result_type: "complete".to_string(),
            ttl_ms: 0,
            meta: None,
            next_cursor: None,
        })
    }

    async fn handle_list_resources_request(
        &self,
        _: Option<PaginatedRequestParams>,
        _: &RequestContext,
        _: Arc<dyn McpServer>,
    ) -> Result<ListResourcesResult, RpcError> {
        Ok(ListResourcesResult {
            cache_scope: ListResourcesResultCacheScope::Public,
            meta: None,
            next_cursor: None,
            resources: vec![],
            result_type: "complete".into(),
            ttl_ms: 60_000,
        })
    }

    async fn handle_list_prompts_request(
        &self,
        _: Option<PaginatedRequestParams>,
        _: &RequestContext,
        _: Arc<dyn McpServer>,
    ) -> Result<ListPromptsResult, RpcError> {
        Ok(ListPromptsResult {
            cache_scope: ListPromptsResultCacheScope::Public,
            meta: None,
            next_cursor: None,
            prompts: vec![],
            result_type: "complete".into(),
            ttl_ms: 60_000,
        })
    }

    async fn handle_call_tool_request(
        &self,
        params: CallToolRequestParams,
        _: &RequestContext,
        _: Arc<dyn McpServer>,
    ) -> Result<ServerResult, CallToolError> {
        match params.name.as_str() {
            "hello" => {
                Ok(CallToolResult::text_content(vec!["Hello from rust-mcp-sdk".into()]).into())
            }
            "several" => {
                let mut result = CallToolResult::text_content(vec![
                    "first block".into(),
                    "second block, with \"quotes\" and unicode: é ✓".into(),
                ]);
                let structured = json!({"count": 2, "items": [1, 2.5, -3], "nested": {"ok": true}});
                result.structured_content = Some(structured);
                Ok(result.into())
            }
            "fails" => Err(CallToolError::from_message("this tool always fails")),
            other => Err(CallToolError::unknown_tool(other.to_string())),
        }
    }
}

async fn server() -> Result<(), String> {
    let details = ServerDetails {
        server_info: info("rust-mcp-sdk-peer"),
        capabilities: ServerCapabilities {
            tools: Some(ServerCapabilitiesTools {
                list_changed: Some(true),
            }),
            ..Default::default()
        },
        instructions: None,
        meta: None,
    };
    let transport = StdioTransport::new(TransportOptions::default()).map_err(error)?;
    let server = server_runtime::create_server(McpServerOptions {
        transport,
        handler: Server.to_mcp_server_handler(),
        server_details: details,
        message_observer: None,
    });
    server.start().await.map_err(error)
}
