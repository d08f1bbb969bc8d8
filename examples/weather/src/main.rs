//! A small MCP server (protocol version 2025-11-25, stdio), written the way the README
//! shows: a `Router` of plain async functions, every value built with the generated
//! constructors. Tools with text and structured output and a tool error, a resource, a
//! prompt, logging; `ping` is answered by default. `interop/run` drives it with the
//! official Python SDK.

use mcp_spec_types::rt::{jsonrpc::ErrorObject, service::RequestContext};
use mcp_spec_types::v2025_11_25::handlers::{ClientPeer, Router, Server};
use mcp_spec_types::v2025_11_25::*;
use mcp_spec_types::version::InitializeFirst;

/// The arguments of the `forecast` tool.
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct City {
    /// The city to forecast.
    city: String,
}

/// What `forecast` returns as structured content.
#[derive(serde::Serialize, schemars::JsonSchema)]
struct Forecast {
    city: String,
    summary: String,
    celsius: i64,
}

type Cx = RequestContext<ClientPeer>;
type Answer<T> = Result<T, ErrorObject>;

/// Tells the client what a tool was called for (a log message at level `info`).
async fn log(cx: &Cx, note: String) {
    let log = LoggingMessageNotificationParams::new(note.into(), LoggingLevel::Info);
    let _ = cx.peer.notify_logging_message(&log).await;
}

async fn forecast(City { city }: City, cx: Cx) -> Answer<CallToolResult> {
    log(&cx, format!("forecast for {city}")).await;
    if city == "Atlantis" {
        return Ok(CallToolResult::error(format!(
            "no weather station in {city}"
        )));
    }
    let summary = "sunny".into();
    Ok(CallToolResult::structured(&Forecast {
        city,
        summary,
        celsius: 21,
    })?)
}

async fn echo_city(City { city }: City, cx: Cx) -> Answer<CallToolResult> {
    log(&cx, format!("echo_city for {city}")).await;
    Ok(CallToolResult::text(city))
}

async fn stations(p: ReadResourceRequestParams, _: Cx) -> Answer<ReadResourceResult> {
    let text = TextResourceContents::new("Oslo\nLima\n", p.uri);
    Ok(ReadResourceResult::new(vec![text.into()]))
}

async fn packing_list(p: GetPromptRequestParams, _: Cx) -> Answer<GetPromptResult> {
    let city = p.arguments.and_then(|a| a.get("city").cloned());
    let city = city.unwrap_or_else(|| "Oslo".into());
    let ask = ContentBlock::text(format!("What should I pack for {city}?"));
    Ok(GetPromptResult::new(vec![PromptMessage::new(
        ask,
        Role::User,
    )]))
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut echo = Tool::for_input::<City>("echo_city")?;
    echo.description = Some("Says the city back".into());
    let weather = Router::new(Implementation::new("weather", env!("CARGO_PKG_VERSION")))
        .tool(
            Tool::for_input::<City>("forecast")?.with_output::<Forecast>()?,
            forecast,
        )
        .tool(echo, echo_city)
        .resource(Resource::new("stations", "weather://stations"), stations)
        .prompt(Prompt::new("packing_list"), packing_list)
        .logging();
    let server = Server::new(weather).with_policy(InitializeFirst::new());
    mcp_spec_session::stdio::serve_stdio(server).await;
    Ok(())
}
