//! The differential harness: every way into the crate's decoder, on the same bytes, must
//! give the same outcome. What `fuzz/fuzz_targets/decode_message.rs` runs under libFuzzer
//! (nightly, `cargo fuzz run decode_message`), and what `tests/tests/fuzz_corpus.rs` and
//! `tests/tests/differential.rs` run on stable over seeded and hostile inputs.
//!
//! For any bytes, in every protocol version, as a message from a client and from a server,
//! with unknown methods rejected and kept, the entry points compared are:
//!
//! | entry point | compared on |
//! | --- | --- |
//! | `rt::jsonrpc::decode` | the reference |
//! | `rt::jsonrpc::decode_careful` (the reading for what the one pass leaves) | the whole outcome |
//! | the version's `decode_from_client` / `decode_from_server` | the whole outcome |
//! | `rt::jsonrpc::receive_typed`, no method known | the whole outcome |
//! | `rt::jsonrpc::receive_typed`, a method picked from the input | the outcome, the result decoded as the version's `ServerResult::decode` / `ClientResult::decode` of the raw result |
//! | `rt::service::receive` (what `serve_*_message` decodes with) | the typed request or notification, its `_meta`, or the error answer |
//! | the version's `serve_*_message` (a handler that implements nothing) | the answer text |
//! | `rt::service::route` | response or not, and the id |
//! | the typed peer's response handling (`Peer::request_raw`, answered with the bytes) | the raw result, the error, or "not a response" |
//! | `rt::path::from_slice::<Value>` | refused at the JSON layer or not, and the path |
//!
//! Every accepted message must also come back as it came: encoded again
//! (`encode_to_vec`, the bytes `serde_json::to_vec` writes), it is the same JSON value as
//! the input, and it decodes to the same message. No entry point may panic.

use std::future::Future;
use std::pin::pin;
use std::task::{Context, Poll, Waker};

use mcp_spec_types::rt::jsonrpc::{
    self, Id, Incoming, Message, MethodSet, Options, ProtocolError, ResultSet, UnknownMethods,
};
use mcp_spec_types::rt::service::{self, BoxFuture, Peer, Route, Serve, Transport, TransportError};
use serde_json::Value;

/// What the harness saw: inputs, comparisons made, and every disagreement.
#[derive(Debug, Default)]
pub struct Tally {
    /// Inputs run.
    pub inputs: usize,
    /// (version, side, unknown-methods mode) runs.
    pub runs: usize,
    /// Comparisons of an entry point's outcome with the reference.
    pub comparisons: usize,
    /// Runs whose reference outcome was a message.
    pub accepted: usize,
    /// Runs refused, by JSON-RPC code.
    pub refused: std::collections::BTreeMap<i64, usize>,
    /// Every disagreement, described.
    pub disagreements: Vec<String>,
}

impl Tally {
    fn agree(&mut self, same: bool, what: impl FnOnce() -> String) {
        self.comparisons += 1;
        if !same && self.disagreements.len() < 50 {
            self.disagreements.push(what());
        }
    }
}

/// Runs a future that never waits (the handlers and transports here answer at once).
fn now<F: Future>(future: F) -> F::Output {
    let mut future = pin!(future);
    match future
        .as_mut()
        .poll(&mut Context::from_waker(Waker::noop()))
    {
        Poll::Ready(out) => out,
        Poll::Pending => panic!("the future waited"),
    }
}

/// A transport whose every request is answered with `answer`.
struct Answer(String);

impl Transport for Answer {
    fn request(&self, _: Id, _: String) -> BoxFuture<'_, Result<String, TransportError>> {
        let answer = self.0.clone();
        Box::pin(async move { Ok(answer) })
    }
    fn notify(&self, _: String) -> BoxFuture<'_, Result<(), TransportError>> {
        Box::pin(async { Ok(()) })
    }
}

/// The error answer `serve` gives for a message that failed to decode (none for a
/// notification).
fn answer_of(e: &ProtocolError) -> Option<String> {
    (!e.notification).then(|| e.to_response())
}

