//! An MCP server built on the generated crate and its session engine
//! (`mcp-spec-session`), speaking newline-delimited JSON-RPC on stdin/stdout, or
//! Streamable HTTP on `http://127.0.0.1:PORT/mcp` with `--http PORT`.
//!
//! It offers three protocol versions from two handlers, and the session picks the one each
//! connection speaks (`mcp_spec_session::Versions`): `initialize` negotiates 2025-06-18 or
//! 2025-11-25, both served by one 2025-11-25 handler (2025-06-18 through the generated
//! `convert::v2025_06_18_v2025_11_25::ServeOlder`); a request that carries
//! `_meta["io.modelcontextprotocol/protocolVersion"]` (such as `server/discover`) is served
//! at 2026-07-28. What they serve (the fixtures of the official conformance suite) is in
//! `fixtures.rs`.

#[macro_use]
mod fixtures;
mod input;
mod traffic;

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use fixtures::INSTRUCTIONS;
use mcp_spec_session::Session;
use mcp_spec_session::Versions;
use mcp_spec_session::http::HttpServer;
use mcp_spec_session::stdio::serve_stdio_with;
use mcp_spec_types::ProtocolVersion;
use mcp_spec_types::rt::jsonrpc::ErrorObject;
use mcp_spec_types::rt::method::Request;
use mcp_spec_types::rt::service::{Meta, RequestContext};
use mcp_spec_types::version::RequireVersion;

fn internal(e: impl ToString) -> ErrorObject {
    ErrorObject::internal_error(e.to_string())
}

/// What the connection remembers.
#[derive(Default)]
struct State {
    subscriptions: Mutex<Vec<String>>,
}

/// The `initialize` era's handler, written for 2025-11-25 (2025-06-18 clients get it
/// through `ServeOlder`).
mod era_2025_11_25 {
    use super::*;
    use mcp_spec_types::v2025_11_25 as v;
    use v::handlers::{ClientPeer, ServerHandler};
    use v::methods::*;
    type P<M> = <M as Request>::Params;
    type Answer<M> = Result<<M as Request>::Result, ErrorObject>;
    type Cx = RequestContext<ClientPeer>;

    fixtures!(v2025_11_25);

    #[derive(Clone)]
    pub struct Handler {
        pub state: Arc<State>,
    }

    impl ServerHandler for Handler {
        async fn initialize(&self, _: P<Initialize>, _: Cx) -> Answer<Initialize> {
            let result = v::InitializeResult::new(
                ProtocolVersion::V2025_11_25.as_str(),
                capabilities(),
                server_info(),
            );
            Ok(v::InitializeResult {
                instructions: Some(INSTRUCTIONS.into()),
                ..result
            })
        }
        async fn set_level(&self, _: P<SetLevel>, _: Cx) -> Answer<SetLevel> {
            Ok(Default::default())
        }
        async fn complete(&self, _: P<Complete>, _: Cx) -> Answer<Complete> {
            Ok(v::CompleteResult::new(completion()))
        }
        async fn list_tools(&self, _: Option<P<ListTools>>, _: Cx) -> Answer<ListTools> {
            Ok(v::ListToolsResult::new(tools()))
        }
        async fn call_tool(&self, p: P<CallTool>, cx: Cx) -> Answer<CallTool> {
            let args = p.arguments.clone().unwrap_or_default();
            let token = cx.meta.as_ref().and_then(|m| m.get("progressToken"));
            let pause = Some(Duration::from_millis(50));
            match (p.name.as_str(), &token) {
                ("test_tool_with_logging", _) => send_log(&cx.peer, pause).await?,
                ("test_tool_with_progress", Some(t)) => send_progress(&cx.peer, t, pause).await?,
                // SEP-1699: over HTTP, the answer's stream closes first, and the
                // answer waits for the client to resume it.
                ("test_reconnection", _) => {
                    mcp_spec_session::http::close_stream();
                    tokio::time::sleep(Duration::from_millis(200)).await;
                }
                _ => {}
            }
            let reply = match tool_request(&p.name, &args) {
                Some(Ask::Sampling(params)) => {
                    sampled(cx.peer.create_message(&params).await.map_err(internal)?)
                }
                Some(Ask::Elicitation(params)) => {
                    elicited(cx.peer.elicit(&params).await.map_err(internal)?)
                }
                None => None,
            };
            let result =
                tool_result(&p.name, reply, token.as_ref()).map_err(ErrorObject::invalid_params)?;
            Ok(result.into())
        }
        async fn list_resources(
            &self,
            _: Option<P<ListResources>>,
            _: Cx,
        ) -> Answer<ListResources> {
            Ok(v::ListResourcesResult::new(resources()))
        }
        async fn list_resource_templates(
            &self,
            _: Option<P<ListResourceTemplates>>,
            _: Cx,
        ) -> Answer<ListResourceTemplates> {
            Ok(v::ListResourceTemplatesResult::new(resource_templates()))
        }
        async fn read_resource(&self, p: P<ReadResource>, _: Cx) -> Answer<ReadResource> {
            let contents = read_resource(&p.uri).map_err(ErrorObject::invalid_params)?;
            Ok(v::ReadResourceResult::new(vec![contents]))
        }
        async fn subscribe(&self, p: P<Subscribe>, _: Cx) -> Answer<Subscribe> {
            self.state.subscriptions.lock().unwrap().push(p.uri);
            Ok(Default::default())
        }
        async fn unsubscribe(&self, p: P<Unsubscribe>, _: Cx) -> Answer<Unsubscribe> {
            self.state
                .subscriptions
                .lock()
                .unwrap()
                .retain(|u| *u != p.uri);
            Ok(Default::default())
        }
        async fn list_prompts(&self, _: Option<P<ListPrompts>>, _: Cx) -> Answer<ListPrompts> {
            Ok(v::ListPromptsResult::new(prompts()))
        }
        async fn get_prompt(&self, p: P<GetPrompt>, _: Cx) -> Answer<GetPrompt> {
            let messages = get_prompt(&p.name, &p.arguments.unwrap_or_default())
                .map_err(ErrorObject::invalid_params)?;
            Ok(v::GetPromptResult::new(messages))
        }
    }
}

