//! The corpus the codec benchmarks measure, and the typed entry point of every protocol
//! version behind one trait.
//!
//! A [`Corpus`] holds, for one protocol version, named [`Group`]s of whole JSON-RPC
//! messages as compact bytes, each with the side that sent it (so the side that decodes
//! it) and, for a response, the method of the request it answers:
//!
//! - `examples`: every official example under `schema/<version>/examples/` that is a whole
//!   JSON-RPC message (has `"jsonrpc"`);
//! - `tools_list_1000`: a `tools/list` response with 1 000 tools, each with a rich
//!   `inputSchema` (nested properties, enums, descriptions), annotations where the version
//!   has them;
//! - `resources_read_1mb`: a `resources/read` response with a 1 MB base64 blob;
//! - `progress_10000`: 10 000 small `notifications/progress` notifications;
//! - `text_blocks_500`: a `tools/call` response with 500 text content blocks (each block
//!   a member of the content-block union);
//! - `structured_deep_64`: a `tools/call` response whose `structuredContent` nests 64
//!   levels deep (versions that have `structuredContent`).
//!
//! The synthetic messages are shaped by the version's `schema.json` (which fields exist,
//! which are required), so each one is valid for its version; the unit tests check that
//! every one decodes through the typed entry point.
//!
//! Members come in the order a sender writes them: an example's as upstream wrote it
//! (only the whitespace is taken out), a synthetic message's as the typed encoder writes
//! it, which is constant properties first (a content block's `type`), then the schema's
//! order, as the official SDKs' types write them. (Up to 2026-11-25 the corpus was written
//! through `serde_json::Value`, whose objects sort their members: a content block's
//! `type` came after its `text`, an order no sender uses.)
//!
//! [`Typed`] is the typed entry point of one version: `rt::jsonrpc::receive` decodes a
//! request, notification or error in one pass (params straight into their type) when its
//! members come in the usual order, and hands back a result response with its `result`
//! raw, which is then decoded by the method it answers straight from its text
//! (`ServerResult::decode_text` / `ClientResult::decode_text`); and back in one pass with
//! `rt::jsonrpc::encode_to_vec` (a message) or `rt::jsonrpc::encode_response` (a typed
//! result).

use std::fs;
use std::path::{Path, PathBuf};

use mcp_spec_types::rt::jsonrpc::{self, Id, UnknownMethods};
use mcp_spec_types::rt::method::{Direction, MessageKind};
use mcp_spec_types::rt::service;
use serde_json::{Map, Value, json};

/// Who sent a message, so which side decodes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// Sent by the client: the server decodes it (`decode_from_client`).
    Client,
    /// Sent by the server: the client decodes it (`decode_from_server`).
    Server,
}

/// One message of the corpus.
#[derive(Debug, Clone)]
pub struct Entry {
    /// Where it comes from: the example file, or the synthetic kind and index.
    pub name: String,
    /// The message as compact JSON.
    pub bytes: Vec<u8>,
    /// Who sent it.
    pub from: Side,
    /// For a response: the method of the request it answers.
    pub answers: Option<String>,
}

/// A named set of messages measured together.
#[derive(Debug, Clone)]
pub struct Group {
    /// `examples`, `tools_list_1000`, …
    pub name: &'static str,
    /// The messages.
    pub entries: Vec<Entry>,
}

impl Group {
    /// Total size of the messages in bytes.
    pub fn bytes(&self) -> u64 {
        self.entries.iter().map(|e| e.bytes.len() as u64).sum()
    }

