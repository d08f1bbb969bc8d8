//! The stdio transport under faults, floods and slow peers (rows 1 to 4 and 6 of issue
//! 34): the end of input, bytes that are no message, a peer that does not read, a line
//! too long, a peer that never answers. Each test counts answers and codes on the
//! session crate's own transport (`stdio::connect_with` over in-memory pipes).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use mcp_spec_session::{Event, Flow, Limits, Session, stdio};
use mcp_spec_types::rt::jsonrpc::ErrorObject;
use mcp_spec_types::rt::service::{Open, RequestContext};
use mcp_spec_types::v2025_11_25 as v;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream};

struct Tools;

impl v::handlers::ServerHandler for Tools {
    async fn call_tool(
        &self,
        p: v::CallToolRequestParams,
        cx: RequestContext<v::handlers::ClientPeer>,
    ) -> Result<v::CallToolOutcome, ErrorObject> {
        match p.name.as_str() {
            "nap" => {
                tokio::time::sleep(Duration::from_millis(100)).await;
                Ok(v::CallToolResult::text("rested").into())
            }
            "forever" => std::future::pending().await,
            // Logs after a while (the input may have ended by then), then answers with
            // whether the log could be sent.
            "late_log" => {
                tokio::time::sleep(Duration::from_millis(50)).await;
                let log =
                    v::LoggingMessageNotificationParams::new("late".into(), v::LoggingLevel::Info);
                match cx.peer.notify_logging_message(&log).await {
                    Ok(()) => Ok(v::CallToolResult::text("logged").into()),
                    Err(e) => Ok(v::CallToolResult::text(format!("refused: {e}")).into()),
                }
            }
            // Asks the client for a sampling it never gives.
            "ask" => {
                let question = v::SamplingMessage::new(
                    v::SamplingMessageContent::text("anyone?"),
                    v::Role::User,
                );
                let params = v::CreateMessageRequestParams::new(10, vec![question]);
                match cx.peer.create_message(&params).await {
                    Ok(_) => Ok(v::CallToolResult::text("answered").into()),
                    Err(e) => Err(ErrorObject::internal_error(e.to_string())),
                }
            }
            other => Err(ErrorObject::invalid_params(format!("no tool {other}"))),
        }
    }
}

/// A server on in-memory pipes: what writes to it, what reads from it, the future that
/// serves it, and what its observer saw.
struct Served {
    to: DuplexStream,
    from: DuplexStream,
    run: tokio::task::JoinHandle<()>,
    events: Arc<Mutex<Vec<Event>>>,
    read: Arc<AtomicUsize>,
}

fn serve(limits: Limits) -> Served {
    let (to, server_in) = tokio::io::duplex(1 << 16);
    let (server_out, from) = tokio::io::duplex(1 << 16);
    let events = Arc::new(Mutex::new(Vec::new()));
    let read = Arc::new(AtomicUsize::new(0));
    let (seen, count) = (events.clone(), read.clone());
    let builder = Session::builder()
        .limits(limits)
        .observer(move |e| seen.lock().unwrap().push(e.clone()))
        .tap(move |direction, _| {
            if direction == Flow::In {
                count.fetch_add(1, Ordering::SeqCst);
            }
        });
    // The engine is under test, not the lifecycle: requests come without `initialize`.
    let server = v::handlers::Server::new(Tools).with_policy(Open);
    let (_, run) = stdio::connect_with(builder, server_in, server_out, server);
    Served {
        to,
        from,
        run: tokio::spawn(run),
        events,
        read,
    }
}

/// Every line the server writes until it closes its output.
async fn read_all(from: DuplexStream) -> Vec<Value> {
    let mut lines = BufReader::new(from).lines();
    let mut all = Vec::new();
    let read = async {
        while let Some(line) = lines.next_line().await.unwrap() {
            all.push(serde_json::from_str(&line).unwrap());
        }
    };
    tokio::time::timeout(Duration::from_secs(60), read)
        .await
        .expect("the server closes its output");
    all
}

fn ping(id: usize) -> String {
    format!("{{\"jsonrpc\":\"2.0\",\"id\":{id},\"method\":\"ping\"}}\n")
}

fn call(id: usize, tool: &str) -> String {
    format!(
        "{{\"jsonrpc\":\"2.0\",\"id\":{id},\"method\":\"tools/call\",\"params\":{{\"name\":\"{tool}\"}}}}\n"
    )
}