/// The discover era: every request says its version in `_meta`. 2026-07-28 deprecates
/// sampling and logging (SEP-2577); this era still serves the fixtures that use them.
#[allow(deprecated)]
mod era_2026_07_28 {
    use super::*;
    use mcp_spec_types::v2026_07_28 as v;
    use v::handlers::{ClientPeer, ServerHandler};
    use v::methods::*;
    type P<M> = <M as Request>::Params;
    type Answer<M> = Result<<M as Request>::Result, ErrorObject>;
    type Cx = RequestContext<ClientPeer>;

    fixtures!(v2026_07_28);

    const LOG_LEVEL: &str = "io.modelcontextprotocol/logLevel";

    /// Every result of this era says which server answered.
    fn result_meta() -> Option<v::ResultMetaObject> {
        let info = Some(server_info());
        Some(v::ResultMetaObject {
            io_modelcontextprotocol_server_info: info,
            ..Default::default()
        })
    }

    /// `v::$Result::new("complete", ..)` with [`result_meta`]. Lists and reads also say how they may
    /// be cached: this server's are public, and stale at once (`ttlMs` 0).
    macro_rules! complete {
        ($result:ident($($arg:expr),*)) => {
            v::$result { meta: result_meta(), ..v::$result::new("complete", $($arg),*) }
        };
    }

    pub struct Handler;