    /// Number of messages.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the group has no message.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

/// The corpus of one protocol version.
#[derive(Debug, Clone)]
pub struct Corpus {
    /// The protocol version, `2025-11-25` or `draft`.
    pub version: &'static str,
    /// The groups; a version without examples has no `examples` group.
    pub groups: Vec<Group>,
    /// Official examples left out, with the reason: not classifiable, or the typed entry
    /// point rejects them (so that every decoder measures the same input).
    pub skipped: Vec<(String, String)>,
}

/// A message decoded by the typed entry point, responses with their result typed.
#[derive(Debug)]
pub enum Decoded<C, S, SR, CR> {
    /// A request, notification or error the client sent.
    FromClient(C),
    /// A request, notification or error the server sent.
    FromServer(S),
    /// A response the server sent, its result decoded by the method it answers.
    ServerAnswer {
        /// The id of the request it answers.
        id: Id,
        /// The typed result.
        result: SR,
    },
    /// A response the client sent, its result decoded by the method it answers.
    ClientAnswer {
        /// The id of the request it answers.
        id: Id,
        /// The typed result.
        result: CR,
    },
}

/// What [`Typed::decode_to`] makes of what the receiving side decoded: one of its four
/// kinds, each in the type the entry point gives it.
pub trait Take<C, S, SR, CR> {
    /// What a message becomes.
    type Out;
    /// A request, notification or error the client sent.
    fn from_client(message: C) -> Self::Out;
    /// A request, notification or error the server sent.
    fn from_server(message: S) -> Self::Out;
    /// A response the server sent, with its typed result.
    fn server_answer(id: Id, result: SR) -> Self::Out;
    /// A response the client sent, with its typed result.
    fn client_answer(id: Id, result: CR) -> Self::Out;
}

/// Keeps a decoded message as a [`Decoded`], to encode it again.
#[derive(Debug, Clone, Copy)]
pub struct Keep;

impl<C, S, SR, CR> Take<C, S, SR, CR> for Keep {
    type Out = Decoded<C, S, SR, CR>;
    fn from_client(message: C) -> Self::Out {
        Decoded::FromClient(message)
    }
    fn from_server(message: S) -> Self::Out {
        Decoded::FromServer(message)
    }
    fn server_answer(id: Id, result: SR) -> Self::Out {
        Decoded::ServerAnswer { id, result }
    }
    fn client_answer(id: Id, result: CR) -> Self::Out {
        Decoded::ClientAnswer { id, result }
    }
}

/// Passes the value the receiving side got to [`std::hint::black_box`] and drops it: what
/// the decode benchmark measures. Wrapping every kind in one [`Decoded`] would move each
/// message into a value as large as the largest message type of the version (a
/// 2026-07-28 `ClientMessage` is 792 bytes), which a receiver does not pay.
#[derive(Debug, Clone, Copy)]
pub struct Observe;

impl<C, S, SR, CR> Take<C, S, SR, CR> for Observe {
    type Out = ();
    fn from_client(message: C) {
        std::hint::black_box(&message);
    }
    fn from_server(message: S) {
        std::hint::black_box(&message);
    }
    fn server_answer(id: Id, result: SR) {
        std::hint::black_box((&id, &result));
    }
    fn client_answer(id: Id, result: CR) {
        std::hint::black_box((&id, &result));
    }
}

/// What [`Typed::decode`] gives for version `T`.
pub type DecodedOf<T> = Decoded<
    <T as Typed>::Client,
    <T as Typed>::Server,
    <T as Typed>::ServerResult,
    <T as Typed>::ClientResult,
>;

/// The typed entry point of one protocol version.
pub trait Typed {
    /// `2025-11-25`, `draft`.
    const VERSION: &'static str;
    /// The module name, `v2025_11_25`.
    const MODULE: &'static str;
    /// A message the client sent, decoded by the server (`methods::ClientMessage`).
    type Client;
    /// A message the server sent, decoded by the client (`methods::ServerMessage`).
    type Server;
    /// A result the server sent (`methods::ServerResult`).
    type ServerResult;
    /// A result the client sent (`methods::ClientResult`).
    type ClientResult;
    /// Who sends `method` and whether it is a request; `None` if the version has no such
    /// method.
    fn method(method: &str) -> Option<(Direction, MessageKind)>;
    /// Decodes a message (and a response's result) the way the receiving side does, and
    /// hands the outcome to `K`.
    fn decode_to<K: Take<Self::Client, Self::Server, Self::ServerResult, Self::ClientResult>>(
        entry: &Entry,
    ) -> Result<K::Out, String>;
    /// Decodes a message (and a response's result) the way the receiving side does.
    fn decode(entry: &Entry) -> Result<DecodedOf<Self>, String>
    where
        Self: Sized,
    {
        Self::decode_to::<Keep>(entry)
    }
    /// Encodes a decoded message back to bytes.
    fn encode(decoded: &DecodedOf<Self>) -> Result<Vec<u8>, String>
    where
        Self: Sized;
    /// Serves a request or notification as a server (a message from the client) or a
    /// client (from the server) does, through the version's `serve_client_message` /
    /// `serve_server_message` with a handler that implements nothing (the version's marker type: every
    /// request answered -32601, every notification ignored): the answer, if any. `None`
    /// for a response, which is not served.
    fn serve(entry: &Entry) -> Option<String>;
    /// What [`serve`](Self::serve) does, as decode and encode: the message decoded by
    /// the side's decoder (`decode_from_client` / `decode_from_server`), and a request's
    /// answer (the -32601 error the trivial handler gives) encoded by
    /// `rt::jsonrpc::encode_to_vec`. The same bytes as `serve`'s answer.
    fn decode_encode(entry: &Entry) -> Result<Option<Vec<u8>>, String>;
}

/// A transport that never carries anything (the trivial handler never calls the peer).
struct Nowhere;

impl service::Transport for Nowhere {
    fn request(
        &self,
        _: Id,
        _: String,
    ) -> service::BoxFuture<'_, Result<String, service::TransportError>> {
        Box::pin(async { Err(service::TransportError::new("nowhere")) })
    }

    fn notify(&self, _: String) -> service::BoxFuture<'_, Result<(), service::TransportError>> {
        Box::pin(async { Err(service::TransportError::new("nowhere")) })
    }
}

/// A peer over a transport that carries nothing (for handlers that never call the peer).
pub fn nowhere() -> service::Peer {
    service::Peer::new(Nowhere)
}

/// The output of a future that is ready when first polled (the trivial handler's are).
///
/// # Panics
/// If the future is not ready.
pub fn ready<F: std::future::Future>(future: F) -> F::Output {
    let mut future = std::pin::pin!(future);
    let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
    match future.as_mut().poll(&mut cx) {
        std::task::Poll::Ready(output) => output,
        std::task::Poll::Pending => panic!("the trivial handler's future waited"),
    }
}

/// The response a server or client without a handler for `method` answers request `id`
/// with: an empty result for `ping` (which the handler traits answer by default, as the
/// specification requires), -32601 for anything else.
fn not_handled<R, N>(id: Id, method: &str) -> jsonrpc::Message<R, N> {
    if method == "ping" {
        return jsonrpc::Message::Response {
            id,
            result: jsonrpc::RawResult::from_text("{}").expect("{} is JSON"),
            extra: jsonrpc::Extra::new(),
        };
    }
    jsonrpc::Message::Error {
        id: Some(id),
        error: service::method_not_found(method),
        extra: jsonrpc::Extra::new(),
    }
}

/// Calls back with every version's [`Typed`] implementation.
pub trait EachVersion {
    /// Called once per version, oldest first, `draft` last.
    fn visit<T: Typed>(&mut self);
}

