//! The generated handler traits, dispatch functions and typed peers, end to end in
//! memory: a typed client call travels as JSON text through a loopback transport into
//! `serve_client_message`, reaches the handler, and comes back decoded by method. Protocol
//! errors get their JSON-RPC codes; the policy layer refuses before the handler runs.

use std::sync::{Arc, Mutex};

use mcp_spec_types::rt::jsonrpc::{ErrorObject, Id};
use mcp_spec_types::rt::service::{
    BoxFuture, NotificationContext, Open, Peer, Policy, RequestContext, Transport, TransportError,
};
use mcp_spec_types::v2025_06_18 as v;
use serde_json::{Value, json};
use v::handlers::{ClientHandler, ClientPeer, ServerHandler, ServerPeer};

fn typed<T: serde::de::DeserializeOwned>(value: Value) -> T {
    serde_json::from_value(value).unwrap()
}

/// A server that serves two tools and remembers the notifications it heard.
#[derive(Default)]
struct Server {
    heard: Mutex<Vec<String>>,
}

impl ServerHandler for Server {
    async fn list_tools(
        &self,
        _params: Option<v::ListToolsRequestParams>,
        _cx: RequestContext<ClientPeer>,
    ) -> Result<v::ListToolsResult, ErrorObject> {
        Ok(typed(json!({"tools": [
            {"name": "echo", "inputSchema": {"type": "object"}},
            {"name": "ask", "inputSchema": {"type": "object"}},
        ]})))
    }

    async fn call_tool(
        &self,
        params: v::CallToolRequestParams,
        cx: RequestContext<ClientPeer>,
    ) -> Result<v::CallToolResult, ErrorObject> {
        match params.name.as_str() {
            "echo" => Ok(typed(json!({"content": [{"type": "text", "text": format!(
                "echo {} (request {})", Value::from(params.arguments.unwrap_or_default()), cx.id
            )}]}))),
            // Calls back into the client while answering.
            "ask" => {
                let answer = cx
                    .peer
                    .create_message(&typed(json!({"messages": [], "maxTokens": 5})))
                    .await
                    .map_err(|e| ErrorObject::new(-32603, e.to_string()))?;
                let v::CreateMessageResultContent::TextContent(text) = answer.content else {
                    panic!("text expected");
                };
                Ok(typed(
                    json!({"content": [{"type": "text", "text": text.text}]}),
                ))
            }
            // Pings the client, whose handler does not implement `ping`: its default answers.
            "ping-back" => {
                let pong = cx
                    .peer
                    .ping(None)
                    .await
                    .map_err(|e| ErrorObject::new(-32603, e.to_string()))?;
                assert_eq!(pong, v::EmptyResult::default());
                Ok(typed(
                    json!({"content": [{"type": "text", "text": "pong"}]}),
                ))
            }
            other => Err(ErrorObject::new(-32602, format!("no tool {other}"))),
        }
    }

    async fn on_initialized(
        &self,
        _params: Option<v::ResultObject>,
        _cx: NotificationContext<ClientPeer>,
    ) {
        self.heard.lock().unwrap().push("initialized".into());
    }
}

/// A client that answers sampling.
struct Client;

impl ClientHandler for Client {
    async fn create_message(
        &self,
        _params: v::CreateMessageRequestParams,
        cx: RequestContext<ServerPeer>,
    ) -> Result<v::CreateMessageResult, ErrorObject> {
        Ok(typed(json!({
            "role": "assistant", "model": "m",
            "content": {"type": "text", "text": format!("sampled for request {}", cx.id)},
        })))
    }
}

/// Client → server: every message goes straight into the server's dispatch.
struct ToServer {
    server: Arc<Server>,
    policy: Arc<dyn Fn() -> Box<dyn Policy> + Send + Sync>,
    back: ClientPeer,
}

