//! What both sides of Streamable HTTP agree on: the header names, the parameter a
//! request's `Mcp-Name` repeats, and whether a message is the answer to a request.

use mcp_spec_types::rt::jsonrpc::Id;
use mcp_spec_types::rt::service::{Route, route};
#[cfg(feature = "http-client")]
use serde_json::Value;

/// The header that names a session (initialize era).
pub const SESSION_HEADER: &str = "mcp-session-id";
/// The header that repeats a request's protocol version (discover era).
pub const PROTOCOL_VERSION_HEADER: &str = "mcp-protocol-version";
/// The header that repeats a request's method (discover era).
pub const METHOD_HEADER: &str = "mcp-method";
/// The header that repeats the name (or URI) a request is about (discover era).
pub const NAME_HEADER: &str = "mcp-name";

/// The member of a request's params that `Mcp-Name` repeats: the tool's or prompt's
/// `name`, the resource's `uri`; with the `ext-tasks` feature, the `taskId` of the tasks
/// extension's requests (its `handlers::NAMED`); none for other methods.
pub(crate) fn named_key(method: Option<&str>) -> Option<&'static str> {
    let method = method?;
    match method {
        "tools/call" | "prompts/get" => return Some("name"),
        "resources/read" => return Some("uri"),
        _ => {}
    }
    #[cfg(feature = "ext-tasks")]
    if let Some((_, param)) = mcp_spec_types::ext::tasks::handlers::NAMED
        .iter()
        .find(|(m, _)| *m == method)
    {
        return Some(param);
    }
    None
}

/// What `Mcp-Name` repeats of a request's params ([`named_key`]).
#[cfg(feature = "http-client")]
pub(crate) fn named<'a>(method: Option<&str>, params: Option<&'a Value>) -> Option<&'a Value> {
    params?.get(named_key(method)?)
}

/// Whether `message` is the answer to request `id` (a response that names it).
pub(crate) fn answers(message: &str, id: &Id) -> bool {
    matches!(route(message.as_bytes()), Route::Response(r) if r == *id)
}
