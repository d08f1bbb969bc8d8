//! One handler for every protocol version, with the lifecycle left to the session: a
//! server or a client written against 2026-07-28 speaks with peers of every older version
//! the generated adapters reach (`mcp_spec_types::convert::SERVING` for a server,
//! `ANSWERING` for a client, walked one pair at a time, newest first: each older version
//! is the adapter of the one after it). Which
//! era a connection is in, and what each era's lifecycle becomes in the other, is decided
//! here and in the adapters (`rt::adapt`), not by the handler.

use std::sync::Arc;
use std::time::Duration;

use mcp_spec_types::ProtocolVersion;
use mcp_spec_types::convert::{ANSWERING, SERVING};
use mcp_spec_types::rt::convert::outbound;
use mcp_spec_types::rt::service::{CallError, Peer, Service};
use mcp_spec_types::rt::{bridge, envelope};
use mcp_spec_types::v2026_07_28 as v;
use mcp_spec_types::version::{Era, RequireVersion};
use serde_json::{Value, json};

use crate::{Deferred, Spawn, Versions};

/// The version the one handler is written for.
const HANDLER_VERSION: ProtocolVersion = ProtocolVersion::V2026_07_28;

/// The pairs of `list` from the handler's version down, newest first, as long as each
/// pair's newer version is the older of the one before (a chain with no gap).
fn chain<P>(
    list: &'static [P],
    versions: impl Fn(&P) -> (&'static str, &'static str) + Copy,
) -> impl Iterator<Item = &'static P> {
    let mut next = HANDLER_VERSION.as_str();
    list.iter()
        .skip_while(move |p| versions(p).1 != HANDLER_VERSION.as_str())
        .take_while(move |p| {
            let (older, newer) = versions(p);
            let joined = newer == next;
            next = older;
            joined
        })
}

/// A version the generated tables name: one the crate knows.
fn version(name: &str) -> ProtocolVersion {
    name.parse()
        .unwrap_or_else(|_| unreachable!("the adapters name {name}, a version of the crate"))
}

impl Versions {
    /// Every version from 2024-11-05 to 2026-07-28, served by one server handler written
    /// for 2026-07-28: at 2026-07-28 itself (each request's version checked,
    /// `RequireVersion`), and at each older version through the generated adapters
    /// (`initialize` answered from `server/discover`, input the handler asks for in a
    /// result asked of the client in its own requests, the client's resource
    /// subscriptions run on `spawn` as the handler's `subscriptions/listen`). One per
    /// connection, as every `Versions`: what an older client said at `initialize` is kept
    /// for it.
    pub fn every_version<H>(handler: H, spawn: impl Spawn + 'static) -> Versions
    where
        H: v::handlers::ServerHandler + 'static,
    {
        Versions::every_version_with(handler, spawn, |service| service)
    }

    /// [`every_version`](Versions::every_version), with `layer` put in front of the
    /// 2026-07-28 service: an official extension built on 2026-07-28
    /// (`mcp_spec_types::ext::tasks::handlers::Server`, with the `ext-tasks` feature), which
    /// then serves what it defines to a client of 2026-07-28 that declares it, and passes
    /// everything else on. The older versions' adapters are built on the handler's
    /// service without the layer.
    pub fn every_version_with<H>(
        handler: H,
        spawn: impl Spawn + 'static,
        layer: impl FnOnce(Arc<dyn Service>) -> Arc<dyn Service>,
    ) -> Versions
    where
        H: v::handlers::ServerHandler + 'static,
    {
        Versions::every_version_layered(handler, spawn, layer, |_, service| service)
    }

    /// [`every_version`](Versions::every_version) with the tasks extension (feature
    /// `ext-tasks`): `tasks`, its handler written for 2026-07-28, in front of the 2026-07-28
    /// service (`ext::tasks::handlers::Server`), and serving the tasks of a 2025-11-25
    /// client, whose core schema has tasks of its own, where the two map (in front of the
    /// 2025-11-25 adapter; what maps and what does not is in `docs/serving.md`). `tasks` is
    /// cloned for each: its tasks are shared.
    #[cfg(feature = "ext-tasks")]
    pub fn every_version_with_tasks<H, T>(
        handler: H,
        tasks: T,
        spawn: impl Spawn + 'static,
    ) -> Versions
    where
        H: v::handlers::ServerHandler + 'static,
        T: mcp_spec_types::ext::tasks::handlers::ServerHandler + Clone,
    {
        let newer = tasks.clone();
        Versions::every_version_layered(
            handler,
            spawn,
            move |core| {
                Arc::new(mcp_spec_types::ext::tasks::handlers::Server::new(
                    newer, core,
                ))
            },
            move |older, service| match older {
                "2025-11-25" => {
                    Arc::new(crate::every_tasks::OlderTasks::new(tasks.clone(), service))
                }
                _ => service,
            },
        )
    }

    /// Every version from the one handler: `layer` in front of the 2026-07-28 service,
    /// `older` in front of each older version's adapter (the adapters chain on the
    /// handler's service, without `layer` or `older`).
    fn every_version_layered<H>(
        handler: H,
        spawn: impl Spawn + 'static,
        layer: impl FnOnce(Arc<dyn Service>) -> Arc<dyn Service>,
        older: impl Fn(&str, Arc<dyn Service>) -> Arc<dyn Service>,
    ) -> Versions
    where
        H: v::handlers::ServerHandler + 'static,
    {
        let policy = RequireVersion::new(&[HANDLER_VERSION]);
        let mut service: Arc<dyn Service> =
            Arc::new(v::handlers::Server::new(handler).with_policy(policy));
        // The layer serves 2026-07-28 clients; the adapters of the older versions are built
        // on the handler's service, not on it (an older client cannot read what a layer of
        // 2026-07-28 answers, a task of the tasks extension, say).
        let mut versions = Versions::new().with(HANDLER_VERSION, layer(service.clone()));
        let spawn: bridge::SpawnFn = Arc::new(move |f| spawn.spawn(f));
        for pair in chain(SERVING, |p| (p.older, p.newer)) {
            service = (pair.serve_older)(service, Some(spawn.clone()));
            versions = versions.with(version(pair.older), older(pair.older, service.clone()));
        }
        versions
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
    /// The log level this client asks a 2026-07-28 server for in every request's
    /// envelope (`None`, the default: no log messages; a server of the `initialize` era
    /// sends what it likes until `logging/setLevel`). Log messages reach the handler's
    /// `on_logging_message`.
    #[allow(deprecated)] // 2026-07-28 deprecates logging (SEP-2577); servers still log.
    pub log_level: Option<v::LoggingLevel>,
    /// Whether every request sent through [`Connected::server`] to a 2026-07-28 server
    /// carries this client's envelope ([`Hello::envelope`]) in its `_meta`, as that
    /// version requires, over what its params say under those keys (build them with
    /// `RequestMetaObject::default()`): `true` unless told. With `false`, each request
    /// carries the `_meta` its params give, and nothing else.
    pub add_envelope: bool,
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
            log_level: None,
            add_envelope: true,
        }
    }

