//! Member order: the recorded traffic decoded with its envelope's members in four orders
//! (`mcp_bench::member_orders`: ours, payload first, params before id, reversed), one
//! criterion run, interleaved, by the typed entry point and by `serde_json::Value` for
//! reference. The summary gives each order's time over our own order's: the decoder reads
//! the envelope the same way in every order, so all should be about 1.00.
//!
//! `cargo bench -p mcp-bench --bench order`.

use std::hint::black_box;
use std::time::Duration;

use criterion::Criterion;
use mcp_bench::{
    EachVersion, ORDERS, Observe, Typed, criterion_home, criterion_median, each_version,
    member_orders,
};
use serde_json::Value;

/// Versions with recorded traffic.
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
        let groups = member_orders::<T>().unwrap_or_else(|e| panic!("{}: {e}", T::VERSION));
        let mut g = self.c.benchmark_group(format!("order.{}", T::MODULE));
        for group in &groups {
            let entries = &group.entries;
            g.bench_function(format!("typed/{}", group.name), |b| {
                b.iter(|| {
                    for e in entries {
                        T::decode_to::<Observe>(black_box(e)).expect("decodes");
                    }
                })
            });
            g.bench_function(format!("value/{}", group.name), |b| {
                b.iter(|| {
                    for e in entries {
                        black_box(serde_json::from_slice::<Value>(black_box(&e.bytes)).unwrap());
                    }
                })
            });
        }
        g.finish();
        if let Some(first) = groups.first() {
            self.ran.push((format!("order.{}", T::MODULE), first.len()));
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
    println!(
        "Summary (medians of this run): µs per pass over the recorded traffic, and the time over our own order's"
    );
    println!();
    println!("| version | msgs | order | typed µs | / ours | Value µs | typed / Value |");
    println!("| --- | ---: | --- | ---: | ---: | ---: | ---: |");
    for (group, messages) in &ran {
        let ours = criterion_median(&home, group, "typed/order_ours", "new");
        for order in ORDERS {
            let typed = criterion_median(&home, group, &format!("typed/order_{order}"), "new");
            let value = criterion_median(&home, group, &format!("value/order_{order}"), "new");
            let (Some(typed), Some(value), Some(ours)) = (typed, value, ours) else {
                continue;
            };
            println!(
                "| {group} | {messages} | {order} | {:.1} | {:.2} | {:.1} | {:.2} |",
                typed * 1e6,
                typed / ours,
                value * 1e6,
                typed / value
            );
        }
    }
}
