//! One handler for every protocol version, with the lifecycle left to the session: a
//! server or a client written against 2026-07-28 (the newest version the generated
//! adapters of `mcp_spec_types::convert` reach) speaks with peers of 2024-11-05 to
//! 2026-07-28. The `initialize` era's peers get the handler through `ServeOlder` (a
//! server) or `AnswerOlder` (a client), one pair of versions at a time; which era a
//! connection is in, and what each era's lifecycle becomes in the other, is decided here
//! and in the adapters, not by the handler.

use std::time::Duration;

use mcp_spec_types::ProtocolVersion;
use mcp_spec_types::convert::{
    v2024_11_05_v2025_03_26 as to_24, v2025_03_26_v2025_06_18 as to_03,
    v2025_06_18_v2025_11_25 as to_06, v2025_11_25_v2026_07_28 as to_11,
};
use mcp_spec_types::rt::bridge;
use mcp_spec_types::rt::convert::outbound;
use mcp_spec_types::rt::service::{CallError, Peer};
use mcp_spec_types::version::{Era, RequireVersion};
use mcp_spec_types::{
    v2024_11_05 as v0, v2025_03_26 as v1, v2025_06_18 as v2, v2025_11_25 as v3, v2026_07_28 as v,
};
use serde_json::{Value, json};

use crate::{Deferred, Spawn, Versions};

impl Versions {
    /// Every version from 2024-11-05 to 2026-07-28, served by one server handler written
    /// for 2026-07-28: at 2026-07-28 itself (each request's version checked,
    /// `RequireVersion`), and at each `initialize`-era version through the generated
    /// `ServeOlder` adapters (`initialize` answered from `server/discover`, input the
    /// handler asks for in a result asked of the client in its own requests, the client's
    /// resource subscriptions run on `spawn` as the handler's `subscriptions/listen`).
    /// One per connection, as every `Versions`: what an older client said at `initialize`
    /// is kept for it.
    pub fn every_version<H>(handler: H, spawn: impl Spawn + 'static) -> Versions
    where
        H: v::handlers::ServerHandler + 'static,
    {
        // One handler behind every version: an `Arc` of a handler is one.
        let handler = std::sync::Arc::new(handler);
        let older = to_11::ServeOlder::new(handler.clone()).with_spawn(move |f| spawn.spawn(f));
        let at_06 = to_06::ServeOlder(older.clone());
        let at_03 = to_03::ServeOlder(at_06.clone());
        let at_24 = to_24::ServeOlder(at_03.clone());
        let policy = RequireVersion::new(&[ProtocolVersion::V2026_07_28]);
        Versions::new()
            .with(
                ProtocolVersion::V2024_11_05,
                v0::handlers::Server::new(at_24),
            )
            .with(
                ProtocolVersion::V2025_03_26,
                v1::handlers::Server::new(at_03),
            )
            .with(
                ProtocolVersion::V2025_06_18,
                v2::handlers::Server::new(at_06),
            )
            .with(
                ProtocolVersion::V2025_11_25,
                v3::handlers::Server::new(older),
            )
            .with(
                ProtocolVersion::V2026_07_28,
                v::handlers::Server::new(handler).with_policy(policy),
            )
    }
}

/// What a client of 2026-07-28 says of itself, and how it looks for a version.
#[derive(Debug, Clone)]
pub struct Hello {
    /// Its name and version.
    pub info: v::Implementation,
    /// What it can do (sent in `initialize` to an older server, converted).
    pub capabilities: v::ClientCapabilities,
    /// The version `initialize` asks for: 2025-11-25 unless told; the server may answer
    /// with any older one.
    pub offer: ProtocolVersion,
    /// `None`: `server/discover` first, then `initialize` if the server does not speak
    /// 2026-07-28; `Some(era)`: that era only.
    pub era: Option<Era>,
    /// How long to wait for the answer to `server/discover` (a server of the older era
    /// may not answer it at all): 5 s unless told.
    pub discover_timeout: Duration,
}

impl Hello {
    /// A client named `info`, with `capabilities`, looking for a version the usual way.
    pub fn new(info: v::Implementation, capabilities: v::ClientCapabilities) -> Hello {
        Hello {
            info,
            capabilities,
            offer: ProtocolVersion::V2025_11_25,
            era: None,
            discover_timeout: Duration::from_secs(5),
        }
    }