    /// The `_meta` a discover-era request of this client carries: the version, the
    /// capabilities, the info, and the log level if it asks for one.
    pub fn envelope(&self) -> Value {
        let mut envelope = json!({
            (envelope::PROTOCOL_VERSION): HANDLER_VERSION.as_str(),
            (envelope::CLIENT_CAPABILITIES): self.capabilities,
            (envelope::CLIENT_INFO): self.info,
        });
        #[allow(deprecated)]
        if let Some(level) = &self.log_level {
            envelope[envelope::LOG_LEVEL] = json!(level.as_str());
        }
        envelope
    }
}

/// A client's connection once its version is known.
#[derive(Debug, Clone)]
pub struct Connected {
    /// The version the connection speaks.
    pub version: ProtocolVersion,
    /// The server, called with 2026-07-28 types whatever its version (converted by the
    /// generated `TO_OLDER_SERVER` tables for an older one). At 2026-07-28, every request
    /// through it carries the client's envelope in its `_meta` ([`Hello::add_envelope`]).
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
/// through the generated adapters (`answer_older`) for an older server, so that what the
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
                if offered.contains(&HANDLER_VERSION.as_str()) {
                    later.set(v::handlers::Client::new(handler));
                    let server = match (hello.add_envelope, hello.envelope()) {
                        (true, Value::Object(envelope)) => peer.clone().with_envelope(envelope),
                        _ => peer.clone(),
                    };
                    let server = v::handlers::ServerPeer(server);
                    let version = HANDLER_VERSION;
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
    // The handler, and the calls, through one pair of versions at a time: each pair's
    // adapter in front of the one after it, each pair's table behind the one after it.
    // An older server asks what a newer one asks inside results: the handler answers
    // those requests too.
    let client = v::handlers::Client::new(handler).answering_inputs();
    let mut service: Arc<dyn Service> = Arc::new(client);
    let mut tables = Vec::new();
    for pair in chain(ANSWERING, |p| (p.older, p.newer)) {
        service = (pair.answer_older)(service);
        tables.push(pair.to_older_server);
        if pair.older == version.as_str() {
            break;
        }
    }
    later.set(service);
    let server = tables
        .iter()
        .rev()
        .fold(peer.clone(), |p, table| outbound(&p, **table));
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
                    d["supported"]
                        .as_array()
                        .is_some_and(|s| s.iter().any(|v| v == HANDLER_VERSION.as_str()))
                }) =>
        {
            ask().await
        }
        other => other,
    }
}
