//! The Streamable HTTP server under faults, floods and slow peers (rows 5 to 11 of issue
//! 34), on a local port: sessions that are never used, requests to the client that are
//! never answered, large bodies, slow connections, and what the specification and the
//! other SDKs refuse. Each test checks statuses, codes and counts, not timings.

use std::time::Duration;

use mcp_spec_session::Versions;
use mcp_spec_session::http::{HttpLimits, HttpServer, SessionLimits};
use mcp_spec_session::{Limits, http_client::HttpClient};
use mcp_spec_types::ProtocolVersion;
use mcp_spec_types::rt::jsonrpc::ErrorObject;
use mcp_spec_types::rt::service::RequestContext;
use mcp_spec_types::version::RequireVersion;
use mcp_spec_types::{v2025_11_25 as old, v2026_07_28 as new};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

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
        let info = old::Implementation::new("faults", "1");
        Ok(old::InitializeResult::new("2025-11-25", caps, info))
    }

    async fn call_tool(
        &self,
        p: old::CallToolRequestParams,
        cx: RequestContext<old::handlers::ClientPeer>,
    ) -> Result<old::CallToolOutcome, ErrorObject> {
        if p.name == "ask" {
            let question = old::SamplingMessage::new(
                old::SamplingMessageContent::text("anyone?"),
                old::Role::User,
            );
            let params = old::CreateMessageRequestParams::new(10, vec![question]);
            return match cx.peer.create_message(&params).await {
                Ok(_) => Ok(old::CallToolResult::text("answered").into()),
                Err(e) => Err(ErrorObject::internal_error(e.to_string())),
            };
        }
        Ok(old::CallToolResult::text(format!("called {}", p.name)).into())
    }
}

struct NewTools;

impl new::handlers::ServerHandler for NewTools {
    async fn call_tool(
        &self,
        p: new::CallToolRequestParams,
        _: RequestContext<new::handlers::ClientPeer>,
    ) -> Result<new::CallToolOutcome, ErrorObject> {
        let size = p.arguments.map_or(0, |a| a.len());
        let text = new::ContentBlock::text(format!("{} with {size} arguments", p.name));
        Ok(new::CallToolResult::new("complete", vec![text]).into())
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

/// Serves `server` on a free local port: its address (`127.0.0.1:port`).
async fn start(server: HttpServer) -> String {
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", 0))
        .await
        .unwrap();
    let address = listener.local_addr().unwrap().to_string();
    tokio::spawn(server.serve(listener));
    address
}

fn url(address: &str) -> String {
    format!("http://{address}/mcp")
}

/// POSTs `body` with the usual headers and `extra`: the status, the headers, the body.
async fn post(
    address: &str,
    extra: &[(&str, &str)],
    body: String,
) -> (u16, reqwest::header::HeaderMap, String) {
    let mut request = reqwest::Client::new()
        .post(url(address))
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream");
    for (k, v) in extra {
        request = request.header(*k, *v);
    }
    let response = request.body(body).send().await.unwrap();
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    (status, headers, response.text().await.unwrap())
}

fn initialize(id: u32) -> String {
    json!({"jsonrpc": "2.0", "id": id, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "faults", "version": "1"}}})
    .to_string()
}

/// A session started with `initialize`: its id.
async fn open(address: &str) -> String {
    let (status, headers, body) = post(address, &[], initialize(1)).await;
    assert_eq!(status, 200, "{body}");
    headers["mcp-session-id"].to_str().unwrap().to_string()
}

fn envelope() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
    })
}

/// A stateless 2026-07-28 `tools/call` of `name` with `arguments`, and its headers.
fn stateless_call(name: &str, arguments: Value) -> (Vec<(&'static str, String)>, String) {
    let body = json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call",
        "params": {"name": name, "arguments": arguments, "_meta": envelope()}});
    let headers = vec![
        ("mcp-protocol-version", "2026-07-28".to_string()),
        ("mcp-method", "tools/call".to_string()),
        ("mcp-name", name.to_string()),
    ];
    (headers, body.to_string())
}

/// Sends raw bytes on a new connection and reads until the server closes it (within 10
/// s, else it fails): the status of the (first) response, 0 if none came, and the text.
async fn raw(address: &str, request: &str) -> (u16, String) {
    let mut stream = TcpStream::connect(address).await.unwrap();
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut answer));
    read.await
        .expect("the server closes the connection")
        .unwrap();
    let answer = String::from_utf8_lossy(&answer).to_string();
    let status = answer
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    (status, answer)
}

