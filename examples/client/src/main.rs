//! An MCP client built on the generated crate and its session engine
//! (`mcp-spec-session`), over stdio or Streamable HTTP.
//!
//! `mcp-example-client [OPTIONS] -- COMMAND [ARGS...]` starts COMMAND as a stdio MCP server;
//! `mcp-example-client [OPTIONS] --url URL` talks to a Streamable HTTP server. It negotiates
//! a protocol version (the 2026-07-28 discover era if the server offers it, else
//! `initialize` with 2025-11-25 or 2025-06-18), lists tools, resources and prompts, makes
//! the calls asked for, and prints one JSON object per line on stdout. It answers
//! `roots/list`, `sampling/createMessage` and `elicitation/create` from the server (in the
//! discover era, the input requests of an `input_required` result) and reports the
//! notifications it receives.
//!
//! Options: `--call NAME[=JSON-ARGS]`, `--read URI`, `--prompt NAME[=JSON-ARGS]` (each
//! repeatable), `--root URI` (answered to `roots/list`), `--era auto|initialize|discover`,
//! `--offer VERSION` (the version `initialize` asks for, default 2025-11-25),
//! `--wait-ms N` (linger before exiting, to collect server requests and notifications).
//!
//! `mcp-example-client --conformance URL` is the client the official conformance suite
//! runs: what it does comes from `MCP_CONFORMANCE_SCENARIO` and
//! `MCP_CONFORMANCE_PROTOCOL_VERSION` ([`conformance`]).

#[path = "../../server/src/traffic.rs"]
mod traffic;

use std::process::ExitCode;

use std::time::Duration;

use mcp_spec_session::http_client::HttpClient;
use mcp_spec_session::{Deferred, Session, stdio};
use mcp_spec_types::ProtocolVersion;
use mcp_spec_types::rt::jsonrpc::ErrorObject;
use mcp_spec_types::rt::method::{Notification, Request};
use mcp_spec_types::rt::service::{CallError, NotificationContext, Peer, RequestContext};
use serde_json::{Value, json};

#[derive(Default)]
struct Opts {
    calls: Vec<(String, Value)>,
    reads: Vec<String>,
    prompts: Vec<(String, Value)>,
    roots: Vec<String>,
    era: String,
    offer: String,
    wait_ms: u64,
    command: Vec<String>,
    url: Option<String>,
    /// Only list tools (not resources and prompts): the conformance suite's servers
    /// serve nothing else.
    tools_only: bool,
}

fn parse_args() -> Result<Opts, String> {
    let mut o = Opts {
        era: "auto".into(),
        ..Opts::default()
    };
    let mut args = std::env::args().skip(1);
    let named = |s: String| -> Result<(String, Value), String> {
        match s.split_once('=') {
            Some((n, j)) => Ok((
                n.into(),
                serde_json::from_str(j).map_err(|e| format!("{n}: {e}"))?,
            )),
            None => Ok((s, json!({}))),
        }
    };
    while let Some(a) = args.next() {
        let mut value = || args.next().ok_or(format!("{a} needs a value"));
        match a.as_str() {
            "--call" => o.calls.push(named(value()?)?),
            "--read" => o.reads.push(value()?),
            "--prompt" => o.prompts.push(named(value()?)?),
            "--root" => o.roots.push(value()?),
            "--era" => o.era = value()?,
            "--offer" => o.offer = value()?,
            "--wait-ms" => o.wait_ms = value()?.parse().map_err(|e| format!("--wait-ms: {e}"))?,
            "--url" => o.url = Some(value()?),
            "--conformance" => return conformance(value()?),
            "--" => {
                o.command = args.collect();
                break;
            }
            other => return Err(format!("unknown option {other}")),
        }
    }
    if o.command.is_empty() == o.url.is_none() {
        return Err(
            "usage: mcp-example-client [OPTIONS] (-- COMMAND [ARGS...] | --url URL)".into(),
        );
    }
    Ok(o)
}

