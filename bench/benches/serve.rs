//! The serve path against decode and encode: what `serve_client_message` /
//! `serve_server_message` cost beyond decoding the message and encoding its answer.
//!
//! For each version with recorded traffic, the groups of messages a side serves (the
//! recorded requests and notifications, and the synthetic `progress_10000`), two
//! functions side by side in one run, each handling every message of the group:
//!
//! - `serve`: the version's dispatch function (`handlers::serve_client_message` for a
//!   message the client sent, `serve_server_message` for one the server sent), with the
//!   open policy and a handler that implements nothing (the version's marker type, e.g. `mcp_bench::V2025_11_25`: every request
//!   answered -32601, every notification ignored), its future polled once (it is ready);
//! - `decode_encode`: the same message through `decode_from_client` /
//!   `decode_from_server`, and a request's answer, the same -32601 error, encoded by
//!   `rt::jsonrpc::encode_to_vec`. The unit tests of `mcp_bench` hold the two to the same
//!   bytes on every message.
//!
//! The summary gives each group's time of `serve` over `decode_encode` (the target: at most
//! 1.10). `cargo bench -p mcp-bench --bench serve`.

use std::hint::black_box;
use std::time::Duration;

use criterion::Criterion;
use mcp_bench::{EachVersion, Typed, corpus, criterion_home, criterion_median, each_version};

/// The groups measured, where the version has them.
const GROUPS: &[&str] = &[
    "traffic_requests",
    "traffic_notifications",
    "progress_10000",
];

/// Versions measured: those with recorded traffic.
const VERSIONS: &[&str] = &["2025-11-25", "2026-07-28"];

struct Bench<'a> {
    c: &'a mut Criterion,
    ran: Vec<(String, usize)>,
}

impl EachVersion for Bench<'_> {
    fn visit<T: Typed>(&mut self) {
        if !VERSIONS.contains(&T::VERSION) {
            return;
        }
        let corpus = corpus::<T>().unwrap_or_else(|e| panic!("{}: {e}", T::VERSION));
        for group in corpus.groups.iter().filter(|g| GROUPS.contains(&g.name)) {
            let id = format!("serve.{}.{}", T::MODULE, group.name);
            let entries = &group.entries;
            let mut g = self.c.benchmark_group(&id);
            g.bench_function("serve", |b| {
                b.iter(|| {
                    for e in entries {
                        black_box(T::serve(black_box(e)));
                    }
                })
            });
            g.bench_function("decode_encode", |b| {
                b.iter(|| {
                    for e in entries {
                        black_box(T::decode_encode(black_box(e)).expect("decodes"));
                    }
                })
            });
            g.finish();
            self.ran.push((id, entries.len()));
        }
    }
}

fn main() {
    let mut c = Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(2))
        .configure_from_args();
    let mut bench = Bench {
        c: &mut c,
        ran: Vec::new(),
    };
    each_version(&mut bench);
    let ran = bench.ran;
    c.final_summary();
    let Some(home) = criterion_home() else {
        return;
    };
    println!();
    println!("Summary (medians of this run; ratio = time of serve / time of decode_encode)");
    println!();
    println!("| group | msgs | serve µs | decode + encode µs | serve / (decode + encode) |");
    println!("| --- | ---: | ---: | ---: | ---: |");
    for (id, messages) in &ran {
        let (Some(serve), Some(both)) = (
            criterion_median(&home, id, "serve", "new"),
            criterion_median(&home, id, "decode_encode", "new"),
        ) else {
            continue;
        };
        println!(
            "| {id} | {messages} | {:.1} | {:.1} | {:.2} |",
            serve * 1e6,
            both * 1e6,
            serve / both
        );
    }
}
