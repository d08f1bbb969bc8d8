//! Decodes the real traffic and the synthetic messages of one version with one decoder,
//! `N` times, for counting instructions with callgrind (time on a shared machine moves
//! between runs; instructions do not):
//!
//! ```sh
//! cargo build --release -p mcp-compare --example count
//! valgrind --tool=callgrind --collect-atstart=no --toggle-collect='count::measured' \
//!     target/release/examples/count proxy 2025-11-25 1
//! ```
//!
//! Decoders: `ours`, `proxy`, `rmcp`, `Value`, `IgnoredAny`. Only `measured` (the `N`
//! passes) is counted. An optional fourth argument keeps the groups whose name
//! (`synthetic/results`, `traffic/requests`) contains it.

use std::process::ExitCode;

use mcp_compare::{Case, Decoder, corpus, ours, outcome, proxy, rmcp, value};

/// The `passes` passes over `cases`: the one function callgrind counts.
#[inline(never)]
fn measured<D: Decoder>(cases: &[&Case], passes: usize) -> usize {
    let mut decoded = 0;
    for _ in 0..passes {
        for case in cases {
            decoded += usize::from(D::decode_observed(std::hint::black_box(case)));
        }
    }
    decoded
}

fn run<D: Decoder>(cases: &[&Case], passes: usize) -> usize {
    // Only what the decoder decodes, as the benchmark measures it.
    let accepted: Vec<&Case> = cases
        .iter()
        .copied()
        .filter(|c| D::decode(c).is_ok())
        .collect();
    measured::<D>(&accepted, passes)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [decoder, version, passes, rest @ ..] = args.as_slice() else {
        eprintln!("usage: count DECODER VERSION PASSES [GROUP]");
        return ExitCode::FAILURE;
    };
    let Ok(passes) = passes.parse::<usize>() else {
        eprintln!("PASSES is a number: {passes}");
        return ExitCode::FAILURE;
    };
    let mut cases = Vec::new();
    let corpora = corpus::all();
    for corpus in corpora
        .iter()
        .filter(|c| matches!(c.name, "synthetic" | "traffic"))
    {
        for ((name, v, kind), group) in outcome::groups(corpus.name, &corpus.cases) {
            let label = format!("{name}/{}", kind.group());
            let wanted = rest.first().is_none_or(|g| label.contains(g.as_str()));
            if corpus::VERSIONS.get(v) == Some(&version.as_str()) && wanted {
                cases.extend(group);
            }
        }
    }
    let decoded = match decoder.as_str() {
        "ours" => run::<ours::Ours>(&cases, passes),
        "proxy" => run::<proxy::Proxy>(&cases, passes),
        "rmcp" => run::<rmcp::Rmcp>(&cases, passes),
        "Value" => run::<value::JsonValue>(&cases, passes),
        "IgnoredAny" => run::<value::Ignored>(&cases, passes),
        other => {
            eprintln!("no decoder {other}");
            return ExitCode::FAILURE;
        }
    };
    println!(
        "{decoded} of {} messages decoded, {passes} passes",
        cases.len()
    );
    ExitCode::SUCCESS
}
