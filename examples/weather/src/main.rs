//! A small MCP server (protocol version 2025-11-25, stdio), written the way the README
//! shows: every value built with the generated constructors. Tools with text and
//! structured output and a tool error, a resource, a prompt, logging; `ping` is answered
//! by the handler trait's default. `interop/run` drives it with the official Python SDK.

use mcp_spec_types::rt::jsonrpc::ErrorObject;
use mcp_spec_types::rt::service::RequestContext;
use mcp_spec_types::v2025_11_25::{self as mcp, handlers::ClientPeer};
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

struct Weather;

impl mcp::handlers::ServerHandler for Weather {
    async fn initialize(
        &self,
        _: mcp::InitializeRequestParams,
        _: Cx,
    ) -> Answer<mcp::InitializeResult> {
        let mut caps = mcp::ServerCapabilities::new();
        caps.tools = Some(Default::default());
        caps.resources = Some(Default::default());
        caps.prompts = Some(Default::default());
        caps.logging = Some(Default::default());
        let info = mcp::Implementation::new("weather", env!("CARGO_PKG_VERSION"));
        Ok(mcp::InitializeResult::new("2025-11-25", caps, info))
    }

    async fn list_tools(
        &self,
        _: Option<mcp::PaginatedRequestParams>,
        _: Cx,
    ) -> Answer<mcp::ListToolsResult> {
        let forecast = mcp::Tool::for_input::<City>("forecast")?.with_output::<Forecast>()?;
        let mut echo = mcp::Tool::for_input::<City>("echo_city")?;
        echo.description = Some("Says the city back".into());
        Ok(mcp::ListToolsResult::new(vec![forecast, echo]))
    }

    async fn call_tool(
        &self,
        params: mcp::CallToolRequestParams,
        cx: Cx,
    ) -> Answer<mcp::CallToolOutcome> {
        let City { city } = params.arguments_as()?;
        let log = mcp::LoggingMessageNotificationParams::new(
            format!("{} for {city}", params.name).into(),
            mcp::LoggingLevel::Info,
        );
        let _ = cx.peer.notify_logging_message(&log).await;
        let result = match params.name.as_str() {
            "echo_city" => mcp::CallToolResult::text(&city),
            "forecast" if city == "Atlantis" => {
                mcp::CallToolResult::error(format!("no weather station in {city}"))
            }
            "forecast" => mcp::CallToolResult::structured(&Forecast {
                summary: "sunny".into(),
                celsius: 21,
                city,
            })?,
            other => return Err(ErrorObject::invalid_params(format!("no tool `{other}`"))),
        };
        Ok(result.into())
    }

    async fn list_resources(
        &self,
        _: Option<mcp::PaginatedRequestParams>,
        _: Cx,
    ) -> Answer<mcp::ListResourcesResult> {
        Ok(mcp::ListResourcesResult::new(vec![mcp::Resource::new(
            "stations",
            "weather://stations",
        )]))
    }

    async fn read_resource(
        &self,
        params: mcp::ReadResourceRequestParams,
        _: Cx,
    ) -> Answer<mcp::ReadResourceResult> {
        if params.uri != "weather://stations" {
            return Err(ErrorObject::new(
                -32002,
                format!("no resource {}", params.uri),
            ));
        }
        let text = mcp::TextResourceContents::new("Oslo\nLima\n", params.uri);
        Ok(mcp::ReadResourceResult::new(vec![text.into()]))
    }

    async fn list_prompts(
        &self,
        _: Option<mcp::PaginatedRequestParams>,
        _: Cx,
    ) -> Answer<mcp::ListPromptsResult> {
        Ok(mcp::ListPromptsResult::new(vec![mcp::Prompt::new(
            "packing_list",
        )]))
    }

    async fn get_prompt(
        &self,
        params: mcp::GetPromptRequestParams,
        _: Cx,
    ) -> Answer<mcp::GetPromptResult> {
        let city = params
            .arguments
            .and_then(|a| a.get("city").cloned())
            .unwrap_or_else(|| "Oslo".into());
        let ask = mcp::ContentBlock::text(format!("What should I pack for {city}?"));
        Ok(mcp::GetPromptResult::new(vec![mcp::PromptMessage::new(
            ask,
            mcp::Role::User,
        )]))
    }

    async fn set_level(&self, _: mcp::SetLevelRequestParams, _: Cx) -> Answer<mcp::EmptyResult> {
        Ok(Default::default())
    }
}

#[tokio::main]
async fn main() {
    let server = mcp::handlers::Server::new(Weather).with_policy(InitializeFirst::new());
    mcp_spec_session::stdio::serve_stdio(server).await;
}
