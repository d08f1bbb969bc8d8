//! What a typed decode costs at least, on a message made mostly of strings: the 2025-11-25
//! `text_blocks_500` message (a `tools/call` response with 500 text content blocks, from
//! `mcp_bench::corpus`), decoded by
//!
//! - `ignored`: `serde::de::IgnoredAny`, the floor (only validating the JSON);
//! - `derived`: the smallest serde-derived types that keep what the message says (the
//!   envelope, and each block's `type` as a one-value enum and its `text` as a `String`):
//!   no union, no optional fields, no unknown members kept, one allocation per block;
//! - `derived_borrowed`: the same with the text borrowed from the input (`&str`), no
//!   allocation per block: what types tied to the input could reach;
//! - `typed`: our typed entry point, as the `codec` bench measures it
//!   (`rt::jsonrpc::receive_typed`, the result decoded by its method);
//! - `value`: `serde_json::Value`.
//!
//! The summary gives each one's time over the floor's and over `derived`'s.
//!
//! `cargo bench -p mcp-bench --bench bound`

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput};
use mcp_bench::{EachVersion, Entry, Observe, Typed, corpus, each_version};
use serde::Deserialize;
use serde::de::IgnoredAny;
use serde_json::Value;

#[derive(Deserialize)]
struct Response<'a> {
    #[serde(rename = "jsonrpc")]
    _jsonrpc: V2,
    #[serde(rename = "id")]
    _id: i64,
    #[serde(borrow)]
    result: Content<'a>,
}

#[derive(Deserialize)]
enum V2 {
    #[serde(rename = "2.0")]
    V2,
}

#[derive(Deserialize)]
struct Content<'a> {
    #[serde(borrow)]
    content: Vec<Block<'a>>,
}

#[derive(Deserialize)]
enum Text {
    #[serde(rename = "text")]
    Text,
}

/// A text block, its text owned.
#[derive(Deserialize)]
struct Owned {
    #[serde(rename = "type")]
    _type: Text,
    text: String,
}

#[derive(Deserialize)]
struct OwnedResponse {
    #[serde(rename = "jsonrpc")]
    _jsonrpc: V2,
    #[serde(rename = "id")]
    _id: i64,
    result: OwnedContent,
}

#[derive(Deserialize)]
struct OwnedContent {
    content: Vec<Owned>,
}

/// A text block, its text borrowed from the input.
#[derive(Deserialize)]
struct Block<'a> {
    #[serde(rename = "type")]
    _type: Text,
    text: &'a str,
}

/// Our typed entry point on a message of the version that found it.
type Decode = fn(&Entry);

/// Finds the 2025-11-25 `text_blocks_500` message and decodes it with our entry point.
struct Find(Option<(Entry, Decode)>);

impl EachVersion for Find {
    fn visit<T: Typed>(&mut self) {
        if T::VERSION != "2025-11-25" {
            return;
        }
        let corpus = corpus::<T>().expect("the 2025-11-25 corpus builds");
        let entry = corpus
            .groups
            .iter()
            .find(|g| g.name == "text_blocks_500")
            .and_then(|g| g.entries.first())
            .expect("2025-11-25 has a text_blocks_500 message")
            .clone();
        fn typed<T: Typed>(e: &Entry) {
            T::decode_to::<Observe>(e).expect("the message decodes");
        }
        self.0 = Some((entry, typed::<T>));
    }
}

/// The median of 31 timed batches, for the summary (criterion's report is the record).
fn median(f: &dyn Fn()) -> f64 {
    let per_batch = 200;
    let mut times: Vec<f64> = (0..31)
        .map(|_| {
            let start = Instant::now();
            for _ in 0..per_batch {
                f();
            }
            start.elapsed().as_secs_f64() / f64::from(per_batch)
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}

fn main() {
    let mut c = Criterion::default()
        .sample_size(30)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .configure_from_args();
    let mut find = Find(None);
    each_version(&mut find);
    let (entry, typed) = find.0.expect("2025-11-25 is a version");
    let bytes = entry.bytes.as_slice();
    let text = std::str::from_utf8(bytes).expect("the corpus is UTF-8");

    // Every decoder reads the same message; check they all take it.
    let borrowed: Response<'_> = serde_json::from_str(text).expect("derived_borrowed decodes");
    let owned: OwnedResponse = serde_json::from_slice(bytes).expect("derived decodes");
    assert_eq!(borrowed.result.content.len(), 500);
    assert_eq!(owned.result.content.len(), 500);
    assert_eq!(
        borrowed.result.content[7].text,
        owned.result.content[7].text
    );

    let functions: [(&str, &dyn Fn()); 5] = [
        ("ignored", &|| {
            black_box(serde_json::from_slice::<IgnoredAny>(black_box(bytes)).unwrap());
        }),
        ("derived", &|| {
            black_box(serde_json::from_slice::<OwnedResponse>(black_box(bytes)).unwrap());
        }),
        ("derived_borrowed", &|| {
            black_box(serde_json::from_str::<Response<'_>>(black_box(text)).unwrap());
        }),
        ("typed", &|| typed(black_box(&entry))),
        ("value", &|| {
            black_box(serde_json::from_slice::<Value>(black_box(bytes)).unwrap());
        }),
    ];
    let mut g = c.benchmark_group("bound.v2025_11_25.text_blocks_500");
    g.throughput(Throughput::BytesDecimal(bytes.len() as u64));
    for (name, f) in &functions {
        g.bench_function(*name, |b| b.iter(f));
    }
    g.finish();
    c.final_summary();

    // The summary's medians, measured one after the other, twice, the faster kept: the
    // machine's bursts only ever slow a run.
    let medians: Vec<f64> = functions
        .iter()
        .map(|(_, f)| median(*f))
        .zip(functions.iter().map(|(_, f)| median(*f)))
        .map(|(a, b)| a.min(b))
        .collect();
    let (floor, derived) = (medians[0], medians[1]);
    println!();
    println!(
        "Summary: 2025-11-25 text_blocks_500 ({} bytes), median of 31 batches of 200, \
         the faster of two rounds",
        bytes.len()
    );
    println!();
    println!("| decoder | µs | MB/s | × floor | × derived |");
    println!("| --- | ---: | ---: | ---: | ---: |");
    for ((name, _), t) in functions.iter().zip(&medians) {
        println!(
            "| {name} | {:.1} | {:.0} | {:.2} | {:.2} |",
            t * 1e6,
            bytes.len() as f64 / t / 1e6,
            t / floor,
            t / derived
        );
    }
}
