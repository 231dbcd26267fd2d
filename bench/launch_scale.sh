#!/bin/bash
# Benchmark (issue 34): what `labbook profile` costs on a program of many short launches, as
# the launches grow, measured side by side on this GPU: the program alone, the trace-only run
# (its cost per launch), its peak memory and the size of each output, then metrics for 20
# launches (--launch-count 20) against ncu with the same filter (-c 20); last, the stages of
# one trace run at the most launches (the collector's callbacks, finishing and peak, the report).
#   bench/launch_scale.sh BUILD            (tests/programs/many_launches at 10^3, 10^4, 10^5)
# LABBOOK_BENCH_LAUNCHES overrides the counts ("1000 100000"). Needs a GPU; the ncu column needs
# ncu on PATH; peak memory needs GNU time (/usr/bin/time).
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: bench/launch_scale.sh BUILD" >&2; exit 2; }
build=$1
program=$build/tests/programs/many_launches
metrics=${LABBOOK_BENCH_METRICS:-$("$build/labbook" metrics --lab lab4)}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

source "$(dirname "$0")/timing.sh"   # seconds, rss, median3, stages
size() { [ -e "$1" ] && echo "$(du -sb "$1" | cut -f1 | awk '{ printf "%.2f MB", $1 / 1e6 }')" || echo "none"; }

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv,noheader | sed 's/^/GPU (name, driver, SM clock, max SM clock, memory clock): /'
echo "program: $program LAUNCHES; metrics: $metrics"
echo
echo "| launches | alone (s) | trace only (s) | x alone | per launch | peak memory (alone / trace) | measurements.json | trace.json.gz | timeline.svg | runs/ | --metrics --launch-count 20 (s, peak) | ncu -c 20 (s, peak) |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
for n in ${LABBOOK_BENCH_LAUNCHES:-1000 10000 100000}; do
  alone=$(median3 "$(seconds "$program" "$n")" "$(seconds "$program" "$n")" "$(seconds "$program" "$n")")
  alone_rss=$(rss)
  trace=$(seconds "$build/labbook" profile --out "$work/t$n" -- "$program" "$n")
  trace_rss=$(rss)
  per_launch=$(awk "BEGIN { printf \"%.1f us\", 1e6 * ($trace - $alone) / $n }")
  metrics_time=$(seconds "$build/labbook" profile --metrics "$metrics" --launch-count 20 --out "$work/m$n" -- "$program" "$n")
  metrics_cell="$(printf '%.2f' "$metrics_time"), $(rss)"
  ncu_cell="not run (no ncu)"
  if command -v ncu >/dev/null 2>&1; then
    ncu_time=$(seconds ncu --metrics "$metrics" -c 20 "$program" "$n")
    ncu_cell="$(printf '%.2f' "$ncu_time"), $(rss)"
  fi
  printf '| %s | %.2f | %.2f | %.2f | %s | %s / %s | %s | %s | %s | %s | %s | %s |\n' "$n" "$alone" "$trace" \
    "$(awk "BEGIN { print $trace / $alone }")" "$per_launch" "$alone_rss" "$trace_rss" "$(size "$work/t$n/measurements.json")" \
    "$(size "$work/t$n/trace.json.gz")" "$(size "$work/t$n/timeline.svg")" "$(size "$work/t$n/runs")" "$metrics_cell" "$ncu_cell"
done

# Where the trace run's time and memory go, at the most launches: one more run with
# LABBOOK_VERBOSE=1 (its timers cost a little; the table above is timed without them).
echo
echo "Stages of one trace run at $n launches (LABBOOK_VERBOSE=1):"
LABBOOK_VERBOSE=1 seconds "$build/labbook" profile --out "$work/v" -- "$program" "$n" >/dev/null
stages "  "
