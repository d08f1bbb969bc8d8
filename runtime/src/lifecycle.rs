//! The lifecycle of each era as a [`Policy`] in front of a server's handler: what every
//! version's `handlers::Server::new` puts there by default (the generated code names no
//! other module for it, so a version module needs only this runtime).
//!
//! - [`InitializeFirst`], the initialize era (up to 2025-11-25): only `ping` before
//!   `initialize`, which comes once.
//! - [`RequireEnvelope`], the discover era (2026-07-28 on): every request carries a
//!   version the server speaks and the client's capabilities in its `_meta`
//!   ([`check_envelope`]), and what its handler logs goes out at the level it asks for
//!   ([`envelope::log_filtered`](crate::envelope::log_filtered)).

use std::sync::atomic::{AtomicBool, Ordering};

use serde_json::{Value, json};

use crate::envelope::{CLIENT_CAPABILITIES, PROTOCOL_VERSION, log_filtered};
use crate::jsonrpc::ErrorObject;
use crate::service::{Meta, Peer, Policy};

/// The request that starts an initialize-era connection.
pub const INITIALIZE: &str = "initialize";
/// The request that may come before it.
const PING: &str = "ping";

/// The error code of a version the server does not speak
/// (`UnsupportedProtocolVersionError`).
pub const UNSUPPORTED_PROTOCOL_VERSION: i64 = -32022;

/// The initialize era's order, enforced for a server: before `initialize`, only `ping` is
/// served; any other request is refused with -32600 naming it, and notifications are
/// dropped. A second `initialize` is refused likewise. One value per connection: it
/// remembers whether `initialize` came. (`Open` enforces nothing.)
#[derive(Debug, Default)]
pub struct InitializeFirst {
    initialized: AtomicBool,
}

impl InitializeFirst {
    /// A connection on which nothing has come yet.
    pub fn new() -> Self {
        Self::default()
    }
}

impl Policy for InitializeFirst {
    fn check_request(&self, method: &str, _meta: Option<&Meta>) -> Result<(), ErrorObject> {
        match method {
            PING => Ok(()),
            INITIALIZE if self.initialized.swap(true, Ordering::SeqCst) => Err(
                ErrorObject::invalid_request("`initialize` came a second time on this connection"),
            ),
            INITIALIZE => Ok(()),
            _ if self.initialized.load(Ordering::SeqCst) => Ok(()),
            other => Err(ErrorObject::invalid_request(format!(
                "`{other}` before `initialize`: only `ping` may come first"
            ))),
        }
    }

    fn check_notification(&self, _method: &str, _meta: Option<&Meta>) -> bool {
        self.initialized.load(Ordering::SeqCst)
    }
}

/// The discover era's rule, enforced for a server that speaks the versions it was made
/// with: every request's `_meta` names one of them and carries the client's capabilities
/// ([`check_envelope`]), and what a handler logs goes out at the level its request asks
/// for ([`log_filtered`]).
#[derive(Debug, Clone)]
pub struct RequireEnvelope {
    supported: Vec<&'static str>,
}

impl RequireEnvelope {
    /// Accepts requests of the versions `supported`, the newest last.
    pub fn new(supported: &[&'static str]) -> Self {
        RequireEnvelope {
            supported: supported.to_vec(),
        }
    }
}

impl Policy for RequireEnvelope {
    fn check_request(&self, _method: &str, meta: Option<&Meta>) -> Result<(), ErrorObject> {
        check_envelope(meta, &self.supported).map(|_| ())
    }

    fn request_peer(&self, meta: Option<&Meta>, peer: &Peer) -> Peer {
        log_filtered(peer, meta)
    }
}

/// The discover era's envelope check of one request, given its `_meta` and the versions
/// the server speaks (the newest last): the version the request names, or the error to
/// answer. A `_meta` that is missing, or lacks the protocol version or the client
/// capabilities (both required), is -32602 (invalid params) naming what is missing; a
/// version the server does not speak is `UnsupportedProtocolVersionError`: -32022 with
/// `data: {"supported": [...], "requested": "..."}`.
pub fn check_envelope(meta: Option<&Meta>, supported: &[&str]) -> Result<String, ErrorObject> {
    let Some(meta) = meta else {
        return Err(ErrorObject::invalid_params(format!(
            "the request has no `_meta`: the {} protocol needs `{PROTOCOL_VERSION}` and \
             `{CLIENT_CAPABILITIES}` in it",
            supported.last().copied().unwrap_or("discover-era")
        )));
    };
    let requested = match meta.get(PROTOCOL_VERSION) {
        Some(Value::String(v)) => v,
        Some(_) => {
            return Err(ErrorObject::invalid_params(format!(
                "`_meta[\"{PROTOCOL_VERSION}\"]` is not a string"
            )));
        }
        None => {
            return Err(ErrorObject::invalid_params(format!(
                "`_meta` lacks `{PROTOCOL_VERSION}`"
            )));
        }
    };
    if !matches!(meta.get(CLIENT_CAPABILITIES), Some(Value::Object(_))) {
        return Err(ErrorObject::invalid_params(format!(
            "`_meta` lacks `{CLIENT_CAPABILITIES}` (an object)"
        )));
    }
    if !supported.contains(&requested.as_str()) {
        return Err(ErrorObject::new(
            UNSUPPORTED_PROTOCOL_VERSION,
            format!("unsupported protocol version `{requested}`"),
        )
        .with_data(json!({"supported": supported, "requested": requested})));
    }
    Ok(requested)
}
