//! `handlers::Router`, in every version that has one, through the dispatch function a
//! session serves with (`serve_client_message`): the `initialize` answer and its
//! capabilities, listing, finding by name or URI, arguments decoded into the function's
//! type (and the tool error when they do not fit), every refusal with its code, a
//! replaced registration, and `logging/setLevel` with and without `logging()`.

use mcp_spec_types::rt::jsonrpc::ErrorObject;
use mcp_spec_types::rt::service::{Open, Peer};
use serde_json::{Value, json};

/// The `result` of an answer, or its `error` as `Err`.
fn outcome(answer: &Value) -> Result<&Value, (i64, &str)> {
    match (answer.get("result"), answer.get("error")) {
        (Some(result), None) => Ok(result),
        (None, Some(e)) => Err((e["code"].as_i64().unwrap(), e["message"].as_str().unwrap())),
        _ => panic!("neither a result nor an error: {answer}"),
    }
}

macro_rules! router_in {
    ($test:ident, $v:ident, $version:literal) => {
        #[tokio::test]
        async fn $test() {
            use mcp_spec_types::$v as v;
            use mcp_spec_types::rt::service::RequestContext;
            use v::handlers::{ClientPeer, Router};

            type Cx = RequestContext<ClientPeer>;

            #[derive(serde::Deserialize)]
            struct City {
                city: String,
            }

            async fn echo(City { city }: City, _: Cx) -> Result<v::CallToolResult, ErrorObject> {
                Ok(v::CallToolResult::text(city))
            }
            async fn broken(_: Value, _: Cx) -> Result<v::CallToolResult, ErrorObject> {
                Err(ErrorObject::new(-32603, "the forecast service is down"))
            }
            async fn stations(
                p: v::ReadResourceRequestParams,
                _: Cx,
            ) -> Result<v::ReadResourceResult, ErrorObject> {
                let text = v::TextResourceContents::new("Oslo", p.uri);
                Ok(v::ReadResourceResult::new(vec![text.into()]))
            }
            async fn packing(
                p: v::GetPromptRequestParams,
                _: Cx,
            ) -> Result<v::GetPromptResult, ErrorObject> {
                let ask = v::TextContent::new(format!("pack for {}", p.name));
                let message = v::PromptMessage::new(ask.into(), v::Role::User);
                Ok(v::GetPromptResult::new(vec![message]))
            }

            async fn serve(router: &Router, id: i64, method: &str, params: Value) -> Value {
                let message = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
                let back = ClientPeer(Peer::new(mcp_tests::Unused));
                let answer = v::handlers::serve_client_message(
                    router,
                    &Open,
                    &back,
                    message.to_string().as_bytes(),
                )
                .await
                .expect("a request is answered");
                let answer: Value = serde_json::from_str(&answer).unwrap();
                assert_eq!(answer["id"], id, "{answer}");
                answer
            }

            let tool = |name: &str, description: &str| {
                let mut tool = v::Tool::new(name, serde_json::from_value(json!({"type": "object"})).unwrap());
                tool.description = Some(description.into());
                tool
            };
            let info = v::Implementation::new("routed", "1.2.3");
            let router = Router::new(info.clone())
                .tool(tool("echo", "first"), echo)
                .tool(tool("broken", "fails"), broken)
                .tool(tool("echo", "second"), echo)
                .resource(v::Resource::new("stations", "weather://stations"), stations)
                .prompt(v::Prompt::new("packing_list"), packing);

            // `initialize`: this version, the info, the capabilities of what it holds.
            let init = json!({"protocolVersion": $version, "capabilities": {},
                              "clientInfo": {"name": "c", "version": "0"}});
            let answer = serve(&router, 1, "initialize", init.clone()).await;
            let result = outcome(&answer).unwrap();
            assert_eq!(result["protocolVersion"], $version);
            assert_eq!(result["serverInfo"], json!({"name": "routed", "version": "1.2.3"}));
            assert_eq!(result["capabilities"], json!({"tools": {}, "resources": {}, "prompts": {}}));
            // No logging until asked for: `logging/setLevel` is not served.
            let level = serve(&router, 2, "logging/setLevel", json!({"level": "info"})).await;
            assert_eq!(outcome(&level).unwrap_err().0, -32601, "{level}");

            // Listing, in the order registered; the second `echo` took the first's place.
            let answer = serve(&router, 3, "tools/list", json!({})).await;
            let tools = &outcome(&answer).unwrap()["tools"];
            let listed: Vec<(&str, &str)> = tools
                .as_array()
                .unwrap()
                .iter()
                .map(|t| (t["name"].as_str().unwrap(), t["description"].as_str().unwrap()))
                .collect();
            assert_eq!(listed, [("echo", "second"), ("broken", "fails")]);

            // A call finds its tool and decodes its arguments into `City`.
            let call = |args: Value| json!({"name": "echo", "arguments": args});
            let answer = serve(&router, 4, "tools/call", call(json!({"city": "Lima"}))).await;
            assert_eq!(
                outcome(&answer).unwrap(),
                &json!({"content": [{"type": "text", "text": "Lima"}]})
            );
            // Arguments that do not fit, or none: a tool error naming what does not fit.
            for (id, args) in [(5, Some(json!({"city": 5}))), (6, None)] {
                let params = match args {
                    Some(args) => call(args),
                    None => json!({"name": "echo"}),
                };
                let answer = serve(&router, id, "tools/call", params).await;
                let result = outcome(&answer).unwrap();
                assert_eq!(result["isError"], true, "{answer}");
                let text = result["content"][0]["text"].as_str().unwrap();
                assert!(text.starts_with("invalid arguments") && text.contains("city"), "{text}");
            }
            // An unknown tool, and a function's own JSON-RPC error.
            let answer = serve(&router, 7, "tools/call", json!({"name": "rain"})).await;
            assert_eq!(outcome(&answer).unwrap_err(), (-32602, "unknown tool `rain`"));
            let answer = serve(&router, 8, "tools/call", json!({"name": "broken"})).await;
            assert_eq!(
                outcome(&answer).unwrap_err(),
                (-32603, "the forecast service is down")
            );

            // Resources by URI; no templates.
            let answer = serve(&router, 9, "resources/list", json!({})).await;
            assert_eq!(
                outcome(&answer).unwrap()["resources"],
                json!([{"name": "stations", "uri": "weather://stations"}])
            );
            let read = |uri: &str| json!({"uri": uri});
            let answer = serve(&router, 10, "resources/read", read("weather://stations")).await;
            assert_eq!(
                outcome(&answer).unwrap()["contents"],
                json!([{"uri": "weather://stations", "text": "Oslo"}])
            );
            let answer = serve(&router, 11, "resources/read", read("weather://moon")).await;
            assert_eq!(
                outcome(&answer).unwrap_err(),
                (-32002, "resource not found: weather://moon")
            );
            let answer = serve(&router, 12, "resources/templates/list", json!({})).await;
            assert_eq!(outcome(&answer).unwrap(), &json!({"resourceTemplates": []}));

            // Prompts by name.
            let answer = serve(&router, 13, "prompts/list", json!({})).await;
            assert_eq!(outcome(&answer).unwrap(), &json!({"prompts": [{"name": "packing_list"}]}));
            let answer = serve(&router, 14, "prompts/get", json!({"name": "packing_list"})).await;
            let result = outcome(&answer).unwrap();
            assert_eq!(result["messages"][0]["content"]["text"], "pack for packing_list");
            let answer = serve(&router, 15, "prompts/get", json!({"name": "haiku"})).await;
            assert_eq!(outcome(&answer).unwrap_err(), (-32602, "unknown prompt `haiku`"));

            // `ping` by default.
            let answer = serve(&router, 16, "ping", json!({})).await;
            assert_eq!(outcome(&answer).unwrap(), &json!({}));

            // A router of tools alone, with logging: only those capabilities, and
            // `logging/setLevel` accepted.
            let router = Router::new(info).tool(tool("echo", "e"), echo).logging();
            let answer = serve(&router, 17, "initialize", init).await;
            assert_eq!(
                outcome(&answer).unwrap()["capabilities"],
                json!({"tools": {}, "logging": {}})
            );
            let level = serve(&router, 18, "logging/setLevel", json!({"level": "info"})).await;
            assert_eq!(outcome(&level).unwrap(), &json!({}));
            assert!(format!("{router:?}").contains(r#"tools: ["echo"]"#), "{router:?}");
        }
    };
}

router_in!(router_2024_11_05, v2024_11_05, "2024-11-05");
router_in!(router_2025_03_26, v2025_03_26, "2025-03-26");
router_in!(router_2025_06_18, v2025_06_18, "2025-06-18");
router_in!(router_2025_11_25, v2025_11_25, "2025-11-25");

/// The discover era's `Router` (2026-07-28): `server/discover` and lists in that era's
/// shape, and, through the generated adapters, the same router serving clients of
/// 2025-11-25 and of 2024-11-05 (`initialize` answered from `server/discover`).
#[tokio::test]
#[allow(deprecated)]
async fn router_2026_07_28_and_through_the_adapters() {
    use mcp_spec_types::convert::{
        v2024_11_05_v2025_03_26 as to_24, v2025_03_26_v2025_06_18 as to_03,
        v2025_06_18_v2025_11_25 as to_06, v2025_11_25_v2026_07_28 as to_11,
    };
    use mcp_spec_types::rt::service::{RequestContext, Service};
    use mcp_spec_types::v2026_07_28 as v;
    use std::sync::Arc;
    type Cx = RequestContext<v::handlers::ClientPeer>;

    #[derive(serde::Deserialize)]
    struct City {
        city: String,
    }
    async fn echo(City { city }: City, _: Cx) -> Result<v::CallToolResult, ErrorObject> {
        Ok(v::CallToolResult::text(city))
    }
    async fn stations(
        p: v::ReadResourceRequestParams,
        _: Cx,
    ) -> Result<v::ReadResourceOutcome, ErrorObject> {
        let text = v::TextResourceContents::new("Oslo", p.uri);
        let public = v::ReadResourceResultCacheScope::Public;
        Ok(v::ReadResourceResult::new("complete", public, vec![text.into()], 0).into())
    }
    let schema: v::ToolInputSchema = serde_json::from_value(json!({"type": "object"})).unwrap();
    let router = || {
        v::handlers::Router::new(v::Implementation::new("routed", "1.2.3"))
            .tool(v::Tool::new("echo", schema.clone()), echo)
            .resource(v::Resource::new("stations", "weather://stations"), stations)
            .logging()
    };
    let envelope = json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                          "io.modelcontextprotocol/clientCapabilities": {}});
    let message = |id: i64, method: &str, mut params: Value| {
        if params.get("_meta").is_none() {
            params["_meta"] = envelope.clone();
        }
        json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string()
    };

    // At 2026-07-28 itself.
    let r = router();
    let serve = |m: String| {
        let r = &r;
        async move {
            let back = v::handlers::ClientPeer(Peer::new(mcp_tests::Unused));
            let a = v::handlers::serve_client_message(r, &Open, &back, m.as_bytes()).await;
            serde_json::from_str::<Value>(&a.expect("answered")).unwrap()
        }
    };
    let discover = serve(message(1, "server/discover", json!({}))).await;
    let result = outcome(&discover).unwrap();
    assert_eq!(result["supportedVersions"], json!(["2026-07-28"]));
    assert_eq!(
        result["capabilities"],
        json!({"tools": {}, "resources": {}, "logging": {}})
    );
    assert_eq!(
        result["_meta"]["io.modelcontextprotocol/serverInfo"],
        json!({"name": "routed", "version": "1.2.3"})
    );
    assert_eq!(
        (
            &result["resultType"],
            &result["cacheScope"],
            &result["ttlMs"]
        ),
        (&json!("complete"), &json!("public"), &json!(0))
    );
    let list = serve(message(2, "tools/list", json!({}))).await;
    let result = outcome(&list).unwrap();
    assert_eq!(result["tools"][0]["name"], "echo");
    assert_eq!(
        (&result["cacheScope"], &result["ttlMs"]),
        (&json!("public"), &json!(0))
    );
    let call = serve(message(
        3,
        "tools/call",
        json!({"name": "echo", "arguments": {"city": "Oslo"}}),
    ))
    .await;
    assert_eq!(outcome(&call).unwrap()["content"][0]["text"], "Oslo");
    let unknown = serve(message(4, "tools/call", json!({"name": "rain"}))).await;
    assert_eq!(
        outcome(&unknown).unwrap_err(),
        (-32602, "unknown tool `rain`")
    );
    let moon = serve(message(
        5,
        "resources/read",
        json!({"uri": "weather://moon"}),
    ))
    .await;
    assert_eq!(outcome(&moon).unwrap_err().0, -32002);

    // At 2025-11-25, through the bridge: `initialize` from `server/discover`.
    let older: Arc<dyn Service> = Arc::new(to_11::serve_older(v::handlers::Server::new(router())));
    let back = Peer::new(mcp_tests::Unused);
    let init = json!({"protocolVersion": "2025-11-25", "capabilities": {},
                      "clientInfo": {"name": "c", "version": "0"}});
    let plain = |id: i64, method: &str, params: &Value| {
        json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string()
    };
    let m = plain(1, "initialize", &init);
    let a = older.clone().serve(back.clone(), m).await;
    let a: Value = serde_json::from_str(&a.unwrap()).unwrap();
    let result = outcome(&a).unwrap();
    assert_eq!(result["protocolVersion"], "2025-11-25");
    assert_eq!(
        result["serverInfo"],
        json!({"name": "routed", "version": "1.2.3"})
    );
    assert_eq!(
        result["capabilities"],
        json!({"tools": {}, "resources": {}, "logging": {}})
    );
    let m = plain(2, "logging/setLevel", &json!({"level": "info"}));
    let a = older.clone().serve(back.clone(), m).await;
    assert_eq!(
        serde_json::from_str::<Value>(&a.unwrap()).unwrap()["result"],
        json!({})
    );

    // At 2024-11-05, through every pair.
    let oldest = to_24::serve_older(to_03::serve_older(to_06::serve_older(to_11::serve_older(
        v::handlers::Server::new(router()),
    ))));
    let oldest: Arc<dyn Service> = Arc::new(oldest);
    let init = json!({"protocolVersion": "2024-11-05", "capabilities": {},
                      "clientInfo": {"name": "c", "version": "0"}});
    for (id, method, params, check) in [
        (1, "initialize", init, "protocolVersion"),
        (
            2,
            "tools/call",
            json!({"name": "echo", "arguments": {"city": "Lima"}}),
            "content",
        ),
    ] {
        let m = plain(id, method, &params);
        let a = oldest.clone().serve(back.clone(), m).await;
        let a: Value = serde_json::from_str(&a.unwrap()).unwrap();
        let result = outcome(&a).unwrap();
        match check {
            "protocolVersion" => assert_eq!(result[check], "2024-11-05"),
            _ => assert_eq!(result[check][0]["text"], "Lima", "{a}"),
        }
    }
    // The oldest client gets only what its version defines: not the 2026-07-28 result's
    // `resultType`, `cacheScope` and `ttlMs`, nor the discover `_meta`'s server info.
    let a = oldest
        .clone()
        .serve(back.clone(), plain(3, "tools/list", &json!({})))
        .await;
    let a: Value = serde_json::from_str(&a.unwrap()).unwrap();
    let result = outcome(&a).unwrap();
    let members: Vec<&String> = result.as_object().unwrap().keys().collect();
    assert_eq!(members, ["tools"], "{a}");
    let m = plain(
        4,
        "initialize",
        &json!({"protocolVersion": "2024-11-05", "capabilities": {},
                                          "clientInfo": {"name": "c", "version": "0"}}),
    );
    let a = oldest.clone().serve(back.clone(), m).await;
    let a: Value = serde_json::from_str(&a.unwrap()).unwrap();
    let members: Vec<&String> = outcome(&a).unwrap().as_object().unwrap().keys().collect();
    assert_eq!(
        members,
        ["capabilities", "protocolVersion", "serverInfo"],
        "{a}"
    );
}
