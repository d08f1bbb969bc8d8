#!/usr/bin/env bash
# Compile cost: clean release builds, each in a fresh target directory of its own under
# target/compile-cost/ (override with COMPILE_COST_DIR):
#
#   generated-one  `mcp-spec-types` with one version (--no-default-features --features v2025_11_25)
#   generated-all  `mcp-spec-types` with all six versions
#   consumer       bench/consumer: a binary that decodes and encodes every message type of
#                  2025-11-25 (serde's generic code is instantiated there: what users pay)
#   server-ours    bench/compile-cost/ours: a small stdio server as a user writes it on this
#                  project (a 2026-07-28 `Router`, two tools, a resource, a prompt, logging,
#                  served for every version with `Versions::every_version`)
#   server-ours-one  the same crate without its default feature `every-version`: the same
#                  server for 2026-07-28 alone (what serving the older versions costs is
#                  the difference)
#   server-rmcp    bench/compile-cost/rmcp: the same server on the official SDK, rmcp 3.11.0
#
# For the first three: the wall time of the clean build (dependencies included), and of
# the crate alone (its artifacts removed with `cargo clean -p`, then rebuilt with its
# dependencies already built). For the servers: the CPU time (user + sys of cargo and
# every rustc it ran) and wall time of the clean build, its peak memory (the largest
# process's maximum RSS: the biggest rustc), the binary's size as built and stripped, and
# the number of crates compiled; each server binary then answers an `initialize`, a
# `tools/list` and a `tools/call` on stdin (untimed). Each build also leaves cargo's
# per-crate report in <target>/cargo-timings/.
#
# Run from anywhere: `bash bench/compile-cost.sh` (every row), or name rows:
# `bash bench/compile-cost.sh server-ours server-rmcp` (they run in the order above). The
# servers' path dependencies are relative, so the script of another checkout (a git
# worktree) measures that checkout's code.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$here")
out=${COMPILE_COST_DIR:-$root/target/compile-cost}
mkdir -p "$out"

all=(generated-one generated-all consumer server-ours server-ours-one server-rmcp)
if [ $# -eq 0 ]; then
    selected=("${all[@]}")
else
    selected=("$@")
    for name in "$@"; do
        case " ${all[*]} " in
        *" $name "*) ;;
        *)
            echo "error: no row $name (rows: ${all[*]})" >&2
            exit 2
            ;;
        esac
    done
fi
wanted() {
    local name
    for name in "${selected[@]}"; do [ "$name" = "$1" ] && return 0; done
    return 1
}

# Fetch once (untimed); the builds then run offline.
if wanted generated-one || wanted generated-all; then
    cargo fetch --manifest-path "$root/Cargo.toml" >/dev/null 2>&1 || true
fi
wanted consumer && { cargo fetch --manifest-path "$here/consumer/Cargo.toml" >/dev/null 2>&1 || true; }
{ wanted server-ours || wanted server-ours-one; } && { cargo fetch --manifest-path "$here/compile-cost/ours/Cargo.toml" >/dev/null 2>&1 || true; }
wanted server-rmcp && { cargo fetch --manifest-path "$here/compile-cost/rmcp/Cargo.toml" >/dev/null 2>&1 || true; }

now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }
load() { cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo '?'; }
megabytes() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1e6 }'; }

rows=()
servers=()

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

# The server on stdin answers its lifecycle request (`initialize` at 2025-06-18, or with
# ERA `discover`, `server/discover` with 2026-07-28's `_meta` on every request), `tools/list`
# with both tools, and `add` with 5 (untimed). Stdin stays open a moment after the last
# request.
smoke() {
    local name=$1 binary=$2 era=${3:-initialize}
    local answers="$out/$name.smoke"
    if [ "$era" = discover ]; then
        local meta='"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"smoke","version":"0"},"io.modelcontextprotocol/clientCapabilities":{}}'
        {
            printf '%s\n' \
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"server/discover\",\"params\":{$meta}}" \
                "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\",\"params\":{$meta}}" \
                "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"add\",\"arguments\":{\"a\":2,\"b\":3},$meta}}"
            sleep 1
        } | timeout 20 "$binary" >"$answers" || true
    else
        {
            printf '%s\n' \
                '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"smoke","version":"0"}}}' \
                '{"jsonrpc":"2.0","method":"notifications/initialized"}' \
                '{"jsonrpc":"2.0","id":2,"method":"tools/list"}' \
                '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"add","arguments":{"a":2,"b":3}}}'
            sleep 1
        } | timeout 20 "$binary" >"$answers" || true
    fi
    local ok=1
    if [ "$era" = discover ]; then
        grep '"id":1,' "$answers" | grep -q '"supportedVersions":\["2026-07-28"\]' || ok=0
    else
        grep '"id":1,' "$answers" | grep -q '"protocolVersion":"2025-06-18"' || ok=0
    fi
    grep '"id":2,' "$answers" | grep '"name":"echo"' | grep -q '"name":"add"' || ok=0
    grep '"id":3,' "$answers" | grep -q '"text":"5"' || ok=0
    if [ $ok = 0 ]; then
        cat "$answers" >&2
        echo "error: $name did not answer its lifecycle request, tools/list and tools/call; see $answers" >&2
        exit 1
    fi
}

