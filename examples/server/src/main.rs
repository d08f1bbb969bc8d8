//! An MCP server built on the generated crate and its session engine
//! (`mcp-spec-session`), speaking newline-delimited JSON-RPC on stdin/stdout, or
//! Streamable HTTP on `http://127.0.0.1:PORT/mcp` with `--http PORT`.
//!
//! With `--http PORT --auth-issuer ISSUER [--auth-scope SCOPE]...` it is an OAuth resource
//! server (`mcp_spec_session::auth_server`): every request needs a JWT access token from
//! ISSUER (its keys found through its metadata) for `http://127.0.0.1:PORT/mcp`, granting
//! every SCOPE; the tool `whoami` (not listed) answers with the caller's subject and
//! scopes.
//!
//! It offers every protocol version from 2024-11-05 to 2026-07-28 from one handler,
//! written for 2026-07-28, and the session picks the one each connection speaks
//! (`mcp_spec_session::Versions::every_version`): a request that carries
//! `_meta["io.modelcontextprotocol/protocolVersion"]` (such as `server/discover`) is served
//! at 2026-07-28; `initialize` negotiates an older version, served by the same handler
//! through the version adapters (`serve_older`), which bridge the lifecycles: sampling and
//! elicitation, which the handler asks for in its results, become requests to the client.
//! What it serves (the fixtures of the official conformance suite) is in `fixtures.rs`.

mod fixtures;
mod input;
mod tasks;
mod traffic;

use std::collections::BTreeMap;
use std::time::Duration;

use serde_json::json;

use fixtures::INSTRUCTIONS;
use mcp_spec_session::Session;
use mcp_spec_session::Versions;
use mcp_spec_session::auth_server::{JwtVerifier, Protection};
use mcp_spec_session::http::HttpServer;
use mcp_spec_session::stdio::serve_stdio_with;
use mcp_spec_types::rt::jsonrpc::ErrorObject;
use mcp_spec_types::rt::method::Request;
use mcp_spec_types::rt::service::{Meta, RequestContext};

fn internal(e: impl ToString) -> ErrorObject {
    ErrorObject::internal_error(e.to_string())
}

/// The one handler: every request says its version in `_meta`. 2026-07-28 deprecates
/// sampling and logging (SEP-2577); it still serves the fixtures that use them.
#[allow(deprecated)]
mod handler {
    use super::*;
    use fixtures::*;
    use mcp_spec_types::v2026_07_28 as v;
    use v::handlers::{ClientPeer, ServerHandler};
    use v::methods::*;
    type P<M> = <M as Request>::Params;
    type Answer<M> = Result<<M as Request>::Result, ErrorObject>;
    type Cx = RequestContext<ClientPeer>;

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

    /// The handler, with the tasks of the tasks extension, whose status a listener may
    /// follow.
    pub struct Handler {
        pub tasks: super::tasks::Tasks,
    }

