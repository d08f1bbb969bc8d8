//! Bad input never panics, never overflows the stack, and fails with an error that says
//! where. Every official example message of 2026-07-28 (and a set of 2025-11-25 messages)
//! is mutated: fields removed, values of the wrong type, wrong consts, unknown methods,
//! truncations, invalid UTF-8, huge strings, out-of-range numbers, duplicate keys and
//! 100 000 levels of nesting. Each mutant goes through the message entry point and through
//! the dispatch function of a server.

use std::panic::{AssertUnwindSafe, catch_unwind};

use mcp_spec_types::rt::jsonrpc::UnknownMethods;
use mcp_spec_types::rt::service::{BoxFuture, Open, Peer, Transport, TransportError};
use mcp_spec_types::{v2025_11_25, v2026_07_28};
use serde_json::{Value, json};

/// Every way to break one message: `(what, bytes)`.
fn mutants(message: &Value) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let text = message.to_string();
    // Remove each field, and give each field a value of the wrong type, at every depth.
    fn walk(v: &Value, path: &mut Vec<String>, out: &mut Vec<(Vec<String>, Option<Value>)>) {
        if let Value::Object(m) = v {
            for (k, child) in m {
                path.push(k.clone());
                out.push((path.clone(), None));
                let wrong = match child {
                    Value::String(_) => json!(12345),
                    Value::Number(_) => json!("not a number"),
                    Value::Bool(_) => json!("true"),
                    Value::Array(_) => json!({"an": "object"}),
                    Value::Object(_) => json!(["an", "array"]),
                    Value::Null => json!(false),
                };
                out.push((path.clone(), Some(wrong)));
                walk(child, path, out);
                path.pop();
            }
        }
    }
    let mut edits = Vec::new();
    walk(message, &mut Vec::new(), &mut edits);
    for (path, replacement) in edits {
        let mut m = message.clone();
        let (last, parents) = path.split_last().expect("non-empty");
        let mut cursor = &mut m;
        for p in parents {
            cursor = cursor.get_mut(p).expect("walked");
        }
        let what = match &replacement {
            None => format!("without {}", path.join(".")),
            Some(r) => format!("{} = {r}", path.join(".")),
        };
        match replacement {
            None => {
                cursor.as_object_mut().expect("object").remove(last);
            }
            Some(r) => cursor[last] = r,
        }
        out.push((what, m.to_string().into_bytes()));
    }
    let mut with = |what: &str, f: &dyn Fn(&mut Value)| {
        let mut m = message.clone();
        f(&mut m);
        out.push((what.to_string(), m.to_string().into_bytes()));
    };
    with("jsonrpc 1.0", &|m| m["jsonrpc"] = json!("1.0"));
    with("unknown method", &|m| {
        m["method"] = json!("tools/frobnicate")
    });
    with("a 10 MB string", &|m| {
        m["params"]["huge"] = json!("x".repeat(10 << 20))
    });
    with("integer beyond i64", &|m| {
        m["id"] = serde_json::from_str("123456789012345678901234567890").expect("number")
    });
    let mut out2 = out;
    for cut in [1, text.len() / 3, text.len() / 2, text.len() - 1] {
        out2.push((
            format!("truncated at {cut}"),
            text.as_bytes()[..cut].to_vec(),
        ));
    }
    let mut bad = text.clone().into_bytes();
    bad.insert(text.len() / 2, 0xFF);
    out2.push(("invalid UTF-8".into(), bad));
    out2.push((
        "a number beyond f64".into(),
        text.replacen('{', r#"{"big":1e400,"#, 1).into_bytes(),
    ));
    out2.push((
        "duplicate keys".into(),
        text.replacen('{', r#"{"jsonrpc":"2.0","#, 1).into_bytes(),
    ));
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    out2.push((
        "nesting 100 000 deep".into(),
        text.replacen('{', &format!(r#"{{"deep":{deep},"#), 1)
            .into_bytes(),
    ));
    out2
}

struct Nowhere;

impl Transport for Nowhere {
    fn request(
        &self,
        _: mcp_spec_types::rt::jsonrpc::Id,
        _: String,
    ) -> BoxFuture<'_, Result<String, TransportError>> {
        Box::pin(async { Err(TransportError::new("nowhere")) })
    }
    fn notify(&self, _: String) -> BoxFuture<'_, Result<(), TransportError>> {
        Box::pin(async { Ok(()) })
    }
}

struct Defaults;
impl v2026_07_28::handlers::ServerHandler for Defaults {}
impl v2025_11_25::handlers::ServerHandler for Defaults {}

/// Runs every mutant of every message through decoding and dispatch; returns how many.
fn run(messages: &[Value], version: &str) -> usize {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("runtime");
    let mut count = 0;
    let mut with_path = 0;
    for message in messages {
        for (what, bytes) in mutants(message) {
            count += 1;
            let outcome = catch_unwind(AssertUnwindSafe(|| match version {
                "2026-07-28" => {
                    let decoded =
                        v2026_07_28::methods::decode_from_client(&bytes, UnknownMethods::Reject)
                            .map(|_| ())
                            .map_err(|e| (e.code, e.path));
                    let peer = v2026_07_28::handlers::ClientPeer(Peer::new(Nowhere));
                    let reply = runtime.block_on(v2026_07_28::handlers::serve_client_message(
                        &Defaults, &Open, &peer, &bytes,
                    ));
                    (decoded, reply)
                }
                _ => {
                    let decoded =
                        v2025_11_25::methods::decode_from_client(&bytes, UnknownMethods::Reject)
                            .map(|_| ())
                            .map_err(|e| (e.code, e.path));
                    let peer = v2025_11_25::handlers::ClientPeer(Peer::new(Nowhere));
                    let reply = runtime.block_on(v2025_11_25::handlers::serve_client_message(
                        &Defaults, &Open, &peer, &bytes,
                    ));
                    (decoded, reply)
                }
            }));
            let (decoded, reply) =
                outcome.unwrap_or_else(|_| panic!("{version}: panicked on `{what}`"));
            if let Err((code, path)) = &decoded {
                assert!(
                    [-32700, -32600, -32601, -32602].contains(code),
                    "{what}: code {code}"
                );
                with_path += usize::from(path.is_some());
                if let Some(reply) = &reply {
                    let reply: Value = serde_json::from_str(reply).expect("replies are JSON");
                    assert!(
                        reply.get("error").is_some() || reply.get("result").is_some(),
                        "{what}: {reply}"
                    );
                }
            }
            // A wrong type inside params names where.
            if what.starts_with("params.") && what.contains(" = ") {
                if let Err((-32602, path)) = &decoded {
                    let field = what.split(" = ").next().unwrap_or_default();
                    let path = path.as_deref().unwrap_or_default();
                    assert!(
                        field.starts_with(path) || path.starts_with(field),
                        "{what}: error path {path}"
                    );
                }
            }
        }
    }
    println!(
        "{version}: {count} mutants of {} messages, no panic; {with_path} errors name a JSON path",
        messages.len()
    );
    count
}

fn examples_2026() -> Vec<Value> {
    let dir = mcp_tests::root().join("schema/2026-07-28/examples");
    let mut out = Vec::new();
    for def in std::fs::read_dir(dir).expect("examples").flatten() {
        let name = def.file_name().to_string_lossy().to_string();
        if !name.ends_with("Request") && !name.ends_with("Notification") {
            continue;
        }
        for file in std::fs::read_dir(def.path()).expect("folder").flatten() {
            let v: Value =
                serde_json::from_slice(&std::fs::read(file.path()).expect("read")).expect("json");
            if v.get("method").is_some() {
                out.push(v);
            }
        }
    }
    out.sort_by_key(|v| v.to_string());
    out
}

#[test]
fn mutated_2026_07_28_examples_never_panic() {
    let messages = examples_2026();
    assert!(messages.len() >= 10, "{} example messages", messages.len());
    assert!(run(&messages, "2026-07-28") >= 600);
}

#[test]
fn mutated_2025_11_25_messages_never_panic() {
    let messages = vec![
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-11-25",
            "capabilities": {"roots": {"listChanged": true}, "elicitation": {"form": {}}},
            "clientInfo": {"name": "c", "version": "1"}}}),
        json!({"jsonrpc": "2.0", "id": "a", "method": "tools/call", "params": {"name": "t",
            "arguments": {"x": [1, {"y": null}]}, "_meta": {"progressToken": 7}, "task": {"ttl": 1000}}}),
        json!({"jsonrpc": "2.0", "id": 3, "method": "resources/read", "params": {"uri": "file:///a"}}),
        json!({"jsonrpc": "2.0", "id": 4, "method": "completion/complete", "params": {
            "ref": {"type": "ref/prompt", "name": "p"}, "argument": {"name": "a", "value": "v"}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 3, "reason": "r"}}),
        json!({"jsonrpc": "2.0", "id": 5, "method": "tasks/get", "params": {"taskId": "t1"}}),
    ];
    assert!(run(&messages, "2025-11-25") >= 150);
}
