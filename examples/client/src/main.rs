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
//! notifications it receives. It is written once, against 2026-07-28: servers of older
//! versions get it through the generated conversions (`convert`).
//!
//! Options: `--call NAME[=JSON-ARGS]`, `--read URI`, `--prompt NAME[=JSON-ARGS]` (each
//! repeatable), `--root URI` (answered to `roots/list`), `--era auto|initialize|discover`,
//! `--offer VERSION` (the version `initialize` asks for, default 2025-11-25),
//! `--wait-ms N` (linger before exiting, to collect server requests and notifications),
//! `--oauth-redirect URI` (over HTTP: when the server asks for authorization, authorize
//! with OAuth, the redirect URI registered as URI; the authorization URL is printed on
//! stderr, and the URL the browser is sent back to is read from stdin; with
//! `--oauth-headless`, the authorization URL is fetched and its redirect taken, for
//! authorization servers that redirect at once, as test servers do).
//!
//! `mcp-example-client --conformance URL` is the client the official conformance suite
//! runs: what it does comes from `MCP_CONFORMANCE_SCENARIO` and
//! `MCP_CONFORMANCE_PROTOCOL_VERSION` ([`conformance`]).

#[path = "../../server/src/traffic.rs"]
mod traffic;

use std::process::ExitCode;

use std::time::Duration;

use mcp_spec_session::auth_client::{
    AuthError, Headless, MemoryStore, OAuth, OAuthConfig, PreRegistered, Registration, UserAgent,
};
use mcp_spec_session::http_client::HttpClient;
use mcp_spec_session::{Deferred, Hello, Session, connect_every_version, stdio};
use mcp_spec_types::rt::jsonrpc::ErrorObject;
use mcp_spec_types::rt::service::{NotificationContext, Peer, RequestContext};
use mcp_spec_types::v2026_07_28 as v;
use mcp_spec_types::version::Era;
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
    /// Authorize with OAuth when the server asks (`--oauth-redirect`).
    oauth: Option<OAuthConfig>,
    /// Take the authorization server's redirect without a user (`--oauth-headless`, and
    /// the conformance scenarios).
    headless: bool,
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
            "--oauth-redirect" => o.oauth = Some(OAuthConfig::new(value()?)),
            "--oauth-headless" => o.headless = true,
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
    // The authorization scenarios: the flow the server asks for, then one call.
    let oauth = scenario.starts_with("auth/").then(|| {
        let mut config = OAuthConfig::new("http://localhost:3000/callback");
        config.client_name = "mcp-example-client".into();
        // The suite's authorization servers take this URL as a client ID metadata
        // document's (they do not fetch it).
        config.client_metadata_url =
            Some("https://conformance-test.local/client-metadata.json".into());
        if let (Some(id), Some(issuer)) =
            (context["client_id"].as_str(), context["issuer"].as_str())
        {
            config.pre_registered.push(PreRegistered {
                issuer: issuer.into(),
                registration: Registration {
                    client_id: id.into(),
                    client_secret: context["client_secret"].as_str().map(str::to_owned),
                    token_endpoint_auth_method: None,
                },
            });
        }
        config
    });
    let calls = match (&oauth, calls.is_empty()) {
        (Some(_), true) => vec![call("test-tool", json!({}))],
        _ => calls,
    };
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
        oauth,
        headless: true,
        ..Opts::default()
    })
}

/// The interactive step on a terminal: the authorization URL goes to stderr, and the URL
/// the browser was sent back to is read from stdin.
struct Terminal;

impl UserAgent for Terminal {
    fn authorize<'a>(
        &'a self,
        url: &'a str,
    ) -> mcp_spec_types::rt::service::BoxFuture<'a, Result<String, AuthError>> {
        Box::pin(async move {
            eprintln!("Open this URL, sign in, then paste the URL you are sent back to:\n{url}");
            let mut line = String::new();
            let stdin = tokio::io::stdin();
            let mut reader = tokio::io::BufReader::new(stdin);
            tokio::io::AsyncBufReadExt::read_line(&mut reader, &mut line)
                .await
                .map_err(|e| AuthError::from(format!("reading the redirect URL: {e}")))?;
            Ok(line.trim().to_string())
        })
    }
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

/// The client's handler, written for 2026-07-28 (which deprecates sampling and roots,
/// SEP-2577; servers still ask for them). It answers what any server asks of this client:
/// a server of the `initialize` era in requests of its own (through the generated
/// `answer_older` adapters), a 2026-07-28 server in the input requests of an
/// `input_required` result ([`run`] hands them to it through the generated
/// `answer_inputs`).
struct Handler {
    roots: Vec<String>,
}

