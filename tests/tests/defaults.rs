//! What a newcomer gets without asking: each era's lifecycle in front of a version's
//! `handlers::Server`, 2026-07-28's log level applied to what a handler logs, `Router`
//! instructions, results built without spelling their tag, setters on every struct, and
//! `LoggingLevel` ordered as the runtime orders log levels.

#![allow(deprecated)] // 2026-07-28 deprecates logging (SEP-2577); it is still served.

use mcp_spec_types::rt::envelope::{LOG_LEVELS, log_rank};
use mcp_spec_types::rt::jsonrpc::ErrorObject;
use mcp_spec_types::rt::service::{Open, Peer, Policy, RequestContext, Service};
use serde_json::{Value, json};
use std::sync::Arc;

/// Sends `message` to `service` with `back` as the client, and returns the answer.
async fn ask(service: &Arc<dyn Service>, back: &Peer, message: Value) -> Value {
    let answer = service
        .clone()
        .serve(back.clone(), message.to_string())
        .await;
    serde_json::from_str(&answer.expect("an answer")).unwrap()
}

mod initialize_era {
    use super::*;
    use mcp_spec_types::v2025_11_25 as v;

    /// A server that holds nothing: it answers `initialize` and lists nothing.
    fn quiet() -> v::handlers::Router {
        v::handlers::Router::new(v::Implementation::new("quiet", "1"))
    }

    fn call(id: i64, method: &str) -> Value {
        json!({"jsonrpc": "2.0", "id": id, "method": method, "params": {}})
    }

    fn initialize() -> Value {
        json!({"jsonrpc": "2.0", "id": 9, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "c", "version": "1"}}})
    }

    /// `Server::new`: only `ping` before `initialize`, which comes once.
    #[tokio::test]
    async fn the_lifecycle_is_the_default() {
        let server: Arc<dyn Service> = Arc::new(v::handlers::Server::new(quiet()));
        let back = Peer::new(mcp_tests::Unused);
        assert_eq!(
            ask(&server, &back, call(1, "ping")).await["result"],
            json!({})
        );
        let early = ask(&server, &back, call(2, "tools/list")).await;
        assert_eq!(early["error"]["code"], -32600, "{early}");
        assert!(
            early["error"]["message"]
                .as_str()
                .unwrap()
                .contains("before `initialize`")
        );
        let init = ask(&server, &back, initialize()).await;
        assert!(init.get("result").is_some(), "{init}");
        // After it, requests reach the handler.
        let later = ask(&server, &back, call(3, "tools/list")).await;
        assert_eq!(later["result"]["tools"], json!([]), "{later}");
        let again = ask(&server, &back, initialize()).await;
        assert_eq!(again["error"]["code"], -32600, "{again}");
    }

    /// `with_policy(Open)` turns it off.
    #[tokio::test]
    async fn open_turns_it_off() {
        let server: Arc<dyn Service> =
            Arc::new(v::handlers::Server::new(quiet()).with_policy(Open));
        let back = Peer::new(mcp_tests::Unused);
        let early = ask(&server, &back, call(1, "tools/list")).await;
        assert_eq!(early["result"]["tools"], json!([]), "{early}");
    }

    /// A `Router`'s instructions are in its `initialize` result.
    #[tokio::test]
    async fn router_instructions() {
        let router = v::handlers::Router::new(v::Implementation::new("s", "1"))
            .instructions("Ask for the weather by city.");
        let server: Arc<dyn Service> = Arc::new(v::handlers::Server::new(router));
        let back = Peer::new(mcp_tests::Unused);
        let init = ask(&server, &back, initialize()).await;
        assert_eq!(
            init["result"]["instructions"], "Ask for the weather by city.",
            "{init}"
        );
        let plain = v::handlers::Router::new(v::Implementation::new("s", "1"));
        let server: Arc<dyn Service> = Arc::new(v::handlers::Server::new(plain));
        let init = ask(&server, &back, initialize()).await;
        assert!(init["result"].get("instructions").is_none(), "{init}");
    }
}

