//! An MCP server built only on the generated crate (plus tokio, the small stdio link, and
//! axum for HTTP), speaking newline-delimited JSON-RPC on stdin/stdout, or Streamable HTTP
//! on `http://127.0.0.1:PORT/mcp` with `--http PORT`.
//!
//! One binary serves both lifecycle eras. The first message decides: `initialize`
//! negotiates 2025-06-18 or 2025-11-25; a request that carries
//! `_meta["io.modelcontextprotocol/protocolVersion"]` (such as `server/discover`) selects
//! 2026-07-28. Each era's handler implements the generated `ServerHandler` of its version;
//! what they serve (the fixtures of the official conformance suite) is in `fixtures.rs`.

mod fixtures;
mod http;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use mcp_spec_types::ProtocolVersion;
use mcp_spec_types::rt::jsonrpc::ErrorObject;
use mcp_spec_types::rt::method::Request;
use mcp_spec_types::rt::service::{Meta, Open, Peer, RequestContext};
use mcp_spec_types::version::PROTOCOL_VERSION_META_KEY;
use mcp_stdio::{Link, LinkTransport};
use serde_json::{Map, Value, json};

/// A typed value from JSON, or the internal error that says why it does not fit.
fn typed<T: serde::de::DeserializeOwned>(v: Value) -> Result<T, ErrorObject> {
    serde_json::from_value(v)
        .map_err(|e| internal(format!("the server built an invalid value: {e}")))
}

fn internal(message: impl Into<String>) -> ErrorObject {
    ErrorObject::new(-32603, message.into())
}

fn invalid_params(message: String) -> ErrorObject {
    ErrorObject::new(-32602, message)
}

fn server_info() -> Value {
    json!({"name": "mcp-example-server", "version": env!("CARGO_PKG_VERSION")})
}

/// What the connection remembers.
#[derive(Default)]
struct State {
    subscriptions: Mutex<Vec<String>>,
}

