//! Serve and call MCP without writing a transport: a session engine over the types of
//! [`mcp_spec_types`], and its transports: (feature `stdio`) newline-delimited JSON-RPC
//! over stdin/stdout, a child process or any async reader and writer; (feature `http`)
//! a Streamable HTTP server, [`http::HttpServer`]; (feature `http-client`) a Streamable
//! HTTP client, [`http_client::HttpClient`].
//!
//! A [`Session`] is one connection, both directions. It keeps the requests this side
//! sends until their responses come (the ids come from the session's
//! [`Peer`](mcp_spec_types::rt::service::Peer)), serves the peer's requests concurrently,
//! each in a task of its own, so that a handler can call the peer back (sampling,
//! elicitation, roots) while the session goes on reading; it stops a handler on
//! `notifications/cancelled`, bounds the requests in flight ([`Limits`]), and when the
//! connection ends fails every pending call with a clear error. What serves the peer is
//! any [`Service`](mcp_spec_types::rt::service::Service): a version's
//! `handlers::Server::new(handler)` or `handlers::Client::new(handler)`, or, for a server
//! that speaks several protocol versions, [`Versions`], which picks the version each
//! connection speaks from its first `initialize` (or the version a discover-era request
//! names). With the `every-version` feature, one handler written for 2026-07-28 serves
//! (`Versions::every_version`) or calls (`connect_every_version`) peers of every version
//! from 2024-11-05, the lifecycle of each era handled here and in the generated adapters.
//!
//! The engine has no runtime of its own: it starts tasks through a [`Spawn`] (any
//! `Fn(BoxFuture)`; with the `tokio` feature, [`Tokio`]). The types crate stays on serde
//! and serde_json alone.

mod deferred;
mod engine;
#[cfg(feature = "every-version")]
mod every;
#[cfg(feature = "http")]
pub mod http;
#[cfg(feature = "http-client")]
pub mod http_client;
#[cfg(feature = "stdio")]
pub mod stdio;
mod versions;
#[cfg(any(feature = "http", feature = "http-client"))]
mod wire;

pub use deferred::Deferred;
pub use engine::{Builder, Direction, Event, Limits, Outlet, Session, Spawn};
#[cfg(feature = "every-version")]
pub use every::{Connected, Hello, connect_every_version};
pub use versions::Versions;

/// Starts tasks with `tokio::spawn` (on the runtime the caller is in).
#[cfg(feature = "tokio")]
#[derive(Debug, Clone, Copy, Default)]
pub struct Tokio;

#[cfg(feature = "tokio")]
impl Spawn for Tokio {
    fn spawn(&self, task: mcp_spec_types::rt::service::BoxFuture<'static, ()>) {
        tokio::spawn(task);
    }
}
