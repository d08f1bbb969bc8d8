//! One handler across the change of lifecycle: a server written against 2026-07-28 (the
//! `server/discover` era) serves 2025-11-25 clients (the `initialize` era) through
//! `convert::v2025_11_25_v2026_07_28::serve_older`, and 2025-06-18 clients through one pair
//! more, as a session serves them (`Service::serve`). What the older client says once
//! (capabilities, log level) the handler sees in every request's `_meta`; what the handler
//! asks for in a result (`input_required`) is asked of the client in its own request.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use mcp_spec_types::convert::{v2025_06_18_v2025_11_25 as to_06, v2025_11_25_v2026_07_28 as to_11};
use mcp_spec_types::rt::jsonrpc::ErrorObject;
use mcp_spec_types::rt::service::{Peer, RequestContext, Service};
use mcp_spec_types::v2026_07_28 as v;
use mcp_tests::Recorder;
use serde_json::{Value, json};

type Cx = RequestContext<v::handlers::ClientPeer>;

/// A 2026-07-28 server: one tool that asks the client to sample first, and that says what
/// the request's `_meta` told it; a listener for resource updates.
struct Handler {
    /// How many listeners are running.
    listening: Arc<Mutex<i32>>,
}

fn from<T: serde::de::DeserializeOwned>(value: Value) -> T {
    serde_json::from_value(value).unwrap()
}

impl v::handlers::ServerHandler for Handler {
    async fn discover(&self, _: v::RequestParams, _: Cx) -> Result<v::DiscoverResult, ErrorObject> {
        Ok(from(json!({
            "resultType": "complete", "cacheScope": "public", "ttlMs": 0,
            "supportedVersions": ["2026-07-28"],
            "capabilities": {"tools": {}, "logging": {}, "resources": {"subscribe": true}},
            "instructions": "be kind",
            "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "new", "version": "2.0.0"}}
        })))
    }

    async fn call_tool(
        &self,
        p: v::CallToolRequestParams,
        cx: Cx,
    ) -> Result<v::CallToolOutcome, ErrorObject> {
        let meta = cx.meta.as_ref().map(|m| m.to_map()).unwrap_or_default();
        if let Some(level) = meta.get("io.modelcontextprotocol/logLevel") {
            // At `error`, which every level the client may set lets through (the session
            // drops what is below the level asked: `session_logging` in tests/tests/router.rs).
            let log = json!({"level": "error", "data": format!("level {level}")});
            cx.peer
                .notify_logging_message(&from(log))
                .await
                .map_err(|e| ErrorObject::internal_error(e.to_string()))?;
        }
        if p.name == "plain" {
            return Ok(v::CallToolOutcome::CallToolResult(v::CallToolResult::text(
                "plain",
            )));
        }
        let Some(responses) = p.input_responses else {
            let ask = json!({
                "resultType": "input_required", "requestState": "round 1",
                "inputRequests": {"llm": {"method": "sampling/createMessage", "params": {
                    "messages": [{"role": "user", "content": {"type": "text", "text": "hi"}}],
                    "maxTokens": 5}}}
            });
            return Ok(v::CallToolOutcome::InputRequiredResult(from(ask)));
        };
        let answer = serde_json::to_value(&responses["llm"]).unwrap();
        let text = format!(
            "{} after {}; caps {}",
            answer["content"]["text"],
            p.request_state.unwrap_or_default(),
            meta["io.modelcontextprotocol/clientCapabilities"]
        );
        Ok(v::CallToolOutcome::CallToolResult(v::CallToolResult::text(
            text,
        )))
    }

    async fn subscriptions_listen(
        &self,
        p: v::SubscriptionsListenRequestParams,
        cx: Cx,
    ) -> Result<v::SubscriptionsListenResult, ErrorObject> {
        *self.listening.lock().unwrap() += 1;
        let _running = Running(self.listening.clone());
        let ack =
            json!({"notifications": {}, "_meta": {"io.modelcontextprotocol/subscriptionId": "s"}});
        let _ = cx.peer.notify_subscriptions_acknowledged(&from(ack)).await;
        for uri in p.notifications.resource_subscriptions.unwrap_or_default() {
            let _ = cx
                .peer
                .notify_resource_updated(&from(json!({"uri": uri})))
                .await;
        }
        std::future::pending().await
    }
}

/// Counts a listener down when its future is dropped.
struct Running(Arc<Mutex<i32>>);

impl Drop for Running {
    fn drop(&mut self) {
        *self.0.lock().unwrap() -= 1;
    }
}

fn request(id: i64, method: &str, params: Value) -> String {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string()
}

/// `message` served by `server`, whose calls back reach `client`.
async fn at(server: &Arc<dyn Service>, client: &Recorder, message: String) -> Value {
    let answer = server
        .clone()
        .serve(Peer::new(client.clone()), message)
        .await;
    serde_json::from_str(&answer.expect("answered")).unwrap()
}

/// A 2026-07-28 handler serving 2025-11-25 clients (resource subscriptions not offered).
fn at_11_25(handler: impl v::handlers::ServerHandler + 'static) -> Arc<dyn Service> {
    Arc::new(to_11::serve_older(v::handlers::Server::new(handler)))
}

