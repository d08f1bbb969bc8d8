//! One connection, whichever protocol version its peer speaks: version negotiation as
//! part of the session.

use std::sync::{Arc, Mutex};

use mcp_spec_types::ProtocolVersion;
use mcp_spec_types::rt::jsonrpc::ErrorObject;
use mcp_spec_types::rt::service::{BoxFuture, Peer, Route, Service, inspect, refuse_request};
use mcp_spec_types::version::{Era, PROTOCOL_VERSION_META_KEY};

/// Serves each connection with the service of the protocol version its peer speaks, from
/// the versions given with [`with`](Versions::with) (a version's
/// `handlers::Server::new(handler)` for each).
///
/// The first message that tells decides, in the order messages arrive (the session engine
/// hands them over in that order): an `initialize` request picks the initialize-era
/// version to answer with (`ProtocolVersion::answer_initialize`: the one the client asks
/// for if it is offered here, else the newest offered), and the connection then speaks it;
/// a request whose `_meta` carries `io.modelcontextprotocol/protocolVersion` puts the
/// connection in the discover era, where each request is served by the version it names
/// (or, when that is not offered here, by the newest discover-era one, whose policy, such
/// as `version::RequireVersion`, answers -32022). Until then (a `ping` first, say) a
/// message goes to the newest initialize-era version offered, else the newest one.
/// Once the era is chosen, only a discover-era connection with several versions reads
/// a request's `_meta` again: serving otherwise costs nothing more than the version's own
/// dispatch.
pub struct Versions {
    services: Vec<(ProtocolVersion, Arc<dyn Service>)>,
    chosen: Mutex<Chosen>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Chosen {
    Undecided,
    /// The index of the version the connection speaks.
    Initialize(usize),
    Discover,
}

impl std::fmt::Debug for Versions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let versions: Vec<&str> = self.services.iter().map(|(v, _)| v.as_str()).collect();
        f.debug_struct("Versions")
            .field("versions", &versions)
            .field(
                "chosen",
                &*self.chosen.lock().unwrap_or_else(|e| e.into_inner()),
            )
            .finish()
    }
}

impl Default for Versions {
    fn default() -> Self {
        Versions::new()
    }
}

impl Versions {
    /// No version yet: add them with [`with`](Versions::with).
    pub fn new() -> Self {
        Versions {
            services: Vec::new(),
            chosen: Mutex::new(Chosen::Undecided),
        }
    }

    /// This set with `version` served by `service` (a later one for the same version
    /// replaces it).
    pub fn with(mut self, version: ProtocolVersion, service: impl Service) -> Self {
        self.services.retain(|(v, _)| *v != version);
        self.services.push((version, Arc::new(service)));
        self.services.sort_by_key(|(v, _)| *v);
        self
    }

    /// This set for one stateless request of the discover era (Streamable HTTP without a
    /// session): every request is served by the discover-era version it names, or by the
    /// newest one offered, whose policy refuses what it cannot serve.
    pub fn stateless(self) -> Self {
        *self.chosen.lock().unwrap_or_else(|e| e.into_inner()) = Chosen::Discover;
        self
    }

    /// Whether a discover-era version (2026-07-28 on) is offered.
    pub fn offers_discover_era(&self) -> bool {
        self.newest(Era::Discover).is_some()
    }

    /// The initialize-era version this connection speaks, once an `initialize` chose it.
    pub fn speaks(&self) -> Option<ProtocolVersion> {
        match *self.chosen.lock().unwrap_or_else(|e| e.into_inner()) {
            Chosen::Initialize(i) => Some(self.services[i].0),
            _ => None,
        }
    }

    /// The versions offered, oldest first.
    pub fn versions(&self) -> Vec<ProtocolVersion> {
        self.services.iter().map(|(v, _)| *v).collect()
    }

    fn index_of(&self, version: ProtocolVersion) -> Option<usize> {
        self.services.iter().position(|(v, _)| *v == version)
    }

    fn newest(&self, era: Era) -> Option<usize> {
        self.services.iter().rposition(|(v, _)| v.era() == era)
    }

    /// The service for one message, deciding the era when the message tells it.
    fn route(&self, message: &str) -> Option<usize> {
        let mut chosen = self.chosen.lock().unwrap_or_else(|e| e.into_inner());
        let several_discover = self
            .services
            .iter()
            .filter(|(v, _)| v.era() == Era::Discover)
            .count()
            > 1;
        match *chosen {
            Chosen::Initialize(i) => return Some(i),
            Chosen::Discover if !several_discover => return self.newest(Era::Discover),
            _ => {}
        }
        let head = inspect(message.as_bytes());
        let meta = head.meta();
        let named = meta
            .as_ref()
            .and_then(|m| m.get(PROTOCOL_VERSION_META_KEY))
            .and_then(|v| v.as_str().map(str::to_owned));
        if *chosen == Chosen::Discover || named.is_some() {
            *chosen = Chosen::Discover;
            let asked = named.and_then(|n| n.parse::<ProtocolVersion>().ok());
            return asked
                .filter(|v| v.era() == Era::Discover)
                .and_then(|v| self.index_of(v))
                .or_else(|| self.newest(Era::Discover));
        }
        if head.method() == Some("initialize") && matches!(head.route, Route::Request(_)) {
            let requested = head.param_str("protocolVersion").unwrap_or_default();
            let supported = self.versions();
            if let Some(i) = ProtocolVersion::answer_initialize(&requested, &supported)
                .and_then(|v| self.index_of(v))
            {
                *chosen = Chosen::Initialize(i);
                return Some(i);
            }
        }
        self.newest(Era::Initialize)
            .or_else(|| self.services.len().checked_sub(1))
    }
}

impl Service for Versions {
    fn serve(self: Arc<Self>, peer: Peer, message: String) -> BoxFuture<'static, Option<String>> {
        match self.route(&message) {
            Some(i) => self.services[i].1.clone().serve(peer, message),
            // No version offered at all: a request is refused, nothing else is answered.
            None => {
                let error = ErrorObject::internal_error("this server offers no protocol version");
                let refusal = refuse_request(message.as_bytes(), error);
                Box::pin(async move { refusal })
            }
        }
    }
}
