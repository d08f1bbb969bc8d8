//! The README's server and client are `examples/weather` and `examples/weather-client`,
//! word for word, and they run: the client against the server at 2026-07-28, the client
//! against a server of the `initialize` era, and the server answering a 2024-11-05
//! client. (CI also runs them against the official Python SDK: `interop/run`.)

use std::path::Path;

use mcp_spec_session::{Deferred, Session, stdio};
use serde_json::{Value, json};

#[allow(dead_code)] // its `main` is the binary's
#[path = "../../examples/weather/src/main.rs"]
mod weather;

#[allow(dead_code)] // its `main` is the binary's
#[path = "../../examples/weather-client/src/main.rs"]
mod weather_client;

/// The Rust block between `<!-- {marker}:start -->` and `<!-- {marker}:end -->`.
fn block<'a>(readme: &'a str, marker: &str) -> &'a str {
    let start = format!("<!-- {marker}:start -->\n```rust,no_run\n");
    let end = format!("```\n<!-- {marker}:end -->");
    let from = readme
        .find(&start)
        .unwrap_or_else(|| panic!("no {start:?}"))
        + start.len();
    let to = readme[from..]
        .find(&end)
        .unwrap_or_else(|| panic!("no {end:?}"))
        + from;
    &readme[from..to]
}

#[test]
fn the_readme_shows_the_examples_word_for_word() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    for (marker, file, most) in [
        ("readme-server", "examples/weather/src/main.rs", 60),
        ("readme-client", "examples/weather-client/src/main.rs", 60),
    ] {
        let code = std::fs::read_to_string(root.join(file)).unwrap();
        assert!(
            block(&readme, marker) == code,
            "README.md's {marker} block is not {file}: copy the file into it"
        );
        let lines = code.lines().filter(|l| !l.trim().is_empty()).count();
        assert!(
            lines <= most,
            "{file}: {lines} non-blank lines, more than {most}"
        );
    }
}

/// A session over an in-memory pipe to `service`, served on this runtime.
fn pipe_to(service: impl mcp_spec_types::rt::service::Service) -> (Session, Deferred) {
    let (client_end, server_end) = tokio::io::duplex(1 << 16);
    let (sr, sw) = tokio::io::split(server_end);
    let (cr, cw) = tokio::io::split(client_end);
    let (_server, run_server) = stdio::connect(sr, sw, service);
    let later = Deferred::new();
    let (client, run_client) = stdio::connect(cr, cw, later.clone());
    tokio::spawn(run_server);
    tokio::spawn(run_client);
    (client, later)
}

#[tokio::test]
async fn the_readme_client_asks_the_readme_server() {
    let (session, later) = pipe_to(weather::server().unwrap());
    let lines = weather_client::ask(&session, &later, "Oslo").await.unwrap();
    assert_eq!(
        lines,
        [
            "protocol version 2026-07-28",
            "tool forecast: Tells the weather in a city",
            r#"forecast: {"celsius":21,"city":"Oslo"}"#,
        ]
    );
}

#[tokio::test]
async fn the_readme_client_asks_a_server_of_the_initialize_era() {
    use mcp_spec_types::rt::{jsonrpc::ErrorObject, service::RequestContext};
    use mcp_spec_types::v2025_11_25 as v;
    async fn forecast(
        args: Value,
        cx: RequestContext<v::handlers::ClientPeer>,
    ) -> Result<v::CallToolResult, ErrorObject> {
        // What the client sent in `_meta`, converted to 2025-11-25: nothing of 2026-07-28's envelope.
        let meta = cx.meta.map(|m| m.to_map()).unwrap_or_default();
        Ok(v::CallToolResult::text(format!(
            "rain in {} {meta:?}",
            args["city"]
        )))
    }
    let schema: v::ToolInputSchema = serde_json::from_value(json!({"type": "object"})).unwrap();
    let tool = v::Tool::new("forecast", schema).with_description("Old weather");
    let router = v::handlers::Router::new(v::Implementation::new("old", "1")).tool(tool, forecast);
    let (session, later) = pipe_to(v::handlers::Server::new(router));
    let lines = weather_client::ask(&session, &later, "Lima").await.unwrap();
    assert_eq!(
        lines,
        [
            "protocol version 2025-11-25",
            "tool forecast: Old weather",
            r#"forecast: rain in "Lima" {}"#,
        ]
    );
}

#[tokio::test]
async fn the_readme_server_answers_a_2024_11_05_client() {
    let (session, later) = pipe_to(weather::server().unwrap());
    later.set(mcp_spec_types::v2024_11_05::handlers::Client::new(Quiet));
    let peer = session.peer();
    let init = json!({"protocolVersion": "2024-11-05", "capabilities": {},
                      "clientInfo": {"name": "old", "version": "1"}});
    let init = peer
        .request_raw("initialize", Some(init))
        .await
        .unwrap()
        .to_value();
    assert_eq!(init["protocolVersion"], "2024-11-05", "{init}");
    assert_eq!(
        init["instructions"], "Ask for the weather by city.",
        "{init}"
    );
    peer.notify_raw("notifications/initialized", None)
        .await
        .unwrap();
    let call = json!({"name": "forecast", "arguments": {"city": "Atlantis"}});
    let result = peer
        .request_raw("tools/call", Some(call))
        .await
        .unwrap()
        .to_value();
    assert_eq!(
        result,
        json!({"content": [{"type": "text", "text": "no weather station there"}], "isError": true})
    );
    let read = json!({"uri": "weather://stations"});
    let result = peer
        .request_raw("resources/read", Some(read))
        .await
        .unwrap()
        .to_value();
    // What 2024-11-05 defines, and nothing of 2026-07-28's (`resultType`, `cacheScope`, `ttlMs`).
    assert_eq!(
        result,
        json!({"contents": [{"uri": "weather://stations", "text": "Oslo\nLima\n"}]})
    );
}

struct Quiet;
impl mcp_spec_types::v2024_11_05::handlers::ClientHandler for Quiet {}
