//! One client, older servers: a client written against 2026-07-28 (its calls, and the
//! handler that answers the server's requests) talks to servers of 2025-11-25 and
//! 2025-06-18 over a real session, through the generated
//! `convert::<older>_<newer>::TO_OLDER_SERVER` tables (its calls, converted down and their
//! results up) and `answer_older` (the server's requests, converted up and answered).
//! (2026-07-28 deprecates sampling, SEP-2577; older servers still ask for it.)
#![allow(deprecated)]

use std::future::Future;
use std::time::Duration;

use mcp_spec_session::{Session, stdio};
use mcp_spec_types::convert::{v2025_06_18_v2025_11_25 as to_06, v2025_11_25_v2026_07_28 as to_11};
use mcp_spec_types::rt::convert::outbound;
use mcp_spec_types::rt::jsonrpc::ErrorObject;
use mcp_spec_types::rt::service::{Peer, RequestContext, Service};
use mcp_spec_types::{v2025_11_25 as old, v2026_07_28 as v};
use serde_json::{Value, json};

fn from<T: mcp_spec_types::serde::de::DeserializeOwned>(value: Value) -> T {
    serde_json::from_value(value).unwrap()
}

/// A 2025-11-25 server: one tool, which samples the client before it answers.
struct OldServer;

impl old::handlers::ServerHandler for OldServer {
    async fn initialize(
        &self,
        _: old::InitializeRequestParams,
        _: RequestContext<old::handlers::ClientPeer>,
    ) -> Result<old::InitializeResult, ErrorObject> {
        Ok(from(
            json!({"protocolVersion": "2025-11-25", "capabilities": {"tools": {}},
                       "serverInfo": {"name": "older", "version": "1"}}),
        ))
    }

    async fn list_tools(
        &self,
        _: Option<old::PaginatedRequestParams>,
        _: RequestContext<old::handlers::ClientPeer>,
    ) -> Result<old::ListToolsResult, ErrorObject> {
        Ok(from(
            json!({"tools": [{"name": "ask", "inputSchema": {"type": "object"}}]}),
        ))
    }

    async fn call_tool(
        &self,
        p: old::CallToolRequestParams,
        cx: RequestContext<old::handlers::ClientPeer>,
    ) -> Result<old::CallToolOutcome, ErrorObject> {
        let ask = json!({"messages": [{"role": "user", "content": {"type": "text", "text": p.name}}],
                         "maxTokens": 5});
        let answer = cx
            .peer
            .create_message(&from(ask))
            .await
            .map_err(|e| ErrorObject::internal_error(e.to_string()))?;
        let answer = serde_json::to_value(answer).unwrap();
        // What the older server was told in `_meta` (the newer envelope is not for it).
        let meta = cx.meta.map(|m| m.text().to_owned());
        let text = format!("sampled: {}; _meta {meta:?}", answer["content"]["text"]);
        Ok(old::CallToolResult::text(text).into())
    }
}

/// The 2026-07-28 client's handler: it answers sampling.
struct Model;

impl v::handlers::ClientHandler for Model {
    async fn create_message(
        &self,
        p: v::CreateMessageRequestParams,
        _: RequestContext<v::handlers::ServerPeer>,
    ) -> Result<v::CreateMessageResult, ErrorObject> {
        let asked = serde_json::to_value(&p.messages[0].content).unwrap();
        Ok(from(json!({"role": "assistant", "model": "m",
                       "content": {"type": "text", "text": format!("re {}", asked["text"])}})))
    }
}

/// A server and a client session over an in-memory pipe, both served.
fn pair(server: impl Service, client: impl Service) -> Session {
    let (client_end, server_end) = tokio::io::duplex(1 << 16);
    let (sr, sw) = tokio::io::split(server_end);
    let (cr, cw) = tokio::io::split(client_end);
    let (_, run_server) = stdio::connect(sr, sw, server);
    let (session, run_client) = stdio::connect(cr, cw, client);
    tokio::spawn(run_server);
    tokio::spawn(run_client);
    session
}

async fn within<T>(what: &str, f: impl Future<Output = T>) -> T {
    tokio::time::timeout(Duration::from_secs(5), f)
        .await
        .unwrap_or_else(|_| panic!("{what}: no answer in 5 s"))
}