# measure_server NAME MANIFEST BINARY ERA [cargo build args...]
measure_server() {
    local name=$1 manifest=$2 binary=$3 era=$4
    shift 4
    local target="$out/$name" log="$out/$name.log" usage="$out/$name.time"
    rm -rf "$target"
    local before
    before=$(load)
    echo "building $name (clean, load $before) ..." >&2
    local start wall
    start=$(now)
    if ! CARGO_TARGET_DIR="$target" /usr/bin/time -o "$usage" -f '%U %S %M' \
        cargo build --release --offline --timings --manifest-path "$manifest" "$@" >"$log" 2>&1; then
        tail -n 30 "$log" >&2
        echo "error: the build of $name failed; see $log" >&2
        exit 1
    fi
    wall=$(since "$start")
    local cpu peak
    read -r cpu peak < <(tail -n 1 "$usage" |
        awk '{ printf "%.1f %.0f\n", $1 + $2, $3 * 1024 / 1e6 }')
    local exe="$target/release/$binary"
    cp "$exe" "$target/$binary.stripped"
    strip "$target/$binary.stripped"
    local size stripped crates
    size=$(megabytes "$(stat -c %s "$exe")")
    stripped=$(megabytes "$(stat -c %s "$target/$binary.stripped")")
    crates=$(grep -c '^ *Compiling ' "$log" || true)
    smoke "$name" "$exe" "$era"
    servers+=("| $name | $cpu | $wall | $peak | $size | $stripped | $crates | $before |")
}

if wanted generated-one; then
    measure generated-one "$root/Cargo.toml" mcp-spec-types \
        -p mcp-spec-types --no-default-features --features v2025_11_25
fi
if wanted generated-all; then
    measure generated-all "$root/Cargo.toml" mcp-spec-types \
        -p mcp-spec-types --no-default-features \
        --features v2024_11_05,v2025_03_26,v2025_06_18,v2025_11_25,v2026_07_28,draft
fi
if wanted consumer; then
    measure consumer "$here/consumer/Cargo.toml" mcp-consumer
    # The consumer must work, not only build (untimed).
    if ! "$out/consumer/release/mcp-consumer" <"$here/consumer/sample.jsonl" >"$out/consumer.out"; then
        echo "error: the consumer failed on sample.jsonl" >&2
        exit 1
    fi
fi
wanted server-ours && measure_server server-ours "$here/compile-cost/ours/Cargo.toml" cost-ours initialize
wanted server-ours-one && measure_server server-ours-one "$here/compile-cost/ours/Cargo.toml" cost-ours \
    discover --no-default-features
wanted server-rmcp && measure_server server-rmcp "$here/compile-cost/rmcp/Cargo.toml" cost-rmcp initialize

echo
echo "Compile cost: clean release builds ($(rustc --version), $(nproc 2>/dev/null || echo '?') cores)"
if [ ${#rows[@]} -gt 0 ]; then
    echo
    echo "| build | crate | clean build (s) | crate alone (s) |"
    echo "| --- | --- | ---: | ---: |"
    printf '%s\n' "${rows[@]}"
fi
if [ ${#servers[@]} -gt 0 ]; then
    echo
    echo "| server | CPU (s) | wall (s) | peak (MB) | binary (MB) | stripped (MB) | crates | load before |"
    echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
    printf '%s\n' "${servers[@]}"
fi
echo
echo "Per-crate detail: $out/<build>/cargo-timings/cargo-timing.html"