macro_rules! versions {
    ($(
        $marker:ident, $m:ident, $version:literal;
    )*) => {
        $(
            #[doc = concat!("Protocol version `", $version, "`.")]
            #[derive(Debug, Clone, Copy)]
            pub struct $marker;

            impl Typed for $marker {
                const VERSION: &'static str = $version;
                const MODULE: &'static str = stringify!($m);
                type Client = mcp_spec_types::$m::methods::ClientMessage;
                type Server = mcp_spec_types::$m::methods::ServerMessage;
                type ServerResult = mcp_spec_types::$m::methods::ServerResult;
                type ClientResult = mcp_spec_types::$m::methods::ClientResult;

                fn method(method: &str) -> Option<(Direction, MessageKind)> {
                    use mcp_spec_types::$m::methods::Method;
                    method.parse::<Method>().ok().map(|m| (m.direction(), m.kind()))
                }

                fn decode_to<
                    K: Take<Self::Client, Self::Server, Self::ServerResult, Self::ClientResult>,
                >(
                    entry: &Entry,
                ) -> Result<K::Out, String> {
                    use mcp_spec_types::$m::methods::{self as ms, Method};
                    let answers = || -> Result<Method, String> {
                        let method = entry.answers.as_deref().unwrap_or_default();
                        method.parse::<Method>().map_err(|e| e.to_string())
                    };
                    let options = jsonrpc::Options {
                        unknown_methods: UnknownMethods::Reject,
                        batches: ms::BATCHES,
                    };
                    // `rt::jsonrpc::receive_typed`: the crate's one decoder, a result
                    // response decoded by the method it answers (which the corpus names,
                    // as a client's table of pending requests would).
                    let method_of = |_: &Id| answers().ok();
                    let unmatched = || "a response the corpus does not say the method of".to_string();
                    match entry.from {
                        Side::Client => {
                            match jsonrpc::receive_typed::<ms::ClientRequest, ms::ClientNotification, ms::ClientResult>(
                                &entry.bytes,
                                options,
                                method_of,
                            ) {
                                Err(e) => Err(e.to_string()),
                                Ok(jsonrpc::Incoming::Result { id, result, .. }) => {
                                    Ok(K::client_answer(id, result.map_err(|e| e.to_string())?))
                                }
                                Ok(jsonrpc::Incoming::Message(jsonrpc::Message::Response { .. })) => Err(unmatched()),
                                Ok(jsonrpc::Incoming::Message(m)) => Ok(K::from_client(m)),
                            }
                        }
                        Side::Server => {
                            match jsonrpc::receive_typed::<ms::ServerRequest, ms::ServerNotification, ms::ServerResult>(
                                &entry.bytes,
                                options,
                                method_of,
                            ) {
                                Err(e) => Err(e.to_string()),
                                Ok(jsonrpc::Incoming::Result { id, result, .. }) => {
                                    Ok(K::server_answer(id, result.map_err(|e| e.to_string())?))
                                }
                                Ok(jsonrpc::Incoming::Message(jsonrpc::Message::Response { .. })) => Err(unmatched()),
                                Ok(jsonrpc::Incoming::Message(m)) => Ok(K::from_server(m)),
                            }
                        }
                    }
                }

                fn serve(entry: &Entry) -> Option<String> {
                    use mcp_spec_types::$m::handlers as hs;
                    // Made once, as a server or client makes its peer once per connection.
                    static PEERS: std::sync::OnceLock<(hs::ClientPeer, hs::ServerPeer)> =
                        std::sync::OnceLock::new();
                    let (client, server) =
                        PEERS.get_or_init(|| (hs::ClientPeer(nowhere()), hs::ServerPeer(nowhere())));
                    let policy = service::Open;
                    match entry.from {
                        Side::Client => ready(hs::serve_client_message(
                            &$marker,
                            &policy,
                            client,
                            &entry.bytes,
                        )),
                        Side::Server => ready(hs::serve_server_message(
                            &$marker,
                            &policy,
                            server,
                            &entry.bytes,
                        )),
                    }
                }

                fn decode_encode(entry: &Entry) -> Result<Option<Vec<u8>>, String> {
                    use jsonrpc::{MethodSet as _, Message, encode_to_vec};
                    use mcp_spec_types::$m::methods as ms;
                    let text = |e: serde_json::Error| e.to_string();
                    match entry.from {
                        Side::Client => {
                            match ms::decode_from_client(&entry.bytes, UnknownMethods::Reject)
                                .map_err(|e| e.to_string())?
                            {
                                Message::Request { id, request, .. } => {
                                    let answer: ms::ServerMessage = not_handled(id, request.method());
                                    encode_to_vec(&answer).map(Some).map_err(text)
                                }
                                _ => Ok(None),
                            }
                        }
                        Side::Server => {
                            match ms::decode_from_server(&entry.bytes, UnknownMethods::Reject)
                                .map_err(|e| e.to_string())?
                            {
                                Message::Request { id, request, .. } => {
                                    let answer: ms::ClientMessage = not_handled(id, request.method());
                                    encode_to_vec(&answer).map(Some).map_err(text)
                                }
                                _ => Ok(None),
                            }
                        }
                    }
                }

                fn encode(decoded: &DecodedOf<Self>) -> Result<Vec<u8>, String> {
                    match decoded {
                        Decoded::FromClient(m) => jsonrpc::encode_to_vec(m),
                        Decoded::FromServer(m) => jsonrpc::encode_to_vec(m),
                        Decoded::ServerAnswer { id, result } => jsonrpc::encode_response(id, result),
                        Decoded::ClientAnswer { id, result } => jsonrpc::encode_response(id, result),
                    }
                    .map_err(|e| e.to_string())
                }
            }
        )*

        $(
            // The version's marker is its trivial handler: one type a version, so that two
            // versions that are one module (`draft` re-exporting the newest release) do
            // not implement the same trait twice for one type.
            impl mcp_spec_types::$m::handlers::ServerHandler for $marker {}
            impl mcp_spec_types::$m::handlers::ClientHandler for $marker {}
        )*

        /// Calls `visitor` with every version, oldest first, `draft` last.
        pub fn each_version(visitor: &mut impl EachVersion) {
            $(visitor.visit::<$marker>();)*
        }
    };
}

versions! {
    V2024_11_05, v2024_11_05, "2024-11-05";
    V2025_03_26, v2025_03_26, "2025-03-26";
    V2025_06_18, v2025_06_18, "2025-06-18";
    V2025_11_25, v2025_11_25, "2025-11-25";
    V2026_07_28, v2026_07_28, "2026-07-28";
    Draft, draft, "draft";
}

/// The workspace root (`bench/..`).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("bench/ lives one level below the workspace root")
        .to_path_buf()
}

