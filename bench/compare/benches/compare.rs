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
//!
//! After the run, a summary read from criterion's records of this run: per group, each
//! decoder's MB/s and its time over `IgnoredAny`'s (× floor); then, per decoder, the time
//! summed over the real traffic and the large synthetic messages, and rmcp's total over
//! ours.

use std::collections::BTreeMap;
use std::hint::black_box;
use std::path::Path;
use std::time::Duration;

use criterion::{BenchmarkGroup, Criterion, Throughput};
use mcp_bench::criterion_home;
use mcp_compare::corpus::{self, VERSIONS};
use mcp_compare::{Case, Decoder, ours, outcome, proxy, rmcp, rms, typify, value};

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
                black_box(D::decode_observed(black_box(case)));
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
            decode::<proxy::Proxy>(&mut group, &cases);
            decode::<rmcp::Rmcp>(&mut group, &cases);
            decode::<rms::RustMcpSchema>(&mut group, &cases);
            decode::<typify::Typify>(&mut group, &cases);
            decode::<value::JsonValue>(&mut group, &cases);
            decode::<value::Ignored>(&mut group, &cases);
            group.finish();
            let mut group = c.benchmark_group(format!("encode/{id}"));
            encode::<ours::Ours>(&mut group, &cases);
            encode::<proxy::Proxy>(&mut group, &cases);
            encode::<rmcp::Rmcp>(&mut group, &cases);
            encode::<rms::RustMcpSchema>(&mut group, &cases);
            encode::<typify::Typify>(&mut group, &cases);
            encode::<value::JsonValue>(&mut group, &cases);
            group.finish();
        }
    }
}

/// One measurement of this run: its group, the decoder (the function id without the
/// `[n of m]` of a partial one), whether it measured every message of the group, its
/// median time in seconds and the bytes it measured.
struct Measured {
    group: String,
    decoder: String,
    whole: bool,
    seconds: f64,
    bytes: f64,
}

/// Every record of this run under `home` (`<group>/<function>/new/`).
fn records(home: &Path) -> Vec<Measured> {
    let mut out = Vec::new();
    let Ok(groups) = std::fs::read_dir(home) else {
        return out;
    };
    for group in groups.flatten() {
        let Ok(functions) = std::fs::read_dir(group.path()) else {
            continue;
        };
        for function in functions.flatten() {
            let new = function.path().join("new");
            let read = |name: &str| -> Option<serde_json::Value> {
                serde_json::from_str(&std::fs::read_to_string(new.join(name)).ok()?).ok()
            };
            let estimates = std::fs::read_to_string(new.join("estimates.json")).ok();
            let (Some(bench), Some(estimates)) = (read("benchmark.json"), estimates) else {
                continue;
            };
            let text = |key: &str| bench.get(key).and_then(|v| v.as_str()).map(str::to_string);
            let (Some(group), Some(function)) = (text("group_id"), text("function_id")) else {
                continue;
            };
            if !group.starts_with("decode/") && !group.starts_with("encode/") {
                continue;
            }
            let seconds = mcp_bench::median_of(&estimates);
            let bytes = bench.pointer("/throughput/Bytes").and_then(|v| v.as_f64());
            let (Some(seconds), Some(bytes)) = (seconds, bytes) else {
                continue;
            };
            let (decoder, whole) = match function.split_once(" [") {
                Some((name, _)) => (name.to_string(), false),
                None => (function.clone(), true),
            };
            out.push(Measured {
                group,
                decoder,
                whole,
                seconds,
                bytes,
            });
        }
    }
    out
}

/// The decoders, in the order of the tables.
const DECODERS: [&str; 7] = [
    "ours",
    "proxy",
    "rmcp",
    "rust-mcp-schema",
    "typify",
    "Value",
    "IgnoredAny",
];

/// Prints the summary of the run (see the module docs).
fn summary() {
    let Some(home) = criterion_home() else {
        return;
    };
    let all = records(&home);
    if all.is_empty() {
        return;
    }
    let mut by_group: BTreeMap<&str, BTreeMap<&str, &Measured>> = BTreeMap::new();
    for m in &all {
        by_group
            .entry(m.group.as_str())
            .or_default()
            .insert(m.decoder.as_str(), m);
    }
    for side in ["decode", "encode"] {
        println!();
        println!(
            "Summary, {side} (medians of this run): MB/s of the messages each measured (a decoder that failed on some is measured on the rest: *), and time over IgnoredAny's (x floor, decode only)"
        );
        println!();
        let decoders: Vec<&str> = DECODERS
            .iter()
            .copied()
            .filter(|d| side == "decode" || *d != "IgnoredAny")
            .collect();
        println!("| group | {} |", decoders.join(" | "));
        println!("| --- |{}", " ---: |".repeat(decoders.len()));
        for (group, row) in by_group.iter().filter(|(g, _)| g.starts_with(side)) {
            let floor = row.get("IgnoredAny").map(|m| m.seconds);
            let cells: Vec<String> = decoders
                .iter()
                .map(|d| match row.get(d) {
                    None => "n/a".to_string(),
                    Some(m) => {
                        let mb = m.bytes / m.seconds / 1e6;
                        let star = if m.whole { "" } else { "*" };
                        match floor {
                            Some(f) if side == "decode" && m.whole => {
                                format!("{mb:.0}{star} ({:.1}x)", m.seconds / f)
                            }
                            _ => format!("{mb:.0}{star}"),
                        }
                    }
                })
                .collect();
            let group = group.trim_start_matches(side).trim_start_matches('/');
            println!("| {group} | {} |", cells.join(" | "));
        }
    }
    // The real traffic and the large synthetic messages, per version: each decoder's time
    // summed over the groups it measured whole.
    println!();
    println!(
        "Totals (decode, medians of this run): time over the real traffic and the synthetic messages of each version, summed over the groups a decoder measured whole; rmcp / ours, rmcp / proxy"
    );
    println!();
    println!(
        "| version | groups | ours ms | proxy ms | rmcp ms | rmcp / ours | rmcp / proxy | Value ms | Value / ours |"
    );
    println!("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    for version in ["2025-06-18", "2025-11-25", "2026-07-28"] {
        let groups: Vec<&BTreeMap<&str, &Measured>> = by_group
            .iter()
            .filter(|(g, _)| {
                g.starts_with(&format!("decode/traffic/{version}/"))
                    || g.starts_with(&format!("decode/synthetic/{version}/"))
            })
            .map(|(_, row)| row)
            .filter(|row| {
                ["ours", "proxy", "rmcp", "Value"]
                    .iter()
                    .all(|d| row.get(d).is_some_and(|m| m.whole))
            })
            .collect();
        if groups.is_empty() {
            continue;
        }
        let total = |d: &str| groups.iter().map(|row| row[d].seconds).sum::<f64>();
        let (ours, proxy, rmcp, value) =
            (total("ours"), total("proxy"), total("rmcp"), total("Value"));
        println!(
            "| {version} | {} | {:.2} | {:.2} | {:.2} | {:.2} | {:.2} | {:.2} | {:.2} |",
            groups.len(),
            ours * 1e3,
            proxy * 1e3,
            rmcp * 1e3,
            rmcp / ours,
            rmcp / proxy,
            value * 1e3,
            value / ours
        );
    }
}

fn main() {
    let mut c = Criterion::default()
        // About 300 measurements by default: short ones.
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(20)
        .configure_from_args();
    compare(&mut c);
    c.final_summary();
    summary();
}
