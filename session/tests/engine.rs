//! The session engine end to end in memory: two sessions over a pipe (stdio framing),
//! typed handlers on both sides, and a raw peer for what well-behaved peers never send.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use mcp_spec_session::{Event, Limits, Session, stdio};
use mcp_spec_types::rt::jsonrpc::{ErrorObject, Id};
use mcp_spec_types::rt::service::{CallError, NotificationContext, Open, RequestContext};
use mcp_spec_types::v2025_11_25 as v;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream};
use v::handlers::{ClientHandler, ClientPeer, ServerHandler, ServerPeer};

/// Sets its flag when dropped: tells whether a handler's future was dropped.
struct DropFlag(Arc<AtomicBool>);

impl Drop for DropFlag {
    fn drop(&mut self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

#[derive(Default)]
struct Tools {
    started: Arc<AtomicBool>,
    stopped: Arc<AtomicBool>,
}

impl ServerHandler for Tools {
    async fn call_tool(
        &self,
        params: v::CallToolRequestParams,
        cx: RequestContext<ClientPeer>,
    ) -> Result<v::CallToolOutcome, ErrorObject> {
        match params.name.as_str() {
            // Calls the client back while the call is being served.
            "ask" => {
                let question = v::SamplingMessage::new(
                    v::SamplingMessageContent::text("what is 6 x 7?"),
                    v::Role::User,
                );
                let answer = cx
                    .peer
                    .create_message(&v::CreateMessageRequestParams::new(10, vec![question]))
                    .await
                    .map_err(|e| ErrorObject::internal_error(e.to_string()))?;
                let v::CreateMessageOutcome::CreateMessageResult(answer) = answer else {
                    return Err(ErrorObject::internal_error("a task, not an answer"));
                };
                let said = match &answer.content {
                    v::CreateMessageResultContent::TextContent(t) => t.text.clone(),
                    other => format!("{other:?}"),
                };
                Ok(v::CallToolResult::text(format!("the model says {said}")).into())
            }
            // Never finishes: only cancellation ends it.
            "forever" => {
                let _flag = DropFlag(self.stopped.clone());
                self.started.store(true, Ordering::SeqCst);
                std::future::pending::<()>().await;
                unreachable!()
            }
            "slow" => {
                tokio::time::sleep(Duration::from_millis(300)).await;
                Ok(v::CallToolResult::text("slept").into())
            }
            // Long enough to stay in flight while a loaded machine sends the next ones.
            "slower" => {
                tokio::time::sleep(Duration::from_secs(2)).await;
                Ok(v::CallToolResult::text("slept long").into())
            }
            other => Err(ErrorObject::invalid_params(format!("no tool {other}"))),
        }
    }

    async fn on_cancelled(
        &self,
        _params: v::CancelledNotificationParams,
        _cx: NotificationContext<ClientPeer>,
    ) {
    }
}

struct Model;

impl ClientHandler for Model {
    async fn create_message(
        &self,
        _params: v::CreateMessageRequestParams,
        _cx: RequestContext<ServerPeer>,
    ) -> Result<v::CreateMessageOutcome, ErrorObject> {
        Ok(v::CreateMessageResult::new(
            "test-model",
            v::CreateMessageResultContent::text("42"),
            v::Role::Assistant,
        )
        .into())
    }
}

/// A server and a client session over an in-memory pipe, both served.
fn pair(tools: Tools) -> (ServerPeer, Session, Session) {
    let (client_end, server_end) = tokio::io::duplex(1 << 16);
    let (sr, sw) = tokio::io::split(server_end);
    let (cr, cw) = tokio::io::split(client_end);
    // The engine is under test, not the lifecycle: requests come without `initialize`.
    let server = v::handlers::Server::new(tools).with_policy(Open);
    let (server, run_server) = stdio::connect(sr, sw, server);
    let (client, run_client) = stdio::connect(cr, cw, v::handlers::Client::new(Model));
    tokio::spawn(run_server);
    tokio::spawn(run_client);
    (ServerPeer(client.peer()), client, server)
}

async fn within<T>(what: &str, f: impl Future<Output = T>) -> T {
    tokio::time::timeout(Duration::from_secs(5), f)
        .await
        .unwrap_or_else(|_| panic!("{what}: no answer in 5 s"))
}

fn text_of(outcome: v::CallToolOutcome) -> String {
    let v::CallToolOutcome::CallToolResult(result) = outcome else {
        panic!("a task: {outcome:?}")
    };
    match &result.content[0] {
        v::ContentBlock::TextContent(t) => t.text.clone(),
        other => panic!("{other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_handler_calls_the_peer_back_while_its_call_is_served() {
    let (server, _, _) = pair(Tools::default());
    let outcome = within(
        "tools/call that samples",
        server.call_tool(&v::CallToolRequestParams::new("ask")),
    )
    .await
    .unwrap();
    assert_eq!(text_of(outcome), "the model says 42");
    // And ping is answered by default.
    within("ping", server.ping(None)).await.unwrap();
}

#[tokio::test(flavor = "current_thread")]
async fn requests_are_served_concurrently_on_one_thread_too() {
    let (server, _, _) = pair(Tools::default());
    let started = tokio::time::Instant::now();
    let slow = v::CallToolRequestParams::new("slow");
    let calls = (0..3).map(|_| server.call_tool(&slow));
    let outcomes = within("three slow calls", futures_util::future::join_all(calls)).await;
    for o in outcomes {
        assert_eq!(text_of(o.unwrap()), "slept");
    }
    // One after the other they would take 900 ms.
    assert!(
        started.elapsed() < Duration::from_millis(800),
        "{:?}",
        started.elapsed()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancelled_call_stops_its_handler_and_is_not_answered() {
    let tools = Tools::default();
    let (started, stopped) = (tools.started.clone(), tools.stopped.clone());
    let (server, client, _) = pair(tools);
    let call = tokio::spawn({
        let server = server.clone();
        async move {
            server
                .call_tool(&v::CallToolRequestParams::new("forever"))
                .await
        }
    });
    // The first request of this peer has id 1; cancel it once its handler runs.
    within("the handler to start", async {
        while !started.load(Ordering::SeqCst) {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    })
    .await;
    let cancel = v::CancelledNotificationParams {
        request_id: Some(v::RequestId::Integer(1)),
        ..Default::default()
    };
    server.notify_cancelled(&cancel).await.unwrap();
    within("the handler to stop", async {
        while !stopped.load(Ordering::SeqCst) {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    })
    .await;
    // No answer comes: the call is still waiting.
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(!call.is_finished());
    assert!(!client.is_closed());
    call.abort();
}

/// A raw peer: writes lines to a served server session and reads its lines.
struct Raw {
    to: DuplexStream,
    from: tokio::io::Lines<BufReader<DuplexStream>>,
}

impl Raw {
    async fn send(&mut self, line: &str) {
        self.to
            .write_all(format!("{line}\n").as_bytes())
            .await
            .unwrap();
    }

    async fn recv(&mut self) -> Value {
        let line = within("a line", self.from.next_line())
            .await
            .unwrap()
            .unwrap();
        serde_json::from_str(&line).unwrap()
    }
}

fn raw_server(limits: Limits) -> (Raw, Arc<Mutex<Vec<Event>>>) {
    let (to_server, server_in) = tokio::io::duplex(1 << 16);
    let (server_out, from_server) = tokio::io::duplex(1 << 16);
    let events = Arc::new(Mutex::new(Vec::new()));
    let seen = events.clone();
    let builder = Session::builder()
        .limits(limits)
        .observer(move |e| seen.lock().unwrap().push(e.clone()));
    let (_session, run) = stdio::connect_with(
        builder,
        server_in,
        server_out,
        v::handlers::Server::new(Tools::default()).with_policy(Open),
    );
    tokio::spawn(run);
    let raw = Raw {
        to: to_server,
        from: BufReader::new(from_server).lines(),
    };
    (raw, events)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_peers_do_not_break_the_session() {
    let (mut raw, events) = raw_server(Limits {
        requests_in_flight: 2,
        ..Limits::default()
    });
    // Not JSON: -32700, and the session goes on.
    raw.send("this is not json").await;
    let answer = raw.recv().await;
    assert_eq!(answer["error"]["code"], -32700, "{answer}");
    raw.send(r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#)
        .await;
    assert_eq!(
        raw.recv().await,
        json!({"jsonrpc": "2.0", "id": 1, "result": {}})
    );

    // A response to nothing: reported and dropped, nothing sent back.
    raw.send(r#"{"jsonrpc":"2.0","id":99,"result":{}}"#).await;
    // Two slower requests fill the limit, and a repeated id is answered -32600; a third
    // request is not refused: it is read once one of the two is done, and answered.
    let call = |id: u32| {
        format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"slower"}}}}"#
        )
    };
    raw.send(&call(10)).await;
    raw.send(&call(10)).await;
    let duplicate = raw.recv().await;
    assert_eq!(
        (duplicate["id"].clone(), duplicate["error"]["code"].clone()),
        (json!(10), json!(-32600)),
        "{duplicate}"
    );
    raw.send(&call(11)).await;
    raw.send(&call(12)).await;
    let mut done: Vec<Value> = Vec::new();
    for _ in 0..3 {
        let answer = raw.recv().await;
        assert_eq!(
            answer["result"]["content"][0]["text"], "slept long",
            "{answer}"
        );
        done.push(answer["id"].clone());
    }
    done.sort_by_key(|id| id.as_i64());
    assert_eq!(done, [json!(10), json!(11), json!(12)]);
    // Served again once the slow ones are done.
    raw.send(&call(13)).await;
    assert_eq!(raw.recv().await["id"], 13);

    // A cancellation of a request that is not running: reported, nothing else.
    raw.send(r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":77}}"#)
        .await;
    raw.send(r#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#)
        .await;
    assert_eq!(raw.recv().await["id"], 2);

    let events = events.lock().unwrap().clone();
    for expected in [
        Event::UnknownResponse(Id::Integer(99)),
        Event::DuplicateRequest(Id::Integer(10)),
        Event::CancelledUnknown(Id::Integer(77)),
    ] {
        assert!(events.contains(&expected), "{expected:?} in {events:?}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_peer_that_closes_fails_the_pending_calls() {
    let (client_end, server_end) = tokio::io::duplex(1 << 16);
    let (cr, cw) = tokio::io::split(client_end);
    let (client, run) = stdio::connect(cr, cw, v::handlers::Client::new(Model));
    tokio::spawn(run);
    let server = ServerPeer(client.peer());
    let call = tokio::spawn(async move { server.list_tools(None).await });
    // The "server" reads the request, then goes away without answering.
    let mut lines = BufReader::new(server_end).lines();
    let request = within("the request", lines.next_line())
        .await
        .unwrap()
        .unwrap();
    assert!(request.contains("tools/list"), "{request}");
    drop(lines);
    let outcome = within("the pending call to fail", call).await.unwrap();
    match outcome {
        Err(CallError::Transport(e)) => {
            assert!(e.message.contains("connection closed"), "{e}")
        }
        other => panic!("{other:?}"),
    }
    assert!(client.is_closed());
    // A call after the end fails at once.
    let late = ServerPeer(client.peer());
    assert!(matches!(
        within("a late call", late.ping(None)).await,
        Err(CallError::Transport(_))
    ));
}

/// Records the order in which the engine hands it messages, then answers nothing.
struct Order(Mutex<Vec<String>>);

impl mcp_spec_types::rt::service::Service for Order {
    fn serve(
        self: Arc<Self>,
        _peer: mcp_spec_types::rt::service::Peer,
        message: String,
    ) -> mcp_spec_types::rt::service::BoxFuture<'static, Option<String>> {
        self.0.lock().unwrap().push(message);
        Box::pin(async {
            tokio::task::yield_now().await;
            None
        })
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_service_gets_messages_in_the_order_they_arrive() {
    let order = Arc::new(Order(Mutex::new(Vec::new())));
    // Room for every request at once (past the limit a request is refused, not served).
    let session = Session::builder()
        .limits(Limits {
            requests_in_flight: 1000,
            ..Limits::default()
        })
        .build(|_| Box::pin(async { Ok(()) }));
    let sent: Vec<String> = (0..200)
        .map(|i| match i % 2 {
            0 => format!(r#"{{"jsonrpc":"2.0","id":{i},"method":"ping"}}"#),
            _ => format!(
                r#"{{"jsonrpc":"2.0","method":"notifications/progress","params":{{"progressToken":{i},"progress":1}}}}"#
            ),
        })
        .collect();
    // Requests and notifications alike, each served in a task of its own: the service
    // still sees them in order (what, say, choosing a protocol version relies on).
    session
        .run(
            futures_util::stream::iter(sent.clone()),
            order.clone(),
            &mcp_spec_session::Tokio,
        )
        .await;
    assert_eq!(*order.0.lock().unwrap(), sent);
}