    impl ServerHandler for Handler {
        async fn discover(&self, _: P<Discover>, _: Cx) -> Answer<Discover> {
            let caps = v::ServerCapabilities {
                resources: Some(Default::default()),
                ..capabilities()
            };
            let versions = vec!["2026-07-28".into()];
            let public = v::DiscoverResultCacheScope::Public;
            let result = complete!(DiscoverResult(public, caps, versions, 0));
            Ok(v::DiscoverResult {
                instructions: Some(INSTRUCTIONS.into()),
                ..result
            })
        }
        async fn complete(&self, _: P<Complete>, _: Cx) -> Answer<Complete> {
            Ok(complete!(CompleteResult(completion())))
        }
        async fn list_tools(&self, _: P<ListTools>, _: Cx) -> Answer<ListTools> {
            let public = v::ListToolsResultCacheScope::Public;
            let mut tools = tools();
            for (name, description, extra) in input::tools() {
                let schema = v::ToolInputSchema {
                    extra,
                    ..v::ToolInputSchema::new()
                };
                let tool = v::Tool::new(name, schema);
                tools.push(v::Tool {
                    description: Some(description.into()),
                    ..tool
                });
            }
            Ok(complete!(ListToolsResult(public, tools, 0)))
        }
        async fn call_tool(&self, p: P<CallTool>, cx: Cx) -> Answer<CallTool> {
            let capabilities = &p.meta.io_modelcontextprotocol_client_capabilities;
            let state = p.request_state.as_deref();
            match input::call(&p.name, p.input_responses.as_ref(), state, capabilities) {
                Some(Ok(input::Outcome::Done(text))) => {
                    let text = v::ContentBlock::text(text);
                    let result = v::CallToolResult::new("complete", vec![text]);
                    return Ok(v::CallToolResult {
                        meta: result_meta(),
                        ..result
                    }
                    .into());
                }
                Some(Ok(input::Outcome::Ask(result))) => return Ok((*result).into()),
                Some(Err(e)) => return Err(e),
                None => {}
            }
            let args = p.arguments.clone().unwrap_or_default();
            let meta = cx.meta.as_ref().map(Meta::to_map).unwrap_or_default();
            let token = meta.get("progressToken");
            if p.name == "test_tool_with_logging" && meta.contains_key(LOG_LEVEL) {
                send_log(&cx.peer, None).await?;
            }
            if let ("test_tool_with_progress", Some(token)) = (p.name.as_str(), token) {
                send_progress(&cx.peer, token, None).await?;
            }
            // Sampling and elicitation are input requests in this era: ask in the result,
            // and finish when the client retries with the answer.
            let reply = match tool_request(&p.name, &args) {
                None => None,
                Some(ask) => match p.input_responses.and_then(|mut r| r.remove("input")) {
                    None => {
                        let request = match ask {
                            Ask::Sampling(params) => v::CreateMessageRequest::new(params).into(),
                            Ask::Elicitation(params) => v::ElicitRequest::new(params).into(),
                        };
                        let mut result = v::InputRequiredResult::new("input_required");
                        result.input_requests = Some(BTreeMap::from([("input".into(), request)]));
                        return Ok(result.into());
                    }
                    Some(v::InputResponse::CreateMessageResult(r)) => {
                        Some(Reply::Sampled(Box::new(r)))
                    }
                    Some(v::InputResponse::ElicitResult(r)) => Some(Reply::Elicited(r)),
                    Some(v::InputResponse::ListRootsResult(_)) => None,
                },
            };
            let mut result =
                tool_result(&p.name, reply, token).map_err(ErrorObject::invalid_params)?;
            result.meta = result_meta();
            Ok(result.into())
        }
        async fn list_resources(&self, _: P<ListResources>, _: Cx) -> Answer<ListResources> {
            let public = v::ListResourcesResultCacheScope::Public;
            Ok(complete!(ListResourcesResult(public, resources(), 0)))
        }
        async fn list_resource_templates(
            &self,
            _: P<ListResourceTemplates>,
            _: Cx,
        ) -> Answer<ListResourceTemplates> {
            let public = v::ListResourceTemplatesResultCacheScope::Public;
            let templates = resource_templates();
            Ok(complete!(ListResourceTemplatesResult(public, templates, 0)))
        }
        async fn read_resource(&self, p: P<ReadResource>, _: Cx) -> Answer<ReadResource> {
            let contents = read_resource(&p.uri).map_err(|e| {
                // SEP-2164: an unknown resource is -32602 naming its URI.
                ErrorObject::invalid_params(e).with_data(serde_json::json!({"uri": p.uri}))
            })?;
            let public = v::ReadResourceResultCacheScope::Public;
            Ok(complete!(ReadResourceResult(public, vec![contents], 0)).into())
        }
        async fn list_prompts(&self, _: P<ListPrompts>, _: Cx) -> Answer<ListPrompts> {
            let public = v::ListPromptsResultCacheScope::Public;
            let mut prompts = prompts();
            prompts.push(v::Prompt {
                description: Some("A prompt that asks for context first".into()),
                ..v::Prompt::new(input::PROMPT)
            });
            Ok(complete!(ListPromptsResult(public, prompts, 0)))
        }
        async fn get_prompt(&self, p: P<GetPrompt>, _: Cx) -> Answer<GetPrompt> {
            if p.name == input::PROMPT {
                return Ok(match input::prompt(p.input_responses.as_ref()) {
                    input::Outcome::Done(text) => {
                        let text = v::ContentBlock::text(text);
                        let message = v::PromptMessage::new(text, v::Role::User);
                        complete!(GetPromptResult(vec![message])).into()
                    }
                    input::Outcome::Ask(result) => (*result).into(),
                });
            }
            let args = p.arguments.unwrap_or_default();
            let messages = get_prompt(&p.name, &args).map_err(ErrorObject::invalid_params)?;
            Ok(complete!(GetPromptResult(messages)).into())
        }
    }
}

/// The versions this server offers, for one connection.
fn versions() -> Versions {
    use mcp_spec_types::convert::v2025_06_18_v2025_11_25::ServeOlder;
    use mcp_spec_types::v2025_06_18::handlers as v1;
    use mcp_spec_types::v2025_11_25::handlers as v2;
    use mcp_spec_types::v2026_07_28::handlers as v3;
    let state = Arc::new(State::default());
    let v2025_11_25 = era_2025_11_25::Handler { state };
    let policy = RequireVersion::new(&[ProtocolVersion::V2026_07_28]);
    // 2025-06-18 clients are served by the 2025-11-25 handler, converted both ways.
    Versions::new()
        .with(
            ProtocolVersion::V2025_06_18,
            v1::Server::new(ServeOlder(v2025_11_25.clone())),
        )
        .with(ProtocolVersion::V2025_11_25, v2::Server::new(v2025_11_25))
        .with(
            ProtocolVersion::V2026_07_28,
            v3::Server::new(era_2026_07_28::Handler).with_policy(policy),
        )
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let [flag, port] = args.as_slice()
        && flag == "--http"
    {
        let port: u16 = port.parse().expect("--http PORT");
        let listener = tokio::net::TcpListener::bind(("127.0.0.1", port))
            .await
            .expect("bind 127.0.0.1");
        eprintln!("mcp-example-server: Streamable HTTP on http://127.0.0.1:{port}/mcp");
        let mut server = HttpServer::new(versions);
        if traffic::on() {
            server = server
                .tap(|session, direction, text| traffic::record(direction, Some(session), text));
        }
        server.serve(listener).await.expect("serve");
        return;
    }
    let mut builder = Session::builder();
    if traffic::on() {
        builder = builder.tap(|direction, text| traffic::record(direction, None, text));
    }
    serve_stdio_with(builder, versions()).await;
}
