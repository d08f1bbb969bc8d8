//! The fuzz harness: what `fuzz/fuzz_targets/decode_message.rs` runs under libFuzzer
//! (nightly, `cargo fuzz run decode_message`), and what `tests/tests/fuzz_corpus.rs` runs
//! on stable over a seeded corpus so that CI exercises it.
//!
//! For any bytes, in every protocol version, as a message from a client and from a
//! server, with unknown methods rejected and kept: decoding never panics, and a message
//! that decodes encodes to JSON that decodes to the same message. The one-pass entry
//! point (`decode`, bytes) and the one over a parsed value (`decode_value`) agree on
//! every input: the same message or the same error, and so does `receive`; `receive_typed`
//! gives what `receive` and then `decode_text` of the result give, for a method picked from
//! the input; and the one-pass encoder (`encode_to_vec`) writes what `encode` builds, in
//! the bytes `serde_json::to_vec` writes.

use mcp_spec_types::rt::jsonrpc::{
    self, Id, Incoming, Message, MethodSet, Options, ResultSet, UnknownMethods,
};

fn check<R, N, S>(data: &[u8], version: &str, side: &str, methods: &[S::Method])
where
    R: MethodSet + std::fmt::Debug + PartialEq,
    N: MethodSet + std::fmt::Debug + PartialEq,
    S: ResultSet + serde::Serialize + std::fmt::Debug + PartialEq,
{
    for unknown_methods in [UnknownMethods::Reject, UnknownMethods::Keep] {
        let options = Options {
            unknown_methods,
            batches: true,
        };
        let decoded = jsonrpc::decode::<R, N>(data, options);
        // The one-pass entry point agrees with decoding the parsed value.
        let via_value = serde_json::from_slice::<serde_json::Value>(data)
            .map(|v| jsonrpc::decode_value::<R, N>(v, options));
        match (&decoded, &via_value) {
            (Ok(a), Ok(Ok(b))) => {
                assert_eq!(a, b, "{version} {side}: decode and decode_value differ")
            }
            (Err(a), Ok(Err(b))) => assert_eq!(
                format!("{a:?}"),
                format!("{b:?}"),
                "{version} {side}: decode and decode_value fail differently"
            ),
            // Cut short: not JSON for either.
            (a, Err(e)) if e.classify() == serde_json::error::Category::Eof => assert!(
                matches!(a, Err(a) if a.code == jsonrpc::codes::PARSE_ERROR),
                "{version} {side}: truncated input, but decode gives {a:?}"
            ),
            // JSON a `Value` cannot hold (a number beyond f64, a lone surrogate, nesting
            // past serde_json's limit) or that is not JSON: the one-pass decoder may still
            // read the envelope when the trouble is in a member it skips.
            (_, Err(_)) => {}
            (a, b) => panic!("{version} {side}: decode gives {a:?}, decode_value {b:?}"),
        }
        // `parse(..).response()` finds exactly the result responses `decode` finds.
        if let Ok(parsed) = jsonrpc::parse(data) {
            let response = parsed.response().map(|(id, raw)| {
                (
                    id,
                    serde_json::from_str::<serde_json::Value>(raw.get()).ok(),
                )
            });
            let expected = match &decoded {
                Ok(Message::Response { id, result }) => Some((id.clone(), Some(result.clone()))),
                _ => None,
            };
            assert_eq!(
                response, expected,
                "{version} {side}: parse().response() and decode differ"
            );
        }
        // `receive` (one pass where it can) gives what `decode` gives, a result response
        // with its raw result.
        match (jsonrpc::receive::<R, N>(data, options), &decoded) {
            (Ok(jsonrpc::Received::Message(a)), Ok(b)) => {
                assert_eq!(&a, b, "{version} {side}: receive and decode differ")
            }
            (
                Ok(jsonrpc::Received::Result { id, result }),
                Ok(Message::Response { id: i, result: r }),
            ) => {
                assert_eq!(
                    (
                        &id,
                        serde_json::from_str::<serde_json::Value>(result.get())
                            .ok()
                            .as_ref()
                    ),
                    (i, Some(r)),
                    "{version} {side}: receive and decode differ on a response"
                )
            }
            (Err(a), Err(b)) => assert_eq!(
                format!("{a:?}"),
                format!("{b:?}"),
                "{version} {side}: receive and decode fail differently"
            ),
            (a, b) => panic!("{version} {side}: receive gives {a:?}, decode {b:?}"),
        }
        check_typed::<R, N, S>(data, options, version, side, methods);
        let Ok(message) = decoded else {
            continue;
        };
        let encoded = jsonrpc::encode(&message)
            .unwrap_or_else(|e| panic!("{version} {side}: a decoded message does not encode: {e}"));
        let bytes = jsonrpc::encode_to_vec(&message)
            .unwrap_or_else(|e| panic!("{version} {side}: a decoded message does not encode: {e}"));
        assert_eq!(
            serde_json::from_slice::<serde_json::Value>(&bytes)
                .ok()
                .as_ref(),
            Some(&encoded),
            "{version} {side}: encode_to_vec and encode differ"
        );
        assert_eq!(
            bytes,
            serde_json::to_vec(&message).unwrap(),
            "{version} {side}: encode_to_vec and serde_json::to_vec write different bytes"
        );
        let again: Message<R, N> = jsonrpc::decode_value(encoded.clone(), options)
            .unwrap_or_else(|e| panic!("{version} {side}: {encoded} does not decode again: {e}"));
        assert_eq!(
            again, message,
            "{version} {side}: the round trip changed the message"
        );
    }
}

