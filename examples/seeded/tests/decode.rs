//! The seeded modules at work: the official examples of 2026-07-28 decode into
//! `mcp_next` and come back as they came; the recorded real traffic of 2025-11-25 decodes
//! through `mcp`'s method decoders (with its rename, its own `Icon`, no tasks) and comes
//! back as it came; the settings hold (the module's doc example, a `Router` made of
//! `mcp`'s types, is a doctest of this crate).
//!
//! The data are the repository's (`../../schema`, `../../tests/data/traffic`), or under
//! `MCP_SCHEMAS` and `MCP_TRAFFIC` when this crate is built from a copy elsewhere.

use std::path::PathBuf;

use mcp_spec_rt::jsonrpc::{self, Incoming, Options, UnknownMethods};
use mcp_spec_rt::serde_json::{self, Value};
use seeded::mcp;

fn dir(var: &str, default: &str) -> PathBuf {
    match std::env::var_os(var) {
        Some(d) => PathBuf::from(d),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(default),
    }
}

/// Examples that contradict their own schema (the repository's tests list the same one).
const EXPECTED_FAILURES: &[&str] =
    &["ReadResourceResultResponse/read-resource-result-response.json"];

#[test]
fn official_examples_round_trip_through_the_seeded_types() {
    let root = dir("MCP_SCHEMAS", "../../schema").join("2026-07-28/examples");
    let mut folders: Vec<_> = std::fs::read_dir(&root)
        .unwrap_or_else(|e| panic!("{}: {e}", root.display()))
        .flatten()
        .map(|e| e.path())
        .collect();
    folders.sort();
    let (mut passed, mut failed, mut expected) = (0, Vec::new(), 0);
    for folder in folders {
        let definition = folder.file_name().unwrap().to_string_lossy().to_string();
        let mut files: Vec<_> = std::fs::read_dir(&folder)
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .collect();
        files.sort();
        for file in files {
            let case = format!(
                "{definition}/{}",
                file.file_name().unwrap().to_string_lossy()
            );
            let value: Value =
                serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
            let outcome = match seeded::definitions::round_trip(&definition, value.clone()) {
                None => Err("no type".to_string()),
                Some(Err(e)) => Err(e),
                Some(Ok(back)) if back == value => Ok(()),
                Some(Ok(back)) => Err(format!("changed: {back}")),
            };
            match (outcome, EXPECTED_FAILURES.contains(&case.as_str())) {
                (Ok(()), false) => passed += 1,
                (Err(_), true) => expected += 1,
                (Ok(()), true) => {
                    failed.push(format!("{case} now passes: take it off EXPECTED_FAILURES"))
                }
                (Err(e), false) => failed.push(format!("{case}: {e}")),
            }
        }
    }
    println!("{passed} official examples round-trip; {expected} fail as expected");
    assert!(passed >= 100, "only {passed} examples");
    assert_eq!(expected, EXPECTED_FAILURES.len());
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

#[test]
fn recorded_traffic_decodes_by_method_and_comes_back() {
    use mcp::methods as m;
    let traffic = dir("MCP_TRAFFIC", "../../tests/data/traffic");
    let mut files: Vec<_> = std::fs::read_dir(&traffic)
        .unwrap_or_else(|e| panic!("{}: {e}", traffic.display()))
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .collect();
    files.sort();
    let options = Options {
        unknown_methods: UnknownMethods::Reject,
        batches: m::BATCHES,
    };
    let (mut decoded, mut failed) = (0, Vec::new());
    for file in files {
        for line in std::fs::read_to_string(&file).unwrap().lines() {
            let entry: Value = serde_json::from_str(line).unwrap();
            if entry["version"].as_str().unwrap_or("2025-11-25") != "2025-11-25" {
                continue;
            }
            let text = entry["text"].as_str().unwrap();
            let method = entry["answers"]
                .as_str()
                .and_then(|a| a.parse::<m::Method>().ok());
            let bytes = text.as_bytes();
            let back = if entry["from"] == "client" {
                jsonrpc::receive_typed::<m::ClientRequest, m::ClientNotification, m::ClientResult>(
                    bytes,
                    options,
                    |_| method,
                )
                .map_err(|e| e.to_string())
                .and_then(encode)
            } else {
                jsonrpc::receive_typed::<m::ServerRequest, m::ServerNotification, m::ServerResult>(
                    bytes,
                    options,
                    |_| method,
                )
                .map_err(|e| e.to_string())
                .and_then(encode)
            };
            match back {
                Ok(v) if v == serde_json::from_str::<Value>(text).unwrap() => decoded += 1,
                Ok(v) => failed.push(format!("changed: {text}\n  -> {v}")),
                Err(e) => failed.push(format!("{e}: {text}")),
            }
        }
    }
    println!("{decoded} messages of 2025-11-25 traffic decode and come back");
    assert!(decoded >= 100, "only {decoded} messages");
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

fn encode<R, N, T>(incoming: Incoming<R, N, T>) -> Result<Value, String>
where
    R: jsonrpc::MethodSet,
    N: jsonrpc::MethodSet,
    T: mcp_spec_rt::serde::Serialize,
{
    let bytes = match incoming {
        Incoming::Result { id, result, extra } => {
            let r = result.map_err(|e| e.to_string())?;
            let mut v: Value =
                serde_json::from_slice(&jsonrpc::encode_response(&id, &r).unwrap()).unwrap();
            for (k, x) in extra {
                v[k] = x;
            }
            return Ok(v);
        }
        Incoming::Message(msg) => jsonrpc::encode_to_vec(&msg).map_err(|e| e.to_string())?,
    };
    serde_json::from_slice(&bytes).map_err(|e| e.to_string())
}

#[test]
fn the_settings_hold() {
    // The rename: `PeerInfo` is what `initialize` carries.
    let info = mcp::PeerInfo::new("seeded", "0.0.0");
    let params = mcp::InitializeRequestParams::new("2025-11-25", Default::default(), info.clone());
    assert_eq!(params.client_info, info);
    // The extra derives: roles order as their wire values sort.
    let mut roles = vec![mcp::Role::User, mcp::Role::Assistant];
    roles.sort();
    assert_eq!(roles, [mcp::Role::Assistant, mcp::Role::User]);
    // The replacement: an icon is this crate's, and keeps what it does not name.
    let icon: seeded::icon::Icon =
        serde_json::from_str(r#"{"src": "https://x/i.png", "mimeType": "image/png"}"#).unwrap();
    let implementation: mcp::PeerInfo = serde_json::from_value(serde_json::json!({
        "name": "n", "version": "1", "icons": [{"src": "https://x/i.png", "mimeType": "image/png"}]
    }))
    .unwrap();
    assert_eq!(implementation.icons, Some(vec![icon]));
    // The subset: the tasks are gone, and what needed them is listed.
    for name in ["Task", "CreateTaskResult", "tasks/list"] {
        assert!(
            seeded::LEFT_OUT.lines().any(|l| l == name),
            "{name} not left out: {}",
            seeded::LEFT_OUT
        );
    }
    assert!("tasks/get".parse::<mcp::methods::Method>().is_err());
}
