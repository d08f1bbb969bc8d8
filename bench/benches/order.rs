//! Member order: the recorded traffic decoded with its envelope's members in four orders
//! (`mcp_bench::member_orders`: ours, payload first, params before id, reversed), one
//! criterion run, interleaved, by the typed entry point and by `serde_json::Value` for
//! reference. The summary gives each order's time over our own order's: the decoder reads
//! the envelope the same way in every order, so all should be about 1.00.
//!
//! `cargo bench -p mcp-bench --bench order`.

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::Duration;

use criterion::Criterion;
use mcp_bench::{EachVersion, ORDERS, Observe, Typed, each_version, member_orders};
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

/// Where criterion keeps its results (as the codec bench finds them).
fn criterion_home() -> Option<PathBuf> {
    if let Some(home) = std::env::var_os("CRITERION_HOME") {
        return Some(PathBuf::from(home));
    }
    if let Some(target) = std::env::var_os("CARGO_TARGET_DIR") {
        return Some(Path::new(&target).join("criterion"));
    }
    let exe = std::env::current_exe().ok()?;
    exe.ancestors()
        .map(|dir| dir.join("criterion"))
        .find(|dir| dir.is_dir())
}

/// The median time of one iteration of this run, in seconds (criterion writes the
/// function `typed/order_ours` under `typed_order_ours`).
fn median(home: &Path, group: &str, function: &str) -> Option<f64> {
    let path = home
        .join(group)
        .join(function.replace('/', "_"))
        .join("new/estimates.json");
    let v: Value = serde_json::from_str(&std::fs::read_to_string(path).ok()?).ok()?;
    Some(v.pointer("/median/point_estimate")?.as_f64()? / 1e9)
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
        let ours = median(&home, group, "typed/order_ours");
        for order in ORDERS {
            let typed = median(&home, group, &format!("typed/order_{order}"));
            let value = median(&home, group, &format!("value/order_{order}"));
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