macro_rules! initialize_era {
    ($module:ident, $v:ident) => {
        mod $module {
            use super::*;
            use mcp_spec_types::$v as v;
            use v::handlers::{ClientPeer, ServerHandler};
            type P<M> = <M as Request>::Params;
            type R<M> = <M as Request>::Result;
            type Cx = RequestContext<ClientPeer>;

            pub struct Handler {
                pub version: ProtocolVersion,
                pub state: Arc<State>,
            }

            impl ServerHandler for Handler {
                async fn initialize(&self, _p: P<v::methods::Initialize>, _cx: Cx) -> Result<R<v::methods::Initialize>, ErrorObject> {
                    typed(json!({
                        "protocolVersion": self.version.as_str(),
                        "capabilities": fixtures::capabilities(),
                        "serverInfo": server_info(),
                        "instructions": "Serves the fixtures of the MCP conformance suite.",
                    }))
                }
                async fn ping(&self, _p: Option<P<v::methods::Ping>>, _cx: Cx) -> Result<R<v::methods::Ping>, ErrorObject> {
                    typed(json!({}))
                }
                async fn set_level(&self, _p: P<v::methods::SetLevel>, _cx: Cx) -> Result<R<v::methods::SetLevel>, ErrorObject> {
                    typed(json!({}))
                }
                async fn complete(&self, _p: P<v::methods::Complete>, _cx: Cx) -> Result<R<v::methods::Complete>, ErrorObject> {
                    typed(fixtures::completion())
                }
                async fn list_tools(&self, _p: Option<P<v::methods::ListTools>>, _cx: Cx) -> Result<R<v::methods::ListTools>, ErrorObject> {
                    typed(fixtures::tools())
                }
                async fn call_tool(&self, p: P<v::methods::CallTool>, cx: Cx) -> Result<R<v::methods::CallTool>, ErrorObject> {
                    let args = p.arguments.clone().unwrap_or_default();
                    let token = cx.meta.as_ref().and_then(|m| m.get("progressToken"));
                    match p.name.as_str() {
                        "test_tool_with_logging" => {
                            for (i, line) in fixtures::LOG_LINES.iter().enumerate() {
                                if i > 0 {
                                    tokio::time::sleep(Duration::from_millis(50)).await;
                                }
                                let note = typed(json!({"level": "info", "data": line}))?;
                                cx.peer.notify_logging_message(&note).await.map_err(|e| internal(e.to_string()))?;
                            }
                        }
                        "test_tool_with_progress" => {
                            if let Some(token) = &token {
                                for (i, progress) in [0, 50, 100].into_iter().enumerate() {
                                    if i > 0 {
                                        tokio::time::sleep(Duration::from_millis(50)).await;
                                    }
                                    let note = typed(json!({"progressToken": token, "progress": progress, "total": 100}))?;
                                    cx.peer.notify_progress(&note).await.map_err(|e| internal(e.to_string()))?;
                                }
                            }
                        }
                        _ => {}
                    }
                    let answer = match fixtures::tool_request(&p.name, &args) {
                        Some(("sampling/createMessage", params)) => {
                            let r = cx.peer.create_message(&typed(params)?).await.map_err(|e| internal(e.to_string()))?;
                            Some(serde_json::to_value(r).map_err(|e| internal(e.to_string()))?)
                        }
                        Some((_, params)) => {
                            let r = cx.peer.elicit(&typed(params)?).await.map_err(|e| internal(e.to_string()))?;
                            Some(serde_json::to_value(r).map_err(|e| internal(e.to_string()))?)
                        }
                        None => None,
                    };
                    let result = fixtures::tool_result(&p.name, answer.as_ref(), token.as_ref()).map_err(invalid_params)?;
                    typed(result)
                }
                async fn list_resources(&self, _p: Option<P<v::methods::ListResources>>, _cx: Cx) -> Result<R<v::methods::ListResources>, ErrorObject> {
                    typed(fixtures::resources())
                }
                async fn list_resource_templates(&self, _p: Option<P<v::methods::ListResourceTemplates>>, _cx: Cx) -> Result<R<v::methods::ListResourceTemplates>, ErrorObject> {
                    typed(fixtures::resource_templates())
                }
                async fn read_resource(&self, p: P<v::methods::ReadResource>, _cx: Cx) -> Result<R<v::methods::ReadResource>, ErrorObject> {
                    typed(fixtures::read_resource(&p.uri).map_err(invalid_params)?)
                }
                async fn subscribe(&self, p: P<v::methods::Subscribe>, _cx: Cx) -> Result<R<v::methods::Subscribe>, ErrorObject> {
                    self.state.subscriptions.lock().unwrap().push(p.uri);
                    typed(json!({}))
                }
                async fn unsubscribe(&self, p: P<v::methods::Unsubscribe>, _cx: Cx) -> Result<R<v::methods::Unsubscribe>, ErrorObject> {
                    self.state.subscriptions.lock().unwrap().retain(|u| *u != p.uri);
                    typed(json!({}))
                }
                async fn list_prompts(&self, _p: Option<P<v::methods::ListPrompts>>, _cx: Cx) -> Result<R<v::methods::ListPrompts>, ErrorObject> {
                    typed(fixtures::prompts())
                }
                async fn get_prompt(&self, p: P<v::methods::GetPrompt>, _cx: Cx) -> Result<R<v::methods::GetPrompt>, ErrorObject> {
                    let args: Map<String, Value> = p.arguments.iter().flatten().map(|(k, v)| (k.clone(), json!(v))).collect();
                    typed(fixtures::get_prompt(&p.name, &args).map_err(invalid_params)?)
                }
            }

            pub async fn serve(handler: &Handler, peer: Peer, line: &str) -> Option<String> {
                v::handlers::serve_client_message(handler, &Open, &ClientPeer(peer), line.as_bytes()).await
            }
        }
    };
}

initialize_era!(era_2025_06_18, v2025_06_18);
initialize_era!(era_2025_11_25, v2025_11_25);

/// The discover era: every request says its version in `_meta`.
mod era_2026_07_28 {
    use super::*;
    use mcp_spec_types::v2026_07_28 as v;
    use v::handlers::{ClientPeer, ServerHandler};
    type P<M> = <M as Request>::Params;
    type R<M> = <M as Request>::Result;
    type Cx = RequestContext<ClientPeer>;

