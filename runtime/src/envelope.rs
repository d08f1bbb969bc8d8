//! The `_meta` keys of the `server/discover` era's envelope (2026-07-28 on): what a request
//! says of its version and its client, and a result of its server, in every message
//! rather than once at `initialize`. The lifecycle bridge ([`bridge`](crate::bridge), with
//! the `adapt` feature) moves what an older client says once into them.

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
