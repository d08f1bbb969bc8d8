//! One handler, older clients: a server written against 2025-11-25 (a `Router`, and a
//! handler of its own) serves 2025-06-18 clients through
//! `convert::v2025_06_18_v2025_11_25::serve_older`, and 2025-03-26 clients through two
//! of them, as a session serves them (`Service::serve`). Params are converted up,
//! results down; what the older version cannot carry is an error, not a silent loss.

use std::sync::Arc;

use mcp_spec_types::convert::{v2025_03_26_v2025_06_18 as to_03, v2025_06_18_v2025_11_25 as to_06};
use mcp_spec_types::rt::jsonrpc::ErrorObject;
use mcp_spec_types::rt::service::{Open, Peer, RequestContext, Service};
use mcp_spec_types::v2025_11_25 as v;
use serde_json::{Value, json};

#[derive(serde::Deserialize)]
struct City {
    city: String,
}

async fn echo(
    City { city }: City,
    _: RequestContext<v::handlers::ClientPeer>,
) -> Result<v::CallToolResult, ErrorObject> {
    Ok(v::CallToolResult::text(city))
}

fn router() -> v::handlers::Router {
    let schema = serde_json::from_value(json!({"type": "object"})).unwrap();
    v::handlers::Router::new(v::Implementation::new("one", "1.0.0"))
        .tool(v::Tool::new("echo", schema), echo)
}

fn request(id: i64, method: &str, params: Value) -> String {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string()
}

/// `message` served by `service` (whose handler never calls the client back).
async fn serve(service: &Arc<dyn Service>, message: String) -> Value {
    let answer = service
        .clone()
        .serve(Peer::new(mcp_tests::Unused), message)
        .await;
    serde_json::from_str(&answer.expect("answered")).unwrap()
}

/// A 2025-11-25 handler serving 2025-06-18 clients.
/// The handler behind the adapter, without the lifecycle (`Open`): the adapter is what
/// these tests hold, so a request may come without `initialize` first.
fn at_06_18(handler: impl v::handlers::ServerHandler + 'static) -> Arc<dyn Service> {
    let server = v::handlers::Server::new(handler).with_policy(Open);
    Arc::new(to_06::serve_older(server))
}

