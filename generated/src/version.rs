//! Protocol versions and how peers agree on one, in both lifecycle eras.
//!
//! - **Initialize era** (up to 2025-11-25): the client sends `initialize` with the newest
//!   version it supports; the server answers with that version if it supports it, and
//!   otherwise with another version it supports (the newest). A client that does not
//!   support the version in the answer disconnects.
//! - **Discover era** (2026-07-28 on): every request carries its protocol version in
//!   `_meta["io.modelcontextprotocol/protocolVersion"]`. A server that does not support
//!   it answers `UnsupportedProtocolVersionError` (-32022) listing the versions it
//!   supports; `server/discover` also lists them, and the client picks a mutually
//!   supported one.

use std::fmt;

pub use crate::protocol_version::ProtocolVersion;

/// The lifecycle a protocol version uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Era {
    /// `initialize` / `notifications/initialized`.
    Initialize,
    /// `server/discover`, and a protocol version in every request's `_meta`.
    Discover,
}

/// The `_meta` key that carries the protocol version of a request in the discover era.
pub const PROTOCOL_VERSION_META_KEY: &str = crate::rt::envelope::PROTOCOL_VERSION;

/// The peers share no protocol version.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NoCommonVersion {
    /// What the other side asked for or offered.
    pub offered: Vec<String>,
    /// What this side supports.
    pub supported: Vec<ProtocolVersion>,
}

impl fmt::Display for NoCommonVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let supported: Vec<&str> = self.supported.iter().map(|v| v.as_str()).collect();
        write!(
            f,
            "no common protocol version: the peer has {:?}, this side supports {:?}",
            self.offered, supported
        )
    }
}

impl std::error::Error for NoCommonVersion {}

fn newest(supported: &[ProtocolVersion]) -> Option<ProtocolVersion> {
    supported
        .iter()
        .copied()
        .filter(|v| v.era() == Era::Initialize)
        .max()
}

impl ProtocolVersion {
    /// Server side of `initialize`: the version to answer with, given the one the client
    /// requested (which may be a version this crate does not know) and the initialize-era
    /// versions this server supports. `None` if the server supports none.
    pub fn answer_initialize(
        requested: &str,
        supported: &[ProtocolVersion],
    ) -> Option<ProtocolVersion> {
        match requested.parse::<ProtocolVersion>() {
            Ok(v) if supported.contains(&v) && v.era() == Era::Initialize => Some(v),
            _ => newest(supported),
        }
    }

    /// Client side of `initialize`: accept the version the server answered with, or fail
    /// (the client should then disconnect).
    pub fn accept_initialize(
        answered: &str,
        supported: &[ProtocolVersion],
    ) -> Result<ProtocolVersion, NoCommonVersion> {
        match answered.parse::<ProtocolVersion>() {
            Ok(v) if supported.contains(&v) => Ok(v),
            _ => Err(NoCommonVersion {
                offered: vec![answered.to_string()],
                supported: supported.to_vec(),
            }),
        }
    }

    /// Server side of the discover era: check the version a request carries. On failure,
    /// answer `UnsupportedProtocolVersionError` with `supported` and `requested`.
    pub fn check_request(
        requested: &str,
        supported: &[ProtocolVersion],
    ) -> Result<ProtocolVersion, NoCommonVersion> {
        match requested.parse::<ProtocolVersion>() {
            Ok(v) if supported.contains(&v) && v.era() == Era::Discover => Ok(v),
            _ => Err(NoCommonVersion {
                offered: vec![requested.to_string()],
                supported: supported.to_vec(),
            }),
        }
    }

    /// Client side of the discover era: the newest version both the server (from
    /// `server/discover` or an `UnsupportedProtocolVersionError`) and this client support.
    /// Versions this crate does not know are skipped.
    pub fn choose(
        server_supported: &[&str],
        client_supported: &[ProtocolVersion],
    ) -> Result<ProtocolVersion, NoCommonVersion> {
        server_supported
            .iter()
            .filter_map(|s| s.parse::<ProtocolVersion>().ok())
            .filter(|v| client_supported.contains(v))
            .max()
            .ok_or_else(|| NoCommonVersion {
                offered: server_supported.iter().map(|s| s.to_string()).collect(),
                supported: client_supported.to_vec(),
            })
    }
}

/// The initialize era's order, enforced for a server: the default policy of an
/// initialize-era version's `handlers::Server` (the runtime's; see there).
pub use crate::rt::lifecycle::InitializeFirst;

/// The discover era's rule, enforced for a server (the default policy of a discover-era
/// version's `handlers::Server`): a [`Policy`](crate::rt::service::Policy) that refuses
/// every request whose `_meta` does not carry a protocol version the server supports
/// ([`PROTOCOL_VERSION_META_KEY`]) and the client's capabilities (see
/// [`check_envelope`]), and sends what a handler logs at the level its request asks for.
#[derive(Debug, Clone)]
pub struct RequireVersion(crate::rt::lifecycle::RequireEnvelope);

impl RequireVersion {
    /// Accepts the discover-era versions among `supported`.
    pub fn new(supported: &[ProtocolVersion]) -> Self {
        RequireVersion(crate::rt::lifecycle::RequireEnvelope::new(&discover_names(
            supported,
        )))
    }
}

/// The names of the discover-era versions among `supported`, oldest first.
fn discover_names(supported: &[ProtocolVersion]) -> Vec<&'static str> {
    let mut discover: Vec<ProtocolVersion> = supported
        .iter()
        .copied()
        .filter(|v| v.era() == Era::Discover)
        .collect();
    discover.sort();
    discover.iter().map(|v| v.as_str()).collect()
}

/// The runtime's rule ([`RequireEnvelope`](crate::rt::lifecycle::RequireEnvelope)) for
/// these versions: the envelope checked, and the request's log level applied to what
/// its handler logs.
impl crate::rt::service::Policy for RequireVersion {
    fn check_request(
        &self,
        method: &str,
        meta: Option<&crate::rt::service::Meta>,
    ) -> Result<(), crate::rt::jsonrpc::ErrorObject> {
        self.0.check_request(method, meta)
    }

    fn request_peer(
        &self,
        meta: Option<&crate::rt::service::Meta>,
        peer: &crate::rt::service::Peer,
    ) -> crate::rt::service::Peer {
        self.0.request_peer(meta, peer)
    }
}

/// The `_meta` key that carries the client's capabilities on every request of the
/// discover era.
pub const CLIENT_CAPABILITIES_META_KEY: &str = crate::rt::envelope::CLIENT_CAPABILITIES;

/// The discover era's envelope check of one request, given its `_meta` and the versions
/// the server supports: the version it is to be served with, or the error to answer.
/// A `_meta` that is missing, or lacks the protocol version or the client capabilities
/// (both required), is -32602 (invalid params) naming what is missing; a version the
/// server does not support is `UnsupportedProtocolVersionError`: -32022 with
/// `data: {"supported": [...], "requested": "..."}`. [`RequireVersion`] answers with it;
/// Streamable HTTP answers its errors with HTTP 400.
pub fn check_envelope(
    meta: Option<&crate::rt::service::Meta>,
    supported: &[ProtocolVersion],
) -> Result<ProtocolVersion, crate::rt::jsonrpc::ErrorObject> {
    let names = discover_names(supported);
    let requested = crate::rt::lifecycle::check_envelope(meta, &names)?;
    // A name among `names`: a version of `supported`.
    requested.parse().map_err(|_| {
        crate::rt::jsonrpc::ErrorObject::internal_error(format!(
            "`{requested}` is not a version of this crate"
        ))
    })
}
