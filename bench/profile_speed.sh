#!/bin/bash
# Benchmark: how long `labbook profile` takes next to the program alone and next to
# `ncu --metrics` with the same metric set, measured side by side on this GPU, with both
# of labbook's replay modes and without the trace run (ncu records no timeline). Prints each
# wall time as it is measured, then the ratios and the metric collection's cost per kernel
# launch that docs/performance.md records. bench/metrics_speed.sh compares the default
# (--replay auto) with ncu across programs of every size.
#   bench/profile_speed.sh BUILD [PROGRAM ARGS...]     (default: lab 4, --repeat 0)
# Needs a GPU; the ncu rows need ncu on PATH.
set -euo pipefail
build=$1; shift
if [ $# -eq 0 ]; then set -- "$build/labs/lab4_global_memory" --repeat 0; fi
metrics=${LABBOOK_BENCH_METRICS:-$("$build/labbook" metrics --lab lab4)}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

source "$(dirname "$0")/timing.sh"   # seconds, median3
ratio() { awk "BEGIN { printf \"%.3f\", $1 / $2 }"; }
per_launch_ms() { awk "BEGIN { printf \"%.2f ms\", 1000 * ($1 - $2) / $3 }"; }
row() { printf '| %s | %.2f | %s |\n' "$1" "$2" "$3"; }

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv,noheader | sed 's/^/GPU (name, driver, SM clock, max SM clock, memory clock): /'
echo "program: $*"
echo "metrics: $metrics"
echo
printf '| run | wall time (s) | ratio |\n|---|---|---|\n'
alone=$(median3 "$(seconds "$@")" "$(seconds "$@")" "$(seconds "$@")")
row "program alone (median of 3)" "$alone" 1
trace=$(median3 "$(seconds "$build/labbook" profile --out "$work/t1" -- "$@")" \
                "$(seconds "$build/labbook" profile --out "$work/t2" -- "$@")" \
                "$(seconds "$build/labbook" profile --out "$work/t3" -- "$@")")
launches=$(sed -n 's/^labbook: \([0-9]*\) kernels,.*/\1/p' "$work/last.log")
row "labbook profile, trace only (median of 3)" "$trace" "$(ratio "$trace" "$alone") x program"
app=$(LABBOOK_VERBOSE=1 seconds "$build/labbook" profile --metrics "$metrics" --replay application --out "$work/a" -- "$@")
cp "$work/last.log" "$work/application.log"
row "labbook profile --metrics --replay application (L2 flushed)" "$app" "$(ratio "$app" "$alone") x program"
metrics_only=$(seconds "$build/labbook" profile --metrics "$metrics" --replay application --no-trace --out "$work/m" -- "$@")
row "labbook profile --metrics --no-trace (no timeline: what ncu --metrics gives)" "$metrics_only" "$(ratio "$metrics_only" "$alone") x program"
kernel=$(LABBOOK_VERBOSE=1 seconds "$build/labbook" profile --metrics "$metrics" --replay kernel --out "$work/k" -- "$@")
cp "$work/last.log" "$work/kernel.log"
row "labbook profile --metrics --replay kernel (L2 flushed before every pass)" "$kernel" "$(ratio "$kernel" "$alone") x program"
echo
echo "kernel launches: $launches; metric collection per launch (metrics time - trace-only time) / launches:"
echo "application replay $(per_launch_ms "$app" "$trace" "$launches"), kernel replay $(per_launch_ms "$kernel" "$trace" "$launches")"
if command -v ncu >/dev/null 2>&1; then
  ncu_default=$(seconds ncu --metrics "$metrics" "$@")
  echo
  printf '| run | wall time (s) | ratio |\n|---|---|---|\n'
  row "ncu --metrics (defaults: caches flushed, clocks locked)" "$ncu_default" \
      "application / ncu = $(ratio "$app" "$ncu_default"); --no-trace / ncu = $(ratio "$metrics_only" "$ncu_default"); kernel replay / ncu = $(ratio "$kernel" "$ncu_default")"
  echo "ncu per launch: $(per_launch_ms "$ncu_default" "$alone" "$launches")"
fi
echo
echo "where the collector's time went (LABBOOK_VERBOSE=1):"
grep -h "labbook collector:\|labbook: .* run:" "$work/application.log" "$work/kernel.log" || true