impl Transport for ToServer {
    fn request(&self, _id: Id, message: String) -> BoxFuture<'_, Result<String, TransportError>> {
        Box::pin(async move {
            let policy = (self.policy)();
            let reply = v::handlers::serve_client_message(
                &*self.server,
                &PolicyRef(&*policy),
                &self.back,
                message.as_bytes(),
            )
            .await;
            reply.ok_or_else(|| TransportError::new("no reply"))
        })
    }

    fn notify(&self, message: String) -> BoxFuture<'_, Result<(), TransportError>> {
        Box::pin(async move {
            let reply = v::handlers::serve_client_message(
                &*self.server,
                &Open,
                &self.back,
                message.as_bytes(),
            )
            .await;
            assert_eq!(reply, None, "notifications are never answered");
            Ok(())
        })
    }
}

struct PolicyRef<'a>(&'a dyn Policy);

impl Policy for PolicyRef<'_> {
    fn check_request(
        &self,
        method: &str,
        meta: Option<&mcp_spec_types::rt::service::Meta>,
    ) -> Result<(), ErrorObject> {
        self.0.check_request(method, meta)
    }
    fn check_notification(
        &self,
        method: &str,
        meta: Option<&mcp_spec_types::rt::service::Meta>,
    ) -> bool {
        self.0.check_notification(method, meta)
    }
}

/// Server → client, the same way.
struct ToClient;

impl Transport for ToClient {
    fn request(&self, _id: Id, message: String) -> BoxFuture<'_, Result<String, TransportError>> {
        Box::pin(async move {
            let back = ServerPeer(Peer::new(mcp_tests::Unused));
            v::handlers::serve_server_message(&Client, &Open, &back, message.as_bytes())
                .await
                .ok_or_else(|| TransportError::new("no reply"))
        })
    }

    fn notify(&self, _message: String) -> BoxFuture<'_, Result<(), TransportError>> {
        Box::pin(async { Ok(()) })
    }
}

fn setup(
    policy: impl Fn() -> Box<dyn Policy> + Send + Sync + 'static,
) -> (Arc<Server>, ServerPeer) {
    let server = Arc::new(Server::default());
    let peer = ServerPeer(Peer::new(ToServer {
        server: server.clone(),
        policy: Arc::new(policy),
        back: ClientPeer(Peer::new(ToClient)),
    }));
    (server, peer)
}

