//! Serving an official extension beside the service of the protocol version it is built
//! on: what the generated `ext::<name>::handlers::Server` asks of a message (does its
//! client declare the extension in this request), the error it answers when it does not
//! (-32021), and how the server declares the extension in its `server/discover` result.
//!
//! Capabilities are per request from 2026-07-28 on: a client declares an extension in
//! each request's `_meta["io.modelcontextprotocol/clientCapabilities"].extensions`, and a
//! server may use it for that request only.

use serde_json::{Map, Value};

use crate::envelope::CLIENT_CAPABILITIES;
use crate::jsonrpc::ErrorObject;
use crate::service::Meta;

/// The error code of a request that needs a capability its client did not declare
/// (`MissingRequiredClientCapabilityError`).
pub const MISSING_REQUIRED_CLIENT_CAPABILITY: i64 = -32021;

/// The member of capabilities that holds the extensions, by identifier.
pub const EXTENSIONS: &str = "extensions";

/// Whether the request whose `params._meta` is `meta` declares the extension `id`: its
/// client capabilities hold `extensions[id]`, an object (an empty one says "supported").
pub fn declared(meta: Option<&Meta>, id: &str) -> bool {
    meta.and_then(|m| m.get(CLIENT_CAPABILITIES))
        .as_ref()
        .and_then(|c| c.get(EXTENSIONS))
        .and_then(|e| e.get(id))
        .is_some_and(Value::is_object)
}

/// -32021 for a request that needs the extension `id`, which its client did not declare:
/// the error names the capability it needs (`data.requiredCapabilities`), as the
/// extensions' specifications show it.
pub fn missing(id: &str) -> ErrorObject {
    ErrorObject::new(
        MISSING_REQUIRED_CLIENT_CAPABILITY,
        format!("Missing required client capability: the extension `{id}`"),
    )
    .with_data(serde_json::json!({
        "requiredCapabilities": { EXTENSIONS: { id: {} } }
    }))
}

/// A response to `server/discover` with the extension `id` declared in its result's
/// `capabilities.extensions` (as `{}`, beside what is there; a declaration already there
/// is kept as it is). Any other response (an error, a result with no capabilities
/// object) is returned as it came.
pub fn declare_in_discover(response: String, id: &str) -> String {
    let Ok(mut value) = serde_json::from_str::<Value>(&response) else {
        return response;
    };
    let Some(capabilities) = value
        .get_mut("result")
        .and_then(|r| r.get_mut("capabilities"))
        .and_then(Value::as_object_mut)
    else {
        return response;
    };
    let extensions = capabilities
        .entry(EXTENSIONS)
        .or_insert_with(|| Value::Object(Map::new()));
    let Some(extensions) = extensions.as_object_mut() else {
        return response;
    };
    if extensions.contains_key(id) {
        return response;
    }
    extensions.insert(id.to_string(), Value::Object(Map::new()));
    serde_json::to_string(&value).unwrap_or(response)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn meta(v: Value) -> Meta {
        Meta::from(v.as_object().unwrap().clone())
    }

    #[test]
    fn a_request_declares_an_extension_in_its_client_capabilities() {
        let id = "io.modelcontextprotocol/tasks";
        let yes = meta(serde_json::json!({CLIENT_CAPABILITIES: {"extensions": {id: {}}}}));
        assert!(declared(Some(&yes), id));
        for no in [
            serde_json::json!({}),
            serde_json::json!({CLIENT_CAPABILITIES: {}}),
            serde_json::json!({CLIENT_CAPABILITIES: {"extensions": {"other/ext": {}}}}),
            serde_json::json!({CLIENT_CAPABILITIES: {"extensions": {id: true}}}),
            serde_json::json!({"extensions": {id: {}}}),
        ] {
            assert!(!declared(Some(&meta(no.clone())), id), "{no}");
        }
        assert!(!declared(None, id));
    }

    #[test]
    fn the_error_names_the_capability() {
        let e = missing("io.modelcontextprotocol/tasks");
        assert_eq!(e.code, -32021);
        assert_eq!(
            e.data,
            Some(
                serde_json::json!({"requiredCapabilities": {"extensions": {"io.modelcontextprotocol/tasks": {}}}})
            )
        );
    }

    #[test]
    fn discover_gains_the_extension() {
        let id = "io.modelcontextprotocol/tasks";
        let r = r#"{"jsonrpc":"2.0","id":1,"result":{"capabilities":{"tools":{}},"resultType":"complete"}}"#;
        let v: Value = serde_json::from_str(&declare_in_discover(r.into(), id)).unwrap();
        assert_eq!(
            v["result"]["capabilities"]["extensions"][id],
            serde_json::json!({})
        );
        assert_eq!(v["result"]["capabilities"]["tools"], serde_json::json!({}));
        // One already declared, with settings, is kept.
        let r = r#"{"jsonrpc":"2.0","id":1,"result":{"capabilities":{"extensions":{"io.modelcontextprotocol/tasks":{"x":1}}}}}"#;
        assert_eq!(declare_in_discover(r.into(), id), r);
        // An error is not touched.
        let e = r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"no"}}"#;
        assert_eq!(declare_in_discover(e.into(), id), e);
    }
}
