//! Decode and encode throughput of every decoder on the same messages, in one criterion
//! run: one group per corpus, protocol version and kind of message
//! (`decode/examples/2026-07-28/requests`), every decoder that models the version in it,
//! side by side.
//!
//! A decoder is measured on the messages it decodes (a rejected message would be cheap
//! and flatter it); its id then says how many of the group's (`rmcp [9 of 11]`), and the
//! throughput counts those messages' bytes only. Encoding is measured from what it
//! decoded, to bytes; `IgnoredAny` only decodes.
//!
//! By default: the official examples, the examples adopted by 2025-06-18 and 2025-11-25
//! (typify's and rust-mcp-schema's versions), the synthetic messages of 2025-06-18,
//! 2025-11-25 and 2026-07-28, and all the traffic. `MCP_COMPARE_ALL=1`: every version
//! of every corpus.

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkGroup, Criterion, Throughput, criterion_group, criterion_main};
use mcp_compare::corpus::{self, VERSIONS};
use mcp_compare::{Case, Decoder, ours, outcome, rmcp, rms, typify, value};

type Group<'a> = BenchmarkGroup<'a, criterion::measurement::WallTime>;

fn label<D: Decoder>(measured: usize, all: usize) -> String {
    if measured == all {
        D::NAME.to_string()
    } else {
        format!("{} [{measured} of {all}]", D::NAME)
    }
}

fn decode<D: Decoder>(group: &mut Group<'_>, cases: &[&Case]) {
    if !cases.first().is_some_and(|c| D::supports(c.version)) {
        return;
    }
    let accepted: Vec<&Case> = cases
        .iter()
        .copied()
        .filter(|c| D::decode(c).is_ok())
        .collect();
    if accepted.is_empty() {
        return;
    }
    let bytes = accepted.iter().map(|c| c.bytes.len() as u64).sum();
    group.throughput(Throughput::Bytes(bytes));
    group.bench_function(label::<D>(accepted.len(), cases.len()), |b| {
        b.iter(|| {
            for case in &accepted {
                let _ = black_box(D::decode(black_box(case)));
            }
        })
    });
}

fn encode<D: Decoder>(group: &mut Group<'_>, cases: &[&Case]) {
    if !cases.first().is_some_and(|c| D::supports(c.version)) {
        return;
    }
    let decoded: Vec<(u64, D::Decoded)> = cases
        .iter()
        .filter_map(|c| D::decode(c).ok().map(|d| (c.bytes.len() as u64, d)))
        .filter(|(_, d)| D::encode(d).is_some_and(|r| r.is_ok()))
        .collect();
    if decoded.is_empty() {
        return;
    }
    group.throughput(Throughput::Bytes(decoded.iter().map(|(n, _)| n).sum()));
    group.bench_function(label::<D>(decoded.len(), cases.len()), |b| {
        b.iter(|| {
            for (_, d) in &decoded {
                let _ = black_box(D::encode(black_box(d)));
            }
        })
    });
}

/// Whether a group is measured by default (see the module docs).
fn measured(corpus: &str, version: &str) -> bool {
    std::env::var_os("MCP_COMPARE_ALL").is_some()
        || match corpus {
            "adopted" => matches!(version, "2025-06-18" | "2025-11-25"),
            "synthetic" => matches!(version, "2025-06-18" | "2025-11-25" | "2026-07-28"),
            _ => true,
        }
}

fn compare(c: &mut Criterion) {
    for corpus in corpus::all() {
        for ((name, v, kind), cases) in outcome::groups(corpus.name, &corpus.cases) {
            let version = VERSIONS.get(v).copied().unwrap_or("?");
            if !measured(name, version) {
                continue;
            }
            let id = format!("{name}/{version}/{}", kind.group());
            let mut group = c.benchmark_group(format!("decode/{id}"));
            decode::<ours::Ours>(&mut group, &cases);
            decode::<rmcp::Rmcp>(&mut group, &cases);
            decode::<rms::RustMcpSchema>(&mut group, &cases);
            decode::<typify::Typify>(&mut group, &cases);
            decode::<value::JsonValue>(&mut group, &cases);
            decode::<value::Ignored>(&mut group, &cases);
            group.finish();
            let mut group = c.benchmark_group(format!("encode/{id}"));
            encode::<ours::Ours>(&mut group, &cases);
            encode::<rmcp::Rmcp>(&mut group, &cases);
            encode::<rms::RustMcpSchema>(&mut group, &cases);
            encode::<typify::Typify>(&mut group, &cases);
            encode::<value::JsonValue>(&mut group, &cases);
            group.finish();
        }
    }
}

criterion_group! {
    name = benches;
    // About 300 measurements by default: short ones.
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(20);
    targets = compare
}
criterion_main!(benches);
