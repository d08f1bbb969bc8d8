//! How free-form JSON should be held: the same messages decoded into structs that differ
//! only in the type of their free-form parts.
//!
//! The messages are the synthetic `tools_list_1000` (free-form part: each tool's
//! `inputSchema` and `outputSchema`) and `structured_deep_64` (free-form part:
//! `structuredContent`) of 2025-11-25, from `mcp_bench::corpus`. The structs mirror the
//! generated `Tool` and `CallToolResult` (names, optional fields) but hold the free-form
//! parts as one of:
//!
//! - `value`: `serde_json::Value` (what the generated crate ships);
//! - `map`: `serde_json::Map<String, Value>` (the object itself, without the `Value` wrapper);
//! - `raw`: `Box<serde_json::value::RawValue>`, the JSON text kept and decoded on demand;
//! - `raw_then_value`: `raw`, then every free-form part decoded to a `Value` (what a user
//!   who reads them all pays with `raw`);
//! - `ignored`: `serde::de::IgnoredAny`, the parts skipped (a floor, not a choice: the
//!   data is lost).
//!
//! Encoding is measured for the holders that keep the data. The summary at the end gives
//! MB/s and the ratio to `value`.
//!
//! `cargo bench -p mcp-bench --bench freeform`

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput};
use mcp_bench::{EachVersion, Typed, corpus, each_version};
use serde::de::IgnoredAny;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::{Map, Value};

/// The envelope of a response.
#[derive(Deserialize, Serialize)]
struct Response<R> {
    jsonrpc: String,
    id: Value,
    result: R,
}

/// A `tools/list` result whose tools hold their schemas as `H`.
#[derive(Deserialize, Serialize)]
struct ToolsList<H> {
    tools: Vec<Tool<H>>,
    #[serde(rename = "nextCursor", skip_serializing_if = "Option::is_none")]
    next_cursor: Option<String>,
}

#[derive(Deserialize, Serialize)]
struct Tool<H> {
    name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    title: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    description: Option<String>,
    #[serde(rename = "inputSchema")]
    input_schema: H,
    #[serde(rename = "outputSchema", skip_serializing_if = "Option::is_none")]
    output_schema: Option<H>,
    #[serde(skip_serializing_if = "Option::is_none")]
    annotations: Option<ToolAnnotations>,
    #[serde(skip_serializing_if = "Option::is_none")]
    icons: Option<Vec<Icon>>,
}

#[derive(Deserialize, Serialize)]
struct ToolAnnotations {
    #[serde(skip_serializing_if = "Option::is_none")]
    title: Option<String>,
    #[serde(rename = "readOnlyHint", skip_serializing_if = "Option::is_none")]
    read_only: Option<bool>,
    #[serde(rename = "destructiveHint", skip_serializing_if = "Option::is_none")]
    destructive: Option<bool>,
    #[serde(rename = "idempotentHint", skip_serializing_if = "Option::is_none")]
    idempotent: Option<bool>,
    #[serde(rename = "openWorldHint", skip_serializing_if = "Option::is_none")]
    open_world: Option<bool>,
}

#[derive(Deserialize, Serialize)]
struct Icon {
    src: String,
    #[serde(rename = "mimeType", skip_serializing_if = "Option::is_none")]
    mime_type: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    sizes: Option<Vec<String>>,
}

/// A `tools/call` result whose `structuredContent` is held as `H`.
#[derive(Deserialize, Serialize)]
struct CallToolResult<H> {
    content: Vec<TextContent>,
    #[serde(rename = "structuredContent", skip_serializing_if = "Option::is_none")]
    structured_content: Option<H>,
    #[serde(rename = "isError", skip_serializing_if = "Option::is_none")]
    is_error: Option<bool>,
}

#[derive(Deserialize, Serialize)]
struct TextContent {
    r#type: String,
    text: String,
}

/// Decodes every free-form part held raw into a `Value`, as a user reading them all would.
trait Expand {
    fn expand(&self) -> usize;
}

