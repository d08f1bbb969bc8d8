//! Real traffic (`tests/data/traffic/`, recorded by `bash interop/record` from MCP software
//! none of us wrote, in the member order the peers wrote it): every message decodes, by
//! its session's negotiated version, a result by the method of the request it answers;
//! it comes back as it came; and every entry point gives the same outcome on it (the
//! differential harness).

use mcp_spec_types::rt::jsonrpc::{self, Incoming, Message, Options, UnknownMethods};
use serde_json::Value;

struct Entry {
    session: String,
    version: Option<String>,
    from: String,
    answers: Option<String>,
    text: String,
}

fn corpus() -> Vec<Entry> {
    let dir = mcp_tests::root().join("tests/data/traffic");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .flatten()
        .map(|f| f.path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for file in files {
        for line in std::fs::read_to_string(&file).unwrap().lines() {
            let v: Value = serde_json::from_str(line).unwrap();
            let s = |k: &str| v[k].as_str().map(str::to_string);
            out.push(Entry {
                session: s("session").unwrap(),
                version: s("version"),
                from: s("from").unwrap(),
                answers: s("answers"),
                text: s("text").unwrap(),
            });
        }
    }
    out
}

/// What decoding `entry` gives: the kind and the method (or the result's variant), or why
/// it failed; and whether it came back as it came.
fn decode(entry: &Entry) -> Result<(String, bool), String> {
    let version = entry.version.as_deref().unwrap_or("2025-11-25");
    macro_rules! by_version {
        ($($name:literal => $v:ident),*) => {
            match version {
                $($name => {
                    use mcp_spec_types::$v::methods as m;
                    let options = Options { unknown_methods: UnknownMethods::Reject, batches: m::BATCHES };
                    // A method the version does not have (our client's `server/discover` probe in an
                    // older session): the response stays raw, as a client keeps it.
                    let method = entry.answers.as_deref().and_then(|a| a.parse::<m::Method>().ok());
                    let bytes = entry.text.as_bytes();
                    let (kind, encoded) = if entry.from == "client" {
                        match jsonrpc::receive_typed::<m::ClientRequest, m::ClientNotification, m::ClientResult>(bytes, options, |_| method).map_err(|e| e.to_string())? {
                            Incoming::Result { id, result, extra } => {
                                let r = result.map_err(|e| e.to_string())?;
                                (format!("result {r:?}").chars().take(60).collect(), back(&id, &r, &extra))
                            }
                            Incoming::Message(msg) => (kind_of(&msg), jsonrpc::encode_to_vec(&msg).unwrap()),
                        }
                    } else {
                        match jsonrpc::receive_typed::<m::ServerRequest, m::ServerNotification, m::ServerResult>(bytes, options, |_| method).map_err(|e| e.to_string())? {
                            Incoming::Result { id, result, extra } => {
                                let r = result.map_err(|e| e.to_string())?;
                                (format!("result {r:?}").chars().take(60).collect(), back(&id, &r, &extra))
                            }
                            Incoming::Message(msg) => (kind_of(&msg), jsonrpc::encode_to_vec(&msg).unwrap()),
                        }
                    };
                    let same = serde_json::from_slice::<Value>(&encoded).ok() == serde_json::from_str::<Value>(&entry.text).ok();
                    Ok((kind, same))
                })*
                other => Err(format!("no version {other}")),
            }
        };
    }
    by_version!(
        "2024-11-05" => v2024_11_05,
        "2025-03-26" => v2025_03_26,
        "2025-06-18" => v2025_06_18,
        "2025-11-25" => v2025_11_25,
        "2026-07-28" => v2026_07_28
    )
}

/// A typed result written back as a response, with its extra members.
fn back<T: serde::Serialize>(id: &jsonrpc::Id, result: &T, extra: &jsonrpc::Extra) -> Vec<u8> {
    let mut v: Value =
        serde_json::from_slice(&jsonrpc::encode_response(id, result).unwrap()).unwrap();
    for (k, x) in extra {
        v[k] = x.clone();
    }
    serde_json::to_vec(&v).unwrap()
}

fn kind_of<R: jsonrpc::MethodSet, N: jsonrpc::MethodSet>(m: &Message<R, N>) -> String {
    match m {
        Message::Request { request, .. } => format!("request {}", request.method()),
        Message::Notification { notification, .. } => {
            format!("notification {}", notification.method())
        }
        Message::Response { .. } => "response (raw)".into(),
        Message::Error { error, .. } => format!("error {}", error.code),
        Message::Batch(_) => "batch".into(),
    }
}

#[test]
fn every_recorded_message_decodes_by_its_version_and_method() {
    let corpus = corpus();
    assert!(corpus.len() >= 100, "{} messages", corpus.len());
    let mut sessions = std::collections::BTreeMap::<String, (usize, usize)>::new();
    let mut failures = Vec::new();
    for entry in &corpus {
        let counts = sessions.entry(entry.session.clone()).or_default();
        counts.0 += 1;
        match decode(entry) {
            Ok((_, true)) => counts.1 += 1,
            Ok((kind, false)) => failures.push(format!(
                "{}: {kind}: changed on the way back: {}",
                entry.session, entry.text
            )),
            Err(e) => failures.push(format!("{}: {e}: {}", entry.session, entry.text)),
        }
    }
    for (session, (all, ok)) in &sessions {
        println!("{session}: {ok} of {all} decode and come back as they came");
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_entry_point_agrees_on_recorded_traffic() {
    let mut tally = mcp_tests::fuzz::Tally::default();
    for entry in corpus() {
        mcp_tests::fuzz::run(&mut tally, entry.text.as_bytes());
    }
    println!(
        "{} messages, {} comparisons, {} disagreements",
        tally.inputs,
        tally.comparisons,
        tally.disagreements.len()
    );
    assert!(
        tally.disagreements.is_empty(),
        "{}",
        tally.disagreements.join("\n")
    );
}