/// The corpus of version `T`: its official examples and the synthetic messages.
pub fn corpus<T: Typed>() -> Result<Corpus, String> {
    let root = workspace_root();
    let dir = root.join("schema").join(T::VERSION);
    let path = dir.join("schema.json");
    let text =
        fs::read_to_string(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let schema: Value =
        serde_json::from_str(&text).map_err(|e| format!("{} is not JSON: {e}", path.display()))?;
    let defs = Defs::of(&schema)?;
    let mut groups = Vec::new();
    let mut skipped = Vec::new();
    let examples = examples::<T>(&dir.join("examples"), &defs, &mut skipped)?;
    if !examples.is_empty() {
        groups.push(Group {
            name: "examples",
            entries: examples,
        });
    }
    groups.extend(traffic::<T>(
        &root.join("tests/data/traffic"),
        &mut skipped,
    )?);
    for mut group in synthetic(&defs) {
        for entry in &mut group.entries {
            entry.bytes = as_sent::<T>(entry)?;
        }
        groups.push(group);
    }
    Ok(Corpus {
        version: T::VERSION,
        groups,
        skipped,
    })
}

/// The envelope orders [`member_orders`] writes, by name.
pub const ORDERS: [&str; 4] = ["ours", "payload_first", "params_before_id", "reversed"];

/// The recorded traffic of version `T` (requests, notifications, results and errors
/// together) once per envelope member order, each message's envelope rewritten in that
/// order and everything inside its members (the params, the result) left as the peer wrote
/// it: `order_ours` (`jsonrpc`, `id`, then `method` and `params`, `result` or `error`:
/// what our encoder writes), `order_payload_first` (`method` and `params`, `result` or
/// `error` first, then `jsonrpc` and `id`: the TypeScript SDK's and server-everything's
/// way), `order_params_before_id` (`jsonrpc`, `method`, `params`, `id`) and
/// `order_reversed` (ours backwards). Members the envelope does not define come last.
/// Empty when the version has no recorded traffic.
pub fn member_orders<T: Typed>() -> Result<Vec<Group>, String> {
    let corpus = corpus::<T>()?;
    let recorded: Vec<&Entry> = corpus
        .groups
        .iter()
        .filter(|g| g.name.starts_with("traffic_"))
        .flat_map(|g| &g.entries)
        .collect();
    if recorded.is_empty() {
        return Ok(Vec::new());
    }
    let orders: [(&'static str, &[&str]); 4] = [
        (
            "order_ours",
            &["jsonrpc", "id", "method", "params", "result", "error"],
        ),
        (
            "order_payload_first",
            &["method", "params", "result", "error", "jsonrpc", "id"],
        ),
        (
            "order_params_before_id",
            &["jsonrpc", "method", "params", "result", "error", "id"],
        ),
        (
            "order_reversed",
            &["error", "result", "params", "method", "id", "jsonrpc"],
        ),
    ];
    let mut groups = Vec::new();
    for (name, order) in orders {
        let mut entries = Vec::new();
        for entry in &recorded {
            let members: std::collections::BTreeMap<String, Box<serde_json::value::RawValue>> =
                serde_json::from_slice(&entry.bytes)
                    .map_err(|e| format!("{}: not an object: {e}", entry.name))?;
            let mut keys: Vec<&String> = order
                .iter()
                .filter_map(|k| members.get_key_value(*k).map(|(k, _)| k))
                .collect();
            keys.extend(members.keys().filter(|k| !order.contains(&k.as_str())));
            let written: Vec<String> = keys
                .iter()
                .map(|k| format!("{}:{}", Value::from(k.as_str()), members[*k].get()))
                .collect();
            entries.push(Entry {
                bytes: format!("{{{}}}", written.join(",")).into_bytes(),
                ..(*entry).clone()
            });
        }
        groups.push(Group { name, entries });
    }
    Ok(groups)
}

/// The definitions of a schema (`$defs` or draft-07's `definitions`).
struct Defs<'a>(&'a Map<String, Value>);

impl<'a> Defs<'a> {
    fn of(schema: &'a Value) -> Result<Self, String> {
        schema
            .get("$defs")
            .or_else(|| schema.get("definitions"))
            .and_then(Value::as_object)
            .map(Defs)
            .ok_or_else(|| "schema.json has no `$defs` or `definitions`".to_string())
    }

    fn get(&self, name: &str) -> Option<&'a Value> {
        self.0.get(name)
    }

    /// Follows a `$ref` to its definition.
    fn resolve(&self, v: &'a Value) -> &'a Value {
        match v.get("$ref").and_then(Value::as_str) {
            Some(r) => r
                .rsplit('/')
                .next()
                .and_then(|name| self.get(name))
                .unwrap_or(v),
            None => v,
        }
    }

    /// Whether definition `name` has a property `prop`.
    fn has(&self, name: &str, prop: &str) -> bool {
        self.get(name)
            .and_then(|d| d.get("properties"))
            .is_some_and(|p| p.get(prop).is_some())
    }

    /// Whether definition `name` requires `prop`.
    fn requires(&self, name: &str, prop: &str) -> bool {
        self.get(name)
            .and_then(|d| d.get("required"))
            .and_then(Value::as_array)
            .is_some_and(|r| r.iter().any(|x| x == prop))
    }

    /// Whether the `params` of message definition `name` have a property `prop`.
    fn params_have(&self, name: &str, prop: &str) -> bool {
        self.get(name)
            .and_then(|d| d.pointer("/properties/params"))
            .map(|p| self.resolve(p))
            .and_then(|p| p.get("properties"))
            .is_some_and(|p| p.get(prop).is_some())
    }

    /// The method of request definition `name`, from its `method` const.
    fn method_of(&self, name: &str) -> Option<&'a str> {
        self.get(name)?
            .pointer("/properties/method/const")
            .and_then(Value::as_str)
    }
}

