//! Decode and encode throughput of the corpus (see `mcp_bench`), per protocol version and
//! message group, side by side in one run:
//!
//! - `decode_typed`: the typed entry point (`methods::decode_from_client` /
//!   `decode_from_server`, then `ServerResult::decode` / `ClientResult::decode` for a
//!   response, so the whole payload is typed);
//! - `decode_value`: `serde_json::from_slice::<serde_json::Value>`;
//! - `decode_ignored`: `serde_json::from_slice::<serde::de::IgnoredAny>`, the floor: only
//!   validating the JSON;
//! - `encode_typed`: the decoded messages back to bytes in one pass
//!   (`rt::jsonrpc::encode_to_vec`, `rt::jsonrpc::encode_response`);
//! - `encode_value`: `serde_json::to_vec` of the parsed `Value`s.
//!
//! Each iteration handles every message of the group. Criterion reports time and MB/s
//! (10^6 bytes of input per second); the summary at the end adds messages per second and
//! the ratios. By default the synthetic groups run for 2025-11-25 and 2026-07-28 and the
//! examples for every version that has them; `MCP_BENCH_ALL_VERSIONS=1` runs the synthetic
//! groups for every version.
//!
//! `cargo bench -p mcp-bench --bench codec` (add `-- <filter>` to run some groups only,
//! e.g. `-- v2026_07_28.tools_list`).

use std::cell::RefCell;
use std::collections::BTreeSet;
use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, SamplingMode, Throughput};
use mcp_bench::{
    Corpus, DecodedOf, EachVersion, Group, Observe, Typed, corpus, criterion_home,
    criterion_median, each_version,
};
use serde::de::IgnoredAny;
use serde_json::Value;

/// Versions whose synthetic groups run by default.
const DEFAULT_SYNTHETIC: &[&str] = &["2025-11-25", "2026-07-28"];

/// The functions of every group, in the order they run.
const FUNCTIONS: [&str; 5] = [
    "decode_typed",
    "decode_value",
    "decode_ignored",
    "encode_typed",
    "encode_value",
];

/// A group that ran (at least one of its functions did).
struct Ran {
    id: String,
    bytes: u64,
    messages: usize,
}

struct Bench<'a> {
    c: &'a mut Criterion,
    all_versions: bool,
    ran: Vec<Ran>,
}

impl EachVersion for Bench<'_> {
    fn visit<T: Typed>(&mut self) {
        let corpus: Corpus = corpus::<T>().unwrap_or_else(|e| panic!("{}: {e}", T::VERSION));
        for (name, why) in &corpus.skipped {
            eprintln!("note: {} example {name} left out: {why}", T::VERSION);
        }
        for group in &corpus.groups {
            let synthetic = group.name != "examples" && !group.name.starts_with("traffic");
            if synthetic && !self.all_versions && !DEFAULT_SYNTHETIC.contains(&T::VERSION) {
                continue;
            }
            if let Some(ran) = bench_group::<T>(self.c, group) {
                self.ran.push(ran);
            }
        }
    }
}

/// Measures one group; `Some` if any of its functions ran (was not filtered out).
fn bench_group<T: Typed>(c: &mut Criterion, group: &Group) -> Option<Ran> {
    let id = format!("{}.{}", T::MODULE, group.name);
    let entries = &group.entries;
    let decoded: Vec<DecodedOf<T>> = entries
        .iter()
        .map(|e| T::decode(e).unwrap_or_else(|err| panic!("{id} {}: {err}", e.name)))
        .collect();
    let values: Vec<Value> = entries
        .iter()
        .map(|e| serde_json::from_slice(&e.bytes).expect("the corpus is JSON"))
        .collect();
    let ran = RefCell::new(BTreeSet::new());
    let mark = |f: &'static str| {
        ran.borrow_mut().insert(f);
    };

    let mut g = c.benchmark_group(&id);
    g.throughput(Throughput::BytesDecimal(group.bytes()));
    if group.bytes() > 64 * 1024 {
        g.sampling_mode(SamplingMode::Flat);
    }
    g.bench_function("decode_typed", |b| {
        mark("decode_typed");
        b.iter(|| {
            for e in entries {
                T::decode_to::<Observe>(black_box(e)).expect("decoded before");
            }
        })
    });
    g.bench_function("decode_value", |b| {
        mark("decode_value");
        b.iter(|| {
            for e in entries {
                black_box(serde_json::from_slice::<Value>(black_box(&e.bytes)).unwrap());
            }
        })
    });
    g.bench_function("decode_ignored", |b| {
        mark("decode_ignored");
        b.iter(|| {
            for e in entries {
                black_box(serde_json::from_slice::<IgnoredAny>(black_box(&e.bytes)).unwrap());
            }
        })
    });
    g.bench_function("encode_typed", |b| {
        mark("encode_typed");
        b.iter(|| {
            for d in &decoded {
                black_box(T::encode(black_box(d)).expect("encodes"));
            }
        })
    });
    g.bench_function("encode_value", |b| {
        mark("encode_value");
        b.iter(|| {
            for v in &values {
                black_box(serde_json::to_vec(black_box(v)).unwrap());
            }
        })
    });
    g.finish();
    (!ran.borrow().is_empty()).then(|| Ran {
        id,
        bytes: group.bytes(),
        messages: group.len(),
    })
}