/// What the conformance suite's client scenarios ask of a client (the suite runs
/// `mcp-example-client --conformance URL`): the calls each scenario's server expects,
/// at the protocol version the suite names.
fn conformance(url: String) -> Result<Opts, String> {
    let scenario = std::env::var("MCP_CONFORMANCE_SCENARIO").unwrap_or_default();
    let version = std::env::var("MCP_CONFORMANCE_PROTOCOL_VERSION").unwrap_or_default();
    let call = |name: &str, args: Value| (name.to_string(), args);
    let calls = match scenario.as_str() {
        "tools_call" => vec![call("add_numbers", json!({"a": 2, "b": 3}))],
        "elicitation-sep1034-client-defaults" => {
            vec![call("test_client_elicitation_defaults", json!({}))]
        }
        "sse-retry" => vec![call("test_reconnection", json!({}))],
        "sep-2322-client-request-state" => [
            "test_mrtr_echo_state",
            "test_mrtr_no_state",
            "test_mrtr_unrelated",
            "test_mrtr_no_result_type",
        ]
        .map(|name| call(name, json!({})))
        .to_vec(),
        "http-standard-headers" => vec![
            call("test_headers", json!({})),
            call("my-hyphenated-tool", json!({})),
        ],
        // The other tools there declare headers that break the rules: not called.
        "http-invalid-tool-headers" => vec![call("valid_tool", json!({"region": "x"}))],
        _ => vec![],
    };
    // A scenario may name its calls in its context.
    let context: Value = std::env::var("MCP_CONFORMANCE_CONTEXT")
        .ok()
        .and_then(|c| serde_json::from_str(&c).ok())
        .unwrap_or_default();
    let named: Vec<_> = context["toolCalls"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|c| Some(call(c["name"].as_str()?, c["arguments"].clone())))
        .collect();
    let calls = if named.is_empty() { calls } else { named };
    let (reads, prompts) = match scenario.as_str() {
        "http-standard-headers" => (
            vec![
                "file:///path/to/file%20name.txt".to_string(),
                "https://example.com/resource?id=123".to_string(),
            ],
            vec![call("test_prompt", json!({}))],
        ),
        _ => (vec![], vec![]),
    };
    let era = if version.as_str() >= "2026" {
        "discover"
    } else {
        "initialize"
    };
    Ok(Opts {
        calls,
        reads,
        prompts,
        era: era.into(),
        offer: if era == "initialize" {
            version
        } else {
            String::new()
        },
        url: Some(url),
        tools_only: true,
        ..Opts::default()
    })
}

/// One line of output.
fn emit(event: &str, body: Value) {
    let mut line = json!({ "event": event });
    if let (Value::Object(l), Value::Object(b)) = (&mut line, body) {
        l.extend(b);
    }
    println!("{line}");
}

fn typed<T: serde::de::DeserializeOwned>(v: Value) -> Result<T, String> {
    serde_json::from_value(v).map_err(|e| e.to_string())
}

fn error(e: impl std::fmt::Display) -> String {
    e.to_string()
}

/// Answers what the server asks of us, the same way in every version.
fn roots_result(roots: &[String]) -> Value {
    json!({ "roots": roots.iter().map(|u| json!({"uri": u, "name": u})).collect::<Vec<_>>() })
}

fn sampling_result(params: &Value) -> Value {
    let asked = params["messages"]
        .as_array()
        .and_then(|m| m.last())
        .and_then(|m| m["content"]["text"].as_str())
        .unwrap_or("")
        .to_string();
    json!({
        "role": "assistant", "model": "mcp-example-client",
        "content": {"type": "text", "text": format!("sampled: {asked}")},
        "stopReason": "endTurn",
    })
}

fn elicit_result(params: &Value) -> Value {
    // Accept, filling each requested field with its default or a plain value of its type.
    let mut content = serde_json::Map::new();
    if let Some(props) = params["requestedSchema"]["properties"].as_object() {
        for (k, s) in props {
            // Numbers go back as integers: the schema's `ElicitResult.content` allows
            // string, integer, boolean and string arrays, though `NumberSchema` asks for
            // numbers.
            let default = s.get("default").cloned().map(|d| match d.as_f64() {
                Some(f) if !d.is_i64() && !d.is_u64() => json!(f.round() as i64),
                _ => d,
            });
            let v = default.unwrap_or_else(|| match s["type"].as_str() {
                Some("boolean") => json!(true),
                Some("number") | Some("integer") => json!(1),
                _ => s["enum"].get(0).cloned().unwrap_or(json!("example")),
            });
            content.insert(k.clone(), v);
        }
    }
    json!({"action": "accept", "content": content})
}