/// `receive_typed` gives what `receive` gives, a result decoded by `decode_text` of the
/// method the caller names: here one of `methods` picked from the input, or none (the
/// result then stays raw).
fn check_typed<R, N, S>(
    data: &[u8],
    options: Options,
    version: &str,
    side: &str,
    methods: &[S::Method],
) where
    R: MethodSet + std::fmt::Debug + PartialEq,
    N: MethodSet + std::fmt::Debug + PartialEq,
    S: ResultSet + serde::Serialize + std::fmt::Debug + PartialEq,
{
    let pick = data.iter().fold(data.len(), |h, b| {
        h.wrapping_mul(31).wrapping_add(usize::from(*b))
    });
    let method = pick
        .checked_rem(methods.len() + 1)
        .and_then(|i| methods.get(i).copied());
    let mut asked = 0;
    let typed = jsonrpc::receive_typed::<R, N, S>(data, options, |_: &Id| {
        asked += 1;
        method
    });
    assert!(
        asked <= 1 || data.windows(4).filter(|w| w == b"\"id\"").count() > 1,
        "{version} {side}: the caller was asked {asked} times"
    );
    match (typed, jsonrpc::receive::<R, N>(data, options)) {
        (Ok(Incoming::Message(a)), Ok(jsonrpc::Received::Message(b))) => {
            assert_eq!(a, b, "{version} {side}: receive_typed and receive differ")
        }
        (
            Ok(Incoming::Result { id, result }),
            Ok(jsonrpc::Received::Result { id: i, result: raw }),
        ) => {
            let expected = S::decode_text(method.expect("a method was named"), raw);
            assert_eq!(
                id, i,
                "{version} {side}: receive_typed and receive differ on the id"
            );
            assert_eq!(
                format!("{result:?}"),
                format!("{expected:?}"),
                "{version} {side}: receive_typed and decode_text differ"
            );
            if let Ok(typed) = &result {
                assert_eq!(
                    mcp_spec_types::rt::write::to_vec(typed).unwrap(),
                    serde_json::to_vec(typed).unwrap(),
                    "{version} {side}: rt::write::to_vec and serde_json::to_vec write different bytes"
                );
            }
        }
        (
            Ok(Incoming::Unmatched { id, result }),
            Ok(jsonrpc::Received::Result { id: i, result: raw }),
        ) => {
            assert!(
                method.is_none(),
                "{version} {side}: a named method left the result raw"
            );
            assert_eq!(
                (id, result.get()),
                (i, raw.get()),
                "{version} {side}: unmatched result differs"
            );
        }
        (Err(a), Err(b)) => assert_eq!(
            format!("{a:?}"),
            format!("{b:?}"),
            "{version} {side}: receive_typed and receive fail differently"
        ),
        (a, b) => panic!("{version} {side}: receive_typed gives {a:?}, receive {b:?}"),
    }
}

/// Runs every version's message entry points on `data`.
pub fn decode_message(data: &[u8]) {
    macro_rules! each {
        ($($v:ident),*) => {$(
            {
                use mcp_spec_types::$v::methods as m;
                // The server receives the client's messages and results, and the other way round.
                check::<m::ClientRequest, m::ClientNotification, m::ClientResult>(data, stringify!($v), "client", m::Method::ALL);
                check::<m::ServerRequest, m::ServerNotification, m::ServerResult>(data, stringify!($v), "server", m::Method::ALL);
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