/// The `_meta` a 2026-07-28 client puts on its requests.
fn envelope() -> Value {
    json!({"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                     "io.modelcontextprotocol/clientCapabilities": {"sampling": {}}}})
}

/// What the 2026-07-28 client does, whatever the server's version: list, call, and ask
/// for a method the server may not have.
async fn newer_client_calls(server: v::handlers::ServerPeer) {
    let tools = within("tools/list", server.list_tools(&from(envelope())))
        .await
        .unwrap();
    assert_eq!(tools.tools[0].name, "ask");
    // An older server says nothing of caching: nothing may be cached.
    assert_eq!(tools.cache_scope, v::ListToolsResultCacheScope::Private);
    assert_eq!(tools.ttl_ms, 0);
    assert_eq!(tools.result_type, "complete");

    let mut call = envelope();
    call["name"] = "hello".into();
    call["_meta"]["progressToken"] = 7.into();
    let outcome = within("tools/call", server.call_tool(&from(call)))
        .await
        .unwrap();
    let v::CallToolOutcome::CallToolResult(result) = outcome else {
        panic!("{outcome:?}")
    };
    let text = serde_json::to_value(&result.content[0]).unwrap();
    assert_eq!(
        text["text"],
        r#"sampled: "re \"hello\""; _meta Some("{\"progressToken\":7}")"#
    );

    // `server/discover` is the newer era's: the older server is not asked.
    let refused = within("server/discover", server.discover(&from(envelope()))).await;
    let message = refused.unwrap_err().to_string();
    assert!(message.contains("has no `server/discover`"), "{message}");
}

async fn initialize(peer: &Peer, version: &str) {
    let params = json!({"protocolVersion": version, "capabilities": {"sampling": {}},
                        "clientInfo": {"name": "newer", "version": "1"}});
    let result = within("initialize", peer.request_raw("initialize", Some(params)))
        .await
        .unwrap();
    assert_eq!(result.to_value()["protocolVersion"], version);
    peer.notify_raw("notifications/initialized", None)
        .await
        .unwrap();
}

#[tokio::test]
async fn a_2026_07_28_client_talks_to_a_2025_11_25_server() {
    let client = to_11::answer_older(v::handlers::Client::new(Model).answering_inputs());
    let session = pair(old::handlers::Server::new(OldServer), client);
    initialize(&session.peer(), "2025-11-25").await;
    let server = v::handlers::ServerPeer(outbound(&session.peer(), to_11::TO_OLDER_SERVER));
    newer_client_calls(server).await;
}

#[tokio::test]
async fn through_one_pair_more_it_talks_to_a_2025_06_18_server() {
    let server = to_06::serve_older(old::handlers::Server::new(OldServer));
    let client = to_06::answer_older(to_11::answer_older(
        v::handlers::Client::new(Model).answering_inputs(),
    ));
    let session = pair(server, client);
    initialize(&session.peer(), "2025-06-18").await;
    let peer = outbound(&session.peer(), to_06::TO_OLDER_SERVER);
    let server = v::handlers::ServerPeer(outbound(&peer, to_11::TO_OLDER_SERVER));
    newer_client_calls(server).await;
}

/// A 2026-07-28 server: one tool that asks its client to sample (in its result, as the
/// discover era does) before it answers with what came back.
#[derive(Clone)]
struct NewServer;

impl v::handlers::ServerHandler for NewServer {
    async fn discover(
        &self,
        _: v::RequestParams,
        _: RequestContext<v::handlers::ClientPeer>,
    ) -> Result<v::DiscoverResult, ErrorObject> {
        Ok(from(json!({
            "resultType": "complete", "cacheScope": "public", "ttlMs": 0,
            "supportedVersions": ["2026-07-28"], "capabilities": {"tools": {}},
            "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "newer", "version": "2"}}
        })))
    }

    async fn call_tool(
        &self,
        p: v::CallToolRequestParams,
        _: RequestContext<v::handlers::ClientPeer>,
    ) -> Result<v::CallToolOutcome, ErrorObject> {
        let Some(answers) = p.input_responses else {
            return Ok(v::CallToolOutcome::InputRequiredResult(from(json!({
                "resultType": "input_required",
                "inputRequests": {"llm": {"method": "sampling/createMessage", "params": {
                    "messages": [{"role": "user", "content": {"type": "text", "text": p.name}}],
                    "maxTokens": 5}}}
            }))));
        };
        let answer = serde_json::to_value(&answers["llm"]).unwrap();
        let text = format!("sampled: {}", answer["content"]["text"]);
        Ok(v::CallToolResult::text(text).into())
    }
}

/// What the 2026-07-28 client does with its server, whatever the version: a call, with
/// the input the server asks for in a result answered by its handler and the call made
/// again (a server of an older version asks in requests of its own instead, which reach
/// the same handler).
async fn call_with_inputs(server: &v::handlers::ServerPeer, name: &str) -> String {
    let mut params = envelope();
    params["name"] = name.into();
    for _ in 0..3 {
        match within("tools/call", server.call_tool(&from(params.clone())))
            .await
            .unwrap()
        {
            v::CallToolOutcome::InputRequiredResult(asked) => {
                let requests = asked.input_requests.unwrap_or_default();
                let answers = v::handlers::answer_inputs(&Model, &requests, server)
                    .await
                    .unwrap();
                params["inputResponses"] = serde_json::to_value(answers).unwrap();
            }
            v::CallToolOutcome::CallToolResult(result) => {
                return serde_json::to_value(&result.content[0]).unwrap()["text"]
                    .as_str()
                    .unwrap()
                    .to_owned();
            }
            other => panic!("{other:?}"),
        }
    }
    panic!("still asked for input")
}

/// A session to `server`, connected by the 2026-07-28 client (`Model`) looking for a
/// version in `era` (both, discover first, if `None`), offering `offer` to `initialize`.
async fn connect(
    server: impl Service,
    era: Option<mcp_spec_types::version::Era>,
    offer: mcp_spec_types::ProtocolVersion,
) -> mcp_spec_session::Connected {
    use mcp_spec_session::{Deferred, Hello, connect_every_version};
    let later = Deferred::new();
    let session = pair(server, later.clone());
    let info = from(json!({"name": "c", "version": "1"}));
    let hello = Hello {
        era,
        offer,
        ..Hello::new(info, from(json!({"sampling": {}})))
    };
    let peer = session.peer();
    let connecting = connect_every_version(&peer, &later, Model, &hello);
    within("connect", connecting).await.unwrap()
}

/// One server handler and one client handler, both written for 2026-07-28, over a real
/// session at every version the session offers: the session picks the lifecycle
/// (`Versions::every_version`, `connect_every_version`), and the handlers never see it.
#[tokio::test]
async fn one_server_and_one_client_at_every_version() {
    use mcp_spec_session::{Tokio, Versions};
    use mcp_spec_types::ProtocolVersion as P;
    use mcp_spec_types::version::Era;
    for (era, offer, expected) in [
        (None, P::V2025_11_25, P::V2026_07_28),
        (Some(Era::Initialize), P::V2025_11_25, P::V2025_11_25),
        (Some(Era::Initialize), P::V2025_06_18, P::V2025_06_18),
        (Some(Era::Initialize), P::V2025_03_26, P::V2025_03_26),
        (Some(Era::Initialize), P::V2024_11_05, P::V2024_11_05),
    ] {
        let server = Versions::every_version(NewServer, Tokio);
        let connected = connect(server, era, offer).await;
        assert_eq!(connected.version, expected);
        let text = call_with_inputs(&connected.server, "hi").await;
        assert_eq!(text, r#"sampled: "re \"hi\"""#, "at {expected:?}");
    }
}

/// The same client against a server of 2025-11-25 alone: `server/discover` is refused,
/// and the session falls back to `initialize`.
#[tokio::test]
async fn the_client_falls_back_to_initialize() {
    let server = old::handlers::Server::new(OldServer);
    let connected = connect(server, None, mcp_spec_types::ProtocolVersion::V2025_11_25).await;
    assert_eq!(
        connected.version,
        mcp_spec_types::ProtocolVersion::V2025_11_25
    );
    assert_eq!(connected.result["serverInfo"]["name"], "older");
    newer_client_calls(connected.server).await;
}

/// A 2026-07-28 `Router` (which is not `Clone`) behind every version: the same functions
/// answer a client at 2026-07-28 and one at 2024-11-05.
#[tokio::test]
async fn a_router_serves_every_version() {
    use mcp_spec_session::{Tokio, Versions};
    use mcp_spec_types::ProtocolVersion as P;
    use mcp_spec_types::version::Era;
    async fn echo(
        args: serde_json::Map<String, Value>,
        _: RequestContext<v::handlers::ClientPeer>,
    ) -> Result<v::CallToolResult, ErrorObject> {
        Ok(v::CallToolResult::text(format!("echo {}", args["word"])))
    }
    let router = || {
        let schema = from(json!({"type": "object"}));
        v::handlers::Router::new(from(json!({"name": "routed", "version": "1"})))
            .tool(v::Tool::new("echo", schema), echo)
    };
    for (era, offer, expected) in [
        (None, P::V2025_11_25, P::V2026_07_28),
        (Some(Era::Initialize), P::V2024_11_05, P::V2024_11_05),
    ] {
        let connected = connect(Versions::every_version(router(), Tokio), era, offer).await;
        assert_eq!(connected.version, expected);
        let mut call = envelope();
        call["name"] = "echo".into();
        call["arguments"] = json!({"word": "hi"});
        let outcome = within("tools/call", connected.server.call_tool(&from(call)))
            .await
            .unwrap();
        let v::CallToolOutcome::CallToolResult(result) = outcome else {
            panic!("{outcome:?}")
        };
        let text = serde_json::to_value(&result.content[0]).unwrap();
        assert_eq!(text["text"], r#"echo "hi""#, "at {expected:?}");
    }
}