/// A typed answer from JSON, or the internal error that says why it does not fit.
fn answer<T: serde::de::DeserializeOwned>(v: Value) -> Result<T, ErrorObject> {
    serde_json::from_value(v)
        .map_err(|e| ErrorObject::new(-32603, format!("the client built an invalid answer: {e}")))
}

macro_rules! initialize_era {
    ($run:ident, $v:ident) => {
        async fn $run(raw: Peer, later: &Deferred, o: &Opts) -> Result<(), String> {
            use mcp_spec_types::$v as v;
            use v::handlers::{ClientHandler, ServerPeer};
            type P<M> = <M as Request>::Params;
            type R<M> = <M as Request>::Result;
            type N<M> = <M as Notification>::Params;

            struct Handler {
                roots: Vec<String>,
            }
            impl ClientHandler for Handler {
                async fn list_roots(
                    &self,
                    _p: Option<P<v::methods::ListRoots>>,
                    _cx: RequestContext<ServerPeer>,
                ) -> Result<R<v::methods::ListRoots>, ErrorObject> {
                    emit("answered", json!({"method": "roots/list"}));
                    answer(roots_result(&self.roots))
                }
                async fn create_message(
                    &self,
                    p: P<v::methods::CreateMessage>,
                    _cx: RequestContext<ServerPeer>,
                ) -> Result<R<v::methods::CreateMessage>, ErrorObject> {
                    emit("answered", json!({"method": "sampling/createMessage"}));
                    let p = serde_json::to_value(p).unwrap_or_default();
                    answer(sampling_result(&p))
                }
                async fn elicit(
                    &self,
                    p: P<v::methods::Elicit>,
                    _cx: RequestContext<ServerPeer>,
                ) -> Result<R<v::methods::Elicit>, ErrorObject> {
                    emit("answered", json!({"method": "elicitation/create"}));
                    let p = serde_json::to_value(p).unwrap_or_default();
                    answer(elicit_result(&p))
                }
                async fn ping(
                    &self,
                    _p: Option<P<v::methods::Ping>>,
                    _cx: RequestContext<ServerPeer>,
                ) -> Result<R<v::methods::Ping>, ErrorObject> {
                    answer(json!({}))
                }
                async fn on_logging_message(
                    &self,
                    p: N<v::methods::LoggingMessage>,
                    _cx: NotificationContext<ServerPeer>,
                ) {
                    emit("notification", json!({"method": "notifications/message", "data": p.data}));
                }
                async fn on_tool_list_changed(
                    &self,
                    _p: Option<N<v::methods::ToolListChanged>>,
                    _cx: NotificationContext<ServerPeer>,
                ) {
                    emit("notification", json!({"method": "notifications/tools/list_changed"}));
                }
            }

            later.set(v::handlers::Client::new(Handler { roots: o.roots.clone() }));
            let peer = ServerPeer(raw);
            peer.notify_initialized(None).await.map_err(error)?;
            let tools = peer.list_tools(None).await.map_err(error)?;
            emit("tools", json!({"names": tools.tools.iter().map(|t| &t.name).collect::<Vec<_>>()}));
            if !o.tools_only {
                let resources = peer.list_resources(None).await.map_err(error)?;
                emit("resources", json!({"uris": resources.resources.iter().map(|r| &r.uri).collect::<Vec<_>>()}));
                let prompts = peer.list_prompts(None).await.map_err(error)?;
                emit("prompts", json!({"names": prompts.prompts.iter().map(|p| &p.name).collect::<Vec<_>>()}));
            }
            for (name, args) in &o.calls {
                let r = peer.call_tool(&typed(json!({"name": name, "arguments": args}))?).await.map_err(error)?;
                emit("call", json!({"name": name, "result": r}));
            }
            for uri in &o.reads {
                let r = peer.read_resource(&typed(json!({"uri": uri}))?).await.map_err(error)?;
                emit("read", json!({"uri": uri, "result": r}));
            }
            for (name, args) in &o.prompts {
                let r = peer.get_prompt(&typed(json!({"name": name, "arguments": args}))?).await.map_err(error)?;
                emit("prompt", json!({"name": name, "result": r}));
            }
            Ok(())
        }
    };
}