/// Row 5: a flood of `initialize` never followed up locks nobody out: each new session
/// ends the one idle longest, the flood's sessions are ended after the handshake time,
/// and idle ones after the idle time. Only when every session is busy is `initialize`
/// refused, 503 with `Retry-After`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_of_initialize_locks_nobody_out() {
    let limits = SessionLimits {
        max: 16,
        handshake: Duration::from_millis(300),
        idle: Duration::from_secs(600),
    };
    let address = start(HttpServer::new(versions).session_limits(limits)).await;
    let mut flood = Vec::new();
    for _ in 0..200 {
        flood.push(open(&address).await);
    }
    // A client after the flood is served.
    let client = HttpClient::connect(&url(&address), old::handlers::Client::new(NoModel));
    let server = old::handlers::ServerPeer(client.session().peer());
    let info = old::Implementation::new("late", "1");
    let hello = old::InitializeRequestParams::new("2025-11-25", Default::default(), info);
    server.initialize(&hello).await.unwrap();
    server.notify_initialized(None).await.unwrap();
    let call = server
        .call_tool(&old::CallToolRequestParams::new("x"))
        .await;
    assert!(call.is_ok(), "{call:?}");
    // The flood's newest sessions, never used, are ended after the handshake time; the
    // oldest ones were ended to make room.
    tokio::time::sleep(Duration::from_millis(1200)).await;
    let ping = json!({"jsonrpc": "2.0", "id": 2, "method": "ping"}).to_string();
    for session in [&flood[0], &flood[199]] {
        let (status, _, body) = post(&address, &[("mcp-session-id", session)], ping.clone()).await;
        assert_eq!(status, 404, "{body}");
    }
    // The client that finished its handshake is still served.
    assert!(server.ping(None).await.is_ok());
    client.close().await;

    // An idle session is ended after the idle time.
    let limits = SessionLimits {
        max: 1,
        handshake: Duration::from_secs(600),
        idle: Duration::from_millis(300),
    };
    let address = start(HttpServer::new(versions).session_limits(limits)).await;
    let session = open(&address).await;
    let (status, _, _) = post(&address, &[("mcp-session-id", &session)], ping.clone()).await;
    assert_eq!(status, 200);
    tokio::time::sleep(Duration::from_millis(1200)).await;
    let (status, _, _) = post(&address, &[("mcp-session-id", &session)], ping.clone()).await;
    assert_eq!(status, 404);

    // Every session busy (its GET stream open): 503, and when to try again.
    let session = open(&address).await;
    let _ = post(&address, &[("mcp-session-id", &session)], ping.clone()).await;
    let listening = reqwest::Client::new()
        .get(url(&address))
        .header("accept", "text/event-stream")
        .header("mcp-session-id", &session)
        .send()
        .await
        .unwrap();
    assert_eq!(listening.status().as_u16(), 200);
    let (status, headers, body) = post(&address, &[], initialize(3)).await;
    assert_eq!(status, 503, "{body}");
    assert_eq!(headers["retry-after"], "1");
    let answer: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(answer["id"], 3, "{answer}");
    drop(listening);
}

struct NoModel;
impl old::handlers::ClientHandler for NoModel {}

/// Row 6 over HTTP: a request to the client that is never answered times out, and the
/// call that asked gets an error that says so (so the session's stream ends and the
/// session can become idle).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unanswered_request_to_the_client_times_out() {
    let limits = Limits {
        request_timeout: Duration::from_millis(300),
        ..Limits::default()
    };
    let address = start(HttpServer::new(versions).limits(limits)).await;
    let session = open(&address).await;
    let call = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "ask"}});
    // The event stream carries the sampling request (never answered), the cancellation,
    // then the error.
    let (status, _, stream) =
        post(&address, &[("mcp-session-id", &session)], call.to_string()).await;
    assert_eq!(status, 200);
    assert!(stream.contains("sampling/createMessage"), "{stream}");
    assert!(stream.contains("notifications/cancelled"), "{stream}");
    assert!(
        stream.contains("did not answer") && stream.contains("request_timeout"),
        "{stream}"
    );
}