/// The official examples that are whole JSON-RPC messages and that the typed entry point
/// accepts; the others that have `"jsonrpc"` go to `skipped` with the reason.
fn examples<T: Typed>(
    dir: &Path,
    defs: &Defs<'_>,
    skipped: &mut Vec<(String, String)>,
) -> Result<Vec<Entry>, String> {
    let mut files = Vec::new();
    if let Ok(folders) = fs::read_dir(dir) {
        for folder in folders.flatten() {
            if let Ok(items) = fs::read_dir(folder.path()) {
                for item in items.flatten() {
                    let path = item.path();
                    if path.extension().is_some_and(|e| e == "json") {
                        files.push(path);
                    }
                }
            }
        }
    }
    files.sort();
    let mut out = Vec::new();
    for path in files {
        let definition = path
            .parent()
            .and_then(Path::file_name)
            .map(|s| s.to_string_lossy().to_string())
            .unwrap_or_default();
        let name = format!(
            "{definition}/{}",
            path.file_name().unwrap_or_default().to_string_lossy()
        );
        let text = fs::read(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let Ok(value) = serde_json::from_slice::<Value>(&text) else {
            skipped.push((name, "not JSON".into()));
            continue;
        };
        if value.get("jsonrpc").is_none() {
            continue;
        }
        let (from, answers) = match classify::<T>(&value, &definition, defs) {
            Ok(x) => x,
            Err(why) => {
                skipped.push((name, why));
                continue;
            }
        };
        let entry = Entry {
            name: name.clone(),
            bytes: compact(&text),
            from,
            answers,
        };
        match T::decode(&entry) {
            Ok(_) => out.push(entry),
            Err(e) => skipped.push((name, format!("typed decode fails: {e}"))),
        }
    }
    Ok(out)
}

/// The recorded real traffic of version `T` (`tests/data/traffic/`, written by MCP
/// software none of us wrote, in the member order it wrote), in four groups by kind:
/// `traffic_requests`, `traffic_notifications`, `traffic_results`, `traffic_errors`
/// (empty groups left out). A response to a method the version does not have (a
/// `server/discover` probe answered in an older session) is left out.
fn traffic<T: Typed>(
    dir: &Path,
    skipped: &mut Vec<(String, String)>,
) -> Result<Vec<Group>, String> {
    let mut files: Vec<PathBuf> = match fs::read_dir(dir) {
        Ok(entries) => entries
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
            .collect(),
        Err(_) => return Ok(Vec::new()),
    };
    files.sort();
    let names = [
        "traffic_requests",
        "traffic_notifications",
        "traffic_results",
        "traffic_errors",
    ];
    let mut kinds: [Vec<Entry>; 4] = Default::default();
    for file in files {
        let text = fs::read_to_string(&file)
            .map_err(|e| format!("cannot read {}: {e}", file.display()))?;
        for (n, line) in text.lines().enumerate() {
            let v: Value = serde_json::from_str(line)
                .map_err(|e| format!("{}:{}: {e}", file.display(), n + 1))?;
            if v["version"].as_str() != Some(T::VERSION) {
                continue;
            }
            let raw = v["text"].as_str().unwrap_or_default();
            let message: Value = serde_json::from_str(raw).unwrap_or(Value::Null);
            let kind = if message.get("method").is_some() {
                usize::from(message.get("id").is_none())
            } else if message.get("result").is_some() {
                2
            } else {
                3
            };
            let entry = Entry {
                name: format!(
                    "{}:{}",
                    file.file_stem().unwrap_or_default().to_string_lossy(),
                    n + 1
                ),
                bytes: raw.as_bytes().to_vec(),
                from: if v["from"] == "client" {
                    Side::Client
                } else {
                    Side::Server
                },
                answers: v["answers"].as_str().map(str::to_string),
            };
            match T::decode(&entry) {
                Ok(_) => kinds[kind].push(entry),
                Err(e) => skipped.push((entry.name, format!("typed decode fails: {e}"))),
            }
        }
    }
    Ok(names
        .into_iter()
        .zip(kinds)
        .filter(|(_, entries)| !entries.is_empty())
        .map(|(name, entries)| Group { name, entries })
        .collect())
}

/// Who sent an example message and, for a response, the method it answers.
fn classify<T: Typed>(
    value: &Value,
    definition: &str,
    defs: &Defs<'_>,
) -> Result<(Side, Option<String>), String> {
    if let Some(method) = value.get("method").and_then(Value::as_str) {
        let (direction, kind) =
            T::method(method).ok_or_else(|| format!("unknown method `{method}`"))?;
        let from = match (direction, kind) {
            (Direction::ClientToServer, _) => Side::Client,
            (Direction::ServerToClient, _) => Side::Server,
            // Either side: a ping is more often the client's, progress the server's.
            (Direction::Both, MessageKind::Request) => Side::Client,
            (Direction::Both, MessageKind::Notification) => Side::Server,
        };
        return Ok((from, None));
    }
    if value.get("result").is_some() {
        // `ListToolsResultResponse` answers `ListToolsRequest`.
        let request = definition
            .strip_suffix("ResultResponse")
            .map(|x| format!("{x}Request"))
            .ok_or_else(|| format!("a response under `{definition}`: which method?"))?;
        let method = defs
            .method_of(&request)
            .ok_or_else(|| format!("no method const on `{request}`"))?;
        let (direction, _) =
            T::method(method).ok_or_else(|| format!("unknown method `{method}`"))?;
        let from = match direction {
            Direction::ServerToClient => Side::Client,
            Direction::ClientToServer | Direction::Both => Side::Server,
        };
        return Ok((from, Some(method.to_string())));
    }
    if value.get("error").is_some() {
        return Ok((Side::Server, None));
    }
    Err("neither request, notification nor response".into())
}

/// Compact bytes of a message built in memory (its objects' members in `Value`'s
/// alphabetical order; [`as_sent`] then puts them in the order a sender writes).
fn bytes(value: &Value) -> Vec<u8> {
    serde_json::to_vec(value).expect("a Value always serializes")
}

/// A synthetic message as a sender writes it: decoded and encoded back by the typed entry
/// point, whose types write constant properties (a content block's `type`) first and the
/// others in the schema's order, as the official SDKs' types do. Free-form JSON (input
/// schemas, `structuredContent`) keeps its alphabetical order.
fn as_sent<T: Typed>(entry: &Entry) -> Result<Vec<u8>, String> {
    let decoded = T::decode(entry).map_err(|e| format!("{}: {e}", entry.name))?;
    T::encode(&decoded).map_err(|e| format!("{}: {e}", entry.name))
}

/// JSON text without the whitespace between tokens, its members in the order written.
fn compact(text: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len());
    let (mut in_string, mut escaped) = (false, false);
    for &b in text {
        if in_string {
            out.push(b);
            if escaped {
                escaped = false;
            } else if b == b'\\' {
                escaped = true;
            } else if b == b'"' {
                in_string = false;
            }
        } else if !matches!(b, b' ' | b'\t' | b'\n' | b'\r') {
            out.push(b);
            in_string = b == b'"';
        }
    }
    out
}

