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
pub const PROTOCOL_VERSION_META_KEY: &str = "io.modelcontextprotocol/protocolVersion";

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

/// The initialize era's order, enforced for a server: a [`Policy`](crate::rt::service::Policy)
/// to opt into (the default, [`Open`](crate::rt::service::Open), enforces nothing). Before
/// `initialize`, only `ping` is served; any other request is refused with -32600 naming
/// it, and notifications are dropped. A second `initialize` is refused likewise. One
/// value per connection: it remembers whether `initialize` came.
#[derive(Debug, Default)]
pub struct InitializeFirst {
    initialized: std::sync::atomic::AtomicBool,
}

impl InitializeFirst {
    /// A connection on which nothing has come yet.
    pub fn new() -> Self {
        Self::default()
    }
}

impl crate::rt::service::Policy for InitializeFirst {
    fn check_request(
        &self,
        method: &str,
        _meta: Option<&crate::rt::service::Meta>,
    ) -> Result<(), crate::rt::jsonrpc::ErrorObject> {
        use crate::rt::jsonrpc::ErrorObject;
        use std::sync::atomic::Ordering;
        match method {
            "ping" => Ok(()),
            "initialize" if self.initialized.swap(true, Ordering::SeqCst) => Err(
                ErrorObject::invalid_request("`initialize` came a second time on this connection"),
            ),
            "initialize" => Ok(()),
            _ if self.initialized.load(Ordering::SeqCst) => Ok(()),
            other => Err(ErrorObject::invalid_request(format!(
                "`{other}` before `initialize`: only `ping` may come first"
            ))),
        }
    }

    fn check_notification(&self, _method: &str, _meta: Option<&crate::rt::service::Meta>) -> bool {
        self.initialized.load(std::sync::atomic::Ordering::SeqCst)
    }
}

/// The discover era's rule, enforced for a server: a [`Policy`](crate::rt::service::Policy)
/// that refuses every request whose `_meta` does not carry a protocol version the server
/// supports ([`PROTOCOL_VERSION_META_KEY`]), with the `UnsupportedProtocolVersionError`
/// the schema defines: -32022 and `data: {"supported": [...], "requested": "..."}`.
#[derive(Debug, Clone)]
pub struct RequireVersion {
    supported: Vec<ProtocolVersion>,
}

impl RequireVersion {
    /// Accepts the discover-era versions among `supported`.
    pub fn new(supported: &[ProtocolVersion]) -> Self {
        RequireVersion {
            supported: supported
                .iter()
                .copied()
                .filter(|v| v.era() == Era::Discover)
                .collect(),
        }
    }
}

impl crate::rt::service::Policy for RequireVersion {
    fn check_request(
        &self,
        _method: &str,
        meta: Option<&crate::rt::service::Meta>,
    ) -> Result<(), crate::rt::jsonrpc::ErrorObject> {
        let requested = meta.and_then(|m| m.get(PROTOCOL_VERSION_META_KEY));
        let requested = requested
            .as_ref()
            .and_then(crate::rt::serde_json::Value::as_str)
            .unwrap_or("");
        match ProtocolVersion::check_request(requested, &self.supported) {
            Ok(_) => Ok(()),
            Err(_) => {
                let supported: Vec<&str> = self.supported.iter().map(|v| v.as_str()).collect();
                Err(crate::rt::jsonrpc::ErrorObject::new(
                    -32022,
                    format!("unsupported protocol version `{requested}`"),
                )
                .with_data(crate::rt::serde_json::json!({
                    "supported": supported,
                    "requested": requested,
                })))
            }
        }
    }
}