fn initialize(version: &str) -> Value {
    json!({"protocolVersion": version, "capabilities": {"sampling": {}}, "clientInfo": {"name": "old", "version": "0"}})
}

fn handler() -> (Handler, Arc<Mutex<i32>>) {
    let listening = Arc::new(Mutex::new(0));
    (
        Handler {
            listening: listening.clone(),
        },
        listening,
    )
}

#[tokio::test]
async fn a_2026_07_28_handler_serves_2025_11_25_clients() {
    let (h, _) = handler();
    let server = at_11_25(h);
    let client = Recorder::default();
    let ask = |id, method, params| at(&server, &client, request(id, method, params));
    // `initialize` is answered from `server/discover`; without a spawner, no subscriptions.
    let init = ask(1, "initialize", initialize("2025-11-25")).await;
    let result = &init["result"];
    assert_eq!(result["protocolVersion"], "2025-11-25", "{init}");
    assert_eq!(
        result["serverInfo"],
        json!({"name": "new", "version": "2.0.0"})
    );
    assert_eq!(result["instructions"], "be kind");
    assert_eq!(
        result["capabilities"],
        json!({"tools": {}, "logging": {}, "resources": {}})
    );

    // The handler asks for input in its result; the bridge asks the client, and calls again.
    let call = ask(2, "tools/call", json!({"name": "ask"})).await;
    let text = call["result"]["content"][0]["text"]
        .as_str()
        .expect("a text result");
    assert_eq!(
        text, r#""sampled" after round 1; caps {"sampling":{}}"#,
        "{call}"
    );
    // Before `logging/setLevel` the handler is told `debug`, as an older server sends what it likes.
    let sent = client.sent();
    assert_eq!(
        client.methods(),
        [
            "notifications/message",
            "sampling/createMessage",
            "notifications/message"
        ]
    );
    assert_eq!(sent[0]["params"]["data"], r#"level "debug""#);
    assert_eq!(sent[1]["params"]["maxTokens"], 5);

    // `logging/setLevel` is remembered and passed on in every request.
    let set = ask(3, "logging/setLevel", json!({"level": "error"})).await;
    assert_eq!(set["result"], json!({}), "{set}");
    let plain = ask(4, "tools/call", json!({"name": "plain"})).await;
    assert_eq!(plain["result"]["content"][0]["text"], "plain", "{plain}");
    assert_eq!(
        client.sent().last().unwrap()["params"]["data"],
        r#"level "error""#
    );

    // `ping` is answered by the older trait; subscriptions without a spawner are -32601.
    let ping = ask(5, "ping", json!({})).await;
    assert_eq!(ping["result"], json!({}));
    let sub = ask(6, "resources/subscribe", json!({"uri": "a://x"})).await;
    assert_eq!(sub["error"]["code"], -32601, "{sub}");
    // A method the newer handler does not answer is the newer trait's -32601.
    let list = ask(7, "prompts/list", json!({})).await;
    assert_eq!(list["error"]["code"], -32601, "{list}");
}

#[tokio::test]
async fn subscriptions_run_one_listener_for_the_subscribed_uris() {
    let (h, listening) = handler();
    let server: Arc<dyn Service> = Arc::new(
        to_11::serve_older(v::handlers::Server::new(h)).with_spawn(|f| {
            tokio::spawn(f);
        }),
    );
    let client = Recorder::default();
    let ask = |id, method, params| at(&server, &client, request(id, method, params));
    let init = ask(1, "initialize", initialize("2025-11-25")).await;
    assert_eq!(
        init["result"]["capabilities"]["resources"],
        json!({"subscribe": true})
    );
    let settle = || tokio::time::sleep(Duration::from_millis(50));

    for (id, uri) in [(2, "a://x"), (3, "a://y")] {
        let sub = at(
            &server,
            &client,
            request(id, "resources/subscribe", json!({"uri": uri})),
        )
        .await;
        assert_eq!(sub["result"], json!({}), "{sub}");
        settle().await;
    }
    assert_eq!(*listening.lock().unwrap(), 1, "one listener at a time");
    // Each listener reports its URIs; the acknowledgement, which 2025-11-25 lacks, is not passed on.
    let updated: Vec<Value> = client
        .sent()
        .iter()
        .map(|m| m["params"]["uri"].clone())
        .collect();
    assert_eq!(client.methods(), ["notifications/resources/updated"; 3]);
    assert_eq!(updated, ["a://x", "a://x", "a://y"]);

    let unsub = ask(4, "resources/unsubscribe", json!({"uri": "a://x"})).await;
    assert_eq!(unsub["result"], json!({}), "{unsub}");
    let unsub = ask(5, "resources/unsubscribe", json!({"uri": "a://y"})).await;
    assert_eq!(unsub["result"], json!({}), "{unsub}");
    settle().await;
    assert_eq!(*listening.lock().unwrap(), 0, "no URI, no listener");

    ask(6, "resources/subscribe", json!({"uri": "a://z"})).await;
    settle().await;
    assert_eq!(*listening.lock().unwrap(), 1);
    drop(server);
    settle().await;
    assert_eq!(
        *listening.lock().unwrap(),
        0,
        "the connection's end stops its listener"
    );
}

#[tokio::test]
async fn through_one_pair_more_it_serves_2025_06_18_clients() {
    let (h, _) = handler();
    let server = to_06::serve_older(at_11_25(h));
    let client = Recorder::default();
    let server: Arc<dyn Service> = Arc::new(server);
    let serve = |message: String| at(&server, &client, message);
    let init = serve(request(1, "initialize", initialize("2025-06-18"))).await;
    assert_eq!(init["result"]["protocolVersion"], "2025-06-18", "{init}");
    let call = serve(request(2, "tools/call", json!({"name": "ask"}))).await;
    let text = call["result"]["content"][0]["text"]
        .as_str()
        .expect("a text result");
    assert!(text.starts_with(r#""sampled" after round 1"#), "{call}");
}

/// A 2026-07-28 handler whose discover result does not say who it is cannot answer an
/// older `initialize`: an error naming what is missing, not a made-up name.
struct Nameless;

impl v::handlers::ServerHandler for Nameless {
    async fn discover(&self, _: v::RequestParams, _: Cx) -> Result<v::DiscoverResult, ErrorObject> {
        Ok(from(
            json!({"resultType": "complete", "cacheScope": "public", "ttlMs": 0,
                       "supportedVersions": ["2026-07-28"], "capabilities": {}}),
        ))
    }
}

#[tokio::test]
async fn an_initialize_the_newer_handler_cannot_answer_is_an_error() {
    let server = at_11_25(Nameless);
    let init = at(
        &server,
        &Recorder::default(),
        request(1, "initialize", initialize("2025-11-25")),
    )
    .await;
    assert_eq!(init["error"]["code"], -32603, "{init}");
    let message = init["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("io.modelcontextprotocol/serverInfo"),
        "{message}"
    );
}

#[tokio::test]
async fn through_every_pair_it_serves_2024_11_05_clients() {
    use mcp_spec_types::convert::{
        v2024_11_05_v2025_03_26 as to_24, v2025_03_26_v2025_06_18 as to_03,
    };
    let (h, _) = handler();
    let server = to_24::serve_older(to_03::serve_older(to_06::serve_older(at_11_25(h))));
    let server: Arc<dyn Service> = Arc::new(server);
    let client = Recorder::default();
    let serve = |message: String| at(&server, &client, message);
    let init = serve(request(1, "initialize", initialize("2024-11-05"))).await;
    assert_eq!(init["result"]["protocolVersion"], "2024-11-05", "{init}");
    assert_eq!(init["result"]["serverInfo"]["name"], "new");
    // The handler's input request reaches the oldest client as its own sampling request,
    // converted down through every pair, and its answer back up.
    let call = serve(request(2, "tools/call", json!({"name": "ask"}))).await;
    let text = call["result"]["content"][0]["text"]
        .as_str()
        .expect("a text result");
    assert!(text.starts_with(r#""sampled" after round 1"#), "{call}");
    assert!(
        client
            .methods()
            .contains(&"sampling/createMessage".to_string())
    );
}

/// An older client subscribes to at most `bridge::MAX_SUBSCRIPTIONS` resources at once:
/// one more is refused, saying so; one it already has, or one after an unsubscribe, is not.
#[tokio::test]
async fn subscriptions_are_bounded() {
    use mcp_spec_types::rt::bridge::MAX_SUBSCRIPTIONS;
    let (h, _) = handler();
    let server: Arc<dyn Service> = Arc::new(
        to_11::serve_older(v::handlers::Server::new(h)).with_spawn(|f| {
            tokio::spawn(f);
        }),
    );
    let client = Recorder::default();
    let ask = |id: i64, method: &str, uri: String| {
        at(&server, &client, request(id, method, json!({"uri": uri})))
    };
    let init = at(
        &server,
        &client,
        request(0, "initialize", initialize("2025-11-25")),
    )
    .await;
    assert!(init.get("result").is_some(), "{init}");
    for i in 0..MAX_SUBSCRIPTIONS {
        let sub = ask(1, "resources/subscribe", format!("a://{i}")).await;
        assert_eq!(sub["result"], json!({}), "{i}: {sub}");
    }
    let over = ask(2, "resources/subscribe", "a://over".into()).await;
    assert_eq!(over["error"]["code"], -32602, "{over}");
    assert!(
        over["error"]["message"]
            .as_str()
            .unwrap()
            .contains("MAX_SUBSCRIPTIONS"),
        "{over}"
    );
    let again = ask(3, "resources/subscribe", "a://0".into()).await;
    assert_eq!(again["result"], json!({}), "{again}");
    let off = ask(4, "resources/unsubscribe", "a://0".into()).await;
    assert_eq!(off["result"], json!({}), "{off}");
    let room = ask(5, "resources/subscribe", "a://over".into()).await;
    assert_eq!(room["result"], json!({}), "{room}");
}
