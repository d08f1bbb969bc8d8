//! What serving an older client through a generated adapter costs: the recorded
//! `tools/call` requests of the 2025-11-25 clients in `tests/data/traffic/` (the Python and
//! TypeScript SDKs and the conformance suite, in the member order they wrote), each served
//! as a session serves them (`rt::service::Service::serve`), two ways side by side in one
//! run:
//!
//! - `direct`: a handler written for 2025-11-25 (`v2025_11_25::handlers::Server`),
//!   answering a one-line text result, which is what a server that writes its handler once
//!   per version runs;
//! - `adapted`: the same answer from a handler written for 2026-07-28, its service behind
//!   `convert::v2025_11_25_v2026_07_28::serve_older` (the request read as 2025-11-25's,
//!   the client's capabilities put into its `_meta`, params converted up, the 2026-07-28
//!   service asked, the result converted down), which is what `examples/server` runs for a
//!   2025-11-25 client.
//!
//! The summary gives the time per request and the ratio. `cargo bench -p mcp-bench --bench
//! adapters`.

use std::hint::black_box;
use std::time::Duration;

use criterion::Criterion;
use mcp_bench::{criterion_home, criterion_median, nowhere, ready};
use std::sync::Arc;

use mcp_spec_types::convert::v2025_11_25_v2026_07_28::serve_older;
use mcp_spec_types::rt::jsonrpc::ErrorObject;
use mcp_spec_types::rt::service::{Peer, RequestContext, Service};
use mcp_spec_types::{v2025_11_25 as old, v2026_07_28 as new};

struct Old;

impl old::handlers::ServerHandler for Old {
    async fn initialize(
        &self,
        p: old::InitializeRequestParams,
        _: RequestContext<old::handlers::ClientPeer>,
    ) -> Result<old::InitializeResult, ErrorObject> {
        let info = old::Implementation::new("bench", "0");
        let tools = old::ServerCapabilities {
            tools: Some(Default::default()),
            ..Default::default()
        };
        Ok(old::InitializeResult::new(p.protocol_version, tools, info))
    }

    async fn call_tool(
        &self,
        _: old::CallToolRequestParams,
        _: RequestContext<old::handlers::ClientPeer>,
    ) -> Result<old::CallToolOutcome, ErrorObject> {
        Ok(old::CallToolResult::text("ok").into())
    }
}

struct New;

impl new::handlers::ServerHandler for New {
    async fn discover(
        &self,
        _: new::RequestParams,
        _: RequestContext<new::handlers::ClientPeer>,
    ) -> Result<new::DiscoverResult, ErrorObject> {
        let found = serde_json::json!({
            "resultType": "complete", "cacheScope": "public", "ttlMs": 0,
            "supportedVersions": ["2026-07-28"], "capabilities": {"tools": {}},
            "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "bench", "version": "0"}}
        });
        Ok(serde_json::from_value(found).expect("a DiscoverResult"))
    }

    async fn call_tool(
        &self,
        _: new::CallToolRequestParams,
        _: RequestContext<new::handlers::ClientPeer>,
    ) -> Result<new::CallToolOutcome, ErrorObject> {
        Ok(new::CallToolResult::text("ok").into())
    }
}

/// The recorded `tools/call` requests of 2025-11-25 clients.
fn requests() -> Vec<String> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/data/traffic");
    let mut out = Vec::new();
    for file in ["python-legacy", "typescript", "conformance"] {
        let path = format!("{dir}/{file}.jsonl");
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        for line in text.lines() {
            let line: serde_json::Value = serde_json::from_str(line).expect("a corpus line");
            let message = line["text"].as_str().unwrap_or_default();
            let parsed: serde_json::Value = serde_json::from_str(message).unwrap_or_default();
            if line["version"] == "2025-11-25"
                && line["from"] == "client"
                && parsed["method"] == "tools/call"
            {
                out.push(message.to_owned());
            }
        }
    }
    out
}

/// One request served by `service`, as a session serves it.
fn serve(service: &Arc<dyn Service>, peer: &Peer, request: &str) -> Option<String> {
    ready(service.clone().serve(peer.clone(), request.to_owned()))
}

fn main() {
    let requests = requests();
    assert!(!requests.is_empty(), "no recorded tools/call request");
    let back = nowhere();
    let direct: Arc<dyn Service> = Arc::new(old::handlers::Server::new(Old));
    let adapted: Arc<dyn Service> = Arc::new(serve_older(new::handlers::Server::new(New)));
    // Each service is one connection, opened as a 2025-11-25 client opens it (the
    // initialize era's lifecycle refuses `tools/call` before `initialize`).
    let hello = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"0"}}}"#;
    for service in [&direct, &adapted] {
        let answer = serve(service, &back, hello).expect("an answer to initialize");
        assert!(answer.contains(r#""result""#), "{answer}");
    }
    // Both answer every request with a result, and the same text.
    for r in &requests {
        for service in [&direct, &adapted] {
            let answer = serve(service, &back, r).expect("an answer");
            let v: serde_json::Value = serde_json::from_str(&answer).unwrap();
            assert_eq!(v["result"]["content"][0]["text"], "ok", "{r} -> {answer}");
        }
    }
    let mut c = Criterion::default()
        .sample_size(30)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .configure_from_args();
    let id = "adapters.v2025_11_25.tools_call";
    let mut g = c.benchmark_group(id);
    for (name, service) in [("direct", &direct), ("adapted", &adapted)] {
        g.bench_function(name, |b| {
            b.iter(|| {
                for r in &requests {
                    black_box(serve(service, &back, black_box(r)));
                }
            })
        });
    }
    g.finish();
    c.final_summary();
    let Some(home) = criterion_home() else {
        return;
    };
    let n = requests.len() as f64;
    if let (Some(direct), Some(adapted)) = (
        criterion_median(&home, id, "direct", "new"),
        criterion_median(&home, id, "adapted", "new"),
    ) {
        println!();
        println!("| requests | direct µs/request | adapted µs/request | adapted / direct |");
        println!("| ---: | ---: | ---: | ---: |");
        println!(
            "| {} | {:.2} | {:.2} | {:.2} |",
            requests.len(),
            direct * 1e6 / n,
            adapted * 1e6 / n,
            adapted / direct
        );
    }
}
