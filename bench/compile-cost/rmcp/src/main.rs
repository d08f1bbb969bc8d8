//! The server of `cost-ours` on the official Rust SDK (rmcp): two tools, a resource,
//! a prompt and logging, over stdio.

use rmcp::handler::server::router::{prompt::PromptRouter, tool::ToolRouter};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::*;
use rmcp::service::RequestContext;
use rmcp::{
    ErrorData, RoleServer, ServerHandler, ServiceExt, prompt, prompt_handler, prompt_router, tool,
    tool_handler, tool_router, transport::stdio,
};

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Echo {
    /// The text to say back.
    text: String,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Add {
    a: i64,
    b: i64,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Greet {
    name: Option<String>,
}

#[derive(Clone)]
struct Server {
    tool_router: ToolRouter<Self>,
    prompt_router: PromptRouter<Self>,
}

#[tool_router]
impl Server {
    #[tool(description = "Says the text back")]
    async fn echo(&self, Parameters(Echo { text }): Parameters<Echo>) -> String {
        text
    }

    #[tool(description = "Adds two integers")]
    async fn add(&self, Parameters(Add { a, b }): Parameters<Add>) -> String {
        (a + b).to_string()
    }
}

#[prompt_router]
impl Server {
    #[prompt]
    async fn greet(&self, Parameters(Greet { name }): Parameters<Greet>) -> Vec<PromptMessage> {
        let name = name.as_deref().unwrap_or("world");
        vec![PromptMessage::new_text(
            Role::User,
            format!("Say hello to {name}"),
        )]
    }
}

#[tool_handler(router = self.tool_router)]
#[prompt_handler(router = self.prompt_router)]
#[allow(deprecated)] // logging: deprecated by SEP-2577, still served
impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        let capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_resources()
            .enable_prompts()
            .enable_logging()
            .build();
        ServerConfig::new(capabilities)
            .with_server_info(Implementation::new("cost-rmcp", env!("CARGO_PKG_VERSION")))
    }

    async fn list_resources(
        &self,
        _: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let motd = Resource::new("memo://motd", "motd");
        Ok(ListResourcesResult::with_all_items(vec![motd]))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        if request.uri != "memo://motd" {
            return Err(ErrorData::resource_not_found(request.uri, None));
        }
        let text = ResourceContents::text("Hello from cost-rmcp", request.uri);
        Ok(ReadResourceResult::new(vec![text]).into())
    }

    async fn set_level(
        &self,
        _: SetLevelRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        Ok(())
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let server = Server {
        tool_router: Server::tool_router(),
        prompt_router: Server::prompt_router(),
    };
    server.serve(stdio()).await?.waiting().await?;
    Ok(())
}
