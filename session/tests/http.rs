//! Streamable HTTP end to end on a local port: our client transport against our server
//! transport in both lifecycle eras (a handler that calls the client back while it
//! serves), and raw requests for what the server must refuse, with the status and the
//! JSON-RPC error each gets.

use mcp_spec_session::Versions;
use mcp_spec_session::http::HttpServer;
use mcp_spec_session::http_client::HttpClient;
use mcp_spec_types::ProtocolVersion;
use mcp_spec_types::rt::jsonrpc::ErrorObject;
use mcp_spec_types::rt::service::RequestContext;
use mcp_spec_types::version::RequireVersion;
use mcp_spec_types::{v2025_11_25 as old, v2026_07_28 as new};
use serde_json::{Value, json};

struct OldTools;

impl old::handlers::ServerHandler for OldTools {
    async fn initialize(
        &self,
        _: old::InitializeRequestParams,
        _: RequestContext<old::handlers::ClientPeer>,
    ) -> Result<old::InitializeResult, ErrorObject> {
        let caps = old::ServerCapabilities {
            tools: Some(Default::default()),
            ..Default::default()
        };
        let info = old::Implementation::new("http-test", "1");
        Ok(old::InitializeResult::new("2025-11-25", caps, info))
    }

    async fn call_tool(
        &self,
        p: old::CallToolRequestParams,
        cx: RequestContext<old::handlers::ClientPeer>,
    ) -> Result<old::CallToolOutcome, ErrorObject> {
        if p.name == "later" {
            // Writes after its answer went: on the session's GET stream.
            let peer = cx.peer.clone();
            tokio::spawn(async move {
                tokio::time::sleep(std::time::Duration::from_millis(50)).await;
                peer.notify_tool_list_changed(None).await
            });
            return Ok(old::CallToolResult::text("soon").into());
        }
        if p.name == "poll" {
            // SEP-1699: the stream closes, the answer waits for the client to resume.
            assert!(mcp_spec_session::http::close_stream().await);
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
            return Ok(old::CallToolResult::text("after the reconnection").into());
        }
        // Calls the client back while the call is served: the request goes out on this
        // POST's event stream, the answer comes back as a POST of its own.
        let question = old::SamplingMessage::new(
            old::SamplingMessageContent::text("what is 6 x 7?"),
            old::Role::User,
        );
        let answer = cx
            .peer
            .create_message(&old::CreateMessageRequestParams::new(10, vec![question]))
            .await
            .map_err(|e| ErrorObject::internal_error(e.to_string()))?;
        let old::CreateMessageOutcome::CreateMessageResult(answer) = answer else {
            return Err(ErrorObject::internal_error("a task, not an answer"));
        };
        let said = match &answer.content {
            old::CreateMessageResultContent::TextContent(t) => t.text.clone(),
            other => format!("{other:?}"),
        };
        Ok(old::CallToolResult::text(format!("the model says {said}")).into())
    }
}

struct Model;

impl old::handlers::ClientHandler for Model {
    async fn create_message(
        &self,
        _: old::CreateMessageRequestParams,
        _: RequestContext<old::handlers::ServerPeer>,
    ) -> Result<old::CreateMessageOutcome, ErrorObject> {
        let text = old::CreateMessageResultContent::text("42");
        let result = old::CreateMessageResult::new("test-model", text, old::Role::Assistant);
        Ok(result.into())
    }
}

struct NewTools;

impl new::handlers::ServerHandler for NewTools {
    async fn list_tools(
        &self,
        _: new::PaginatedRequestParams,
        _: RequestContext<new::handlers::ClientPeer>,
    ) -> Result<new::ListToolsResult, ErrorObject> {
        let tool = new::Tool::new("echo", new::ToolInputSchema::new());
        let scope = new::ListToolsResultCacheScope::Private;
        Ok(new::ListToolsResult::new("complete", scope, vec![tool], 0))
    }
}