impl Expand for Response<ToolsList<Box<RawValue>>> {
    fn expand(&self) -> usize {
        let mut n = 0;
        for t in &self.result.tools {
            n += value_of(&t.input_schema);
            n += t.output_schema.as_deref().map_or(0, value_of);
        }
        n
    }
}

impl Expand for Response<CallToolResult<Box<RawValue>>> {
    fn expand(&self) -> usize {
        self.result
            .structured_content
            .as_deref()
            .map_or(0, value_of)
    }
}

fn value_of(raw: &RawValue) -> usize {
    let v: Value = serde_json::from_str(raw.get()).expect("raw JSON is JSON");
    usize::from(!v.is_null())
}

/// One measured case: (group, holder, function) and its median seconds per iteration.
struct Row {
    group: &'static str,
    bytes: usize,
    holder: &'static str,
    function: &'static str,
    seconds: f64,
}

/// The 2025-11-25 messages the bench measures.
struct Messages {
    tools_list: Vec<u8>,
    structured: Vec<u8>,
}

/// Finds the 2025-11-25 corpus among the versions.
struct Find(Option<Messages>);

impl EachVersion for Find {
    fn visit<T: Typed>(&mut self) {
        if T::VERSION != "2025-11-25" {
            return;
        }
        let corpus = corpus::<T>().expect("the 2025-11-25 corpus builds");
        let one = |name: &str| {
            corpus
                .groups
                .iter()
                .find(|g| g.name == name)
                .and_then(|g| g.entries.first())
                .map(|e| e.bytes.clone())
                .unwrap_or_else(|| panic!("2025-11-25 has no {name} group"))
        };
        self.0 = Some(Messages {
            tools_list: one("tools_list_1000"),
            structured: one("structured_deep_64"),
        });
    }
}

/// Measures decode (and encode, for holders that keep the data) of `bytes` as `R`.
fn case<R>(
    c: &mut Criterion,
    rows: &mut Vec<Row>,
    group: &'static str,
    holder: &'static str,
    bytes: &[u8],
    expand: Option<fn(&R) -> usize>,
) where
    R: for<'de> Deserialize<'de> + Serialize,
{
    let id = format!("freeform.{group}");
    let mut g = c.benchmark_group(&id);
    g.throughput(Throughput::BytesDecimal(bytes.len() as u64));
    let decode = |b: &[u8]| -> R { serde_json::from_slice(b).expect("the message decodes") };
    g.bench_function(format!("{holder}/decode"), |b| {
        b.iter(|| {
            let r = decode(black_box(bytes));
            if let Some(expand) = expand {
                black_box(expand(&r));
            }
            black_box(r)
        })
    });
    let decoded = decode(bytes);
    g.bench_function(format!("{holder}/encode"), |b| {
        b.iter(|| black_box(serde_json::to_vec(black_box(&decoded)).expect("encodes")))
    });
    g.finish();
    for function in ["decode", "encode"] {
        rows.push(Row {
            group,
            bytes: bytes.len(),
            holder,
            function,
            seconds: median(bytes, &decoded, function, expand),
        });
    }
}

