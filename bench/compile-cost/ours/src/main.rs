//! A small stdio MCP server as a user writes it on mcp-spec-types: two tools, a resource,
//! a prompt and logging, written for 2026-07-28 and served for every version (feature
//! `every-version`, the default) or for 2026-07-28 alone.

use mcp_spec_session::stdio::serve_stdio;
#[cfg(feature = "every-version")]
use mcp_spec_session::{Tokio, Versions};
use mcp_spec_types::rt::{jsonrpc::ErrorObject, service::RequestContext};
#[cfg(not(feature = "every-version"))]
use mcp_spec_types::v2026_07_28::handlers::Server;
use mcp_spec_types::v2026_07_28::handlers::{ClientPeer, Router};
use mcp_spec_types::v2026_07_28::*;

type Cx = RequestContext<ClientPeer>;
type Answer<T> = Result<T, ErrorObject>;

/// The arguments of `echo`.
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Echo {
    /// The text to say back.
    text: String,
}

/// The arguments of `add`.
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Add {
    a: i64,
    b: i64,
}

async fn echo(Echo { text }: Echo, _: Cx) -> Answer<CallToolResult> {
    Ok(CallToolResult::text(text))
}

async fn add(Add { a, b }: Add, _: Cx) -> Answer<CallToolResult> {
    Ok(CallToolResult::text((a + b).to_string()))
}

async fn motd(p: ReadResourceRequestParams, _: Cx) -> Answer<ReadResourceOutcome> {
    let text = TextResourceContents::new("Hello from cost-ours", p.uri);
    let public = ReadResourceResultCacheScope::Public;
    Ok(ReadResourceResult::new("complete", public, vec![text.into()], 0).into())
}

async fn greet(p: GetPromptRequestParams, _: Cx) -> Answer<GetPromptOutcome> {
    let name = p.arguments.and_then(|a| a.get("name").cloned());
    let ask = ContentBlock::text(format!(
        "Say hello to {}",
        name.as_deref().unwrap_or("world")
    ));
    let message = PromptMessage::new(ask, Role::User);
    Ok(GetPromptResult::new("complete", vec![message]).into())
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut echo_tool = Tool::for_input::<Echo>("echo")?;
    echo_tool.description = Some("Says the text back".into());
    let mut add_tool = Tool::for_input::<Add>("add")?;
    add_tool.description = Some("Adds two integers".into());
    let mut greet_prompt = Prompt::new("greet");
    greet_prompt.arguments = Some(vec![PromptArgument::new("name")]);
    let router = Router::new(Implementation::new("cost-ours", env!("CARGO_PKG_VERSION")))
        .tool(echo_tool, echo)
        .tool(add_tool, add)
        .resource(Resource::new("motd", "memo://motd"), motd)
        .prompt(greet_prompt, greet)
        .logging();
    #[cfg(feature = "every-version")]
    serve_stdio(Versions::every_version(router, Tokio)).await;
    #[cfg(not(feature = "every-version"))]
    serve_stdio(Server::new(router)).await;
    Ok(())
}