fn versions() -> Versions {
    let policy = RequireVersion::new(&[ProtocolVersion::V2026_07_28]);
    Versions::new()
        .with(
            ProtocolVersion::V2025_11_25,
            old::handlers::Server::new(OldTools),
        )
        .with(
            ProtocolVersion::V2026_07_28,
            new::handlers::Server::new(NewTools).with_policy(policy),
        )
}

/// Serves [`versions`] on a free local port; the URL of its endpoint.
async fn start() -> String {
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", 0))
        .await
        .unwrap();
    let port = listener.local_addr().unwrap().port();
    tokio::spawn(HttpServer::new(versions).serve(listener));
    format!("http://127.0.0.1:{port}/mcp")
}

fn envelope() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_initialize_era_over_http_with_a_call_back_to_the_client() {
    let url = start().await;
    let client = HttpClient::connect(&url, old::handlers::Client::new(Model));
    let server = old::handlers::ServerPeer(client.session().peer());
    let caps = old::ClientCapabilities {
        sampling: Some(Default::default()),
        ..Default::default()
    };
    let info = old::Implementation::new("http-test-client", "1");
    let hello = old::InitializeRequestParams::new("2025-11-25", caps, info);
    let answer = server.initialize(&hello).await.unwrap();
    assert_eq!(answer.protocol_version, "2025-11-25");
    assert!(client.session_id().is_some(), "initialize starts a session");
    server.notify_initialized(None).await.unwrap();
    let call = old::CallToolRequestParams::new("ask");
    let old::CallToolOutcome::CallToolResult(result) = server.call_tool(&call).await.unwrap()
    else {
        panic!("a task");
    };
    assert_eq!(
        serde_json::to_value(&result.content).unwrap(),
        json!([{"type": "text", "text": "the model says 42"}])
    );
    // A stream the server closes before the answer: resumed with GET and Last-Event-ID.
    let poll = old::CallToolRequestParams::new("poll");
    let old::CallToolOutcome::CallToolResult(result) = server.call_tool(&poll).await.unwrap()
    else {
        panic!("a task");
    };
    assert_eq!(
        serde_json::to_value(&result.content).unwrap(),
        json!([{"type": "text", "text": "after the reconnection"}])
    );
    assert!(
        !mcp_spec_session::http::close_stream().await,
        "outside a handler"
    );
    client.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_discover_era_over_http_without_a_session() {
    let url = start().await;
    let client = HttpClient::connect(&url, new::handlers::Client::new(NoHandler));
    let server = new::handlers::ServerPeer(client.session().peer());
    let params: new::PaginatedRequestParams =
        serde_json::from_value(json!({"_meta": envelope()})).unwrap();
    let tools = server.list_tools(&params).await.unwrap();
    assert_eq!(tools.tools[0].name, "echo");
    assert_eq!(client.session_id(), None, "no session in the discover era");
    client.close().await;
}

struct NoHandler;
impl new::handlers::ClientHandler for NoHandler {}

/// POSTs `body` with `headers`; the status and the JSON body.
async fn raw(url: &str, headers: &[(&str, &str)], body: &Value) -> (u16, Value) {
    let mut request = reqwest::Client::new()
        .post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream");
    for (k, v) in headers {
        request = request.header(*k, *v);
    }
    let response = request.body(body.to_string()).send().await.unwrap();
    let status = response.status().as_u16();
    let text = response.text().await.unwrap();
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn what_the_server_refuses_and_how() {
    let url = start().await;
    let headers = |method| {
        vec![
            ("mcp-protocol-version", "2026-07-28"),
            ("mcp-method", method),
        ]
    };
    let request = |id: u32, method: &str, params: Value| json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
    // What, the headers, the body, then the status and the error code it gets.
    type Case<'a> = (&'a str, Vec<(&'a str, &'a str)>, Value, u16, i64);
    let cases: Vec<Case> = vec![
        (
            "no _meta",
            headers("tools/list"),
            request(1, "tools/list", json!({})),
            400,
            -32602,
        ),
        (
            "no client capabilities",
            headers("tools/list"),
            request(
                2,
                "tools/list",
                json!({"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}}),
            ),
            400,
            -32602,
        ),
        (
            "the header says another version",
            headers("tools/list"),
            request(
                3,
                "tools/list",
                json!({"_meta": {"io.modelcontextprotocol/protocolVersion": "2099-01-01",
                    "io.modelcontextprotocol/clientCapabilities": {}}}),
            ),
            400,
            -32020,
        ),
        (
            "a version not served",
            vec![
                ("mcp-protocol-version", "2099-01-01"),
                ("mcp-method", "tools/list"),
            ],
            request(
                4,
                "tools/list",
                json!({"_meta": {"io.modelcontextprotocol/protocolVersion": "2099-01-01",
                    "io.modelcontextprotocol/clientCapabilities": {}}}),
            ),
            400,
            -32022,
        ),
        (
            "Mcp-Method disagrees",
            headers("prompts/list"),
            request(5, "tools/list", json!({"_meta": envelope()})),
            400,
            -32020,
        ),
        (
            "a method the version does not have",
            headers("ping"),
            request(6, "ping", json!({"_meta": envelope()})),
            404,
            -32601,
        ),
        (
            "initialize in a discover-era envelope",
            headers("initialize"),
            request(7, "initialize", json!({"_meta": envelope()})),
            404,
            -32601,
        ),
        (
            "an unknown session",
            vec![("mcp-session-id", "nope")],
            request(8, "tools/list", json!({})),
            404,
            -32600,
        ),
        (
            "a foreign Host",
            vec![("host", "evil.example.com")],
            request(9, "tools/list", json!({"_meta": envelope()})),
            403,
            -32600,
        ),
    ];
    for (what, headers, body, status, code) in cases {
        let (got_status, answer) = raw(&url, &headers, &body).await;
        assert_eq!(got_status, status, "{what}: {answer}");
        assert_eq!(answer["error"]["code"], code, "{what}: {answer}");
        assert_eq!(answer["id"], body["id"], "{what}: the error carries the id");
    }
    // The one answer with no id to carry: a body that is not JSON.
    let response = reqwest::Client::new()
        .post(&url)
        .header("content-type", "application/json")
        .body("{not json")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 400);
    let answer: Value = response.json().await.unwrap();
    assert_eq!(answer["error"]["code"], -32700, "{answer}");
    assert_eq!(answer["id"], Value::Null);
    // Served: the same request with every header right.
    let ok = request(10, "tools/list", json!({"_meta": envelope()}));
    let (status, answer) = raw(&url, &headers("tools/list"), &ok).await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["result"]["tools"][0]["name"], "echo");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_whose_server_is_gone_fails_its_calls_and_does_not_hang() {
    // A port nobody listens on (bound, then let go).
    let listener = std::net::TcpListener::bind(("127.0.0.1", 0)).unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    drop(listener);
    let client = HttpClient::connect(&url, new::handlers::Client::new(NoHandler));
    let server = new::handlers::ServerPeer(client.session().peer());
    let params: new::PaginatedRequestParams =
        serde_json::from_value(json!({"_meta": envelope()})).unwrap();
    let outcome = tokio::time::timeout(
        std::time::Duration::from_secs(10),
        server.list_tools(&params),
    )
    .await
    .expect("the call ends");
    let error = outcome.expect_err("nothing answers");
    assert!(error.to_string().contains(&url), "{error}");
    client.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_closed_stream_is_resumed_by_get_and_a_session_ends_with_delete() {
    let url = start().await;
    let http = reqwest::Client::new();
    let post = |session: Option<&str>, body: Value| {
        let mut request = http
            .post(&url)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream");
        if let Some(session) = session {
            request = request.header("mcp-session-id", session);
        }
        request.body(body.to_string()).send()
    };
    let hello = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "raw", "version": "1"}}});
    let answer = post(None, hello).await.unwrap();
    let session = answer.headers()["mcp-session-id"]
        .to_str()
        .unwrap()
        .to_string();
    assert_eq!(session.len(), 32, "128 random bits in hex: {session}");
    assert!(session.chars().all(|c| c.is_ascii_hexdigit()), "{session}");

    // The handler closes its stream: the POST's answer is the priming event alone.
    let call = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "poll"}});
    let stream = post(Some(&session), call).await.unwrap();
    assert_eq!(stream.headers()["content-type"], "text/event-stream");
    let text = stream.text().await.unwrap();
    let id = text
        .lines()
        .find_map(|l| l.strip_prefix("id: "))
        .expect("a priming event with an id")
        .to_string();
    assert!(
        text.contains("retry: ") && !text.contains("result"),
        "{text}"
    );
    // GET with Last-Event-ID brings the answer, and again after it is done.
    for _ in 0..2 {
        let resumed = http
            .get(&url)
            .header("accept", "text/event-stream")
            .header("mcp-session-id", &session)
            .header("last-event-id", &id)
            .send()
            .await
            .unwrap();
        assert_eq!(resumed.status().as_u16(), 200);
        let text = resumed.text().await.unwrap();
        assert!(text.contains("after the reconnection"), "{text}");
    }
    // A GET outside a session is not offered; one from a foreign host is refused.
    assert_eq!(http.get(&url).send().await.unwrap().status().as_u16(), 405);
    let foreign = http
        .get(&url)
        .header("host", "evil.example.com")
        .header("mcp-session-id", &session)
        .header("last-event-id", &id)
        .send();
    assert_eq!(foreign.await.unwrap().status().as_u16(), 403);

    // A GET without Last-Event-ID opens the stream for what the server sends outside any
    // request: what a handler's task writes after its answer went comes there.
    let mut standalone = http
        .get(&url)
        .header("accept", "text/event-stream")
        .header("mcp-session-id", &session)
        .send()
        .await
        .unwrap();
    assert_eq!(standalone.status().as_u16(), 200);
    let later = json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call",
        "params": {"name": "later"}});
    let answer = post(Some(&session), later)
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(answer.contains("soon"), "{answer}");
    let mut seen = String::new();
    while !seen.contains("notifications/tools/list_changed") {
        let chunk = tokio::time::timeout(std::time::Duration::from_secs(10), standalone.chunk())
            .await
            .expect("the notification comes on the GET stream")
            .unwrap()
            .expect("the GET stream stays open");
        seen.push_str(&String::from_utf8_lossy(&chunk));
    }

    // DELETE ends the session: its POSTs and resumptions are 404 from then on.
    let delete = http.delete(&url).header("mcp-session-id", &session).send();
    assert_eq!(delete.await.unwrap().status().as_u16(), 200);
    let ping = json!({"jsonrpc": "2.0", "id": 3, "method": "ping"});
    assert_eq!(
        post(Some(&session), ping).await.unwrap().status().as_u16(),
        404
    );
    let resumed = http
        .get(&url)
        .header("mcp-session-id", &session)
        .header("last-event-id", &id)
        .send();
    assert_eq!(resumed.await.unwrap().status().as_u16(), 404);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_json_body_that_is_not_the_answer_fails_the_call() {
    // An authorization error, as OAuth-protected servers write it: JSON, but no JSON-RPC.
    let app = axum::Router::new().route(
        "/mcp",
        axum::routing::post(|| async {
            (
                axum::http::StatusCode::UNAUTHORIZED,
                [("content-type", "application/json")],
                r#"{"error":"invalid_token"}"#,
            )
        }),
    );
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", 0))
        .await
        .unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await });
    let client = HttpClient::connect(&url, new::handlers::Client::new(NoHandler));
    let server = new::handlers::ServerPeer(client.session().peer());
    let params: new::PaginatedRequestParams =
        serde_json::from_value(json!({"_meta": envelope()})).unwrap();
    let outcome = tokio::time::timeout(
        std::time::Duration::from_secs(10),
        server.list_tools(&params),
    )
    .await
    .expect("the call ends");
    let error = outcome.expect_err("no answer came").to_string();
    assert!(
        error.contains("401") && error.contains("invalid_token"),
        "{error}"
    );
    client.close().await;
}