/// The ids of the results among `answers`, sorted, and the number of errors.
fn tally(answers: &[Value]) -> (Vec<u64>, usize) {
    let mut ids: Vec<u64> = answers
        .iter()
        .filter(|a| a.get("result").is_some())
        .filter_map(|a| a["id"].as_u64())
        .collect();
    ids.sort();
    let errors = answers.iter().filter(|a| a.get("error").is_some()).count();
    (ids, errors)
}

/// Row 1: N requests, then the end of input: N answers, every time, and the future
/// returns only once they are written. A handler still running after the grace period is
/// answered with an error that says so.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_request_read_before_the_end_of_input_is_answered() {
    for round in 0..20 {
        let mut served = serve(Limits::default());
        let mut input = String::new();
        for id in 0..1000 {
            input.push_str(&ping(id));
        }
        // Handlers that take a while: still answered after the input ends.
        input.push_str(&call(1000, "nap"));
        input.push_str(&call(1001, "nap"));
        served.to.write_all(input.as_bytes()).await.unwrap();
        drop(served.to);
        let answers = read_all(served.from).await;
        let (ids, errors) = tally(&answers);
        assert_eq!(ids, (0..1002).collect::<Vec<_>>(), "round {round}");
        assert_eq!(errors, 0, "round {round}");
        served.run.await.unwrap();
    }

    // What a handler sends after the input ended, before its answer, goes out too.
    for round in 0..20 {
        let mut served = serve(Limits::default());
        served
            .to
            .write_all(call(1, "late_log").as_bytes())
            .await
            .unwrap();
        drop(served.to);
        let out = read_all(served.from).await;
        assert_eq!(out.len(), 2, "round {round}: {out:?}");
        assert_eq!(
            out[0]["method"], "notifications/message",
            "round {round}: {out:?}"
        );
        assert_eq!(
            out[1]["result"]["content"][0]["text"], "logged",
            "round {round}: {out:?}"
        );
        served.run.await.unwrap();
    }

    // A handler that never finishes: answered -32603 once the grace period is over.
    let mut served = serve(Limits {
        shutdown_grace: Duration::from_millis(200),
        ..Limits::default()
    });
    let input = format!("{}{}", call(1, "forever"), ping(2));
    served.to.write_all(input.as_bytes()).await.unwrap();
    drop(served.to);
    let answers = read_all(served.from).await;
    assert_eq!(answers.len(), 2, "{answers:?}");
    let stopped = answers.iter().find(|a| a["id"] == 1).unwrap();
    assert_eq!(stopped["error"]["code"], -32603, "{stopped}");
    let message = stopped["error"]["message"].as_str().unwrap();
    assert!(message.contains("shutdown_grace"), "{message}");
    assert!(
        answers
            .iter()
            .any(|a| a["id"] == 2 && a["result"] == json!({}))
    );
    assert!(served.events.lock().unwrap().contains(&Event::Abandoned(
        mcp_spec_types::rt::jsonrpc::Id::Integer(1)
    )));
}

/// Rows 2 and 4: a line that is not UTF-8, text that is not JSON, and a line longer
/// than the limit each get -32700 with a null id, and the session goes on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lines_that_are_no_message_are_refused_and_the_session_goes_on() {
    let mut served = serve(Limits::default());
    let writer = tokio::spawn(async move {
        let mut bad = b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"x\":\"".to_vec();
        bad.extend_from_slice(&[0xff, 0xfe]);
        bad.extend_from_slice(b"\"}\n");
        served.to.write_all(&bad).await.unwrap();
        served.to.write_all(ping(2).as_bytes()).await.unwrap();
        served.to.write_all(b"this is not json\n").await.unwrap();
        served.to.write_all(ping(3).as_bytes()).await.unwrap();
        // 5 MiB in one line, over the 4 MiB default: written in pieces, never whole.
        let piece = vec![b'a'; 1 << 20];
        served.to.write_all(b"{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"ping\",\"params\":{\"_meta\":{\"x\":\"").await.unwrap();
        for _ in 0..5 {
            served.to.write_all(&piece).await.unwrap();
        }
        served.to.write_all(b"\"}}}\n").await.unwrap();
        served.to.write_all(ping(5).as_bytes()).await.unwrap();
    });
    let answers = read_all(served.from).await;
    writer.await.unwrap();
    // Requests are served concurrently: answers come in any order.
    let mut refusals: Vec<&str> = answers
        .iter()
        .filter(|a| a["id"].is_null() && a["error"]["code"] == -32700)
        .map(|a| a["error"]["message"].as_str().unwrap())
        .collect();
    refusals.sort();
    assert_eq!(refusals.len(), 3, "{answers:?}");
    assert!(refusals[0].starts_with("parse error"), "{refusals:?}");
    assert!(
        refusals[1].contains("longer than 4194304 bytes"),
        "{refusals:?}"
    );
    assert!(refusals[2].contains("not UTF-8"), "{refusals:?}");
    let (ids, errors) = tally(&answers);
    assert_eq!((ids, errors), (vec![2, 3, 5], 3), "{answers:?}");
    let unreadable = served
        .events
        .lock()
        .unwrap()
        .iter()
        .filter(|e| matches!(e, Event::Unreadable(_)))
        .count();
    assert_eq!(unreadable, 2);
}