#[tokio::test]
async fn typed_calls_round_trip_through_dispatch() {
    let (server, peer) = setup(|| Box::new(Open));
    let tools = peer.list_tools(None).await.unwrap();
    assert_eq!(
        tools
            .tools
            .iter()
            .map(|t| t.name.as_str())
            .collect::<Vec<_>>(),
        ["echo", "ask"]
    );

    let result = peer
        .call_tool(&typed(json!({"name": "echo", "arguments": {"x": 1}})))
        .await
        .unwrap();
    let v::ContentBlock::TextContent(text) = &result.content[0] else {
        panic!()
    };
    assert_eq!(text.text, r#"echo {"x":1} (request 2)"#);

    // The handler calls the client back while answering.
    let result = peer
        .call_tool(&typed(json!({"name": "ask"})))
        .await
        .unwrap();
    let v::ContentBlock::TextContent(text) = &result.content[0] else {
        panic!()
    };
    assert_eq!(text.text, "sampled for request 1");

    peer.notify_initialized(None).await.unwrap();
    assert_eq!(*server.heard.lock().unwrap(), ["initialized"]);

    // `ping` is answered by default, on both sides, as the specification requires.
    assert_eq!(peer.ping(None).await.unwrap(), v::EmptyResult::default());
    let pong = peer
        .call_tool(&typed(json!({"name": "ping-back"})))
        .await
        .unwrap();
    assert_eq!(
        serde_json::to_value(&pong).unwrap()["content"][0]["text"],
        "pong"
    );

    // A request the handler does not implement: the default answers -32601 naming it.
    match peer.list_prompts(None).await {
        Err(mcp_spec_types::rt::service::CallError::Rejected(e)) => {
            assert_eq!(e.code, -32601);
            assert!(e.message.contains("prompts/list"), "{}", e.message);
        }
        other => panic!("{other:?}"),
    }
    // An error the handler returns reaches the caller as it was.
    match peer.call_tool(&typed(json!({"name": "nope"}))).await {
        Err(mcp_spec_types::rt::service::CallError::Rejected(e)) => {
            assert_eq!((e.code, e.message.as_str()), (-32602, "no tool nope"));
        }
        other => panic!("{other:?}"),
    }
}

async fn raw(message: &str) -> Option<Value> {
    let server = Server::default();
    let back = ClientPeer(Peer::new(mcp_tests::Unused));
    v::handlers::serve_client_message(&server, &Open, &back, message.as_bytes())
        .await
        .map(|r| serde_json::from_str(&r).unwrap())
}

#[tokio::test]
async fn protocol_errors_get_their_codes() {
    let e = raw("{not json").await.unwrap();
    assert_eq!(
        (e["id"].clone(), e["error"]["code"].clone()),
        (Value::Null, json!(-32700))
    );

    let e = raw(r#"{"jsonrpc":"2.0","id":1}"#).await.unwrap();
    assert_eq!(e["error"]["code"], -32600, "{e}");

    let e = raw(r#"{"jsonrpc":"2.0","id":2,"method":"tools/frobnicate"}"#)
        .await
        .unwrap();
    assert_eq!(
        (e["id"].clone(), e["error"]["code"].clone()),
        (json!(2), json!(-32601)),
        "{e}"
    );

    let e = raw(r#"{"jsonrpc":"2.0","id":"x","method":"tools/call","params":{"arguments":{}}}"#)
        .await
        .unwrap();
    assert_eq!(
        (e["id"].clone(), e["error"]["code"].clone()),
        (json!("x"), json!(-32602)),
        "{e}"
    );
    assert!(
        e["error"]["message"].as_str().unwrap().contains("name"),
        "{e}"
    );

    let e = raw(r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":7}}"#)
        .await
        .unwrap();
    assert_eq!(e["error"]["code"], -32602);
    assert_eq!(e["error"]["data"]["path"], "params.name", "{e}");

    // Notifications are never answered, not even bad or unknown ones.
    assert_eq!(
        raw(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#).await,
        None
    );
    assert_eq!(
        raw(r#"{"jsonrpc":"2.0","method":"notifications/unknown"}"#).await,
        None
    );
    assert_eq!(
        raw(r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{}}"#).await,
        None
    );

    // A batch in a version without batches is an invalid request.
    let e = raw(r#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#)
        .await
        .unwrap();
    assert_eq!(e["error"]["code"], -32600, "{e}");
}

#[tokio::test]
async fn batches_are_answered_with_batches_where_allowed() {
    use mcp_spec_types::v2025_03_26 as old;
    struct Pinger;
    impl old::handlers::ServerHandler for Pinger {
        async fn ping(
            &self,
            _params: Option<old::PingRequestParams>,
            _cx: RequestContext<old::handlers::ClientPeer>,
        ) -> Result<old::EmptyResult, ErrorObject> {
            Ok(typed(json!({})))
        }
    }
    let back = old::handlers::ClientPeer(Peer::new(mcp_tests::Unused));
    let batch = r#"[{"jsonrpc":"2.0","id":1,"method":"ping"},
                    {"jsonrpc":"2.0","method":"notifications/initialized"},
                    {"jsonrpc":"2.0","id":2,"method":"nope"}]"#;
    let reply = old::handlers::serve_client_message(&Pinger, &Open, &back, batch.as_bytes())
        .await
        .unwrap();
    let reply: Value = serde_json::from_str(&reply).unwrap();
    assert_eq!(reply[0], json!({"jsonrpc": "2.0", "id": 1, "result": {}}));
    assert_eq!(reply[1]["error"]["code"], -32601);
    assert_eq!(reply.as_array().unwrap().len(), 2);

    // A bad element is answered with its own error; the others are still served.
    let batch = r#"[5,
                    {"jsonrpc":"2.0","id":3,"method":"tools/call","params":{}},
                    {"jsonrpc":"2.0","id":4,"method":"ping"}]"#;
    let reply = old::handlers::serve_client_message(&Pinger, &Open, &back, batch.as_bytes())
        .await
        .unwrap();
    let reply: Value = serde_json::from_str(&reply).unwrap();
    assert_eq!(
        (reply[0]["id"].clone(), reply[0]["error"]["code"].clone()),
        (Value::Null, json!(-32600)),
        "{reply}"
    );
    assert_eq!(
        (reply[1]["id"].clone(), reply[1]["error"]["code"].clone()),
        (json!(3), json!(-32602)),
        "{reply}"
    );
    assert_eq!(reply[2], json!({"jsonrpc": "2.0", "id": 4, "result": {}}));
    assert_eq!(reply.as_array().unwrap().len(), 3);

    // An empty batch is one invalid request, not an empty answer.
    let reply = old::handlers::serve_client_message(&Pinger, &Open, &back, b"[]")
        .await
        .unwrap();
    let reply: Value = serde_json::from_str(&reply).unwrap();
    assert_eq!(reply["error"]["code"], -32600, "{reply}");
}

#[tokio::test]
async fn the_policy_decides_before_the_handler() {
    struct NoTools;
    impl Policy for NoTools {
        fn check_request(
            &self,
            method: &str,
            _meta: Option<&mcp_spec_types::rt::service::Meta>,
        ) -> Result<(), ErrorObject> {
            if method == "tools/call" {
                Err(ErrorObject::new(-32600, "not initialized"))
            } else {
                Ok(())
            }
        }
        fn check_notification(
            &self,
            _method: &str,
            _meta: Option<&mcp_spec_types::rt::service::Meta>,
        ) -> bool {
            false
        }
    }
    let (_, peer) = setup(|| Box::new(NoTools));
    match peer.call_tool(&typed(json!({"name": "echo"}))).await {
        Err(mcp_spec_types::rt::service::CallError::Rejected(e)) => {
            assert_eq!(e.message, "not initialized")
        }
        other => panic!("{other:?}"),
    }
    assert!(peer.list_tools(None).await.is_ok());

    let server = Server::default();
    let back = ClientPeer(Peer::new(mcp_tests::Unused));
    let note = br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
    assert_eq!(
        v::handlers::serve_client_message(&server, &NoTools, &back, note).await,
        None
    );
    assert!(
        server.heard.lock().unwrap().is_empty(),
        "the policy dropped the notification"
    );
}

#[tokio::test]
async fn request_meta_is_added_to_every_request_and_seen_by_the_handler() {
    struct Meta(Mutex<Option<serde_json::Map<String, Value>>>);
    impl ServerHandler for Meta {
        async fn list_tools(
            &self,
            _params: Option<v::ListToolsRequestParams>,
            cx: RequestContext<ClientPeer>,
        ) -> Result<v::ListToolsResult, ErrorObject> {
            *self.0.lock().unwrap() = cx
                .meta
                .as_ref()
                .map(mcp_spec_types::rt::service::Meta::to_map);
            Ok(typed(json!({"tools": []})))
        }
    }
    struct Direct(Arc<Meta>);
    impl Transport for Direct {
        fn request(
            &self,
            _id: Id,
            message: String,
        ) -> BoxFuture<'_, Result<String, TransportError>> {
            Box::pin(async move {
                let back = ClientPeer(Peer::new(mcp_tests::Unused));
                Ok(
                    v::handlers::serve_client_message(&*self.0, &Open, &back, message.as_bytes())
                        .await
                        .unwrap(),
                )
            })
        }
        fn notify(&self, _m: String) -> BoxFuture<'_, Result<(), TransportError>> {
            Box::pin(async { Ok(()) })
        }
    }
    let handler = Arc::new(Meta(Mutex::new(None)));
    let meta: serde_json::Map<String, Value> =
        typed(json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28"}));
    let peer = ServerPeer(Peer::new(Direct(handler.clone())).with_request_meta(meta.clone()));
    peer.list_tools(None).await.unwrap();
    assert_eq!(*handler.0.lock().unwrap(), Some(meta));
}

#[tokio::test]
async fn the_initialize_first_policy_keeps_the_lifecycle_order() {
    use mcp_spec_types::version::InitializeFirst;
    struct Init;
    impl ServerHandler for Init {
        async fn initialize(
            &self,
            _params: v::InitializeRequestParams,
            _cx: RequestContext<ClientPeer>,
        ) -> Result<v::InitializeResult, ErrorObject> {
            Ok(v::InitializeResult::new(
                "2025-06-18",
                v::ServerCapabilities::default(),
                v::Implementation::new("s", "1"),
            ))
        }
    }
    let policy = InitializeFirst::new();
    let back = ClientPeer(Peer::new(mcp_tests::Unused));
    let send = |text: &'static str| {
        let (policy, back) = (&policy, &back);
        async move {
            v::handlers::serve_client_message(&Init, policy, back, text.as_bytes())
                .await
                .map(|r| serde_json::from_str::<Value>(&r).unwrap())
        }
    };
    let init = r#"{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}"#;

    // Before `initialize`: ping is served, anything else refused, notifications dropped.
    let pong = send(r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#).await;
    assert_eq!(pong.unwrap()["result"], json!({}));
    let early = send(r#"{"jsonrpc":"2.0","id":9,"method":"tools/list"}"#)
        .await
        .unwrap();
    assert_eq!(early["error"]["code"], -32600, "{early}");
    assert!(
        early["error"]["message"]
            .as_str()
            .unwrap()
            .contains("tools/list")
    );

    let answer = send(init).await.unwrap();
    assert_eq!(
        answer["result"]["protocolVersion"], "2025-06-18",
        "{answer}"
    );
    // After it: served as usual (here the default -32601), and no second `initialize`.
    let later = send(r#"{"jsonrpc":"2.0","id":3,"method":"tools/list"}"#)
        .await
        .unwrap();
    assert_eq!(later["error"]["code"], -32601, "{later}");
    let again = send(init).await.unwrap();
    assert_eq!(again["error"]["code"], -32600, "{again}");
}

#[tokio::test]
async fn the_require_version_policy_answers_unsupported_versions_as_the_schema_says() {
    use mcp_spec_types::ProtocolVersion;
    use mcp_spec_types::v2026_07_28 as n;
    use mcp_spec_types::version::RequireVersion;
    struct Tools;
    impl n::handlers::ServerHandler for Tools {}
    let policy = RequireVersion::new(&[ProtocolVersion::V2026_07_28]);
    let back = n::handlers::ClientPeer(Peer::new(mcp_tests::Unused));
    let ask = |version: &str| {
        format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{{"_meta":{{"io.modelcontextprotocol/protocolVersion":"{version}","io.modelcontextprotocol/clientCapabilities":{{}}}}}}}}"#
        )
    };
    let ok =
        n::handlers::serve_client_message(&Tools, &policy, &back, ask("2026-07-28").as_bytes())
            .await
            .unwrap();
    // Let through to the handler (which implements nothing: -32601).
    let ok: Value = serde_json::from_str(&ok).unwrap();
    assert_eq!(ok["error"]["code"], -32601, "{ok}");
    let refused =
        n::handlers::serve_client_message(&Tools, &policy, &back, ask("2099-01-01").as_bytes())
            .await
            .unwrap();
    let refused: Value = serde_json::from_str(&refused).unwrap();
    assert_eq!(refused["error"]["code"], -32022, "{refused}");
    assert_eq!(
        refused["error"]["data"],
        json!({"supported": ["2026-07-28"], "requested": "2099-01-01"})
    );
    // An envelope that is missing or incomplete is invalid params, whatever the version
    // (the schema's params type requires both keys: its decoder or the policy refuses).
    for (params, missing) in [
        (json!({}), "`_meta`"),
        (
            json!({"_meta": {"io.modelcontextprotocol/clientCapabilities": {}}}),
            "io.modelcontextprotocol/protocolVersion",
        ),
        (
            json!({"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}}),
            "io.modelcontextprotocol/clientCapabilities",
        ),
    ] {
        let ask = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": params});
        let ask = ask.to_string();
        let refused = n::handlers::serve_client_message(&Tools, &policy, &back, ask.as_bytes())
            .await
            .unwrap();
        let refused: Value = serde_json::from_str(&refused).unwrap();
        assert_eq!(refused["error"]["code"], -32602, "{refused}");
        assert_eq!(refused["id"], 2, "{refused}");
        let message = refused["error"]["message"].as_str().unwrap();
        assert!(message.contains(missing), "{message}");
    }
}

/// The text of the answer to `message`, as the server writes it.
async fn raw_text(message: &str) -> Option<String> {
    let server = Server::default();
    let back = ClientPeer(Peer::new(mcp_tests::Unused));
    v::handlers::serve_client_message(&server, &Open, &back, message.as_bytes()).await
}

#[tokio::test]
async fn an_id_is_echoed_exactly_as_it_came() {
    // A number as it was written; a string as the same string (an escape may be
    // written as the character it stands for: the same JSON string).
    for written in ["7", "1.0", "1E2", "-0", "2.50e1", r#""x""#, r#""\u00e9\"""#] {
        for (message, code) in [
            (
                format!(r#"{{"jsonrpc":"2.0","id":{written},"method":"ping"}}"#),
                None,
            ),
            (
                format!(r#"{{"jsonrpc":"2.0","id":{written},"method":"tools/frobnicate"}}"#),
                Some(-32601),
            ),
            (
                format!(
                    r#"{{"jsonrpc":"2.0","id":{written},"method":"tools/call","params":{{"name":7}}}}"#
                ),
                Some(-32602),
            ),
            (
                format!(r#"{{"jsonrpc":"2.0","id":{written},"method":"ping","params":[]}}"#),
                Some(-32600),
            ),
        ] {
            let text = raw_text(&message).await.unwrap();
            let answer: Value = serde_json::from_str(&text).unwrap();
            if written.starts_with('"') {
                assert_eq!(
                    answer["id"],
                    serde_json::from_str::<Value>(written).unwrap()
                );
            } else {
                assert!(
                    text.contains(&format!(r#""id":{written}"#)),
                    "{message} -> {text}"
                );
            }
            assert_eq!(
                answer["error"]["code"].as_i64(),
                code,
                "{message} -> {answer}"
            );
        }
    }
    // Not an integer, or not one every path reads alike (written with an exponent or a
    // fraction, 2^53 or more in size; past i64): no id to echo.
    for written in ["1.5", "1E300", "9007199254740993.0", "-9223372036854775809"] {
        let answer = raw(&format!(
            r#"{{"jsonrpc":"2.0","id":{written},"method":"ping"}}"#
        ))
        .await
        .unwrap();
        assert_eq!(
            (answer["id"].clone(), answer["error"]["code"].clone()),
            (Value::Null, json!(-32600)),
            "{written}"
        );
    }
    // The largest such integer is fine.
    let text = raw_text(r#"{"jsonrpc":"2.0","id":9007199254740991.0,"method":"ping"}"#)
        .await
        .unwrap();
    assert!(text.contains(r#""id":9007199254740991.0"#), "{text}");
}

#[test]
fn an_id_written_another_way_is_the_same_id() {
    use mcp_spec_types::rt::jsonrpc::{Incoming, Message, UnknownMethods};
    use mcp_spec_types::rt::service::{Route, route};
    use std::collections::HashSet;
    let m = |id: &str| format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{{"tools":[]}}}}"#);
    for (written, value) in [
        ("4.0", 4),
        ("4E0", 4),
        ("40e-1", 4),
        ("-0", 0),
        ("-3.0", -3),
    ] {
        let text = m(written);
        // Routed to the caller that awaits the integer id, however it is written.
        let Route::Response(id) = route(text.as_bytes()) else {
            panic!("{text}: a response")
        };
        assert_eq!(id, Id::Integer(value), "{written}");
        assert_eq!(id.as_i64(), Some(value));
        assert!(HashSet::from([Id::Integer(value)]).contains(&id));
        assert_eq!(id.to_string(), written);
        // Decoded alike through the version's entry points, and written back as it came.
        let message = v::methods::decode_from_server(&text, UnknownMethods::Reject).unwrap();
        let Message::Response { id: got, .. } = &message else {
            panic!("{message:?}")
        };
        assert_eq!(got, &Id::Integer(value));
        assert_eq!(serde_json::to_string(&message).unwrap(), text);
        let incoming = v::methods::receive_from_server(&text, UnknownMethods::Reject, |id| {
            (*id == Id::Integer(value)).then_some(v::methods::Method::ListTools)
        })
        .unwrap();
        assert!(
            matches!(&incoming, Incoming::Result { result: Ok(_), .. }),
            "{incoming:?}"
        );
    }
    // Written back as it came only when the text is the number of its value (the fields
    // are public): anything else is written as the value.
    let written = |value: i64, text: &str| Id::Written {
        value,
        text: text.to_string(),
    };
    assert_eq!(serde_json::to_string(&written(100, "1E2")).unwrap(), "1E2");
    assert_eq!(serde_json::to_string(&written(1, "\"x\"")).unwrap(), "1");
    assert_eq!(serde_json::to_string(&written(1, "abc")).unwrap(), "1");
    assert_eq!(serde_json::to_string(&written(7, "1E2")).unwrap(), "7");
    // Ids order by value, integers before strings.
    let mut ids: Vec<Id> = ["\"a\"", "2.0", "1", "-1E0"]
        .iter()
        .map(|t| serde_json::from_str(t).unwrap())
        .collect();
    ids.sort();
    assert_eq!(
        ids.iter().map(Id::to_string).collect::<Vec<_>>(),
        ["-1.0", "1", "2.0", "\"a\""]
    );
}

/// The discover era's client answers the input requests of an `input_required` result
/// with its handler (`answer_inputs`): each by the method for it, under its key; a kind
/// of request the version does not know is -32601, and a handler's error ends it.
#[tokio::test]
#[allow(deprecated)]
async fn input_requests_are_answered_by_the_client_handler() {
    use mcp_spec_types::v2026_07_28 as n;

    struct Model;
    impl n::handlers::ClientHandler for Model {
        async fn create_message(
            &self,
            p: n::CreateMessageRequestParams,
            cx: RequestContext<n::handlers::ServerPeer>,
        ) -> Result<n::CreateMessageResult, ErrorObject> {
            let asked = serde_json::to_value(&p.messages[0].content).unwrap();
            Ok(typed(
                json!({"role": "assistant", "model": format!("{:?}", cx.id),
                            "content": {"type": "text", "text": format!("re {}", asked["text"])}}),
            ))
        }
        async fn list_roots(
            &self,
            _: Option<n::ListRootsRequestParams>,
            _: RequestContext<n::handlers::ServerPeer>,
        ) -> Result<n::ListRootsResult, ErrorObject> {
            Ok(typed(json!({"roots": [{"uri": "file:///r"}]})))
        }
        // `elicit` is left to the trait's default: -32601.
    }
    let peer = n::handlers::ServerPeer(Peer::new(mcp_tests::Unused));
    let asked: n::InputRequests = typed(json!({
        "llm": {"method": "sampling/createMessage",
                "params": {"messages": [{"role": "user", "content": {"type": "text", "text": "hi"}}],
                           "maxTokens": 5}},
        "where": {"method": "roots/list"},
    }));
    let answers = n::handlers::answer_inputs(&Model, &asked, &peer)
        .await
        .unwrap();
    assert_eq!(
        serde_json::to_value(&answers).unwrap(),
        json!({
            "llm": {"role": "assistant", "model": "String(\"llm\")",
                    "content": {"type": "text", "text": "re \"hi\""}},
            "where": {"roots": [{"uri": "file:///r"}]},
        })
    );
    let form = json!({"mode": "form", "message": "?", "requestedSchema": {"type": "object", "properties": {}}});
    let asked: n::InputRequests =
        typed(json!({"ask": {"method": "elicitation/create", "params": form}}));
    let refused = n::handlers::answer_inputs(&Model, &asked, &peer)
        .await
        .unwrap_err();
    assert_eq!(refused.code, -32601, "{refused:?}");
    let asked: n::InputRequests = typed(json!({"x": {"method": "tasks/get", "params": {}}}));
    let refused = n::handlers::answer_inputs(&Model, &asked, &peer)
        .await
        .unwrap_err();
    assert_eq!(refused.code, -32601);
    assert!(
        refused.message.contains("no kind this version knows"),
        "{}",
        refused.message
    );
}
