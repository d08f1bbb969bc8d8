#!/usr/bin/env bash
# Runs the codec benchmark N times (default 3), each run's results saved as a criterion
# baseline run1..runN, and prints after the last run the summary of the fastest median of
# the runs, function by function. The machines this project is measured on are shared and
# slow down in bursts of seconds: a burst only ever makes a run slower, so the fastest of
# several runs is the figure least disturbed by them. Extra arguments go to the benchmark
# (a filter: `bash bench/best-of.sh 3 v2026_07_28.tools_list`).
set -euo pipefail
runs=${1:-3}
shift || true
names=""
for k in $(seq 1 "$runs"); do
  names="${names:+$names,}run$k"
  if [ "$k" -lt "$runs" ]; then
    echo "run $k of $runs ..." >&2
    cargo bench -p mcp-bench --bench codec -- --save-baseline "run$k" "$@" >/dev/null
  else
    echo "run $k of $runs ..." >&2
    MCP_BENCH_BEST_OF="$names" cargo bench -p mcp-bench --bench codec -- --save-baseline "run$k" "$@"
  fi
done