/// The fields a result of definition `name` must carry in versions that require them
/// (2026-07-28: `resultType`, `cacheScope`, `ttlMs`), added to `result`.
fn required_result_fields(defs: &Defs<'_>, name: &str, result: &mut Value) {
    let fill = [
        ("resultType", json!("complete")),
        ("cacheScope", json!("public")),
        ("ttlMs", json!(60_000)),
    ];
    for (field, value) in fill {
        if defs.requires(name, field) {
            result[field] = value;
        }
    }
}

/// The synthetic groups, shaped by the version's schema.
fn synthetic(defs: &Defs<'_>) -> Vec<Group> {
    let mut out = vec![
        response(
            "tools_list_1000",
            "tools/list",
            "tools/list result, 1000 tools",
            &tools_list(defs, 1000),
        ),
        response(
            "resources_read_1mb",
            "resources/read",
            "resources/read result, 1 MB blob",
            &resources_read(defs, 1 << 20),
        ),
        Group {
            name: "progress_10000",
            entries: (0..10_000)
                .map(|i| Entry {
                    name: format!("notifications/progress #{i}"),
                    bytes: bytes(&progress(defs, i, 10_000)),
                    from: Side::Server,
                    answers: None,
                })
                .collect(),
        },
        response(
            "text_blocks_500",
            "tools/call",
            "tools/call result, 500 text content blocks",
            &text_blocks(defs, 500),
        ),
    ];
    if defs.has("CallToolResult", "structuredContent") {
        out.push(response(
            "structured_deep_64",
            "tools/call",
            "tools/call result, structuredContent 64 levels deep",
            &deep_call_result(defs, 64),
        ));
    }
    out
}

/// A group of one response from the server to a request of `method`.
fn response(name: &'static str, method: &str, what: &str, message: &Value) -> Group {
    Group {
        name,
        entries: vec![Entry {
            name: what.to_string(),
            bytes: bytes(message),
            from: Side::Server,
            answers: Some(method.to_string()),
        }],
    }
}

/// A `tools/list` response with `n` tools.
fn tools_list(defs: &Defs<'_>, n: usize) -> Value {
    let tools: Vec<Value> = (0..n).map(|i| tool(defs, i)).collect();
    let mut result = json!({ "tools": tools, "nextCursor": format!("cursor-{n}") });
    required_result_fields(defs, "ListToolsResult", &mut result);
    json!({ "jsonrpc": "2.0", "id": 1, "result": result })
}

/// One tool with a rich input schema; the optional fields the version has.
fn tool(defs: &Defs<'_>, i: usize) -> Value {
    let modes = ["fast", "balanced", "thorough"];
    let mut input = json!({
        "type": "object",
        "properties": {
            "query": {
                "type": "string",
                "description": format!("What tool {i} should look for; free text, matched \
                                        case-insensitively against titles and bodies."),
                "minLength": 1,
                "maxLength": 512
            },
            "limit": {
                "type": "integer",
                "description": "How many results to return at most.",
                "minimum": 1,
                "maximum": 100,
                "default": 10
            },
            "mode": {
                "type": "string",
                "description": "Trade-off between latency and recall.",
                "enum": modes,
                "default": modes[i % 3]
            },
            "filters": {
                "type": "object",
                "description": "Narrow the search down.",
                "properties": {
                    "tags": {
                        "type": "array",
                        "description": "Only items with all of these tags.",
                        "items": { "type": "string", "pattern": "^[a-z0-9-]+$" },
                        "uniqueItems": true
                    },
                    "since": {
                        "type": "string",
                        "format": "date-time",
                        "description": "Only items changed after this instant."
                    },
                    "owner": {
                        "type": "object",
                        "description": "Who owns the item.",
                        "properties": {
                            "id": { "type": "string", "description": "Owner id." },
                            "kind": {
                                "type": "string",
                                "enum": ["user", "team", "bot"],
                                "description": "What kind of owner."
                            }
                        },
                        "required": ["id"],
                        "additionalProperties": false
                    },
                    "range": {
                        "type": "array",
                        "prefixItems": [{ "type": "number" }, { "type": "number" }],
                        "minItems": 2,
                        "maxItems": 2
                    }
                },
                "additionalProperties": false
            },
            "dryRun": {
                "type": "boolean",
                "description": "Validate the call without doing anything.",
                "default": false
            }
        },
        "required": ["query"]
    });
    if defs
        .get("Tool")
        .and_then(|t| t.pointer("/properties/inputSchema/properties/$schema"))
        .is_some()
    {
        input["$schema"] = json!("https://json-schema.org/draft/2020-12/schema");
    }
    let mut tool = json!({
        "name": format!("search_tool_{i:04}"),
        "description": format!("Searches collection {i} and returns the matching items, \
                                best first. Use it when the user asks about anything \
                                stored in collection {i}."),
        "inputSchema": input,
    });
    if defs.has("Tool", "title") {
        tool["title"] = json!(format!("Search collection {i}"));
    }
    if defs.has("Tool", "annotations") {
        tool["annotations"] = json!({
            "title": format!("Search {i}"),
            "readOnlyHint": true,
            "destructiveHint": false,
            "idempotentHint": true,
            "openWorldHint": i % 2 == 0
        });
    }
    if defs.has("Tool", "outputSchema") && i % 4 == 0 {
        tool["outputSchema"] = json!({
            "type": "object",
            "properties": {
                "items": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "properties": {
                            "id": { "type": "string" },
                            "score": { "type": "number" }
                        },
                        "required": ["id", "score"]
                    }
                },
                "total": { "type": "integer" }
            },
            "required": ["items"]
        });
    }
    if defs.has("Tool", "icons") && i % 10 == 0 {
        tool["icons"] = json!([{
            "src": format!("https://example.com/icons/{i}.png"),
            "mimeType": "image/png",
            "sizes": ["48x48"]
        }]);
    }
    tool
}

/// A `resources/read` response whose one content is a blob whose base64 text is `len`
/// bytes long.
fn resources_read(defs: &Defs<'_>, len: usize) -> Value {
    let mut result = json!({
        "contents": [{
            "uri": "file:///data/archive.bin",
            "mimeType": "application/octet-stream",
            "blob": base64_of_len(len)
        }]
    });
    required_result_fields(defs, "ReadResourceResult", &mut result);
    json!({ "jsonrpc": "2.0", "id": "read-1", "result": result })
}