/// A median of 15 timed batches, for the summary (criterion's own report is the record).
fn median<R>(bytes: &[u8], decoded: &R, function: &str, expand: Option<fn(&R) -> usize>) -> f64
where
    R: for<'de> Deserialize<'de> + Serialize,
{
    let once = || match function {
        "decode" => {
            let r: R = serde_json::from_slice(bytes).expect("the message decodes");
            if let Some(expand) = expand {
                black_box(expand(&r));
            }
            black_box(r);
        }
        _ => {
            black_box(serde_json::to_vec(decoded).expect("encodes"));
        }
    };
    let per_batch = 20;
    let mut times: Vec<f64> = (0..15)
        .map(|_| {
            let start = Instant::now();
            for _ in 0..per_batch {
                once();
            }
            start.elapsed().as_secs_f64() / f64::from(per_batch)
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}

/// Decoding into `IgnoredAny` holders: the free-form parts skipped.
fn ignored(c: &mut Criterion, rows: &mut Vec<Row>, group: &'static str, bytes: &[u8]) {
    let id = format!("freeform.{group}");
    let mut g = c.benchmark_group(&id);
    g.throughput(Throughput::BytesDecimal(bytes.len() as u64));
    let run = |b: &[u8]| match group {
        "tools_list_1000" => {
            black_box(
                serde_json::from_slice::<Response<ToolsList<IgnoredAny>>>(b)
                    .expect("the message decodes")
                    .result
                    .tools
                    .len(),
            );
        }
        _ => {
            black_box(
                serde_json::from_slice::<Response<CallToolResult<IgnoredAny>>>(b)
                    .expect("the message decodes")
                    .result
                    .content
                    .len(),
            );
        }
    };
    g.bench_function("ignored/decode", |b| b.iter(|| run(black_box(bytes))));
    g.finish();
    let mut times: Vec<f64> = (0..15)
        .map(|_| {
            let start = Instant::now();
            for _ in 0..20 {
                run(bytes);
            }
            start.elapsed().as_secs_f64() / 20.0
        })
        .collect();
    times.sort_by(f64::total_cmp);
    rows.push(Row {
        group,
        bytes: bytes.len(),
        holder: "ignored",
        function: "decode",
        seconds: times[times.len() / 2],
    });
}

fn main() {
    let mut c = Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(2))
        .configure_from_args();
    let mut find = Find(None);
    each_version(&mut find);
    let m = find.0.expect("2025-11-25 is a version");
    let mut rows = Vec::new();
    let r = &mut rows;
    let tl = "tools_list_1000";
    case::<Response<ToolsList<Value>>>(&mut c, r, tl, "value", &m.tools_list, None);
    case::<Response<ToolsList<Map<String, Value>>>>(&mut c, r, tl, "map", &m.tools_list, None);
    case::<Response<ToolsList<Box<RawValue>>>>(&mut c, r, tl, "raw", &m.tools_list, None);
    case::<Response<ToolsList<Box<RawValue>>>>(
        &mut c,
        r,
        tl,
        "raw_then_value",
        &m.tools_list,
        Some(Expand::expand),
    );
    ignored(&mut c, r, tl, &m.tools_list);
    let sd = "structured_deep_64";
    case::<Response<CallToolResult<Value>>>(&mut c, r, sd, "value", &m.structured, None);
    case::<Response<CallToolResult<Map<String, Value>>>>(&mut c, r, sd, "map", &m.structured, None);
    case::<Response<CallToolResult<Box<RawValue>>>>(&mut c, r, sd, "raw", &m.structured, None);
    case::<Response<CallToolResult<Box<RawValue>>>>(
        &mut c,
        r,
        sd,
        "raw_then_value",
        &m.structured,
        Some(Expand::expand),
    );
    ignored(&mut c, r, sd, &m.structured);
    c.final_summary();

    println!();
    println!(
        "Summary (median of 15 batches of 20; MB = 10^6 bytes of input JSON; ratio = time / time of `value`)"
    );
    println!();
    println!("| message | holder | decode MB/s | decode ratio | encode MB/s | encode ratio |");
    println!("| --- | --- | ---: | ---: | ---: | ---: |");
    let find = |group: &str, holder: &str, function: &str| {
        rows.iter()
            .find(|x| x.group == group && x.holder == holder && x.function == function)
            .map(|x| (x.bytes as f64 / x.seconds / 1e6, x.seconds))
    };
    for group in [tl, sd] {
        let base_d = find(group, "value", "decode").map(|x| x.1);
        let base_e = find(group, "value", "encode").map(|x| x.1);
        for holder in ["value", "map", "raw", "raw_then_value", "ignored"] {
            let cell = |f: &str, base: Option<f64>| match (find(group, holder, f), base) {
                (Some((mbs, t)), Some(b)) => (format!("{mbs:.1}"), format!("{:.2}x", t / b)),
                _ => ("n/a".to_string(), "n/a".to_string()),
            };
            let (dm, dr) = cell("decode", base_d);
            let (em, er) = cell("encode", base_e);
            println!("| {group} | {holder} | {dm} | {dr} | {em} | {er} |");
        }
    }
}