/// The answer a handler that implements nothing gives a request: an empty result to
/// `ping` (the specification requires an answer), -32601 naming any other method.
fn unhandled(id: &Id, method: &str) -> String {
    if method == "ping" {
        return service::respond(id, Ok::<_, jsonrpc::ErrorObject>(serde_json::Map::new()));
    }
    service::refuse(id, service::method_not_found(method))
}

/// The `_meta` of the params of a message, as the serve path gives it to the handler.
fn meta_of(bytes: &[u8]) -> Option<serde_json::Map<String, Value>> {
    let v: Value = serde_json::from_slice(bytes).ok()?;
    v.get("params")?.get("_meta")?.as_object().cloned()
}

#[allow(clippy::too_many_arguments)]
fn check<R, N, S, F>(
    tally: &mut Tally,
    data: &[u8],
    version: &str,
    side: &str,
    batches: bool,
    methods: &[S::Method],
    decode_version: impl Fn(&[u8], UnknownMethods) -> Result<Message<R, N>, ProtocolError>,
    serve: F,
) where
    R: MethodSet + std::fmt::Debug + PartialEq + Clone,
    N: MethodSet + std::fmt::Debug + PartialEq + Clone,
    S: ResultSet + serde::Serialize + std::fmt::Debug + PartialEq,
    F: Fn(&[u8]) -> Option<String>,
{
    for unknown_methods in [UnknownMethods::Reject, UnknownMethods::Keep] {
        tally.runs += 1;
        let at = || format!("{version} {side} {unknown_methods:?}");
        let options = Options {
            unknown_methods,
            batches,
        };
        let decoded = jsonrpc::decode::<R, N>(data, options);
        match &decoded {
            Ok(_) => tally.accepted += 1,
            Err(e) => *tally.refused.entry(e.code).or_default() += 1,
        }
        // The version's own entry point.
        let ours = decode_version(data, unknown_methods);
        tally.agree(ours == decoded, || {
            format!("{}: decode_from_* {ours:?}, decode {decoded:?}", at())
        });
        // The careful reading alone (what the one-pass reading leaves to it): the same.
        let careful = jsonrpc::decode_careful::<R, N>(data, options);
        tally.agree(careful == decoded, || {
            format!("{}: decode (careful) {careful:?}, decode {decoded:?}", at())
        });
        // receive_typed, no method known: what decode gives.
        let untyped = jsonrpc::receive_typed::<R, N, S>(data, options, |_| None);
        let expected = decoded.clone().map(Incoming::Message);
        tally.agree(untyped == expected, || {
            format!(
                "{}: receive_typed (no method) {untyped:?}, decode {decoded:?}",
                at()
            )
        });
        // receive_typed with a method picked from the input: the result as decoded by its
        // method from the raw result decode gives.
        let pick = data.iter().fold(data.len(), |h, b| {
            h.wrapping_mul(31).wrapping_add(usize::from(*b))
        });
        if let Some(method) = pick.checked_rem(methods.len()).and_then(|i| methods.get(i)) {
            let typed = jsonrpc::receive_typed::<R, N, S>(data, options, |_| Some(*method));
            let expected = decoded.clone().map(|m| match m {
                Message::Response { id, result, extra } => Incoming::Result {
                    id,
                    result: S::decode(*method, &result),
                    extra,
                },
                other => Incoming::Message(other),
            });
            tally.agree(typed == expected, || {
                format!(
                    "{}: receive_typed ({method:?}) {typed:?}, decode then S::decode {expected:?}",
                    at()
                )
            });
        }
        // The JSON layer alone.
        let value = mcp_spec_types::rt::path::from_slice::<Value>(data);
        let json_refused = matches!(&decoded, Err(e) if e.code == jsonrpc::codes::PARSE_ERROR);
        tally.agree(value.is_err() == json_refused, || {
            format!(
                "{}: path::from_slice::<Value> {:?}, decode {decoded:?}",
                at(),
                value.as_ref().err()
            )
        });
        if let (Err(v), Err(d)) = (&value, &decoded) {
            if json_refused {
                let path = (!v.path().is_empty()).then(|| v.path().to_string());
                tally.agree(path == d.path, || {
                    format!(
                        "{}: path::from_slice path {:?}, decode {:?}",
                        at(),
                        v.path(),
                        d.path
                    )
                });
            }
        }
        if unknown_methods == UnknownMethods::Reject {
            check_serve::<R, N>(tally, data, batches, &decoded, &serve, &at());
            check_peer::<R, N>(tally, data, &decoded, &at());
        }
        // Nothing lost on the accepted ones (a batch: when every element decoded; one
        // that did not has nothing to write back).
        let whole = |m: &&Message<R, N>| !matches!(m, Message::Batch(items) if items.iter().any(Result::is_err));
        if let Some(message) = decoded.as_ref().ok().filter(whole) {
            let bytes = jsonrpc::encode_to_vec(message);
            let serde_bytes = serde_json::to_vec(message);
            tally.agree(
                bytes.as_ref().ok() == serde_bytes.as_ref().ok() && bytes.is_ok(),
                || {
                    format!(
                        "{}: encode_to_vec {bytes:?}, serde_json::to_vec {serde_bytes:?}",
                        at()
                    )
                },
            );
            let Ok(bytes) = bytes else { continue };
            let back: Option<Value> = serde_json::from_slice(&bytes).ok();
            let input: Option<Value> = serde_json::from_slice(data).ok();
            // Numbers by value: an integer property reads `-0` or `1.0` and writes `0`, `1`.
            let same = match (&back, &input) {
                (Some(back), Some(input)) => mcp_spec_types::rt::strict::same_json(back, input),
                _ => false,
            };
            tally.agree(same, || {
                format!(
                    "{}: the message changed on the way back: {} became {}",
                    at(),
                    String::from_utf8_lossy(data),
                    String::from_utf8_lossy(&bytes)
                )
            });
            let again = jsonrpc::decode::<R, N>(&bytes, options);
            tally.agree(again.as_ref().ok() == Some(message), || {
                format!("{}: {message:?} decodes again as {again:?}", at())
            });
        }
    }
}