/// Row 7: large bodies. A 2 MiB batch of `{}` is refused with one error; sixteen large
/// bodies at once are each either answered or refused 503 with `Retry-After` (a bounded
/// number decoded at once), and a normal call meanwhile is answered.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn large_bodies_are_decoded_a_bounded_number_at_once() {
    let address = start(HttpServer::new(versions)).await;
    let batch = format!("[{}{{}}]", "{},".repeat((2 << 20) / 3));
    let (status, _, body) = post(&address, &[], batch.clone()).await;
    assert_eq!(status, 400, "{body}");
    let answer: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(answer["error"]["code"], -32600, "{answer}");

    // Sixteen costly bodies: batches, and tools/call with 2 MiB of arguments.
    let numbers: serde_json::Map<String, Value> =
        (0..150_000).map(|i| (format!("k{i}"), json!(i))).collect();
    let (headers, heavy) = stateless_call("heavy", Value::Object(numbers));
    assert!(heavy.len() > 2 << 20, "{}", heavy.len());
    let mut sent = Vec::new();
    for i in 0..16 {
        let address = address.clone();
        let (body, headers) = if i % 2 == 0 {
            (batch.clone(), Vec::new())
        } else {
            (heavy.clone(), headers.clone())
        };
        sent.push(tokio::spawn(async move {
            let headers: Vec<(&str, &str)> =
                headers.iter().map(|(k, v)| (*k, v.as_str())).collect();
            post(&address, &headers, body).await
        }));
    }
    let (headers, normal) = stateless_call("normal", json!({"a": 1}));
    let headers: Vec<(&str, &str)> = headers.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let (status, _, body) = post(&address, &headers, normal).await;
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("normal with 1 arguments"), "{body}");
    let (mut answered, mut busy) = (0, 0);
    for sent in sent {
        let (status, headers, body) = sent.await.unwrap();
        match status {
            503 => {
                assert_eq!(headers["retry-after"], "1");
                assert!(body.contains("large_at_once"), "{body}");
                busy += 1;
            }
            200 => {
                assert!(body.contains("heavy with 150000 arguments"), "{body}");
                answered += 1;
            }
            400 => {
                assert!(body.contains("a batch of"), "{body}");
                answered += 1;
            }
            other => panic!("{other}: {body}"),
        }
    }
    assert_eq!(answered + busy, 16);
    assert!(answered >= 1, "one at a time is decoded");
}

/// Row 8: slow peers. Connections that send their headers or body a byte at a time are
/// closed (or answered 408), connections beyond the cap wait, and a normal client is
/// served meanwhile.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_peers_do_not_stop_a_normal_client() {
    let limits = HttpLimits {
        connections: 8,
        headers: Duration::from_millis(500),
        body: Duration::from_millis(500),
        ..HttpLimits::default()
    };
    let address = start(HttpServer::new(versions).http_limits(limits)).await;
    // Twenty connections dripping a request head, one byte every 100 ms.
    let mut drips = Vec::new();
    for _ in 0..20 {
        let address = address.clone();
        drips.push(tokio::spawn(async move {
            let mut stream = TcpStream::connect(&address).await.unwrap();
            for byte in b"POST /mcp HTTP/1.1\r\nHost: localhost\r\nX-Slow: ".repeat(10) {
                if stream.write_all(&[byte]).await.is_err() {
                    return true;
                }
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            false
        }));
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    // A normal client: served once the cap has room (the drippers are cut off).
    let (headers, normal) = stateless_call("normal", json!({}));
    let headers: Vec<(&str, &str)> = headers.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let served = tokio::time::timeout(Duration::from_secs(30), post(&address, &headers, normal));
    let (status, _, body) = served.await.expect("a normal client is served");
    assert_eq!(status, 200, "{body}");
    for drip in drips {
        assert!(drip.await.unwrap(), "a dripping connection was closed");
    }
    // A body that trickles: 408.
    let (status, answer) = raw(
        &address,
        "POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n\
         Content-Length: 1000\r\n\r\n{\"jsonrpc\"",
    )
    .await;
    assert_eq!(status, 408, "{answer}");
    // A kept-alive connection left unused is closed after the header time too.
    let (status, _) = raw(
        &address,
        "DELETE /mcp HTTP/1.1\r\nHost: localhost\r\nMcp-Session-Id: none\r\n\r\n",
    )
    .await;
    assert_eq!(status, 404, "answered, then closed when nothing more came");
}

/// Row 9: in a session, a protocol version header that names no version of the session's
/// era the server speaks, and a second `initialize`, are 400. (One the server speaks
/// other than the session's is served at the session's: the official conformance suite
/// sends `2025-03-26` in a 2025-11-25 session and expects an answer, and the TypeScript
/// SDK gives one.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_keeps_its_version_and_its_one_initialize() {
    let address = start(HttpServer::new(versions)).await;
    let session = open(&address).await;
    let ping = json!({"jsonrpc": "2.0", "id": 2, "method": "ping"}).to_string();
    let cases = [
        (Some("1999-01-01"), ping.clone(), 400),
        (Some("not a version"), ping.clone(), 400),
        // Not offered by this server (it offers 2025-11-25 and 2026-07-28).
        (Some("2025-06-18"), ping.clone(), 400),
        // Of the other era.
        (Some("2026-07-28"), ping.clone(), 400),
        (Some("2025-11-25"), ping.clone(), 200),
        // A client of 2025-03-26 says no version: the session's is assumed.
        (None, ping.clone(), 200),
        (Some("2025-11-25"), initialize(3), 400),
    ];
    for (version, body, status) in cases {
        let mut headers = vec![("mcp-session-id", session.as_str())];
        headers.extend(version.map(|v| ("mcp-protocol-version", v)));
        let (got, _, answer) = post(&address, &headers, body.clone()).await;
        assert_eq!(got, status, "{version:?} {body}: {answer}");
        if status == 400 {
            let answer: Value = serde_json::from_str(&answer).unwrap();
            assert_eq!(answer["error"]["code"], -32600, "{answer}");
            assert!(answer["id"].is_number(), "{answer}");
        }
    }
}

