//! Decodes and encodes every message type of protocol version 2025-11-25 through the
//! typed entry point, the way a client or server would: every request and notification
//! through `decode_from_client` / `decode_from_server` and `rt::jsonrpc::encode_to_vec`, every
//! result through `ServerResult::decode` / `ClientResult::decode` and `serde_json`.
//!
//! Reads one message per line on stdin: a request, notification or error as is, a
//! response as `<method it answers> <json>`. Writes each message as each side decodes and
//! re-encodes it, or the JSON-RPC error code it gets.

use std::io::{self, BufRead, Write};

use mcp_spec_types::rt::jsonrpc::{self, Message, MethodSet, UnknownMethods};
use mcp_spec_types::v2025_11_25::methods::{self, ClientResult, Method, ServerResult};

fn server_result(r: &ServerResult) -> serde_json::Result<Vec<u8>> {
    match r {
        ServerResult::Complete(x) => serde_json::to_vec(x),
        ServerResult::Initialize(x) => serde_json::to_vec(x),
        ServerResult::SetLevel(x) => serde_json::to_vec(x),
        ServerResult::Ping(x) => serde_json::to_vec(x),
        ServerResult::GetPrompt(x) => serde_json::to_vec(x),
        ServerResult::ListPrompts(x) => serde_json::to_vec(x),
        ServerResult::ListResources(x) => serde_json::to_vec(x),
        ServerResult::ReadResource(x) => serde_json::to_vec(x),
        ServerResult::Subscribe(x) => serde_json::to_vec(x),
        ServerResult::ListResourceTemplates(x) => serde_json::to_vec(x),
        ServerResult::Unsubscribe(x) => serde_json::to_vec(x),
        ServerResult::CancelTask(x) => serde_json::to_vec(x),
        ServerResult::GetTask(x) => serde_json::to_vec(x),
        ServerResult::ListTasks(x) => serde_json::to_vec(x),
        ServerResult::GetTaskPayload(x) => serde_json::to_vec(x),
        ServerResult::CallTool(x) => serde_json::to_vec(x),
        ServerResult::ListTools(x) => serde_json::to_vec(x),
    }
}

fn client_result(r: &ClientResult) -> serde_json::Result<Vec<u8>> {
    match r {
        ClientResult::Elicit(x) => serde_json::to_vec(x),
        ClientResult::Ping(x) => serde_json::to_vec(x),
        ClientResult::ListRoots(x) => serde_json::to_vec(x),
        ClientResult::CreateMessage(x) => serde_json::to_vec(x),
        ClientResult::CancelTask(x) => serde_json::to_vec(x),
        ClientResult::GetTask(x) => serde_json::to_vec(x),
        ClientResult::ListTasks(x) => serde_json::to_vec(x),
        ClientResult::GetTaskPayload(x) => serde_json::to_vec(x),
    }
}

/// One side's view of a message: its re-encoding, or why it does not decode.
fn show<R: MethodSet, N: MethodSet>(
    decoded: Result<Message<R, N>, jsonrpc::ProtocolError>,
    answers: Option<Method>,
    result: impl Fn(Method, &jsonrpc::RawResult) -> Result<Vec<u8>, String>,
) -> String {
    match (decoded, answers) {
        (Err(e), _) => format!("error {}", e.code),
        (Ok(Message::Response { result: raw, .. }), Some(method)) => match result(method, &raw) {
            Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
            Err(e) => format!("result error: {e}"),
        },
        (Ok(m), _) => match jsonrpc::encode_to_vec(&m) {
            Ok(v) => String::from_utf8_lossy(&v).into_owned(),
            Err(e) => format!("encode error: {e}"),
        },
    }
}

fn main() -> io::Result<()> {
    let stdin = io::stdin();
    let mut out = io::stdout().lock();
    for line in stdin.lock().lines() {
        let line = line?;
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let (answers, json) = match line.split_once(' ') {
            Some((method, json)) if !line.starts_with('{') => (method.parse::<Method>().ok(), json),
            _ => (None, line),
        };
        let as_server = show(
            methods::decode_from_client(json, UnknownMethods::Reject),
            answers,
            |m, raw| {
                ClientResult::decode(m, raw)
                    .map_err(|e| e.to_string())
                    .and_then(|r| client_result(&r).map_err(|e| e.to_string()))
            },
        );
        let as_client = show(
            methods::decode_from_server(json, UnknownMethods::Reject),
            answers,
            |m, raw| {
                ServerResult::decode(m, raw)
                    .map_err(|e| e.to_string())
                    .and_then(|r| server_result(&r).map_err(|e| e.to_string()))
            },
        );
        writeln!(out, "server reads: {as_server}")?;
        writeln!(out, "client reads: {as_client}")?;
    }
    Ok(())
}