/// The serve path: `service::receive` (typed) and `serve_*_message` (the answer), against
/// `decode`.
fn check_serve<R, N>(
    tally: &mut Tally,
    data: &[u8],
    batches: bool,
    decoded: &Result<Message<R, N>, ProtocolError>,
    serve: &dyn Fn(&[u8]) -> Option<String>,
    at: &str,
) where
    R: MethodSet + std::fmt::Debug + PartialEq,
    N: MethodSet + std::fmt::Debug + PartialEq,
{
    let (items, batch) = match service::receive::<R, N>(data, batches) {
        service::Received::One(item) => (vec![item], false),
        service::Received::Batch(items) => (items, true),
    };
    let answer = serve(data);
    // What serve must give for one message that decode gave.
    fn expect<R: MethodSet + PartialEq, N: MethodSet + PartialEq>(
        m: &Message<R, N>,
        item: &Serve<R, N>,
        meta: &Option<serde_json::Map<String, Value>>,
    ) -> (bool, Option<String>) {
        match (m, item) {
            (
                Message::Request { id, request, .. },
                Serve::Request {
                    id: i,
                    request: r,
                    meta: m2,
                },
            ) => (
                id == i
                    && request == r
                    && (meta.is_none() || *meta == m2.as_ref().map(service::Meta::to_map)),
                Some(unhandled(id, request.method())),
            ),
            (
                Message::Notification { notification, .. },
                Serve::Notification {
                    notification: n,
                    meta: m2,
                },
            ) => (
                notification == n
                    && (meta.is_none() || *meta == m2.as_ref().map(service::Meta::to_map)),
                None,
            ),
            (Message::Response { .. } | Message::Error { .. }, Serve::Ignore) => (true, None),
            _ => (false, None),
        }
    }
    let (same, expected_answer) = match (decoded, items.as_slice(), batch) {
        (Ok(Message::Batch(messages)), _, true) if messages.len() == items.len() => {
            let mut same = true;
            let mut answers = Vec::new();
            for (m, item) in messages.iter().zip(&items) {
                let (s, a) = match (m, item) {
                    (Ok(m), item) => expect(m, item, &None),
                    (Err(e), Serve::Answer(a)) => (Some(a.clone()) == answer_of(e), answer_of(e)),
                    (Err(e), Serve::Ignore) => (e.notification, None),
                    (Err(_), _) => (false, None),
                };
                same &= s;
                answers.extend(a);
            }
            (same, service::batch_reply(answers))
        }
        (Ok(m), [item], false) => {
            let (s, a) = expect(m, item, &meta_of(data));
            (s, a)
        }
        (Err(e), [Serve::Answer(a)], false) => (Some(a.clone()) == answer_of(e), answer_of(e)),
        (Err(e), [Serve::Ignore], false) => (e.notification, None),
        // A batch refused whole (empty, or not allowed): serve refuses it the same way.
        (Err(e), items, true) => {
            let first = items.iter().find_map(|i| match i {
                Serve::Answer(a) => Some(Some(a.clone())),
                Serve::Ignore => None,
                _ => None,
            });
            let refused_notification =
                e.notification && items.iter().all(|i| !matches!(i, Serve::Answer(_)));
            (
                first == Some(answer_of(e)) || refused_notification,
                answer.clone(),
            )
        }
        _ => (false, None),
    };
    tally.agree(same, || {
        format!("{at}: service::receive {items:?}, decode {decoded:?}")
    });
    tally.agree(answer == expected_answer, || {
        format!(
            "{at}: serve answers {answer:?}, expected {expected_answer:?} from decode {decoded:?}"
        )
    });
    // route: a response (with the id it answers) exactly when decode gives one; a request
    // (with its id) when decode gives one or refuses its method or params; a cancellation
    // when decode reads a notification that names a request to cancel.
    let route = service::route(data);
    // A batch is incoming whatever its elements are (decode reports them one by one).
    let object = data.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{');
    let expected_route = match decoded {
        _ if !object => Route::Incoming,
        Ok(Message::Response { id, .. }) | Ok(Message::Error { id: Some(id), .. }) => {
            Route::Response(id.clone())
        }
        Ok(Message::Request { id, .. }) => Route::Request(id.clone()),
        Err(e) if !e.notification && matches!(e.code, -32601 | -32602) => match &e.id {
            Some(id) => Route::Request(id.clone()),
            None => Route::Incoming,
        },
        Ok(Message::Notification { .. }) => cancelled_request(data),
        Err(e) if e.notification && matches!(e.code, -32601 | -32602) => cancelled_request(data),
        _ => Route::Incoming,
    };
    tally.agree(route == expected_route, || {
        format!("{at}: route {route:?}, decode {decoded:?}")
    });
}

/// What a notification that decodes is to `route`: `notifications/cancelled` with a
/// `requestId` that is an id names the request to cancel; anything else is incoming.
fn cancelled_request(data: &[u8]) -> Route {
    let Ok(message) = serde_json::from_slice::<serde_json::Value>(data) else {
        return Route::Incoming;
    };
    if message["method"] != "notifications/cancelled" {
        return Route::Incoming;
    }
    match serde_json::from_value::<mcp_spec_types::rt::jsonrpc::Id>(
        message["params"]["requestId"].clone(),
    ) {
        Ok(request) => Route::Cancelled { request },
        Err(_) => Route::Incoming,
    }
}

/// The typed peer's response handling: the answer to its request 1 is the input.
fn check_peer<R, N>(
    tally: &mut Tally,
    data: &[u8],
    decoded: &Result<Message<R, N>, ProtocolError>,
    at: &str,
) where
    R: MethodSet + std::fmt::Debug + PartialEq,
    N: MethodSet + std::fmt::Debug + PartialEq,
{
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let peer = Peer::new(Answer(text.to_string()));
    let got = now(peer.request_raw("ping", None));
    let one = Id::Integer(1);
    let same = match (&got, decoded) {
        (Ok(raw), Ok(Message::Response { id, result, .. })) => *id == one && raw == result,
        (Err(service::CallError::Rejected(e)), Ok(Message::Error { id, error, .. })) => {
            (id.is_none() || id.as_ref() == Some(&one)) && e == error
        }
        (Err(service::CallError::InvalidResponse(_)), Ok(Message::Response { id, .. })) => {
            *id != one
        }
        (Err(service::CallError::InvalidResponse(_)), Ok(Message::Error { id, .. })) => {
            id.as_ref().is_some_and(|id| *id != one)
        }
        (Err(service::CallError::InvalidResponse(_)), Ok(_) | Err(_)) => true,
        _ => false,
    };
    tally.agree(same, || {
        format!("{at}: the typed peer got {got:?}, decode {decoded:?}")
    });
}

/// Runs every version's entry points on `data`.
pub fn decode_message(data: &[u8]) -> Tally {
    let mut tally = Tally::default();
    run(&mut tally, data);
    tally
}

/// Runs every version's entry points on `data`, adding to `tally`.
pub fn run(tally: &mut Tally, data: &[u8]) {
    tally.inputs += 1;
    macro_rules! each {
        ($($v:ident),*) => {$(
            {
                use mcp_spec_types::$v::{handlers as h, methods as m};
                struct Nothing;
                impl h::ServerHandler for Nothing {}
                impl h::ClientHandler for Nothing {}
                let client_peer = h::ClientPeer(Peer::new(Answer(String::new())));
                let server_peer = h::ServerPeer(Peer::new(Answer(String::new())));
                // The server receives the client's messages and results, and the other way round.
                check::<m::ClientRequest, m::ClientNotification, m::ClientResult, _>(
                    tally, data, stringify!($v), "client", m::BATCHES, m::Method::ALL,
                    |b, u| m::decode_from_client(b, u),
                    |b| now(h::serve_client_message(&Nothing, &service::Open, &client_peer, b)),
                );
                check::<m::ServerRequest, m::ServerNotification, m::ServerResult, _>(
                    tally, data, stringify!($v), "server", m::BATCHES, m::Method::ALL,
                    |b, u| m::decode_from_server(b, u),
                    |b| now(h::serve_server_message(&Nothing, &service::Open, &server_peer, b)),
                );
            }
        )*};
    }
    each!(
        v2024_11_05,
        v2025_03_26,
        v2025_06_18,
        v2025_11_25,
        v2026_07_28,
        draft
    );
}

/// A small deterministic generator (xorshift64*), so the stable corpus run is repeatable.
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Rng {
        Rng(seed.max(1))
    }

    /// The next number.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number below `n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// `count` byte-level mutants of `seed`: bit flips, inserted and deleted bytes, copied
/// spans, truncations, and JSON punctuation dropped in.
pub fn mutate(seed: &[u8], count: usize, rng: &mut Rng) -> Vec<Vec<u8>> {
    const PUNCT: &[u8] = b"{}[]\",:0-e.\\ntfu";
    (0..count)
        .map(|_| {
            let mut m = seed.to_vec();
            for _ in 0..1 + rng.below(4) {
                if m.is_empty() {
                    m.push(PUNCT[rng.below(PUNCT.len())]);
                    continue;
                }
                let at = rng.below(m.len());
                match rng.below(6) {
                    0 => m[at] ^= 1 << rng.below(8),
                    1 => m.insert(at, PUNCT[rng.below(PUNCT.len())]),
                    2 => {
                        m.remove(at);
                    }
                    3 => m.truncate(at),
                    4 => {
                        let end = (at + 1 + rng.below(16)).min(m.len());
                        let span = m[at..end].to_vec();
                        let to = rng.below(m.len());
                        m.splice(to..to, span);
                    }
                    _ => m[at] = rng.next_u64() as u8,
                }
            }
            m
        })
        .collect()
}
