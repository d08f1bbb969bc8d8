//! Serve and call MCP without writing a transport: a session engine over the types of
//! [`mcp_spec_types`], and its transports: (feature `stdio`) newline-delimited JSON-RPC
//! over stdin/stdout, a child process or any async reader and writer; (feature `http`)
//! a Streamable HTTP server, `http::HttpServer`; (feature `http-client`) a Streamable
//! HTTP client, `http_client::HttpClient`; (features `auth-server` and `auth-client`)
//! OAuth on both HTTP sides, `auth_server` and `auth_client`. The guide's page on serving
//! and calling:
//! <https://github.com/mcp-codegen/mcp-codegen/blob/main/docs/serving.md>.
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
//! `Fn(BoxFuture)`; with the `tokio` feature, `Tokio`), waits with tokio's
//! runtime-free `sync` primitives, and times out on `futures-timer`. The types crate stays
//! on serde and serde_json alone.
//!
//! # Bounds
//!
//! Everything a peer can make a session spend is bounded. Beyond a bound the session
//! waits (it stops reading, so the flood stays in the peer's pipe or socket) or refuses
//! with an error that names the bound; what it has accepted it answers. The bounds, all
//! in one place, with their defaults:
//!
//! | what | bound | default | beyond it |
//! | --- | --- | --- | --- |
//! | messages a session serves at once (requests, notifications) | [`Limits::requests_in_flight`] | 64 | the next is not read until one is done (stdio: reading stops; HTTP: the POST waits) |
//! | messages queued for the writer (stdio, an HTTP response stream) | [`Limits::outgoing`] | 64 | whoever writes waits |
//! | one incoming message | [`Limits::message_size`] | 4 MiB | stdio: -32700, the line not held; HTTP server: 413; HTTP client: the call fails |
//! | a batch (2025-03-26) | [`Limits::requests_in_flight`] | 64 elements | -32600, not decoded |
//! | a request to the peer | [`Limits::request_timeout`] | 60 s | the call fails saying so; the peer gets `notifications/cancelled` |
//! | handlers still running when the input ends | [`Limits::shutdown_grace`] | 10 s | their requests are answered -32603 |
//! | HTTP connections open at once (with `HttpServer::serve`) | `http::HttpLimits::connections` | 512 | not accepted until one closes |
//! | time to send a request's headers, or to start the next request on a kept-alive connection (with `HttpServer::serve`) | `http::HttpLimits::headers` | 10 s | the connection is closed |
//! | time to send a POST's body | `http::HttpLimits::body` | 30 s | 408 |
//! | bodies over `http::HttpLimits::large_body` (64 KiB) decoded at once | `http::HttpLimits::large_at_once` | 1 | 503 with `Retry-After: 1` |
//! | initialize-era sessions | `http::SessionLimits::max` | 1,024 | the session unused longest is ended (its client gets 404 and starts again); 503 with `Retry-After` when every one is busy |
//! | a session's handshake (nothing after `initialize`) | `http::SessionLimits::handshake` | 30 s | the session is ended |
//! | an idle session (no request, none served, no stream open) | `http::SessionLimits::idle` | 10 min | the session is ended |
//! | events kept for a resumption | `http::KEEP_EVENTS` a stream, `http::KEEP_FINISHED` answered streams a session | 64, 16 | a resumption from before them: 404 |
//! | rounds of input one request of an older client may ask for (`every-version`) | `rt::bridge::MAX_ROUNDS` | 16 | -32603 |
//! | resources one older client may be subscribed to (`every-version`) | `rt::bridge::MAX_SUBSCRIPTIONS` | 256 | -32602 |
//! | time one 2025-11-25 `tasks/result` waits for its task, the client's answers included (`every-version` and `ext-tasks`) | `TASK_RESULT_WAIT` | 300 s | -32603 (the task goes on; the client may ask again) |
//! | rounds of input one 2025-11-25 `tasks/result` asks the client for (`every-version` and `ext-tasks`) | `TASK_INPUT_ROUNDS` | 16 | -32603 |
//! | a metadata document, registration or token response the client reads (`auth-client`) | `auth_client::OAuthConfig::max_document` | 256 KiB | the authorization fails, naming the document |
//! | one request of the client to an authorization server or metadata URL (`auth-client`) | `auth_client::OAuthConfig::timeout` | 30 s | the authorization fails |
//! | step-up authorizations for one request after 403 `insufficient_scope` (`auth-client`) | `auth_client::OAuthConfig::step_ups` | 2 | the request fails with the 403 |
//! | the user's sign-in (`auth-client`) | `auth_client::OAuthConfig::authorize_timeout` | 5 min | the authorization fails, and the requests waiting for it |
//! | authorizations for one request after 401 (`auth-client`) | one | 1 | a new token refused again fails the request |
//! | the issuer's key set or metadata the server reads (`auth-server`) | `auth_server::JwtVerifier::max_document` | 256 KiB | the keys kept go on serving (one request fetches, the others do not wait), else 503 |
//! | one fetch of the issuer's key set (`auth-server`) | `auth_server::JwtVerifier::timeout` | 10 s | as above |
//! | key set fetches for keys it lacks (`auth-server`) | `auth_server::JwtVerifier::min_refetch` | one per 30 s | 401 `invalid_token` |
//! | a token's `Authorization` header, and a request's body, before the token is checked (`auth-server`) | the body is not read until the token is valid | | 401 or 403 |

#[cfg(feature = "auth-client")]
pub mod auth_client;
#[cfg(feature = "auth-server")]
pub mod auth_server;
mod deferred;
mod engine;
#[cfg(feature = "every-version")]
mod every;
#[cfg(all(feature = "every-version", feature = "ext-tasks"))]
mod every_tasks;
#[cfg(feature = "http")]
pub mod http;
#[cfg(feature = "http-client")]
pub mod http_client;
#[cfg(any(feature = "auth-client", feature = "auth-server"))]
mod oauth;
#[cfg(feature = "stdio")]
pub mod stdio;
mod versions;
#[cfg(any(feature = "http", feature = "http-client"))]
mod wire;

pub use deferred::Deferred;
pub use engine::{Builder, Event, Flow, Limits, Outlet, Session, Spawn};
#[cfg(feature = "every-version")]
pub use every::{Connected, Hello, connect_every_version};
#[cfg(all(feature = "every-version", feature = "ext-tasks"))]
pub use every_tasks::{TASK_INPUT_ROUNDS, TASK_RESULT_WAIT};
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