/// Base64 text of exactly `len` characters (`len` a multiple of 4) of pseudo-random bytes.
fn base64_of_len(len: usize) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut out = String::with_capacity(len);
    for _ in 0..len / 4 {
        // xorshift64: three bytes per four characters.
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let word = (state & 0xFF_FFFF) as usize;
        for shift in [18, 12, 6, 0] {
            out.push(ALPHABET[(word >> shift) & 63] as char);
        }
    }
    out
}

/// The `i`th of `n` progress notifications: tokens alternate between strings and integers.
fn progress(defs: &Defs<'_>, i: usize, n: usize) -> Value {
    let token = if i % 2 == 0 {
        json!(format!("op-{}", i % 17))
    } else {
        json!(i % 17)
    };
    let mut params = json!({ "progressToken": token, "progress": i, "total": n });
    if defs.params_have("ProgressNotification", "message") {
        params["message"] = json!(format!("step {i} of {n}"));
    }
    json!({ "jsonrpc": "2.0", "method": "notifications/progress", "params": params })
}

/// A `tools/call` response with `n` text content blocks, each a line of tool output.
fn text_blocks(defs: &Defs<'_>, n: usize) -> Value {
    let content: Vec<Value> = (0..n)
        .map(|i| {
            json!({
                "type": "text",
                "text": format!("line {i}: output of the tool, as long as a log line usually is")
            })
        })
        .collect();
    let mut result = json!({ "content": content });
    required_result_fields(defs, "CallToolResult", &mut result);
    json!({ "jsonrpc": "2.0", "id": 8, "result": result })
}

/// A `tools/call` response whose `structuredContent` nests `depth` objects.
fn deep_call_result(defs: &Defs<'_>, depth: usize) -> Value {
    let mut node = json!({ "leaf": true, "values": [1, 2.5, "three", null, false] });
    for level in (0..depth).rev() {
        node = json!({
            "level": level,
            "name": format!("node-{level}"),
            "tags": ["a", "b"],
            "weight": level as f64 / 8.0,
            "child": node
        });
    }
    let mut result = json!({
        "content": [{ "type": "text", "text": "the result is in structuredContent" }],
        "structuredContent": node,
        "isError": false
    });
    required_result_fields(defs, "CallToolResult", &mut result);
    json!({ "jsonrpc": "2.0", "id": 7, "result": result })
}

/// Where criterion keeps its results: `$CRITERION_HOME`, `$CARGO_TARGET_DIR/criterion`,
/// or the `criterion/` folder of the target directory the running bench was built in.
/// The benches read their own results there to print their summaries.
pub fn criterion_home() -> Option<PathBuf> {
    if let Some(home) = std::env::var_os("CRITERION_HOME") {
        return Some(PathBuf::from(home));
    }
    if let Some(target) = std::env::var_os("CARGO_TARGET_DIR") {
        return Some(Path::new(&target).join("criterion"));
    }
    let exe = std::env::current_exe().ok()?;
    exe.ancestors()
        .map(|dir| dir.join("criterion"))
        .find(|dir| dir.is_dir())
}

/// The median time of one iteration of `function` in `group`, in seconds, from the
/// estimates of this run (`run` = `new`) or of a saved baseline (`--save-baseline NAME`).
/// Criterion writes a `/` of a function id as `_`.
pub fn criterion_median(home: &Path, group: &str, function: &str, run: &str) -> Option<f64> {
    let path = home
        .join(group)
        .join(function.replace('/', "_"))
        .join(run)
        .join("estimates.json");
    median_of(&std::fs::read_to_string(path).ok()?)
}