mod discover_era {
    use super::*;
    use mcp_spec_types::v2026_07_28 as v;

    type Cx = RequestContext<v::handlers::ClientPeer>;

    /// Logs one message at each level, least severe first, then answers.
    async fn chatty(_: Value, cx: Cx) -> Result<v::CallToolResult, ErrorObject> {
        for level in LOG_LEVELS {
            let level: v::LoggingLevel = level.parse().unwrap();
            let log = v::LoggingMessageNotificationParams::new(json!(level.to_string()), level);
            let _ = cx.peer.notify_logging_message(&log).await;
        }
        Ok(v::CallToolResult::text("done"))
    }

    fn router() -> v::handlers::Router {
        let schema: v::ToolInputSchema = serde_json::from_value(json!({"type": "object"})).unwrap();
        v::handlers::Router::new(v::Implementation::new("s", "1"))
            .tool(v::Tool::new("chatty", schema), chatty)
            .instructions("Say hello first.")
            .logging()
    }

    fn call(id: i64, method: &str, level: Option<&str>) -> Value {
        let mut meta = json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                              "io.modelcontextprotocol/clientCapabilities": {}});
        if let Some(level) = level {
            meta["io.modelcontextprotocol/logLevel"] = json!(level);
        }
        json!({"jsonrpc": "2.0", "id": id, "method": method,
               "params": {"name": "chatty", "_meta": meta}})
    }

    /// The levels of the log messages the client got for one call, with `policy` in front.
    async fn logged(policy: impl Policy + 'static, level: Option<&str>) -> Vec<String> {
        let server: Arc<dyn Service> =
            Arc::new(v::handlers::Server::new(router()).with_policy(policy));
        let client = mcp_tests::Recorder::default();
        let answer = ask(
            &server,
            &Peer::new(client.clone()),
            call(1, "tools/call", level),
        )
        .await;
        assert_eq!(answer["result"]["content"][0]["text"], "done", "{answer}");
        client
            .sent()
            .iter()
            .map(|m| {
                assert_eq!(m["method"], "notifications/message");
                m["params"]["level"].as_str().unwrap().to_owned()
            })
            .collect()
    }

    fn default_policy() -> mcp_spec_types::rt::lifecycle::RequireEnvelope {
        v::handlers::Server::new(router()).policy
    }

    /// The session sends what a handler logs at the level the request asks for, or more
    /// severe; nothing when it asks for none, or for a level that is not one.
    #[tokio::test]
    async fn the_request_log_level_is_applied() {
        let warning = logged(default_policy(), Some("warning")).await;
        assert_eq!(
            warning,
            ["warning", "error", "critical", "alert", "emergency"]
        );
        let debug = logged(default_policy(), Some("debug")).await;
        assert_eq!(debug, LOG_LEVELS);
        assert!(logged(default_policy(), None).await.is_empty());
        assert!(logged(default_policy(), Some("loud")).await.is_empty());
        // `Open` applies none: every message goes out.
        assert_eq!(logged(Open, None).await, LOG_LEVELS);
    }

    /// `Server::new` refuses a request whose envelope names a version it does not speak;
    /// `Open` does not look.
    #[tokio::test]
    async fn the_envelope_is_checked_by_default() {
        let bare = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": {
            "io.modelcontextprotocol/protocolVersion": "2025-11-25",
            "io.modelcontextprotocol/clientCapabilities": {}}}});
        let back = Peer::new(mcp_tests::Unused);
        let server: Arc<dyn Service> = Arc::new(v::handlers::Server::new(router()));
        let refused = ask(&server, &back, bare.clone()).await;
        assert_eq!(refused["error"]["code"], -32022, "{refused}");
        let open: Arc<dyn Service> = Arc::new(v::handlers::Server::new(router()).with_policy(Open));
        let listed = ask(&open, &back, bare).await;
        assert_eq!(listed["result"]["tools"][0]["name"], "chatty", "{listed}");
    }

    /// `server/discover` carries the `Router`'s instructions.
    #[tokio::test]
    async fn router_instructions() {
        let server: Arc<dyn Service> = Arc::new(v::handlers::Server::new(router()));
        let back = Peer::new(mcp_tests::Unused);
        let found = ask(&server, &back, call(1, "server/discover", None)).await;
        assert_eq!(
            found["result"]["instructions"], "Say hello first.",
            "{found}"
        );
    }

    /// Results whose tag the schema states in prose are built without spelling it, and a
    /// `Router` function answers with the result itself, for every kind of part.
    #[tokio::test]
    async fn results_without_their_tag() {
        let text = v::TextResourceContents::new("Oslo", "weather://stations");
        let public = v::ReadResourceResultCacheScope::Public;
        let read = v::ReadResourceResult::complete(public.clone(), vec![text.clone().into()], 0);
        assert_eq!(
            read,
            v::ReadResourceResult::new("complete", public, vec![text.into()], 0)
        );
        let message = v::PromptMessage::new(v::ContentBlock::text("hi"), v::Role::User);
        let got = v::GetPromptResult::complete(vec![message.clone()]);
        assert_eq!(got, v::GetPromptResult::new("complete", vec![message]));
        let input = serde_json::to_value(v::InputRequiredResult::input_required()).unwrap();
        assert_eq!(input["resultType"], "input_required", "{input}");

        async fn stations(
            p: v::ReadResourceRequestParams,
            _: Cx,
        ) -> Result<v::ReadResourceResult, ErrorObject> {
            let text = v::TextResourceContents::new("Oslo", p.uri);
            let public = v::ReadResourceResultCacheScope::Public;
            Ok(v::ReadResourceResult::complete(
                public,
                vec![text.into()],
                0,
            ))
        }
        async fn greet(
            _: v::GetPromptRequestParams,
            _: Cx,
        ) -> Result<v::GetPromptResult, ErrorObject> {
            let message = v::PromptMessage::new(v::ContentBlock::text("hi"), v::Role::User);
            Ok(v::GetPromptResult::complete(vec![message]))
        }
        let router = v::handlers::Router::new(v::Implementation::new("s", "1"))
            .resource(v::Resource::new("stations", "weather://stations"), stations)
            .prompt(v::Prompt::new("greet"), greet);
        let server: Arc<dyn Service> = Arc::new(v::handlers::Server::new(router));
        let back = Peer::new(mcp_tests::Unused);
        let mut message = call(1, "resources/read", None);
        message["params"]["uri"] = json!("weather://stations");
        let answer = ask(&server, &back, message).await;
        assert_eq!(answer["result"]["contents"][0]["text"], "Oslo", "{answer}");
        assert_eq!(answer["result"]["resultType"], "complete", "{answer}");
        let mut message = call(2, "prompts/get", None);
        message["params"]["name"] = json!("greet");
        let answer = ask(&server, &back, message).await;
        assert_eq!(
            answer["result"]["messages"][0]["content"]["text"], "hi",
            "{answer}"
        );
    }

    /// Every optional member has a setter; a deprecated one's setter is deprecated too.
    #[test]
    fn setters() {
        let schema: v::ToolInputSchema = serde_json::from_value(json!({"type": "object"})).unwrap();
        let tool = v::Tool::new("forecast", schema)
            .with_description("Tells the weather")
            .with_title("Forecast");
        let value = serde_json::to_value(&tool).unwrap();
        assert_eq!(value["description"], "Tells the weather");
        assert_eq!(value["title"], "Forecast");
        let prompt = v::Prompt::new("greet").with_arguments(vec![v::PromptArgument::new("name")]);
        assert_eq!(
            serde_json::to_value(&prompt).unwrap()["arguments"][0]["name"],
            "name"
        );
    }
}