    impl ServerHandler for Handler {
        async fn discover(&self, _: P<Discover>, _: Cx) -> Answer<Discover> {
            let caps = capabilities();
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
            tools.extend(super::tasks::tools());
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
            // The tools of the tasks extension's scenarios, where their answer is the
            // call's own (see `tasks.rs`).
            if let ("whoami", Some(who)) =
                (p.name.as_str(), mcp_spec_session::auth_server::caller())
            {
                let scopes: Vec<_> = who.scopes.iter().map(String::as_str).collect();
                let text = format!("{} {}", who.subject.unwrap_or_default(), scopes.join(" "));
                let result = v::CallToolResult::new("complete", vec![v::ContentBlock::text(text)]);
                return Ok(result.into());
            }
            let args = p.arguments.clone().unwrap_or_default();
            let input = p.input_responses.as_ref();
            if let Some(answer) = super::tasks::call_in_place(&p.name, &args, input).await {
                return answer;
            }
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
            // SEP-1699: over HTTP, the answer's stream closes first, and the answer waits
            // for the client to resume it.
            if p.name == "test_reconnection" {
                mcp_spec_session::http::close_stream().await;
                tokio::time::sleep(Duration::from_millis(200)).await;
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
        /// Resource updates: this server's resources never change, so a listener only
        /// acknowledges what it will send, and waits to be cancelled.
        async fn subscriptions_listen(
            &self,
            p: P<SubscriptionsListen>,
            cx: Cx,
        ) -> Answer<SubscriptionsListen> {
            // It agrees to resource updates, on the stream named by the request's id, and
            // with the tasks extension, to the status of the tasks it knows of those asked.
            let task_ids: Option<Vec<String>> = match p.notifications.extra.get("taskIds") {
                None => None,
                Some(ids) => Some(serde_json::from_value(ids.clone()).map_err(|e| {
                    ErrorObject::invalid_params(format!("notifications.taskIds: {e}"))
                })?),
            };
            let extension = mcp_spec_types::ext::tasks::handlers::EXTENSION;
            if task_ids.is_some()
                && !mcp_spec_types::rt::extension::declared(cx.meta.as_ref(), extension)
            {
                return Err(mcp_spec_types::rt::extension::missing(extension));
            }
            let agreed_tasks = task_ids.map(|ids| self.tasks.known(&ids));
            let mut agreed =
                json!({"resourceSubscriptions": p.notifications.resource_subscriptions});
            if let Some(ids) = &agreed_tasks {
                agreed["taskIds"] = json!(ids);
            }
            let ack = json!({"notifications": agreed,
                             "_meta": {"io.modelcontextprotocol/subscriptionId": cx.id}});
            let ack: v::SubscriptionsAcknowledgedNotificationParams =
                serde_json::from_value(ack).map_err(internal)?;
            cx.peer
                .notify_subscriptions_acknowledged(&ack)
                .await
                .map_err(internal)?;
            if let Some(ids) = agreed_tasks {
                self.tasks.follow(ids, &cx.peer.0).await;
            }
            std::future::pending().await
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

/// The versions this server offers, for one connection: every one from 2024-11-05, from
/// the one handler (what an older client subscribes to is listened for on tokio), and the
/// tasks extension in front of it, at 2026-07-28 and for a 2025-11-25 client's tasks;
/// every connection shares the tasks.
fn versions(tasks: &tasks::Tasks) -> Versions {
    let handler = handler::Handler {
        tasks: tasks.clone(),
    };
    Versions::every_version_with_tasks(handler, tasks.clone(), mcp_spec_session::Tokio)
}

/// This server's Server Card (the experimental server card extension), published at
/// `/mcp/server-card`; checked as a card is.
fn server_card(port: u16) -> mcp_spec_types::ext::server_card::ServerCard {
    let card = json!({
        "$schema": "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json",
        "name": "io.github.mcp-codegen/example-server",
        "version": env!("CARGO_PKG_VERSION"),
        "description": "The conformance fixtures, every protocol version from one handler, and the tasks extension",
        "remotes": [{"type": "streamable-http", "url": format!("http://127.0.0.1:{port}/mcp")}],
    });
    mcp_spec_types::rt::strict::from_str(&card.to_string())
        .unwrap_or_else(|e| panic!("the example server's card is not a card: {e}"))
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let [flag, port, rest @ ..] = args.as_slice()
        && flag == "--http"
    {
        let port: u16 = port.parse().expect("--http PORT");
        let (mut issuer, mut scopes) = (None, Vec::new());
        let mut rest = rest.iter();
        while let Some(option) = rest.next() {
            let value = rest
                .next()
                .unwrap_or_else(|| panic!("{option} needs a value"));
            match option.as_str() {
                "--auth-issuer" => issuer = Some(value.clone()),
                "--auth-scope" => scopes.push(value.clone()),
                other => panic!("unknown option {other}"),
            }
        }
        let listener = tokio::net::TcpListener::bind(("127.0.0.1", port))
            .await
            .expect("bind 127.0.0.1");
        eprintln!("mcp-example-server: Streamable HTTP on http://127.0.0.1:{port}/mcp");
        let tasks = tasks::Tasks::default();
        let mut server = HttpServer::new(move || versions(&tasks))
            .server_card(&server_card(port))
            .expect("the card encodes");
        if traffic::on() {
            server = server
                .tap(|session, direction, text| traffic::record(direction, Some(session), text));
        }
        if let Some(issuer) = issuer {
            let resource = format!("http://127.0.0.1:{port}/mcp");
            let verifier = JwtVerifier::discover(&issuer, &resource)
                .await
                .unwrap_or_else(|e| panic!("the issuer's keys: {e}"));
            let protection = Protection::new(&resource, &issuer, verifier)
                .scopes_supported(scopes.clone())
                .require_scopes(scopes)
                .resource_name("mcp-example-server");
            eprintln!("mcp-example-server: protected, tokens from {issuer}");
            server = server.protect(protection);
        }
        server.serve(listener).await.expect("serve");
        return;
    }
    let mut builder = Session::builder();
    if traffic::on() {
        builder = builder.tap(|direction, text| traffic::record(direction, None, text));
    }
    serve_stdio_with(builder, versions(&tasks::Tasks::default())).await;
}