    /// The `_meta` a discover-era request of this client carries.
    pub fn envelope(&self) -> Value {
        json!({
            (bridge::PROTOCOL_VERSION): ProtocolVersion::V2026_07_28.as_str(),
            (bridge::CLIENT_CAPABILITIES): self.capabilities,
            (bridge::CLIENT_INFO): self.info,
        })
    }
}

/// A client's connection once its version is known.
#[derive(Debug, Clone)]
pub struct Connected {
    /// The version the connection speaks.
    pub version: ProtocolVersion,
    /// The server, called with 2026-07-28 types whatever its version (converted by the
    /// generated `TO_OLDER_SERVER` tables for an older one).
    pub server: v::handlers::ServerPeer,
    /// The `server/discover` or `initialize` result, as the server wrote it.
    pub result: Value,
}

/// Connects a client written against 2026-07-28 to a server of any version from
/// 2024-11-05: asks `server/discover` (once more if the server refuses the version asked
/// with -32022 but names 2026-07-28 among those it supports), and if the server does not
/// speak 2026-07-28, `initialize`s with [`Hello::offer`], accepts the version the server
/// answers with if it is one of the `initialize` era, and sends
/// `notifications/initialized`. `later` (the session's service) is then set to `handler`,
/// through the generated `AnswerOlder` adapters for an older server, so that what the
/// server asks of the client reaches the handler in 2026-07-28's types.
pub async fn connect_every_version<H>(
    peer: &Peer,
    later: &Deferred,
    handler: H,
    hello: &Hello,
) -> Result<Connected, CallError>
where
    H: v::handlers::ClientHandler + 'static,
{
    if hello.era != Some(Era::Initialize) {
        let refused = match discover(peer, hello).await {
            Ok(result) => {
                let offered: Vec<&str> = result["supportedVersions"]
                    .as_array()
                    .map(|a| a.iter().filter_map(Value::as_str).collect())
                    .unwrap_or_default();
                if offered.contains(&ProtocolVersion::V2026_07_28.as_str()) {
                    later.set(v::handlers::Client::new(handler));
                    let server = v::handlers::ServerPeer(peer.clone());
                    let version = ProtocolVersion::V2026_07_28;
                    return Ok(Connected {
                        version,
                        server,
                        result,
                    });
                }
                CallError::InvalidResponse(format!(
                    "the server speaks none of this client's discover-era versions: {offered:?}"
                ))
            }
            Err(e) => e,
        };
        if hello.era == Some(Era::Discover) {
            return Err(refused);
        }
    }
    let params = json!({
        "protocolVersion": hello.offer.as_str(),
        "capabilities": hello.capabilities,
        "clientInfo": hello.info,
    });
    let result = peer
        .request_raw("initialize", Some(params))
        .await?
        .to_value();
    let answered = result["protocolVersion"].as_str().unwrap_or_default();
    let initialize_era: Vec<ProtocolVersion> = ProtocolVersion::ALL
        .iter()
        .copied()
        .filter(|v| v.era() == Era::Initialize)
        .collect();
    let version = ProtocolVersion::accept_initialize(answered, &initialize_era)
        .map_err(|e| CallError::InvalidResponse(e.to_string()))?;
    // The handler, and the calls, through one pair of versions at a time.
    let at_11 = to_11::AnswerOlder(handler);
    let through_11 = outbound(peer, to_11::TO_OLDER_SERVER);
    let server = match version {
        ProtocolVersion::V2025_11_25 => {
            later.set(v3::handlers::Client::new(at_11));
            through_11
        }
        ProtocolVersion::V2025_06_18 => {
            later.set(v2::handlers::Client::new(to_06::AnswerOlder(at_11)));
            outbound(
                &outbound(peer, to_06::TO_OLDER_SERVER),
                to_11::TO_OLDER_SERVER,
            )
        }
        ProtocolVersion::V2025_03_26 => {
            let at_03 = to_03::AnswerOlder(to_06::AnswerOlder(at_11));
            later.set(v1::handlers::Client::new(at_03));
            let p = outbound(peer, to_03::TO_OLDER_SERVER);
            outbound(
                &outbound(&p, to_06::TO_OLDER_SERVER),
                to_11::TO_OLDER_SERVER,
            )
        }
        _ => {
            let at_24 = to_24::AnswerOlder(to_03::AnswerOlder(to_06::AnswerOlder(at_11)));
            later.set(v0::handlers::Client::new(at_24));
            let p = outbound(peer, to_24::TO_OLDER_SERVER);
            let p = outbound(
                &outbound(&p, to_03::TO_OLDER_SERVER),
                to_06::TO_OLDER_SERVER,
            );
            outbound(&p, to_11::TO_OLDER_SERVER)
        }
    };
    peer.notify_raw("notifications/initialized", None).await?;
    Ok(Connected {
        version,
        server: v::handlers::ServerPeer(server),
        result,
    })
}

/// `server/discover`, asked again once when the server refuses the version asked (-32022)
/// but names 2026-07-28 among those it supports; an error if no answer comes in time.
async fn discover(peer: &Peer, hello: &Hello) -> Result<Value, CallError> {
    let ask = || async {
        let params = Some(json!({"_meta": hello.envelope()}));
        match tokio::time::timeout(
            hello.discover_timeout,
            peer.request_raw("server/discover", params),
        )
        .await
        {
            Ok(answer) => answer.map(|r| r.to_value()),
            Err(_) => Err(CallError::InvalidResponse(format!(
                "no answer to server/discover in {:?}",
                hello.discover_timeout
            ))),
        }
    };
    match ask().await {
        Err(CallError::Rejected(e))
            if e.code == -32022
                && e.data.as_ref().is_some_and(|d| {
                    d["supported"].as_array().is_some_and(|s| {
                        s.iter().any(|v| v == ProtocolVersion::V2026_07_28.as_str())
                    })
                }) =>
        {
            ask().await
        }
        other => other,
    }
}