    /// Results of this era say they are complete; lists and reads say how long they keep.
    fn complete(mut v: Value, cacheable: bool) -> Value {
        if let Value::Object(m) = &mut v {
            m.insert("resultType".into(), json!("complete"));
            m.insert(
                "_meta".into(),
                json!({"io.modelcontextprotocol/serverInfo": server_info()}),
            );
            if cacheable {
                m.insert("ttlMs".into(), json!(0));
                m.insert("cacheScope".into(), json!("public"));
            }
        }
        v
    }

    pub struct Handler;

    impl ServerHandler for Handler {
        async fn discover(
            &self,
            _p: P<v::methods::Discover>,
            _cx: Cx,
        ) -> Result<R<v::methods::Discover>, ErrorObject> {
            let mut caps = fixtures::capabilities();
            caps["resources"] = json!({});
            typed(complete(
                json!({"supportedVersions": ["2026-07-28"], "capabilities": caps,
                "instructions": "Serves the fixtures of the MCP conformance suite."}),
                true,
            ))
        }
        async fn complete(
            &self,
            _p: P<v::methods::Complete>,
            _cx: Cx,
        ) -> Result<R<v::methods::Complete>, ErrorObject> {
            typed(complete(fixtures::completion(), false))
        }
        async fn list_tools(
            &self,
            _p: P<v::methods::ListTools>,
            _cx: Cx,
        ) -> Result<R<v::methods::ListTools>, ErrorObject> {
            typed(complete(fixtures::tools(), true))
        }
        async fn call_tool(
            &self,
            p: P<v::methods::CallTool>,
            cx: Cx,
        ) -> Result<R<v::methods::CallTool>, ErrorObject> {
            let args = p.arguments.clone().unwrap_or_default();
            let meta = cx.meta.as_ref().map(Meta::to_map).unwrap_or_default();
            let token = meta.get("progressToken").cloned();
            if p.name == "test_tool_with_logging"
                && meta.contains_key("io.modelcontextprotocol/logLevel")
            {
                for line in fixtures::LOG_LINES {
                    let note = typed(json!({"level": "info", "data": line}))?;
                    cx.peer
                        .notify_logging_message(&note)
                        .await
                        .map_err(|e| internal(e.to_string()))?;
                }
            }
            if let (Some(token), "test_tool_with_progress") = (&token, p.name.as_str()) {
                for progress in [0, 50, 100] {
                    let note =
                        typed(json!({"progressToken": token, "progress": progress, "total": 100}))?;
                    cx.peer
                        .notify_progress(&note)
                        .await
                        .map_err(|e| internal(e.to_string()))?;
                }
            }
            // Sampling and elicitation are input requests in this era: ask in the result,
            // and finish when the client retries with the answer.
            let answer = match fixtures::tool_request(&p.name, &args) {
                Some((method, params)) => {
                    let given = serde_json::to_value(&p.input_responses)
                        .map_err(|e| internal(e.to_string()))?;
                    match given.get("input") {
                        Some(answer) => Some(answer.clone()),
                        None => {
                            return typed(json!({"resultType": "input_required",
                                "inputRequests": {"input": {"method": method, "params": params}}}));
                        }
                    }
                }
                None => None,
            };
            let result = fixtures::tool_result(&p.name, answer.as_ref(), token.as_ref())
                .map_err(invalid_params)?;
            typed(complete(result, false))
        }
        async fn list_resources(
            &self,
            _p: P<v::methods::ListResources>,
            _cx: Cx,
        ) -> Result<R<v::methods::ListResources>, ErrorObject> {
            typed(complete(fixtures::resources(), true))
        }
        async fn list_resource_templates(
            &self,
            _p: P<v::methods::ListResourceTemplates>,
            _cx: Cx,
        ) -> Result<R<v::methods::ListResourceTemplates>, ErrorObject> {
            typed(complete(fixtures::resource_templates(), true))
        }
        async fn read_resource(
            &self,
            p: P<v::methods::ReadResource>,
            _cx: Cx,
        ) -> Result<R<v::methods::ReadResource>, ErrorObject> {
            typed(complete(
                fixtures::read_resource(&p.uri).map_err(invalid_params)?,
                true,
            ))
        }
        async fn list_prompts(
            &self,
            _p: P<v::methods::ListPrompts>,
            _cx: Cx,
        ) -> Result<R<v::methods::ListPrompts>, ErrorObject> {
            typed(complete(fixtures::prompts(), true))
        }
        async fn get_prompt(
            &self,
            p: P<v::methods::GetPrompt>,
            _cx: Cx,
        ) -> Result<R<v::methods::GetPrompt>, ErrorObject> {
            let args: Map<String, Value> = p
                .arguments
                .iter()
                .flatten()
                .map(|(k, v)| (k.clone(), json!(v)))
                .collect();
            typed(complete(
                fixtures::get_prompt(&p.name, &args).map_err(invalid_params)?,
                false,
            ))
        }
    }

