//! A small MCP server (protocol version 2025-11-25, stdio), written the way the README
//! shows: every value built with the generated constructors. Tools with text and
//! structured output and a tool error, a resource, a prompt, logging; `ping` is answered
//! by the handler trait's default. `interop/run` drives it with the official Python SDK.

use mcp_spec_types::rt::{jsonrpc::ErrorObject, service::RequestContext};
use mcp_spec_types::v2025_11_25::handlers::{ClientPeer, Server, ServerHandler};
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
type Page = Option<PaginatedRequestParams>;

struct Weather;

impl ServerHandler for Weather {
    async fn initialize(&self, _: InitializeRequestParams, _: Cx) -> Answer<InitializeResult> {
        let caps = ServerCapabilities {
            tools: Some(Default::default()),
            resources: Some(Default::default()),
            prompts: Some(Default::default()),
            logging: Some(Default::default()),
            ..Default::default()
        };
        let info = Implementation::new("weather", env!("CARGO_PKG_VERSION"));
        Ok(InitializeResult::new("2025-11-25", caps, info))
    }

    async fn list_tools(&self, _: Page, _: Cx) -> Answer<ListToolsResult> {
        let forecast = Tool::for_input::<City>("forecast")?.with_output::<Forecast>()?;
        let mut echo = Tool::for_input::<City>("echo_city")?;
        echo.description = Some("Says the city back".into());
        Ok(ListToolsResult::new(vec![forecast, echo]))
    }

    async fn call_tool(&self, params: CallToolRequestParams, cx: Cx) -> Answer<CallToolOutcome> {
        let City { city } = params.arguments_as()?;
        let note = format!("{} for {city}", params.name);
        let log = LoggingMessageNotificationParams::new(note.into(), LoggingLevel::Info);
        let _ = cx.peer.notify_logging_message(&log).await;
        let result = match params.name.as_str() {
            "echo_city" => CallToolResult::text(&city),
            "forecast" if city == "Atlantis" => {
                CallToolResult::error(format!("no weather station in {city}"))
            }
            "forecast" => CallToolResult::structured(&Forecast {
                summary: "sunny".into(),
                celsius: 21,
                city,
            })?,
            other => return Err(ErrorObject::invalid_params(format!("no tool `{other}`"))),
        };
        Ok(result.into())
    }

    async fn list_resources(&self, _: Page, _: Cx) -> Answer<ListResourcesResult> {
        let stations = Resource::new("stations", "weather://stations");
        Ok(ListResourcesResult::new(vec![stations]))
    }

    async fn read_resource(
        &self,
        p: ReadResourceRequestParams,
        _: Cx,
    ) -> Answer<ReadResourceResult> {
        if p.uri != "weather://stations" {
            return Err(ErrorObject::new(-32002, format!("no resource {}", p.uri)));
        }
        let text = TextResourceContents::new("Oslo\nLima\n", p.uri);
        Ok(ReadResourceResult::new(vec![text.into()]))
    }

    async fn list_prompts(&self, _: Page, _: Cx) -> Answer<ListPromptsResult> {
        Ok(ListPromptsResult::new(vec![Prompt::new("packing_list")]))
    }

    async fn get_prompt(&self, p: GetPromptRequestParams, _: Cx) -> Answer<GetPromptResult> {
        let city = p.arguments.and_then(|a| a.get("city").cloned());
        let city = city.unwrap_or_else(|| "Oslo".into());
        let ask = ContentBlock::text(format!("What should I pack for {city}?"));
        Ok(GetPromptResult::new(vec![PromptMessage::new(
            ask,
            Role::User,
        )]))
    }

    async fn set_level(&self, _: SetLevelRequestParams, _: Cx) -> Answer<EmptyResult> {
        Ok(Default::default())
    }
}

#[tokio::main]
async fn main() {
    let server = Server::new(Weather).with_policy(InitializeFirst::new());
    mcp_spec_session::stdio::serve_stdio(server).await;
}
