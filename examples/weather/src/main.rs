//! A weather server written for MCP 2026-07-28 that serves clients of every version.
use mcp_spec_session::{Tokio, Versions, stdio::serve_stdio};
use mcp_spec_types::rt::{jsonrpc::ErrorObject, service::RequestContext};
use mcp_spec_types::v2026_07_28::handlers::{ClientPeer, Router};
use mcp_spec_types::v2026_07_28::*;

type Cx = RequestContext<ClientPeer>;
type Answer<T> = Result<T, ErrorObject>;

/// The arguments of `forecast` (its input schema comes from this type).
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct City {
    /// The city to forecast.
    city: String,
}

/// What `forecast` answers as structured content.
#[derive(serde::Serialize, schemars::JsonSchema)]
struct Forecast {
    city: String,
    celsius: i64,
}

#[allow(deprecated)] // 2026-07-28 deprecates logging (SEP-2577); clients still ask for it.
async fn forecast(City { city }: City, cx: Cx) -> Answer<CallToolResult> {
    let log = LoggingMessageNotificationParams::new(city.clone().into(), LoggingLevel::Info);
    let _ = cx.peer.notify_logging_message(&log).await;
    if city == "Atlantis" {
        return Ok(CallToolResult::error("no weather station there"));
    }
    Ok(CallToolResult::structured(&Forecast { city, celsius: 21 })?)
}

async fn stations(p: ReadResourceRequestParams, _: Cx) -> Answer<ReadResourceResult> {
    let text = TextResourceContents::new("Oslo\nLima\n", p.uri);
    let scope = ReadResourceResultCacheScope::Public;
    let contents = vec![text.into()];
    Ok(ReadResourceResult::complete(scope, contents, 60_000))
}

async fn packing_list(p: GetPromptRequestParams, _: Cx) -> Answer<GetPromptResult> {
    let city = p.arguments.unwrap_or_default().remove("city");
    let ask = format!("What should I pack for {}?", city.unwrap_or("Oslo".into()));
    let message = PromptMessage::new(ContentBlock::text(ask), Role::User);
    Ok(GetPromptResult::complete(vec![message]))
}

/// The tools, resources and prompts, served at every version from 2024-11-05 on.
pub fn server() -> Result<Versions, Box<dyn std::error::Error>> {
    let tool = Tool::for_input::<City>("forecast")?.with_output::<Forecast>()?;
    let tool = tool.with_description("Tells the weather in a city");
    let city = vec![PromptArgument::new("city")];
    let prompt = Prompt::new("packing_list").with_arguments(city);
    let router = Router::new(Implementation::new("weather", "1.0.0"))
        .instructions("Ask for the weather by city.")
        .tool(tool, forecast)
        .resource(Resource::new("stations", "weather://stations"), stations)
        .prompt(prompt, packing_list)
        .logging();
    Ok(Versions::every_version(router, Tokio))
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    serve_stdio(server()?).await;
    Ok(())
}
