//! A service known only later: a client connects before it knows the protocol version.

use std::sync::{Arc, OnceLock};

use mcp_spec_types::rt::jsonrpc::ErrorObject;
use mcp_spec_types::rt::service::{BoxFuture, Peer, Service, refuse_request};

/// A service set once, after the session started: a client connects, learns the protocol
/// version from `initialize` or `server/discover`, then [`set`](Deferred::set)s that
/// version's `handlers::Client::new(handler)`. Until then a request from the peer is
/// refused (-32603, "no protocol version is negotiated yet") and anything else is
/// dropped. Clones share the one slot: give one to the session, keep one to set.
#[derive(Clone, Default)]
pub struct Deferred(Arc<OnceLock<Arc<dyn Service>>>);

impl std::fmt::Debug for Deferred {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Deferred")
            .field("set", &self.is_set())
            .finish()
    }
}

impl Deferred {
    /// An empty slot.
    pub fn new() -> Self {
        Self::default()
    }

    /// Serves with `service` from now on; `false` (and `service` unused) if a service was
    /// set already.
    pub fn set(&self, service: impl Service) -> bool {
        self.0.set(Arc::new(service)).is_ok()
    }

    /// Whether a service is set.
    pub fn is_set(&self) -> bool {
        self.0.get().is_some()
    }
}

impl Service for Deferred {
    fn serve(self: Arc<Self>, peer: Peer, message: String) -> BoxFuture<'static, Option<String>> {
        match self.0.get() {
            Some(service) => service.clone().serve(peer, message),
            None => {
                let error = ErrorObject::internal_error("no protocol version is negotiated yet");
                let refusal = refuse_request(message.as_bytes(), error);
                Box::pin(async move { refusal })
            }
        }
    }
}