/// Row 10: a POST that is not `application/json` is 415; an `Accept` without both of
/// what the answer may be is 406 (a GET's without `text/event-stream` too).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn content_type_and_accept_are_checked() {
    let address = start(HttpServer::new(versions)).await;
    let ping = json!({"jsonrpc": "2.0", "id": 1, "method": "ping"}).to_string();
    let send = |content_type: &'static str, accept: &'static str| {
        let (address, ping) = (address.clone(), ping.clone());
        async move {
            let response = reqwest::Client::new()
                .post(url(&address))
                .header("content-type", content_type)
                .header("accept", accept)
                .body(ping)
                .send()
                .await
                .unwrap();
            response.status().as_u16()
        }
    };
    assert_eq!(
        send("text/plain", "application/json, text/event-stream").await,
        415
    );
    assert_eq!(send("application/json", "application/json").await, 406);
    assert_eq!(send("application/json", "text/event-stream").await, 406);
    // Allowed: parameters, wildcards. (Not initialize, and no `_meta` envelope: 400,
    // past the checks.)
    assert_eq!(send("application/json; charset=utf-8", "*/*").await, 400);
    let session = open(&address).await;
    let get = reqwest::Client::new()
        .get(url(&address))
        .header("accept", "application/json")
        .header("mcp-session-id", &session)
        .send();
    assert_eq!(get.await.unwrap().status().as_u16(), 406);
}

/// Row 11: a `Host` that is no host, an absent one, and an absolute-form target naming
/// another host are refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hosts_are_checked_strictly() {
    let address = start(HttpServer::new(versions)).await;
    let ping = json!({"jsonrpc": "2.0", "id": 1, "method": "ping"}).to_string();
    let request = |target: &str, host: Option<&str>| {
        let host = host.map(|h| format!("Host: {h}\r\n")).unwrap_or_default();
        format!(
            "POST {target} HTTP/1.1\r\n{host}Content-Type: application/json\r\n\
             Accept: application/json, text/event-stream\r\nConnection: close\r\n\
             Content-Length: {}\r\n\r\n{ping}",
            ping.len()
        )
    };
    let cases = [
        ("/mcp", Some("[::1]evil.example"), 400, "is not a host"),
        ("/mcp", None, 400, "exactly one Host header"),
        ("/mcp", Some("evil.example"), 403, "not an allowed host"),
        (
            "http://evil.example/mcp",
            Some("localhost"),
            403,
            "not an allowed host",
        ),
        (
            "http://localhost/mcp",
            Some("evil.example"),
            403,
            "not an allowed host",
        ),
        // Past the host checks: refused for another reason.
        (
            "http://localhost/mcp",
            Some("localhost"),
            400,
            "has no `_meta`",
        ),
        ("/mcp", Some("[::1]:8080"), 400, "has no `_meta`"),
    ];
    for (target, host, status, why) in cases {
        let (got, answer) = raw(&address, &request(target, host)).await;
        assert_eq!(got, status, "{target} {host:?}: {answer}");
        assert!(answer.contains(why), "{target} {host:?}: {answer}");
    }
}
