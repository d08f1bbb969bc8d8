//! An MCP client built only on the generated crate (plus tokio and the small stdio link).
//!
//! `mcp-example-client [OPTIONS] -- COMMAND [ARGS...]` starts COMMAND as a stdio MCP server,
//! negotiates a protocol version (the 2026-07-28 discover era if the server offers it,
//! else `initialize` with 2025-11-25 or 2025-06-18), lists tools, resources and prompts,
//! makes the calls asked for, and prints one JSON object per line on stdout. It answers
//! `roots/list`, `sampling/createMessage` and `elicitation/create` from the server and
//! reports the notifications it receives.
//!
//! Options: `--call NAME[=JSON-ARGS]`, `--read URI`, `--prompt NAME[=JSON-ARGS]` (each
//! repeatable), `--root URI` (answered to `roots/list`), `--era auto|initialize|discover`,
//! `--offer VERSION` (the version `initialize` asks for, default 2025-11-25),
//! `--wait-ms N` (linger before exiting, to collect server requests and notifications).

use std::process::{ExitCode, Stdio};
use std::sync::Arc;
use std::time::Duration;

use mcp_spec_types::ProtocolVersion;
use mcp_spec_types::rt::jsonrpc::ErrorObject;
use mcp_spec_types::rt::method::{Notification, Request};
use mcp_spec_types::rt::service::{NotificationContext, Open, Peer, RequestContext};
use mcp_stdio::{Link, LinkTransport};
use serde_json::{Value, json};
use tokio::sync::mpsc::UnboundedReceiver;

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
            "--" => {
                o.command = args.collect();
                break;
            }
            other => return Err(format!("unknown option {other}")),
        }
    }
    if o.command.is_empty() {
        return Err("usage: mcp-example-client [OPTIONS] -- COMMAND [ARGS...]".into());
    }
    Ok(o)
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
        async fn $run(
            link: Arc<Link>,
            incoming: UnboundedReceiver<String>,
            o: &Opts,
        ) -> Result<(), String> {
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

            let peer = ServerPeer(Peer::new(LinkTransport(link.clone())));
            serve(incoming, link, peer.clone(), Arc::new(Handler { roots: o.roots.clone() }), |h, p, line| async move {
                v::handlers::serve_server_message(&*h, &Open, &p, line.as_bytes()).await
            });
            peer.notify_initialized(None).await.map_err(error)?;
            let tools = peer.list_tools(None).await.map_err(error)?;
            emit("tools", json!({"names": tools.tools.iter().map(|t| &t.name).collect::<Vec<_>>()}));
            let resources = peer.list_resources(None).await.map_err(error)?;
            emit("resources", json!({"uris": resources.resources.iter().map(|r| &r.uri).collect::<Vec<_>>()}));
            let prompts = peer.list_prompts(None).await.map_err(error)?;
            emit("prompts", json!({"names": prompts.prompts.iter().map(|p| &p.name).collect::<Vec<_>>()}));
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

/// Hands every incoming request and notification to the version's dispatch, each on its
/// own task, and sends back the replies.
fn serve<H, P, F, Fut>(
    mut incoming: UnboundedReceiver<String>,
    link: Arc<Link>,
    peer: P,
    handler: Arc<H>,
    dispatch: F,
) where
    H: Send + Sync + 'static,
    P: Clone + Send + Sync + 'static,
    F: Fn(Arc<H>, P, String) -> Fut + Send + Sync + 'static + Copy,
    Fut: std::future::Future<Output = Option<String>> + Send + 'static,
{
    tokio::spawn(async move {
        while let Some(line) = incoming.recv().await {
            let (h, p, l) = (handler.clone(), peer.clone(), link.clone());
            tokio::spawn(async move {
                if let Some(reply) = dispatch(h, p, line).await {
                    l.send(reply);
                }
            });
        }
    });
}

/// The `_meta` envelope every discover-era request carries.
fn envelope() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {"roots": {}, "sampling": {}, "elicitation": {"form": {}}},
        "io.modelcontextprotocol/clientInfo": {"name": "mcp-example-client", "version": "0.0.0"},
    })
}

async fn run_2026_07_28(
    link: Arc<Link>,
    incoming: UnboundedReceiver<String>,
    o: &Opts,
) -> Result<(), String> {
    use mcp_spec_types::v2026_07_28 as v;
    use v::handlers::{ClientHandler, ServerPeer};
    struct Handler;
    impl ClientHandler for Handler {}
    let peer = ServerPeer(Peer::new(LinkTransport(link.clone())));
    serve(
        incoming,
        link,
        peer.clone(),
        Arc::new(Handler),
        |h, p, line| async move {
            v::handlers::serve_server_message(&*h, &Open, &p, line.as_bytes()).await
        },
    );
    let page = || typed::<v::PaginatedRequestParams>(json!({"_meta": envelope()}));
    let tools = peer.list_tools(&page()?).await.map_err(error)?;
    emit(
        "tools",
        json!({"names": tools.tools.iter().map(|t| &t.name).collect::<Vec<_>>()}),
    );
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
async fn negotiate(link: &Arc<Link>, era: &str, offer: &str) -> Result<ProtocolVersion, String> {
    let raw = Peer::new(LinkTransport(link.clone()));
    if era != "initialize" {
        let discover = raw.request_raw("server/discover", Some(json!({"_meta": envelope()})));
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
    let peer = v::handlers::ServerPeer(raw);
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

#[tokio::main]
async fn main() -> ExitCode {
    let o = match parse_args() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let mut child = match tokio::process::Command::new(&o.command[0])
        .args(&o.command[1..])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
    {
        Ok(c) => c,
        Err(e) => {
            eprintln!("cannot start {}: {e}", o.command[0]);
            return ExitCode::FAILURE;
        }
    };
    let (link, incoming) = Link::start(
        child.stdout.take().expect("piped"),
        child.stdin.take().expect("piped"),
    );
    let run = async {
        let version = negotiate(&link, &o.era, &o.offer).await?;
        emit("negotiated", json!({"version": version.as_str()}));
        match version {
            ProtocolVersion::V2026_07_28 => run_2026_07_28(link.clone(), incoming, &o).await,
            ProtocolVersion::V2025_06_18 => run_2025_06_18(link.clone(), incoming, &o).await,
            _ => run_2025_11_25(link.clone(), incoming, &o).await,
        }
    };
    let outcome = tokio::time::timeout(Duration::from_secs(60), run).await;
    tokio::time::sleep(Duration::from_millis(o.wait_ms)).await;
    let _ = child.start_kill();
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