/// The summary: MB/s and messages/s of each function, and the ratios of the typed entry
/// point's time to the others', from this run's medians; with `MCP_BENCH_BEST_OF` (a
/// comma-separated list of baselines saved with `--save-baseline`, as `bench/best-of.sh`
/// runs it) also from the fastest of those runs' medians, function by function. The last
/// row is the whole corpus: every group's messages once.
fn summary(ran: &[Ran]) {
    let Some(home) = criterion_home() else {
        return;
    };
    let rows: Vec<(&Ran, [Option<f64>; 5])> = ran
        .iter()
        .map(|r| {
            (
                r,
                FUNCTIONS.map(|f| criterion_median(&home, &r.id, f, "new")),
            )
        })
        .collect();
    if rows.iter().all(|(_, t)| t.iter().all(Option::is_none)) {
        return;
    }
    table("medians of this run", &rows);
    let Ok(runs) = std::env::var("MCP_BENCH_BEST_OF") else {
        return;
    };
    let runs: Vec<&str> = runs.split(',').filter(|r| !r.is_empty()).collect();
    let best: Vec<(&Ran, [Option<f64>; 5])> = ran
        .iter()
        .map(|r| {
            let fastest = FUNCTIONS.map(|f| {
                runs.iter()
                    .filter_map(|run| criterion_median(&home, &r.id, f, run))
                    .min_by(f64::total_cmp)
            });
            (r, fastest)
        })
        .collect();
    table(
        &format!(
            "the fastest median of {} runs ({}), function by function",
            runs.len(),
            runs.join(", ")
        ),
        &best,
    );
}

/// Prints one summary table.
fn table(what: &str, rows: &[(&Ran, [Option<f64>; 5])]) {
    let mb = |bytes: u64, t: Option<f64>| {
        t.map_or("n/a".to_string(), |t| {
            format!("{:.1}", bytes as f64 / t / 1e6)
        })
    };
    let per_s = |messages: usize, t: Option<f64>| {
        t.map_or("n/a".to_string(), |t| {
            let x = messages as f64 / t;
            if x >= 1e6 {
                format!("{:.2}M", x / 1e6)
            } else if x >= 1e3 {
                format!("{:.1}k", x / 1e3)
            } else {
                format!("{x:.1}")
            }
        })
    };
    let ratio = |a: Option<f64>, b: Option<f64>| match (a, b) {
        (Some(a), Some(b)) => format!("{:.2}x", a / b),
        _ => "n/a".to_string(),
    };
    println!();
    println!(
        "Summary ({what}; MB = 10^6 bytes of compact input JSON; ratio = time of typed / time of the other)"
    );
    println!();
    println!(
        "| group | bytes | msgs | decode typed MB/s | msg/s | Value MB/s | IgnoredAny MB/s | typed/IgnoredAny | typed/Value | encode typed MB/s | msg/s | Value MB/s | typed/Value |"
    );
    println!(
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
    );
    let row = |id: &str, bytes: u64, messages: usize, t: &[Option<f64>; 5]| {
        println!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            id,
            bytes,
            messages,
            mb(bytes, t[0]),
            per_s(messages, t[0]),
            mb(bytes, t[1]),
            mb(bytes, t[2]),
            ratio(t[0], t[2]),
            ratio(t[0], t[1]),
            mb(bytes, t[3]),
            per_s(messages, t[3]),
            mb(bytes, t[4]),
            ratio(t[3], t[4]),
        );
    };
    for (r, t) in rows {
        row(&r.id, r.bytes, r.messages, t);
    }
    if rows.len() > 1 {
        // The whole corpus: each function's times summed over the groups.
        let total: [Option<f64>; 5] = std::array::from_fn(|i| rows.iter().map(|(_, t)| t[i]).sum());
        let bytes = rows.iter().map(|(r, _)| r.bytes).sum();
        let messages = rows.iter().map(|(r, _)| r.messages).sum();
        row("all of the above", bytes, messages, &total);
    }
}

fn main() {
    let mut c = Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(2))
        .configure_from_args();
    let all_versions = std::env::var_os("MCP_BENCH_ALL_VERSIONS").is_some_and(|v| v == "1");
    let mut bench = Bench {
        c: &mut c,
        all_versions,
        ran: Vec::new(),
    };
    each_version(&mut bench);
    let ran = bench.ran;
    c.final_summary();
    summary(&ran);
}
