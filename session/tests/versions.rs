//! Version negotiation as part of the session: `Versions` serves each connection with the
//! version its peer speaks, decided by the first message that tells.

use std::sync::Arc;

use mcp_spec_session::{Session, Versions};
use mcp_spec_types::ProtocolVersion;
use mcp_spec_types::rt::jsonrpc::ErrorObject;
use mcp_spec_types::rt::service::{RequestContext, Service};
use serde_json::{Value, json};

/// One server per version: each says which one answered.
macro_rules! server {
    ($name:ident, $v:ident, initialize) => {
        struct $name;
        impl mcp_spec_types::$v::handlers::ServerHandler for $name {
            async fn initialize(
                &self,
                params: mcp_spec_types::$v::InitializeRequestParams,
                _cx: RequestContext<mcp_spec_types::$v::handlers::ClientPeer>,
            ) -> Result<mcp_spec_types::$v::InitializeResult, ErrorObject> {
                let _ = params;
                Ok(mcp_spec_types::$v::InitializeResult::new(
                    stringify!($v),
                    Default::default(),
                    mcp_spec_types::$v::Implementation::new("s", "1"),
                ))
            }
        }
    };
}

server!(Old, v2025_06_18, initialize);
server!(Mid, v2025_11_25, initialize);

struct New;
impl mcp_spec_types::v2026_07_28::handlers::ServerHandler for New {}

fn versions() -> Arc<Versions> {
    use mcp_spec_types::{v2025_06_18 as a, v2025_11_25 as b, v2026_07_28 as c};
    Arc::new(
        Versions::new()
            .with(ProtocolVersion::V2025_06_18, a::handlers::Server::new(Old))
            .with(ProtocolVersion::V2025_11_25, b::handlers::Server::new(Mid))
            .with(ProtocolVersion::V2026_07_28, c::handlers::Server::new(New)),
    )
}

async fn send(v: &Arc<Versions>, message: Value) -> Option<Value> {
    let peer = Session::new(|_| Box::pin(async { Ok(()) })).peer();
    v.clone()
        .serve(peer, message.to_string())
        .await
        .map(|a| serde_json::from_str(&a).unwrap())
}

fn initialize(id: u32, version: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "initialize", "params": {
        "protocolVersion": version, "capabilities": {},
        "clientInfo": {"name": "c", "version": "1"}}})
}

#[tokio::test]
async fn the_first_initialize_picks_the_version_the_connection_speaks() {
    let v = versions();
    // Before anything tells: the newest initialize-era version answers (ping by default).
    let ping = json!({"jsonrpc": "2.0", "id": 1, "method": "ping"});
    assert_eq!(send(&v, ping.clone()).await.unwrap()["result"], json!({}));
    // The client asks for 2025-06-18: that version answers, and stays.
    let answer = send(&v, initialize(2, "2025-06-18")).await.unwrap();
    assert_eq!(
        answer["result"]["protocolVersion"], "v2025_06_18",
        "{answer}"
    );
    // A second `initialize` goes to that version too, whose lifecycle refuses it.
    let again = send(&v, initialize(3, "2025-11-25")).await.unwrap();
    assert_eq!(again["error"]["code"], -32600, "{again}");
    // A method 2025-06-18 does not have (tasks came in 2025-11-25) is refused by it.
    let tasks = json!({"jsonrpc": "2.0", "id": 4, "method": "tasks/list"});
    assert_eq!(send(&v, tasks).await.unwrap()["error"]["code"], -32601);

    // A version this server does not offer: the newest initialize-era one answers.
    let other = versions();
    let answer = send(&other, initialize(1, "2024-11-05")).await.unwrap();
    assert_eq!(
        answer["result"]["protocolVersion"], "v2025_11_25",
        "{answer}"
    );
}

#[tokio::test]
async fn a_request_that_names_its_version_puts_the_connection_in_the_discover_era() {
    let v = versions();
    let discover = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list",
        "params": {"_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {},
            "io.modelcontextprotocol/clientInfo": {"name": "c", "version": "1"}}}});
    // 2026-07-28's server has no tools: its default answers -32601 naming the method.
    let answer = send(&v, discover).await.unwrap();
    assert_eq!(answer["error"]["code"], -32601, "{answer}");
    assert!(
        answer["error"]["message"]
            .as_str()
            .unwrap()
            .contains("tools/list")
    );
    // initialize is no method of 2026-07-28: now -32601 too.
    let answer = send(&v, initialize(2, "2025-11-25")).await.unwrap();
    assert_eq!(answer["error"]["code"], -32601, "{answer}");
}

#[tokio::test]
async fn with_no_version_a_request_is_refused_and_a_notification_ignored() {
    let v = Arc::new(Versions::new());
    let answer = send(&v, json!({"jsonrpc": "2.0", "id": 1, "method": "ping"}))
        .await
        .unwrap();
    assert_eq!(answer["error"]["code"], -32603, "{answer}");
    assert_eq!(
        send(
            &v,
            json!({"jsonrpc": "2.0", "method": "notifications/initialized"})
        )
        .await,
        None
    );
}

#[tokio::test]
async fn a_deferred_service_refuses_requests_until_it_is_set() {
    use mcp_spec_session::Deferred;
    struct Model;
    impl mcp_spec_types::v2025_11_25::handlers::ClientHandler for Model {}
    let deferred = Deferred::new();
    let serve = |message: Value| {
        let deferred = Arc::new(deferred.clone());
        let peer = Session::new(|_| Box::pin(async { Ok(()) })).peer();
        async move {
            deferred
                .serve(peer, message.to_string())
                .await
                .map(|a| serde_json::from_str::<Value>(&a).unwrap())
        }
    };
    let ping = json!({"jsonrpc": "2.0", "id": 1, "method": "ping"});
    let refused = serve(ping.clone()).await.unwrap();
    assert_eq!(refused["error"]["code"], -32603, "{refused}");
    assert_eq!(refused["id"], 1);
    let note = json!({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"});
    assert_eq!(serve(note).await, None);
    let client = mcp_spec_types::v2025_11_25::handlers::Client::new(Model);
    assert!(deferred.set(client));
    assert!(deferred.is_set());
    // Set: the version's client answers (ping by default).
    assert_eq!(
        serve(ping).await.unwrap(),
        json!({"jsonrpc": "2.0", "id": 1, "result": {}})
    );
    let again = mcp_spec_types::v2025_11_25::handlers::Client::new(Model);
    assert!(!deferred.set(again), "set once");
}
