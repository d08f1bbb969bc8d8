#!/usr/bin/env bash
# Interleaved wall-clock comparison of the typed decode and `Value` on one group:
#
#   bash bench/ab.sh MODULE GROUP PASSES [REPS]
#   bash bench/ab.sh v2025_11_25 traffic_requests 20000
#
# Runs `bench/examples/count.rs` with `decode_typed` and `decode_value` in turn, REPS times
# each (default 7), PASSES passes a run, and prints the fastest run of each per pass, the
# program's start-up (a run of no passes, also the fastest of REPS) taken off. Alternating
# the two and keeping the fastest makes the ratio robust to the bursts of a shared
# machine, which criterion's medians of runs minutes apart are not.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
[ $# -ge 3 ] || { echo "usage: bash bench/ab.sh MODULE GROUP PASSES [REPS]" >&2; exit 2; }
module=$1 group=$2 passes=$3 reps=${4:-7}
cargo build -q --release --manifest-path "$root/Cargo.toml" -p mcp-bench --example count
bin="$root/target/release/examples/count"
run() {
    local start end
    start=$(date +%s%N)
    "$bin" "$module" "$group" "$1" "$2"
    end=$(date +%s%N)
    echo $(((end - start) / 1000))
}
fastest() { sort -n | head -1; }
startup=$(for _ in $(seq "$reps"); do run decode_typed 0; done | fastest)
typed=() value=()
for _ in $(seq "$reps"); do
    typed+=("$(run decode_typed "$passes")")
    value+=("$(run decode_value "$passes")")
done
t=$(printf '%s\n' "${typed[@]}" | fastest)
v=$(printf '%s\n' "${value[@]}" | fastest)
awk -v t="$t" -v v="$v" -v z="$startup" -v n="$passes" -v g="$module $group" 'BEGIN {
    printf "%s: typed %.2f us, Value %.2f us per pass, typed / Value %.2f\n", g, (t - z) / n, (v - z) / n, (t - z) / (v - z)
}'
