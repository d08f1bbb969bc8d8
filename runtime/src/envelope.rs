//! The `_meta` keys of the `server/discover` era's envelope (2026-07-28 on): what a request
//! says of its version and its client, and a result of its server, in every message
//! rather than once at `initialize`. The lifecycle bridge (`bridge`, with
//! the `adapt` feature) moves what an older client says once into them. And how the log
//! level a request asks for applies to what its handler logs ([`log_filtered`]).

use std::sync::Arc;

use crate::jsonrpc::Id;
use crate::service::{BoxFuture, Meta, Peer, Transport, TransportError};

/// The request `_meta` key of the version the params are in.
pub const PROTOCOL_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
/// The request `_meta` key of the client's capabilities.
pub const CLIENT_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";
/// The request `_meta` key of the client's name and version.
pub const CLIENT_INFO: &str = "io.modelcontextprotocol/clientInfo";
/// The request `_meta` key of the log level the client wants.
pub const LOG_LEVEL: &str = "io.modelcontextprotocol/logLevel";
/// The result `_meta` key of the server's name and version.
pub const SERVER_INFO: &str = "io.modelcontextprotocol/serverInfo";

/// The method of a log message, which [`LOG_LEVEL`] governs.
pub const LOG_MESSAGE: &str = "notifications/message";

/// The log levels, least severe first: RFC 5424's severities, as the specification's
/// `LoggingLevel` spells them (the schema lists them alphabetically; each version's
/// `LoggingLevel` is ordered the same way).
pub const LOG_LEVELS: [&str; 8] = [
    "debug",
    "info",
    "notice",
    "warning",
    "error",
    "critical",
    "alert",
    "emergency",
];

/// The rank of a log level in [`LOG_LEVELS`], if it is one.
pub fn log_rank(level: &str) -> Option<usize> {
    LOG_LEVELS.iter().position(|l| *l == level)
}

/// `peer` as the handler of a discover-era request whose `_meta` is `meta` may log
/// through it: a log message ([`LOG_MESSAGE`]) goes out only when the request asked for
/// logs ([`LOG_LEVEL`]) and at that level or a more severe one; everything else goes out
/// as it is. A request that asks for none, or for a level that is not one, gets no log
/// messages (a level the client does not know is not one it asked for). The policy of
/// the discover era applies it to every request ([`RequireEnvelope`](crate::lifecycle::RequireEnvelope)).
pub fn log_filtered(peer: &Peer, meta: Option<&Meta>) -> Peer {
    let floor = meta
        .and_then(|m| m.get(LOG_LEVEL))
        .and_then(|level| level.as_str().and_then(log_rank));
    peer.with_transport(Arc::new(LogFloor {
        inner: peer.transport().clone(),
        floor,
    }))
}

/// A transport that drops the log messages below `floor` (all of them without one).
struct LogFloor {
    inner: Arc<dyn Transport>,
    floor: Option<usize>,
}

impl LogFloor {
    /// Whether `message` is a log message below the floor.
    fn drops(&self, message: &str) -> bool {
        // Most notifications are not log messages: only those that name the method are read.
        if !message.contains(LOG_MESSAGE) {
            return false;
        }
        let Ok(value) = serde_json::from_str::<serde_json::Value>(message) else {
            return false;
        };
        if value["method"] != LOG_MESSAGE {
            return false;
        }
        let rank = value["params"]["level"].as_str().and_then(log_rank);
        match (self.floor, rank) {
            (Some(floor), Some(rank)) => rank < floor,
            // No level asked for: no log messages. A message of no known level is sent
            // once some level was asked for (the handler chose to send it).
            (None, _) => true,
            (Some(_), None) => false,
        }
    }
}

impl Transport for LogFloor {
    fn request(&self, id: Id, message: String) -> BoxFuture<'_, Result<String, TransportError>> {
        self.inner.request(id, message)
    }

    fn notify(&self, message: String) -> BoxFuture<'_, Result<(), TransportError>> {
        if self.drops(&message) {
            return Box::pin(async { Ok(()) });
        }
        self.inner.notify(message)
    }
}
