//! Runs one function of the `codec` bench on one group of one version `N` times, for
//! counting instructions with callgrind, which (unlike time on a shared machine) gives the
//! same figure on every run:
//!
//! ```sh
//! cargo build --release -p mcp-bench --example count
//! valgrind --tool=callgrind --collect-atstart=no --toggle-collect='count::measured' \
//!     target/release/examples/count v2025_11_25 text_blocks_500 decode_typed 10
//! ```
//!
//! Only `measured` (the `N` passes) is counted, so the total over `N` is one pass. Functions:
//! `decode_typed`, `decode_value`, `decode_ignored`, `encode_typed`, `encode_value`, as in
//! `benches/codec.rs`; `serve`, `decode_encode`, as in `benches/serve.rs`. Groups: those
//! of the codec corpus, and the recorded traffic in each envelope order
//! (`mcp_bench::member_orders`: `order_ours`, `order_payload_first`, ...).

use std::hint::black_box;
use std::process::ExitCode;

use mcp_bench::{
    Corpus, DecodedOf, EachVersion, Group, Observe, Typed, corpus, each_version, member_orders,
};
use serde::de::IgnoredAny;
use serde_json::Value;

struct Count {
    module: String,
    group: String,
    function: String,
    passes: usize,
    found: bool,
}

impl EachVersion for Count {
    fn visit<T: Typed>(&mut self) {
        if T::MODULE != self.module {
            return;
        }
        let mut corpus: Corpus = corpus::<T>().unwrap_or_else(|e| panic!("{}: {e}", T::VERSION));
        if self.group.starts_with("order_") {
            corpus.groups = member_orders::<T>().unwrap_or_else(|e| panic!("{}: {e}", T::VERSION));
        }
        let Some(group) = corpus.groups.iter().find(|g| g.name == self.group) else {
            return;
        };
        self.found = true;
        let decoded: Vec<DecodedOf<T>> = group
            .entries
            .iter()
            .map(|e| T::decode(e).expect("the corpus decodes"))
            .collect();
        let values: Vec<Value> = group
            .entries
            .iter()
            .map(|e| serde_json::from_slice(&e.bytes).expect("the corpus is JSON"))
            .collect();
        let f = self.function.as_str();
        measured::<T>(f, group, &decoded, &values, self.passes);
    }
}

/// The `passes` passes of `function` over the group: the one function callgrind counts.
#[inline(never)]
fn measured<T: Typed>(
    function: &str,
    group: &Group,
    decoded: &[DecodedOf<T>],
    values: &[Value],
    passes: usize,
) {
    for _ in 0..passes {
        match function {
            "decode_typed" => {
                for e in &group.entries {
                    T::decode_to::<Observe>(black_box(e)).expect("decoded before");
                }
            }
            "decode_value" => {
                for e in &group.entries {
                    black_box(serde_json::from_slice::<Value>(black_box(&e.bytes)).unwrap());
                }
            }
            "decode_ignored" => {
                for e in &group.entries {
                    black_box(serde_json::from_slice::<IgnoredAny>(black_box(&e.bytes)).unwrap());
                }
            }
            "encode_typed" => {
                for d in decoded {
                    black_box(T::encode(black_box(d)).expect("encodes"));
                }
            }
            "encode_value" => {
                for v in values {
                    black_box(serde_json::to_vec(black_box(v)).unwrap());
                }
            }
            "serve" => {
                for e in &group.entries {
                    black_box(T::serve(black_box(e)));
                }
            }
            "decode_encode" => {
                for e in &group.entries {
                    black_box(T::decode_encode(black_box(e)).expect("decodes"));
                }
            }
            other => panic!("no function {other}"),
        }
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [module, group, function, passes] = args.as_slice() else {
        eprintln!("usage: count <version module> <group> <function> <passes>");
        return ExitCode::from(2);
    };
    let Ok(passes) = passes.parse() else {
        eprintln!("passes: not a number: {passes}");
        return ExitCode::from(2);
    };
    let mut count = Count {
        module: module.clone(),
        group: group.clone(),
        function: function.clone(),
        passes,
        found: false,
    };
    each_version(&mut count);
    if !count.found {
        eprintln!("no group {group} in {module}");
        return ExitCode::from(2);
    }
    ExitCode::SUCCESS
}
