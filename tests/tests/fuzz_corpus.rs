//! The fuzz harness on stable: every official example message (2026-07-28, as upstream
//! wrote it: members in their order, indented) plus a set of
//! messages of the other eras, each with 300 deterministic byte-level mutants, through
//! `mcp_tests::fuzz::decode_message` (every version, both sides, unknown methods
//! rejected and kept). Decoding never panics; what decodes round-trips exactly.
//! `fuzz/` runs the same harness under libFuzzer on a nightly toolchain.

use mcp_tests::fuzz::{Rng, Tally, mutate, run};

fn seeds() -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let dir = mcp_tests::root().join("schema/2026-07-28/examples");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .expect("examples")
        .flatten()
        .flat_map(|d| {
            std::fs::read_dir(d.path())
                .expect("folder")
                .flatten()
                .map(|f| f.path())
        })
        .collect();
    files.sort();
    for f in files {
        let text = std::fs::read(&f).expect("read");
        let v: serde_json::Value = serde_json::from_slice(&text).expect("json");
        if v.get("jsonrpc").is_some() {
            // As upstream wrote it: a union's tag first, so decoded straight into its arm
            // by `decode`, while `decode_value` reads the `Value`'s sorted members.
            out.push(text);
        }
    }
    for s in [
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}"#,
        r#"[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/initialized"}]"#,
        r#"{"jsonrpc":"2.0","id":"x","method":"tools/call","params":{"name":"t","arguments":{"a":[1,2.5,null,true]},"task":{"ttl":5}}}"#,
        r#"{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"hi"}]}}"#,
        r#"{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"bad","data":{"path":"params.name"}}}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p","progress":0.5,"total":1}}"#,
        r#"{"jsonrpc":"2.0","id":4,"method":"sampling/createMessage","params":{"messages":[],"maxTokens":5}}"#,
    ] {
        out.push(s.as_bytes().to_vec());
    }
    out
}

#[test]
fn seeded_corpus_through_the_fuzz_harness() {
    let seeds = seeds();
    assert!(seeds.len() >= 30, "{} seeds", seeds.len());
    let mut rng = Rng::new(0x5EED);
    let mut tally = Tally::default();
    for seed in &seeds {
        run(&mut tally, seed);
        for mutant in mutate(seed, 300, &mut rng) {
            run(&mut tally, &mutant);
        }
    }
    println!(
        "{} seeds, {} inputs, {} runs, {} comparisons, {} accepted, refused by code {:?}, {} disagreements",
        seeds.len(),
        tally.inputs,
        tally.runs,
        tally.comparisons,
        tally.accepted,
        tally.refused,
        tally.disagreements.len()
    );
    assert!(
        tally.disagreements.is_empty(),
        "entry points disagree:\n{}",
        tally.disagreements.join("\n")
    );
}