/// `LoggingLevel` is ordered in every version, the way the runtime ranks log levels (the
/// generator's `overrides::ORDERED_ENUMS` and `rt::envelope::LOG_LEVELS` agree).
#[test]
fn logging_levels_are_ordered_as_the_runtime_ranks_them() {
    macro_rules! each {
        ($($v:ident),*) => {$({
            use mcp_spec_types::$v::LoggingLevel;
            let mut checked = 0;
            for a in LOG_LEVELS {
                for b in LOG_LEVELS {
                    let (x, y): (LoggingLevel, LoggingLevel) = (a.parse().unwrap(), b.parse().unwrap());
                    assert_eq!(x.partial_cmp(&y), log_rank(a).partial_cmp(&log_rank(b)), "{a} vs {b}");
                    checked += 1;
                }
            }
            assert_eq!(checked, 64);
            assert!(LoggingLevel::Debug < LoggingLevel::Emergency);
            // A value the version does not define is ordered against none of them.
            let unknown: LoggingLevel = serde_json::from_value(json!("loud")).unwrap();
            assert_eq!(unknown.partial_cmp(&LoggingLevel::Debug), None);
            assert_eq!(unknown.partial_cmp(&unknown.clone()), Some(std::cmp::Ordering::Equal));
        })*};
    }
    each!(
        v2024_11_05,
        v2025_03_26,
        v2025_06_18,
        v2025_11_25,
        v2026_07_28
    );
}