initialize_era!(run_2025_06_18, v2025_06_18);
initialize_era!(run_2025_11_25, v2025_11_25);

/// The `_meta` envelope every discover-era request carries.
fn envelope() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {"roots": {}, "sampling": {}, "elicitation": {"form": {}}},
        "io.modelcontextprotocol/clientInfo": {"name": "mcp-example-client", "version": "0.0.0"},
    })
}

async fn run_2026_07_28(raw: Peer, later: &Deferred, o: &Opts) -> Result<(), String> {
    use mcp_spec_types::v2026_07_28 as v;
    use v::handlers::{ClientHandler, ServerPeer};
    struct Handler;
    impl ClientHandler for Handler {}
    later.set(v::handlers::Client::new(Handler));
    let peer = ServerPeer(raw);
    let page = || typed::<v::PaginatedRequestParams>(json!({"_meta": envelope()}));
    let tools = peer.list_tools(&page()?).await.map_err(error)?;
    emit(
        "tools",
        json!({"names": tools.tools.iter().map(|t| &t.name).collect::<Vec<_>>()}),
    );
    if !o.tools_only {
        let resources = peer.list_resources(&page()?).await.map_err(error)?;
        emit(
            "resources",
            json!({"uris": resources.resources.iter().map(|r| &r.uri).collect::<Vec<_>>()}),
        );
        let prompts = peer.list_prompts(&page()?).await.map_err(error)?;
        emit(
            "prompts",
            json!({"names": prompts.prompts.iter().map(|p| &p.name).collect::<Vec<_>>()}),
        );
    }
    for (name, args) in &o.calls {
        // An input-required result carries requests for us; answer them and retry.
        let mut params = json!({"_meta": envelope(), "name": name, "arguments": args});
        let mut rounds = 0;
        let result = loop {
            let r = peer
                .call_tool(&typed(params.clone())?)
                .await
                .map_err(error)?;
            match r {
                v::CallToolOutcome::InputRequiredResult(ir) if rounds < 3 => {
                    rounds += 1;
                    let mut responses = serde_json::Map::new();
                    for (key, request) in ir.input_requests.iter().flatten() {
                        let request = serde_json::to_value(request).map_err(error)?;
                        let answer = match request["method"].as_str() {
                            Some("roots/list") => roots_result(&o.roots),
                            Some("sampling/createMessage") => sampling_result(&request["params"]),
                            Some("elicitation/create") => elicit_result(&request["params"]),
                            other => return Err(format!("unknown input request {other:?}")),
                        };
                        emit(
                            "answered",
                            json!({"method": request["method"], "inline": true}),
                        );
                        responses.insert(key.clone(), answer);
                    }
                    params["inputResponses"] = Value::Object(responses);
                    if let Some(state) = &ir.request_state {
                        params["requestState"] = json!(state);
                    }
                }
                other => break other,
            }
        };
        emit("call", json!({"name": name, "result": result}));
    }
    for uri in &o.reads {
        let r = peer
            .read_resource(&typed(json!({"_meta": envelope(), "uri": uri}))?)
            .await
            .map_err(error)?;
        emit("read", json!({"uri": uri, "result": r}));
    }
    for (name, args) in &o.prompts {
        let r = peer
            .get_prompt(&typed(
                json!({"_meta": envelope(), "name": name, "arguments": args}),
            )?)
            .await
            .map_err(error)?;
        emit("prompt", json!({"name": name, "result": r}));
    }
    Ok(())
}

