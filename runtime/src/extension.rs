//! Serving an official extension beside the service of the protocol version it is built
//! on: what the generated `ext::<name>::handlers::Server` asks of a message (does its
//! client declare the extension in this request), the error it answers when it does not
//! (-32021), and how the server declares the extension in its `server/discover` result.
//!
//! Capabilities are per request from 2026-07-28 on: a client declares an extension in
//! each request's `_meta["io.modelcontextprotocol/clientCapabilities"].extensions`, and a
//! server may use it for that request only.

use std::sync::Arc;

use serde_json::{Map, Value};

use crate::envelope::CLIENT_CAPABILITIES;
use crate::jsonrpc::{ErrorObject, Id, MethodSet};
use crate::service::{
    BoxFuture, Meta, NotificationContext, Peer, Policy, Received, RequestContext, Serve, Service,
    inspect, receive, refuse,
};

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
    with_capability(response, &[EXTENSIONS, id], Value::Object(Map::new()))
}

/// A response whose result has a `capabilities` object, with `value` at `path` inside it
/// (the objects on the way made when absent); a member already at `path` is kept as it
/// is. Any other response (an error, a result with no capabilities object, a member on
/// the way that is no object) is returned as it came. What a server adds to the
/// capabilities its handler answered with: an extension in `server/discover`, an older
/// version's task capabilities in `initialize`.
pub fn with_capability(response: String, path: &[&str], value: Value) -> String {
    let Ok(mut parsed) = serde_json::from_str::<Value>(&response) else {
        return response;
    };
    let Some(mut at) = parsed
        .get_mut("result")
        .and_then(|r| r.get_mut("capabilities"))
        .and_then(Value::as_object_mut)
    else {
        return response;
    };
    let Some((last, way)) = path.split_last() else {
        return response;
    };
    for key in way {
        let next = at
            .entry(key.to_string())
            .or_insert_with(|| Value::Object(Map::new()));
        let Some(next) = next.as_object_mut() else {
            return response;
        };
        at = next;
    }
    if at.contains_key(*last) {
        return response;
    }
    at.insert(last.to_string(), value);
    serde_json::to_string(&parsed).unwrap_or(response)
}

/// One side of an extension in front of its version's service, as the generated
/// `ext::<name>::handlers::Server` and `Client` are: what [`serve`] needs of it. The
/// generated impl holds the rows (a method to its handler's function); the routing is
/// [`serve`]'s.
#[doc(hidden)]
pub trait Layer: Send + Sync + 'static {
    /// The requests this side answers (the extension's and the core's it may answer).
    type Requests: MethodSet + Send;
    /// The notifications this side hears.
    type Notifications: MethodSet + Send;
    /// The policy in front of the handler.
    type Policy: Policy;
    /// The extension's identifier.
    const EXTENSION: &'static str;
    /// The extension's own methods this side serves.
    const OWN: &'static [&'static str];
    /// The core requests asked of the handler first.
    const ANSWERED: &'static [&'static str];
    /// Whether this side is a server: its client must declare the extension in a request
    /// of the extension (-32021 otherwise), is never answered with the extension's own
    /// result without declaring it, and is told of the extension in `server/discover`.
    const SERVER: bool;

    /// The policy.
    fn policy(&self) -> &Self::Policy;
    /// The version's service.
    fn inner(&self) -> &Arc<dyn Service>;
    /// The response to a request of the extension's own.
    fn request(
        &self,
        id: Id,
        request: Self::Requests,
        cx: RequestContext<Peer>,
    ) -> BoxFuture<'_, String>;
    /// The response to a core request the handler answers with the extension's own result;
    /// `Ok(None)` leaves it to the version's service.
    fn answer(
        &self,
        id: Id,
        request: Self::Requests,
        cx: RequestContext<Peer>,
    ) -> BoxFuture<'_, Result<Option<String>, ErrorObject>>;
    /// Hears a notification of the extension's own.
    fn notification(
        &self,
        notification: Self::Notifications,
        cx: NotificationContext<Peer>,
    ) -> BoxFuture<'_, ()>;
}

/// The method whose answer declares the extension (the discover era's).
const DISCOVER: &str = "server/discover";

/// Serves `message` by `layer`: what the extension defines by its handler, everything else
/// by the version's service (see [`Layer`]).
#[doc(hidden)]
pub fn serve<L: Layer>(
    layer: Arc<L>,
    peer: Peer,
    message: String,
) -> BoxFuture<'static, Option<String>> {
    let method = inspect(message.as_bytes()).method().map(String::from);
    let inner = layer.inner().clone();
    let Some(method) = method else {
        return inner.serve(peer, message);
    };
    if L::SERVER && method == DISCOVER {
        return Box::pin(async move {
            let answer = inner.serve(peer, message).await;
            answer.map(|a| declare_in_discover(a, L::EXTENSION))
        });
    }
    let answered = L::ANSWERED.contains(&method.as_str());
    if !answered && !L::OWN.contains(&method.as_str()) {
        return inner.serve(peer, message);
    }
    Box::pin(async move {
        let (id, request, meta) =
            match receive::<L::Requests, L::Notifications>(message.as_bytes(), false) {
                Received::One(Serve::Request { id, request, meta }) => (id, request, meta),
                Received::One(Serve::Notification { notification, meta }) if !answered => {
                    if layer
                        .policy()
                        .check_notification(notification.method(), meta.as_ref())
                    {
                        let cx = NotificationContext { meta, peer };
                        layer.notification(notification, cx).await;
                    }
                    return None;
                }
                // Params that do not fit an own method: the decoder's answer.
                Received::One(Serve::Answer(answer)) if !answered => return Some(answer),
                _ => return inner.serve(peer, message).await,
            };
        let checked = layer
            .policy()
            .check_request(request.method(), meta.as_ref());
        let declared = declared(meta.as_ref(), L::EXTENSION);
        let cx = RequestContext {
            id: id.clone(),
            meta: meta.clone(),
            peer: layer.policy().request_peer(meta.as_ref(), &peer),
        };
        if answered {
            // A request the policy refuses is the version's service's to refuse.
            if checked.is_err() {
                return inner.serve(peer, message).await;
            }
            return match layer.answer(id.clone(), request, cx).await {
                Ok(Some(own)) if declared || !L::SERVER => Some(own),
                // Never the extension's result to a client that did not declare it.
                Ok(Some(_)) => Some(refuse(&id, missing(L::EXTENSION))),
                Ok(None) => inner.serve(peer, message).await,
                Err(e) => Some(refuse(&id, e)),
            };
        }
        if let Err(e) = checked {
            return Some(refuse(&id, e));
        }
        if L::SERVER && !declared {
            return Some(refuse(&id, missing(L::EXTENSION)));
        }
        Some(layer.request(id, request, cx).await)
    })
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
        // A member on the way that is no object is not replaced.
        let odd = r#"{"jsonrpc":"2.0","id":1,"result":{"capabilities":{"extensions":true}}}"#;
        assert_eq!(declare_in_discover(odd.into(), id), odd);
        // An error is not touched.
        let e = r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"no"}}"#;
        assert_eq!(declare_in_discover(e.into(), id), e);
    }
}