/// A client on the session engine writes its envelope (version, capabilities, info, the
/// log level it asks for) into every 2026-07-28 request, over the default `_meta` its
/// params were built with; `add_envelope: false` leaves the params' `_meta` alone.
#[tokio::test]
async fn the_client_envelope_is_the_sessions() {
    use mcp_spec_session::{Deferred, Hello, connect_every_version, stdio};
    use mcp_spec_types::v2026_07_28 as v;

    struct Quiet;
    impl v::handlers::ClientHandler for Quiet {}

    /// Answers with the `_meta` the request came with.
    async fn meta(
        _: Value,
        cx: RequestContext<v::handlers::ClientPeer>,
    ) -> Result<v::CallToolResult, ErrorObject> {
        let meta = cx.meta.map(|m| m.to_map()).unwrap_or_default();
        Ok(v::CallToolResult::text(Value::Object(meta).to_string()))
    }

    for add_envelope in [true, false] {
        let schema: v::ToolInputSchema = serde_json::from_value(json!({"type": "object"})).unwrap();
        let router = v::handlers::Router::new(v::Implementation::new("s", "1"))
            .tool(v::Tool::new("meta", schema), meta);
        let (client_end, server_end) = tokio::io::duplex(1 << 16);
        let (sr, sw) = tokio::io::split(server_end);
        let (cr, cw) = tokio::io::split(client_end);
        let (_server, run_server) = stdio::connect(sr, sw, v::handlers::Server::new(router));
        let later = Deferred::new();
        let (session, run_client) = stdio::connect(cr, cw, later.clone());
        tokio::spawn(run_server);
        tokio::spawn(run_client);

        let hello = Hello {
            log_level: Some(v::LoggingLevel::Warning),
            add_envelope,
            ..Hello::new(
                v::Implementation::new("c", "2"),
                v::ClientCapabilities::default(),
            )
        };
        let connected = connect_every_version(&session.peer(), &later, Quiet, &hello)
            .await
            .unwrap();
        let call = v::CallToolRequestParams::new("meta", v::RequestMetaObject::default());
        let answer = connected.server.call_tool(&call).await;
        if add_envelope {
            let Ok(v::CallToolOutcome::CallToolResult(result)) = answer else {
                panic!("{answer:?}");
            };
            let v::ContentBlock::TextContent(text) = &result.content[0] else {
                panic!("{result:?}");
            };
            let seen: Value = serde_json::from_str(&text.text).unwrap();
            assert_eq!(
                seen,
                json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                       "io.modelcontextprotocol/clientCapabilities": {},
                       "io.modelcontextprotocol/clientInfo": {"name": "c", "version": "2"},
                       "io.modelcontextprotocol/logLevel": "warning"})
            );
        } else {
            // The params' default `_meta` names no version: the server refuses it.
            let Err(mcp_spec_types::rt::service::CallError::Rejected(e)) = answer else {
                panic!("{answer:?}");
            };
            assert_eq!(e.code, -32022, "{e:?}");
        }
    }
}