/// Picks the era: `server/discover` first (unless told otherwise), then `initialize`.
async fn negotiate(raw: &Peer, era: &str, offer: &str) -> Result<ProtocolVersion, String> {
    if era != "initialize" {
        let discover = discover(raw);
        match tokio::time::timeout(Duration::from_secs(5), discover).await {
            Ok(Ok(result)) => {
                let result = result.to_value();
                let offered: Vec<&str> = result["supportedVersions"]
                    .as_array()
                    .map(|a| a.iter().filter_map(Value::as_str).collect())
                    .unwrap_or_default();
                if let Ok(v) = ProtocolVersion::choose(&offered, &[ProtocolVersion::V2026_07_28]) {
                    return Ok(v);
                }
            }
            Ok(Err(e)) => emit("discover-refused", json!({"error": e.to_string()})),
            Err(_) => emit("discover-refused", json!({"error": "no answer in 5 s"})),
        }
        if era == "discover" {
            return Err("the server does not speak the discover era".into());
        }
    }
    use mcp_spec_types::v2025_11_25 as v;
    let peer = v::handlers::ServerPeer(raw.clone());
    let offer = if offer.is_empty() {
        "2025-11-25"
    } else {
        offer
    };
    let result = peer
        .initialize(&typed(json!({
            "protocolVersion": offer,
            "capabilities": {"roots": {"listChanged": false}, "sampling": {}, "elicitation": {}},
            "clientInfo": {"name": "mcp-example-client", "version": "0.0.0"},
        }))?)
        .await
        .map_err(error)?;
    emit("server", json!({"info": result.server_info}));
    ProtocolVersion::accept_initialize(
        &result.protocol_version,
        &[ProtocolVersion::V2025_06_18, ProtocolVersion::V2025_11_25],
    )
    .map_err(error)
}

/// `server/discover`, asked again once when the server refuses the version asked
/// (-32022) but supports this client's.
async fn discover(raw: &Peer) -> Result<mcp_spec_types::rt::jsonrpc::RawResult, CallError> {
    let ask = || raw.request_raw("server/discover", Some(json!({"_meta": envelope()})));
    match ask().await {
        Err(CallError::Rejected(e))
            if e.code == -32022
                && e.data.as_ref().is_some_and(|d| {
                    d["supported"]
                        .as_array()
                        .is_some_and(|s| s.iter().any(|v| v == "2026-07-28"))
                }) =>
        {
            ask().await
        }
        other => other,
    }
}

#[tokio::main]
async fn main() -> ExitCode {
    let o = match parse_args() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    // The session starts before the version is known: the version's client is set later.
    let later = Deferred::new();
    let service = later.clone();
    // Over stdio the child is kept until the end (dropping it stops it).
    let mut builder = Session::builder();
    if traffic::on() {
        builder = builder.tap(|direction, text| traffic::record(direction, None, text));
    }
    let (session, _child, http) = match &o.url {
        Some(url) => {
            let headers = Default::default();
            let client = HttpClient::connect_with(builder, url, headers, service);
            (client.session().clone(), None, Some(client))
        }
        None => {
            let mut command = tokio::process::Command::new(&o.command[0]);
            command.args(&o.command[1..]);
            match stdio::spawn_with(builder, &mut command, service) {
                Ok((session, child, _task)) => (session, Some(child), None),
                Err(e) => {
                    eprintln!("cannot start {}: {e}", o.command[0]);
                    return ExitCode::FAILURE;
                }
            }
        }
    };
    let raw = session.peer();
    let run = async {
        let version = negotiate(&raw, &o.era, &o.offer).await?;
        emit("negotiated", json!({"version": version.as_str()}));
        match version {
            ProtocolVersion::V2026_07_28 => run_2026_07_28(raw.clone(), &later, &o).await,
            ProtocolVersion::V2025_06_18 => run_2025_06_18(raw.clone(), &later, &o).await,
            _ => run_2025_11_25(raw.clone(), &later, &o).await,
        }
    };
    let outcome = tokio::time::timeout(Duration::from_secs(60), run).await;
    tokio::time::sleep(Duration::from_millis(o.wait_ms)).await;
    if let Some(client) = http {
        client.close().await;
    }
    match outcome {
        Ok(Ok(())) => ExitCode::SUCCESS,
        Ok(Err(e)) => {
            emit("error", json!({"message": e}));
            ExitCode::FAILURE
        }
        Err(_) => {
            emit("error", json!({"message": "timed out after 60 s"}));
            ExitCode::FAILURE
        }
    }
}
