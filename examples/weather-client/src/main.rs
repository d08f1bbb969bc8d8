//! A client written for MCP 2026-07-28 that talks to a server of any version over stdio.
use mcp_spec_session::{Deferred, Hello, Session, connect_every_version, stdio};
use mcp_spec_types::v2026_07_28::handlers::ClientHandler;
use mcp_spec_types::v2026_07_28::*;

type Error = Box<dyn std::error::Error>;

/// What this client answers when the server asks (`ping`, by default).
struct Quiet;
impl ClientHandler for Quiet {}

/// Connects over `session` (whose service is `later`), lists the tools, and asks for the
/// weather in `city`: the lines to print.
pub async fn ask(session: &Session, later: &Deferred, city: &str) -> Result<Vec<String>, Error> {
    let me = Implementation::new("weather-client", "1.0.0");
    let hello = Hello::new(me, ClientCapabilities::default());
    let connected = connect_every_version(&session.peer(), later, Quiet, &hello).await?;
    let mut lines = vec![format!("protocol version {}", connected.version)];
    // 2026-07-28 wants the client's envelope in every request's `_meta`: the session puts
    // it there, over the default written here.
    let (server, meta) = (connected.server, RequestMetaObject::default);
    let page = PaginatedRequestParams::new(meta());
    for tool in server.list_tools(&page).await?.tools {
        let about = tool.description.unwrap_or_default();
        lines.push(format!("tool {}: {about}", tool.name));
    }
    let arguments = JsonObject::from_iter([("city".into(), city.into())]);
    let call = CallToolRequestParams::new("forecast", meta()).with_arguments(arguments);
    match server.call_tool(&call).await? {
        CallToolOutcome::CallToolResult(result) => {
            for block in result.content {
                if let ContentBlock::TextContent(text) = block {
                    lines.push(format!("forecast: {}", text.text));
                }
            }
        }
        other => lines.push(format!("the server asks for more: {other:?}")),
    }
    Ok(lines)
}

#[tokio::main]
async fn main() -> Result<(), Error> {
    let mut args = std::env::args().skip(1);
    let program = args.next().ok_or("usage: weather-client SERVER [ARGS]")?;
    let mut command = tokio::process::Command::new(program);
    let later = Deferred::new();
    let (session, _child, _task) = stdio::spawn(command.args(args), later.clone())?;
    for line in ask(&session, &later, "Oslo").await? {
        println!("{line}");
    }
    Ok(())
}
