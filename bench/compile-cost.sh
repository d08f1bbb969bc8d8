#!/usr/bin/env bash
# Compile cost: clean release builds, each in a fresh target directory of its own under
# target/compile-cost/ (override with COMPILE_COST_DIR):
#
#   generated-one  `mcp-spec-types` with one version (--no-default-features --features v2025_11_25)
#   generated-all  `mcp-spec-types` with all six versions
#   consumer       bench/consumer: a binary that decodes and encodes every message type of
#                  2025-11-25 (serde's generic code is instantiated there: what users pay)
#
# For each: the wall time of the clean build (dependencies included), and of the crate
# alone (its artifacts removed with `cargo clean -p`, then rebuilt with its dependencies
# already built). Each build also leaves cargo's per-crate report in
# <target>/cargo-timings/. Run from anywhere: `bash bench/compile-cost.sh`.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$here")
out=${COMPILE_COST_DIR:-$root/target/compile-cost}
mkdir -p "$out"

# Fetch once (untimed); the builds then run offline.
cargo fetch --manifest-path "$root/Cargo.toml" >/dev/null 2>&1 || true
cargo fetch --manifest-path "$here/consumer/Cargo.toml" >/dev/null 2>&1 || true

now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

rows=()

# measure NAME MANIFEST PACKAGE [cargo build args...]
measure() {
    local name=$1 manifest=$2 package=$3
    shift 3
    local target="$out/$name" log="$out/$name.log"
    rm -rf "$target"
    echo "building $name (clean) ..." >&2
    local start clean alone
    start=$(now)
    if ! CARGO_TARGET_DIR="$target" cargo build --release --offline --timings \
        --manifest-path "$manifest" "$@" >"$log" 2>&1; then
        tail -n 30 "$log" >&2
        echo "error: the build of $name failed; see $log" >&2
        exit 1
    fi
    clean=$(since "$start")
    CARGO_TARGET_DIR="$target" cargo clean --release --offline \
        --manifest-path "$manifest" -p "$package" >>"$log" 2>&1
    echo "building $name ($package alone) ..." >&2
    start=$(now)
    CARGO_TARGET_DIR="$target" cargo build --release --offline \
        --manifest-path "$manifest" "$@" >>"$log" 2>&1
    alone=$(since "$start")
    rows+=("| $name | $package | $clean | $alone |")
}

measure generated-one "$root/Cargo.toml" mcp-spec-types \
    -p mcp-spec-types --no-default-features --features v2025_11_25
measure generated-all "$root/Cargo.toml" mcp-spec-types \
    -p mcp-spec-types --no-default-features \
    --features v2024_11_05,v2025_03_26,v2025_06_18,v2025_11_25,v2026_07_28,draft
measure consumer "$here/consumer/Cargo.toml" mcp-consumer

# The consumer must work, not only build (untimed).
if ! "$out/consumer/release/mcp-consumer" <"$here/consumer/sample.jsonl" >"$out/consumer.out"; then
    echo "error: the consumer failed on sample.jsonl" >&2
    exit 1
fi

echo
echo "Compile cost: clean release builds ($(rustc --version), $(nproc 2>/dev/null || echo '?') cores)"
echo
echo "| build | crate | clean build (s) | crate alone (s) |"
echo "| --- | --- | ---: | ---: |"
printf '%s\n' "${rows[@]}"
echo
echo "Per-crate detail: $out/<build>/cargo-timings/cargo-timing.html"