#[allow(deprecated)]
impl v::handlers::ClientHandler for Handler {
    async fn list_roots(
        &self,
        _: Option<v::ListRootsRequestParams>,
        _: RequestContext<v::handlers::ServerPeer>,
    ) -> Result<v::ListRootsResult, ErrorObject> {
        emit("answered", json!({"method": "roots/list"}));
        answer(roots_result(&self.roots))
    }
    async fn create_message(
        &self,
        p: v::CreateMessageRequestParams,
        _: RequestContext<v::handlers::ServerPeer>,
    ) -> Result<v::CreateMessageResult, ErrorObject> {
        emit("answered", json!({"method": "sampling/createMessage"}));
        answer(sampling_result(
            &serde_json::to_value(p).unwrap_or_default(),
        ))
    }
    async fn elicit(
        &self,
        p: v::ElicitRequestParams,
        _: RequestContext<v::handlers::ServerPeer>,
    ) -> Result<v::ElicitResult, ErrorObject> {
        emit("answered", json!({"method": "elicitation/create"}));
        answer(elicit_result(&serde_json::to_value(p).unwrap_or_default()))
    }
    async fn on_logging_message(
        &self,
        p: v::LoggingMessageNotificationParams,
        _: NotificationContext<v::handlers::ServerPeer>,
    ) {
        emit(
            "notification",
            json!({"method": "notifications/message", "data": p.data}),
        );
    }
    async fn on_tool_list_changed(
        &self,
        _: Option<v::NotificationParams>,
        _: NotificationContext<v::handlers::ServerPeer>,
    ) {
        emit(
            "notification",
            json!({"method": "notifications/tools/list_changed"}),
        );
    }
}

/// What the client does, with the server's version already chosen: written once, for
/// 2026-07-28; `peer` converts for an older server.
async fn run(
    peer: v::handlers::ServerPeer,
    handler: &Handler,
    envelope: &Value,
    o: &Opts,
) -> Result<(), String> {
    let page = || typed::<v::PaginatedRequestParams>(json!({"_meta": envelope.clone()}));
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
        let mut params = json!({"_meta": envelope.clone(), "name": name, "arguments": args});
        let mut rounds = 0;
        let result = loop {
            let r = peer
                .call_tool(&typed(params.clone())?)
                .await
                .map_err(error)?;
            match r {
                v::CallToolOutcome::InputRequiredResult(ir) if rounds < 3 => {
                    rounds += 1;
                    let asked = ir.input_requests.unwrap_or_default();
                    let answers = v::handlers::answer_inputs(handler, &asked, &peer).await;
                    let answers = answers.map_err(|e| format!("{} ({})", e.message, e.code))?;
                    params["inputResponses"] = serde_json::to_value(answers).map_err(error)?;
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
            .read_resource(&typed(json!({"_meta": envelope.clone(), "uri": uri}))?)
            .await
            .map_err(error)?;
        emit("read", json!({"uri": uri, "result": r}));
    }
    for (name, args) in &o.prompts {
        let r = peer
            .get_prompt(&typed(
                json!({"_meta": envelope.clone(), "name": name, "arguments": args}),
            )?)
            .await
            .map_err(error)?;
        emit("prompt", json!({"name": name, "result": r}));
    }
    Ok(())
}

/// What this client says of itself, and how it looks for a version (`--era`, `--offer`).
fn hello(o: &Opts) -> Result<Hello, String> {
    let info = typed(json!({"name": "mcp-example-client", "version": "0.0.0"}))?;
    let capabilities = typed(json!({"roots": {}, "sampling": {}, "elicitation": {"form": {}}}))?;
    let era = match o.era.as_str() {
        "initialize" => Some(Era::Initialize),
        "discover" => Some(Era::Discover),
        _ => None,
    };
    let mut hello = Hello {
        era,
        ..Hello::new(info, capabilities)
    };
    if !o.offer.is_empty() {
        hello.offer = o.offer.parse().map_err(error)?;
    }
    Ok(hello)
}

/// Connects (the session finds the version: `server/discover` first unless told, then
/// `initialize`) and runs, with the one handler, whatever the server's version.
async fn connect(raw: Peer, later: &Deferred, o: &Opts) -> Result<(), String> {
    let hello = hello(o)?;
    let handler = || Handler {
        roots: o.roots.clone(),
    };
    let connected = connect_every_version(&raw, later, handler(), &hello)
        .await
        .map_err(error)?;
    if connected.version.era() == Era::Initialize {
        emit("server", json!({"info": connected.result["serverInfo"]}));
    }
    emit("negotiated", json!({"version": connected.version.as_str()}));
    run(connected.server, &handler(), &hello.envelope(), o).await
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
            let client = match &o.oauth {
                Some(config) => {
                    let store = MemoryStore::default();
                    let auth = match o.headless {
                        true => OAuth::new(config.clone(), Headless::default(), store),
                        false => OAuth::new(config.clone(), Terminal, store),
                    };
                    HttpClient::connect_authorized(builder, url, headers, service, auth)
                }
                None => HttpClient::connect_with(builder, url, headers, service),
            };
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
    let run = connect(raw.clone(), &later, &o);
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
