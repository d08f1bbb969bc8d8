//! Any bytes, as a message of every protocol version from either side: decoding never
//! panics, and what decodes round-trips (see `mcp_tests::fuzz`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let tally = mcp_tests::fuzz::decode_message(data);
    assert!(tally.disagreements.is_empty(), "{:#?}", tally.disagreements);
});