/// The median of criterion's `estimates.json`, in seconds.
pub fn median_of(estimates: &str) -> Option<f64> {
    let v: serde_json::Value = serde_json::from_str(estimates).ok()?;
    v.pointer("/median/point_estimate")?
        .as_f64()
        .map(|ns| ns / 1e9)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Checks every version's corpus: synthetic messages decode through the typed entry
    /// point and encode back to the same JSON; reports the official examples left out.
    struct Check {
        failures: Vec<String>,
        notes: Vec<String>,
    }

    impl EachVersion for Check {
        fn visit<T: Typed>(&mut self) {
            let corpus = match corpus::<T>() {
                Ok(c) => c,
                Err(e) => {
                    self.failures.push(format!("{}: {e}", T::VERSION));
                    return;
                }
            };
            for (name, why) in &corpus.skipped {
                self.notes
                    .push(format!("{} example {name} left out: {why}", T::VERSION));
            }
            for group in &corpus.groups {
                for entry in &group.entries {
                    let what = format!("{} {} {}", T::VERSION, group.name, entry.name);
                    let decoded = match T::decode(entry) {
                        Ok(d) => d,
                        Err(e) => {
                            self.failures.push(format!("{what}: decode: {e}"));
                            continue;
                        }
                    };
                    let encoded = match T::encode(&decoded) {
                        Ok(b) => b,
                        Err(e) => {
                            self.failures.push(format!("{what}: encode: {e}"));
                            continue;
                        }
                    };
                    let before: Value = serde_json::from_slice(&entry.bytes).unwrap();
                    let after: Value = serde_json::from_slice(&encoded).unwrap();
                    if group.name != "examples"
                        && !group.name.starts_with("traffic")
                        && encoded != entry.bytes
                    {
                        // Written by the encoder in the first place: the same bytes.
                        self.failures
                            .push(format!("{what}: encodes back to different bytes"));
                    }
                    if before != after {
                        self.failures
                            .push(format!("{what}: encodes back to different JSON"));
                    }
                }
            }
        }
    }

    #[test]
    fn every_synthetic_message_decodes_and_round_trips() {
        let mut check = Check {
            failures: Vec::new(),
            notes: Vec::new(),
        };
        each_version(&mut check);
        for n in &check.notes {
            eprintln!("note: {n}");
        }
        assert!(check.failures.is_empty(), "{}", check.failures.join("\n"));
    }

    /// Serves every request and notification of every group and compares the answer with
    /// what decode and encode give: what the serve benchmark compares must be the same
    /// work. Counts the requests answered, to show the comparison is not empty.
    struct ServeCheck {
        failures: Vec<String>,
        answered: usize,
        ignored: usize,
    }

    impl EachVersion for ServeCheck {
        fn visit<T: Typed>(&mut self) {
            let corpus = corpus::<T>().unwrap();
            for group in &corpus.groups {
                for entry in &group.entries {
                    if entry.answers.is_some() {
                        continue;
                    }
                    let what = format!("{} {} {}", T::VERSION, group.name, entry.name);
                    let served = T::serve(entry);
                    match T::decode_encode(entry) {
                        Err(e) => self.failures.push(format!("{what}: decode: {e}")),
                        Ok(expected) => {
                            if served.as_deref().map(str::as_bytes) != expected.as_deref() {
                                self.failures.push(format!(
                                    "{what}: served {served:?}, decode and encode give {:?}",
                                    expected.map(|b| String::from_utf8_lossy(&b).into_owned())
                                ));
                            } else if served.is_some() {
                                self.answered += 1;
                            } else {
                                self.ignored += 1;
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn serving_answers_what_decode_and_encode_give() {
        let mut check = ServeCheck {
            failures: Vec::new(),
            answered: 0,
            ignored: 0,
        };
        each_version(&mut check);
        eprintln!("{} answered, {} ignored", check.answered, check.ignored);
        assert!(check.failures.is_empty(), "{}", check.failures.join("\n"));
        // The recorded requests of 2025-11-25 and 2026-07-28 (83) and the examples'
        // requests are answered; notifications and errors are not.
        assert!(
            check.answered >= 83 && check.ignored >= 36,
            "{} answered, {} ignored",
            check.answered,
            check.ignored
        );
    }

    /// Every order holds every recorded message, each the same JSON value as recorded,
    /// with its envelope's members in that order.
    #[test]
    fn member_orders_rewrite_the_envelope_only() {
        let corpus = corpus::<V2025_11_25>().unwrap();
        let recorded: Vec<&Entry> = corpus
            .groups
            .iter()
            .filter(|g| g.name.starts_with("traffic_"))
            .flat_map(|g| &g.entries)
            .collect();
        let groups = member_orders::<V2025_11_25>().unwrap();
        assert_eq!(groups.len(), ORDERS.len());
        for (group, order) in groups.iter().zip(ORDERS) {
            assert_eq!(group.name, format!("order_{order}"));
            assert_eq!(group.len(), recorded.len());
            for (entry, original) in group.entries.iter().zip(&recorded) {
                let a: Value = serde_json::from_slice(&entry.bytes).unwrap();
                let b: Value = serde_json::from_slice(&original.bytes).unwrap();
                assert_eq!(a, b, "{}", entry.name);
                T::decode(entry).unwrap_or_else(|e| panic!("{} {}: {e}", group.name, entry.name));
            }
        }
        let first = |g: &Group| String::from_utf8(g.entries[0].bytes.clone()).unwrap();
        assert!(
            first(&groups[0]).starts_with(r#"{"jsonrpc":"2.0","id":"#),
            "{}",
            first(&groups[0])
        );
        assert!(
            first(&groups[1]).starts_with(r#"{"method":"#),
            "{}",
            first(&groups[1])
        );
        assert!(member_orders::<V2024_11_05>().unwrap().is_empty());
    }

    type T = V2025_11_25;

    #[test]
    fn groups_have_the_promised_shape() {
        let c = corpus::<V2025_11_25>().unwrap();
        let names: Vec<_> = c.groups.iter().map(|g| g.name).collect();
        assert_eq!(
            names,
            [
                "traffic_requests",
                "traffic_notifications",
                "traffic_results",
                "traffic_errors",
                "tools_list_1000",
                "resources_read_1mb",
                "progress_10000",
                "text_blocks_500",
                "structured_deep_64"
            ]
        );
        // Every recorded message of the version (tests/data/traffic/README.md: the
        // 2025-11-25 messages of python-legacy, typescript, typescript-large,
        // server-everything, rmcp-client and conformance).
        let traffic: usize = c.groups[..4].iter().map(Group::len).sum();
        assert_eq!(traffic, 142);
        assert!(c.skipped.is_empty(), "{:?}", c.skipped);
        let blob = &c.groups[5];
        assert!(blob.bytes() > 1 << 20);
        assert_eq!(c.groups[6].len(), 10_000);
        let c = corpus::<V2026_07_28>().unwrap();
        assert_eq!(c.groups[0].name, "examples");
        assert!(c.groups[0].len() > 20);
    }

    /// The members come in the order a sender writes them, not `Value`'s alphabetical one.
    #[test]
    fn messages_keep_the_order_a_sender_writes() {
        let c = corpus::<V2026_07_28>().unwrap();
        let group = |name: &str| c.groups.iter().find(|g| g.name == name).unwrap();
        let text = String::from_utf8(group("text_blocks_500").entries[0].bytes.clone()).unwrap();
        assert!(
            text.starts_with(r#"{"jsonrpc":"2.0","id":8,"result":{"#),
            "{text:.80}"
        );
        assert_eq!(text.matches(r#"{"type":"text","text":"line "#).count(), 500);
        // The official example as upstream wrote it, without the whitespace.
        let example = group("examples")
            .entries
            .iter()
            .find(|e| e.name.starts_with("CallToolResultResponse/"))
            .unwrap();
        let text = String::from_utf8(example.bytes.clone()).unwrap();
        assert!(text.starts_with(r#"{"jsonrpc":"2.0","id":"#), "{text}");
        assert!(text.contains(r#"[{"type":"text","text":"#), "{text}");
    }

    #[test]
    fn compact_takes_out_whitespace_between_tokens_only() {
        let text = b"{\n  \"b\" : [1, \"x y\\\" z\"],\r\n\t\"a\": {}\n}";
        let out = compact(text);
        assert_eq!(out, br#"{"b":[1,"x y\" z"],"a":{}}"#.to_vec());
        let (a, b): (Value, Value) = (
            serde_json::from_slice(text).unwrap(),
            serde_json::from_slice(&out).unwrap(),
        );
        assert_eq!(a, b);
    }

    #[test]
    fn base64_is_valid_length_and_alphabet() {
        let s = base64_of_len(64);
        assert_eq!(s.len(), 64);
        assert!(
            s.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'+' || b == b'/')
        );
    }
}
