#!/bin/bash
# Benchmark: how long `labbook profile` takes next to the program alone and next to
# `ncu --metrics` with the same metric set, measured side by side on this GPU. Prints each
# wall time as it is measured, then the ratios docs/performance.md records.
#   bench/profile_speed.sh BUILD [PROGRAM ARGS...]     (default: lab 4, --repeat 0)
# Needs a GPU; the ncu rows need ncu on PATH.
set -euo pipefail
build=$1; shift
if [ $# -eq 0 ]; then set -- "$build/labs/lab4_global_memory" --repeat 0; fi
metrics=${LABBOOK_BENCH_METRICS:-$("$build/labbook" metrics --lab lab4)}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

seconds() {   # seconds COMMAND...: wall time of one run; its output goes to $work/last.log
  local start end
  start=$(date +%s.%N)
  "$@" >"$work/last.log" 2>&1 || { echo "failed: $*" >&2; tail -20 "$work/last.log" >&2; exit 1; }
  end=$(date +%s.%N)
  awk "BEGIN { print $end - $start }"
}
ratio() { awk "BEGIN { printf \"%.3f\", $1 / $2 }"; }
median3() { printf '%s\n' "$@" | sort -g | sed -n 2p; }
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
row "labbook profile, trace only (median of 3)" "$trace" "$(ratio "$trace" "$alone") x program"
labbook=$(LABBOOK_VERBOSE=1 seconds "$build/labbook" profile --metrics "$metrics" --out "$work/m" -- "$@")
cp "$work/last.log" "$work/verbose.log"
row "labbook profile --metrics (trace run + metrics run)" "$labbook" "$(ratio "$labbook" "$alone") x program"
no_trace=$(seconds "$build/labbook" profile --no-trace --metrics "$metrics" --out "$work/n" -- "$@")
row "labbook profile --metrics --no-trace (metrics run only)" "$no_trace" "$(ratio "$no_trace" "$alone") x program"
if command -v ncu >/dev/null 2>&1; then
  ncu_none=$(seconds ncu --metrics "$metrics" --cache-control none --clock-control none "$@")
  row "ncu --metrics, --cache-control none --clock-control none" "$ncu_none" \
      "labbook / ncu = $(ratio "$labbook" "$ncu_none"); --no-trace / ncu = $(ratio "$no_trace" "$ncu_none")"
  ncu_default=$(seconds ncu --metrics "$metrics" "$@")
  row "ncu --metrics (defaults: caches flushed, clocks locked)" "$ncu_default" \
      "labbook / ncu = $(ratio "$labbook" "$ncu_default"); --no-trace / ncu = $(ratio "$no_trace" "$ncu_default")"
fi
echo
echo "where the collector's time went (LABBOOK_VERBOSE=1, metrics run):"
grep -h "labbook collector:\|labbook: .* run:" "$work/verbose.log" || true