    pub async fn serve(peer: Peer, line: &str) -> Option<String> {
        // The discover era's rule: every request carries a version this server speaks.
        let policy = mcp_spec_types::version::RequireVersion::new(&[ProtocolVersion::V2026_07_28]);
        v::handlers::serve_client_message(&Handler, &policy, &ClientPeer(peer), line.as_bytes())
            .await
    }
}

/// Which era a connection speaks, decided by its first request.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Era {
    Undecided,
    Initialize(ProtocolVersion),
    Discover,
}

/// Where one incoming message goes, given (and updating) the connection's era.
fn route_era(era: &mut Era, line: &str) -> Result<Era, String> {
    let message: Value = serde_json::from_str(line).unwrap_or(Value::Null);
    let method = message["method"].as_str().unwrap_or_default();
    let id = message.get("id").cloned().unwrap_or(Value::Null);
    let enveloped = message["params"]["_meta"]
        .get(PROTOCOL_VERSION_META_KEY)
        .is_some();
    let refuse = |text: &str| {
        json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32600, "message": text}}).to_string()
    };
    match (*era, method) {
        (Era::Discover, "initialize") => Err(refuse(
            "this connection serves the 2026-07-28 protocol; initialize is not accepted",
        )),
        (_, "initialize") => {
            let requested = message["params"]["protocolVersion"]
                .as_str()
                .unwrap_or_default();
            let version = ProtocolVersion::answer_initialize(
                requested,
                &[ProtocolVersion::V2025_06_18, ProtocolVersion::V2025_11_25],
            )
            .unwrap_or(ProtocolVersion::V2025_11_25);
            *era = Era::Initialize(version);
            Ok(*era)
        }
        (Era::Initialize(_), _) if enveloped => Err(refuse(
            "this connection serves the initialize era; requests carrying a 2026-07-28 envelope are not accepted",
        )),
        (Era::Undecided, _) if enveloped => {
            *era = Era::Discover;
            Ok(*era)
        }
        (Era::Undecided, _) => Ok(Era::Initialize(ProtocolVersion::V2025_11_25)),
        (current, _) => Ok(current),
    }
}

/// Answers one incoming message of a connection in era `target`, calling the client back
/// through `peer`.
async fn answer(
    target: Result<Era, String>,
    state: Arc<State>,
    peer: Peer,
    line: &str,
) -> Option<String> {
    match target {
        Err(reply) => Some(reply),
        Ok(Era::Discover) => era_2026_07_28::serve(peer, line).await,
        Ok(Era::Initialize(ProtocolVersion::V2025_06_18)) => {
            let handler = era_2025_06_18::Handler {
                version: ProtocolVersion::V2025_06_18,
                state,
            };
            era_2025_06_18::serve(&handler, peer, line).await
        }
        Ok(Era::Initialize(version)) => {
            let handler = era_2025_11_25::Handler { version, state };
            era_2025_11_25::serve(&handler, peer, line).await
        }
        Ok(Era::Undecided) => unreachable!("route_era decides"),
    }
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let [flag, port] = args.as_slice()
        && flag == "--http"
    {
        let port: u16 = port.parse().expect("--http PORT");
        http::serve(port).await;
        return;
    }
    let (link, mut incoming) = Link::start(tokio::io::stdin(), tokio::io::stdout());
    let state = Arc::new(State::default());
    let mut era = Era::Undecided;
    while let Some(line) = incoming.recv().await {
        let target = route_era(&mut era, &line);
        let (link, state) = (link.clone(), state.clone());
        tokio::spawn(async move {
            let peer = Peer::new(LinkTransport(link.clone()));
            if let Some(reply) = answer(target, state, peer, &line).await {
                link.send(reply);
            }
        });
    }
}