fn initialize(version: &str) -> Value {
    json!({"protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "old", "version": "0"}})
}

#[tokio::test]
async fn a_2025_11_25_router_serves_2025_06_18_clients() {
    let server = at_06_18(router());
    // `initialize` is answered with the client's version, the rest as the router says.
    let init = serve(&server, request(1, "initialize", initialize("2025-06-18"))).await;
    assert_eq!(init["result"]["protocolVersion"], "2025-06-18", "{init}");
    assert_eq!(init["result"]["capabilities"], json!({"tools": {}}));
    assert_eq!(init["result"]["serverInfo"]["name"], "one");

    let list = serve(&server, request(2, "tools/list", json!({}))).await;
    assert_eq!(list["result"]["tools"][0]["name"], "echo", "{list}");
    let call = serve(
        &server,
        request(
            3,
            "tools/call",
            json!({"name": "echo", "arguments": {"city": "Lima"}}),
        ),
    )
    .await;
    assert_eq!(
        call["result"],
        json!({"content": [{"type": "text", "text": "Lima"}]})
    );
    // The router's own refusal comes through as it was.
    let unknown = serve(&server, request(4, "tools/call", json!({"name": "rain"}))).await;
    assert_eq!(unknown["error"]["code"], -32602, "{unknown}");
    assert_eq!(unknown["error"]["message"], "unknown tool `rain`");
    // Params that a 2025-06-18 peer may send but 2025-11-25 reads otherwise (`task` is
    // declared there): -32602, naming it.
    let odd = serve(
        &server,
        request(
            5,
            "tools/call",
            json!({"name": "echo", "arguments": {"city": "Lima"}, "task": 5}),
        ),
    )
    .await;
    assert_eq!(odd["error"]["code"], -32602, "{odd}");
    assert!(
        odd["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with("at task:"),
        "{odd}"
    );
    // `ping` by the newer handler's default.
    let ping = serve(&server, request(6, "ping", json!({}))).await;
    assert_eq!(ping["result"], json!({}));
}

#[tokio::test]
async fn through_two_pairs_it_serves_2025_03_26_clients() {
    let server: Arc<dyn Service> = Arc::new(to_03::serve_older(at_06_18(router())));
    let init = serve(&server, request(1, "initialize", initialize("2025-03-26"))).await;
    assert_eq!(init["result"]["protocolVersion"], "2025-03-26", "{init}");
    let call = serve(
        &server,
        request(
            2,
            "tools/call",
            json!({"name": "echo", "arguments": {"city": "Oslo"}}),
        ),
    )
    .await;
    assert_eq!(
        call["result"],
        json!({"content": [{"type": "text", "text": "Oslo"}]}),
        "{call}"
    );
}

/// A 2025-11-25 server whose tool answers with a task, which 2025-06-18 does not have.
struct Tasks;

impl v::handlers::ServerHandler for Tasks {
    async fn call_tool(
        &self,
        _: v::CallToolRequestParams,
        _: RequestContext<v::handlers::ClientPeer>,
    ) -> Result<v::CallToolOutcome, ErrorObject> {
        let task = json!({"task": {"taskId": "t1", "status": "working", "createdAt": "2025-11-25T00:00:00Z",
                                   "lastUpdatedAt": "2025-11-25T00:00:00Z", "ttl": null}});
        Ok(v::CallToolOutcome::CreateTaskResult(
            serde_json::from_value(task).unwrap(),
        ))
    }
}

#[tokio::test]
async fn a_result_the_older_version_cannot_carry_is_an_error_not_a_loss() {
    let server = at_06_18(Tasks);
    let call = serve(&server, request(1, "tools/call", json!({"name": "long"}))).await;
    assert_eq!(call["error"]["code"], -32603, "{call}");
    let message = call["error"]["message"].as_str().unwrap();
    assert!(
        message.starts_with("the `tools/call` result cannot be expressed in 2025-06-18: "),
        "{message}"
    );
}

/// A 2025-11-25 server whose tool samples the client with what its arguments say, and
/// answers with what came back, or with the error.
struct Sampler;

impl v::handlers::ServerHandler for Sampler {
    async fn call_tool(
        &self,
        p: v::CallToolRequestParams,
        cx: RequestContext<v::handlers::ClientPeer>,
    ) -> Result<v::CallToolOutcome, ErrorObject> {
        let content = p.arguments.unwrap_or_default()["content"].clone();
        let params =
            json!({"messages": [{"role": "assistant", "content": content}], "maxTokens": 9});
        let text = match cx
            .peer
            .create_message(&serde_json::from_value(params).unwrap())
            .await
        {
            Ok(answer) => serde_json::to_string(&answer).unwrap(),
            Err(e) => format!("error: {e}"),
        };
        Ok(v::CallToolResult::text(text).into())
    }
}

#[tokio::test]
async fn the_handler_calls_an_older_client_back_in_its_version() {
    let server = at_06_18(Sampler);
    let client = mcp_tests::Recorder::default();
    let back = Peer::new(client.clone());
    let call = |content: Value| {
        let message = request(
            1,
            "tools/call",
            json!({"name": "s", "arguments": {"content": content}}),
        );
        let (server, back) = (&server, &back);
        async move {
            let answer = server.clone().serve(back.clone(), message).await;
            let answer: Value = serde_json::from_str(&answer.unwrap()).unwrap();
            answer["result"]["content"][0]["text"]
                .as_str()
                .unwrap()
                .to_owned()
        }
    };
    // A request both versions can carry goes out, and its result comes back as 2025-11-25's.
    let text = call(json!({"type": "text", "text": "hi"})).await;
    let answer: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        answer,
        json!({"role": "assistant", "model": "m", "content": {"type": "text", "text": "sampled"}})
    );
    assert_eq!(
        client.sent()[0]["params"]["messages"][0]["content"]["text"],
        "hi"
    );
    // Tool use in sampling arrived in 2025-11-25: such a request is not sent, and the
    // handler is told where it does not fit.
    let text = call(json!({"type": "tool_use", "id": "u1", "name": "f", "input": {}})).await;
    assert_eq!(client.sent().len(), 1, "not sent");
    assert!(
        text.starts_with("error: transport: the `sampling/createMessage` params of 2025-11-25 cannot be expressed in 2025-06-18: at messages[0].content"),
        "{text}"
    );
}