/// Row 3: a peer that pipelines requests and reads nothing. The session stops reading
/// (what it has read stays near its bounds: the requests in flight, the writer's queue,
/// what the pipe holds), and once the peer reads, every request is answered exactly once
/// and none is refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_peer_that_does_not_read_is_not_read_either() {
    const N: usize = 100_000;
    let served = serve(Limits::default());
    let (mut to, from, read) = (served.to, served.from, served.read.clone());
    let writer = tokio::spawn(async move {
        let mut chunk = String::new();
        for id in 0..N {
            chunk.push_str(&ping(id));
            if chunk.len() > 1 << 16 {
                to.write_all(chunk.as_bytes()).await.unwrap();
                chunk.clear();
            }
        }
        to.write_all(chunk.as_bytes()).await.unwrap();
        to
    });
    // Nothing is read: the count settles.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let settled = read.load(Ordering::SeqCst);
    tokio::time::sleep(Duration::from_millis(500)).await;
    let later = read.load(Ordering::SeqCst);
    assert_eq!(settled, later, "the session keeps reading");
    // The output pipe holds 64 KiB (about 2,000 answers), the writer's queue 64, the
    // requests in flight 64.
    assert!(
        later < 3_000,
        "{later} messages read while nothing was written out"
    );
    assert!(!writer.is_finished());
    let reader = tokio::spawn(read_all(from));
    let to = writer.await.unwrap();
    drop(to);
    let answers = reader.await.unwrap();
    let (ids, errors) = tally(&answers);
    assert_eq!(errors, 0);
    assert_eq!(ids, (0..N as u64).collect::<Vec<_>>());
    assert_eq!(served.read.load(Ordering::SeqCst), N);
    served.run.await.unwrap();
}

/// Row 6: a request to the client that is never answered times out: the handler's call
/// fails saying so, its slot is freed (more of them than the limit are all answered), and
/// the client is told to cancel it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_the_peer_never_answers_times_out_and_frees_its_slot() {
    let mut served = serve(Limits {
        requests_in_flight: 2,
        request_timeout: Duration::from_millis(300),
        ..Limits::default()
    });
    let mut input = String::new();
    for id in 1..=6 {
        input.push_str(&call(id, "ask"));
    }
    input.push_str(&ping(7));
    served.to.write_all(input.as_bytes()).await.unwrap();
    // Read until all seven are answered; the sampling requests and cancellations come too.
    let mut lines = BufReader::new(served.from).lines();
    let (mut answered, mut asked, mut cancelled) = (Vec::new(), 0, 0);
    let read = async {
        while answered.len() < 7 {
            let line = lines.next_line().await.unwrap().unwrap();
            let message: Value = serde_json::from_str(&line).unwrap();
            match message["method"].as_str() {
                Some("sampling/createMessage") => asked += 1,
                Some("notifications/cancelled") => {
                    assert!(message["params"]["requestId"].is_i64(), "{message}");
                    cancelled += 1
                }
                Some(other) => panic!("{other}: {message}"),
                None => answered.push(message),
            }
        }
    };
    tokio::time::timeout(Duration::from_secs(20), read)
        .await
        .expect("every call answered");
    assert_eq!((asked, cancelled), (6, 6));
    for answer in &answered {
        if answer["id"] == 7 {
            assert_eq!(answer["result"], json!({}));
            continue;
        }
        assert_eq!(answer["error"]["code"], -32603, "{answer}");
        let message = answer["error"]["message"].as_str().unwrap();
        assert!(
            message.contains("did not answer") && message.contains("request_timeout"),
            "{message}"
        );
    }
    let timed_out = served
        .events
        .lock()
        .unwrap()
        .iter()
        .filter(|e| matches!(e, Event::TimedOut(_)))
        .count();
    assert_eq!(timed_out, 6);
}
