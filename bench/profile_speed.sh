#!/bin/bash
# Benchmark: how long `labbook profile` takes next to the program alone and next to
# `ncu --metrics` with the same metric set, measured side by side on this GPU. Prints the
# wall times and the ratios that docs/performance.md records.
#   bench/profile_speed.sh BUILD [PROGRAM ARGS...]     (default: lab 4, --repeat 1)
# Needs a GPU; the ncu rows need ncu on PATH.
set -euo pipefail
build=$1; shift
if [ $# -eq 0 ]; then set -- "$build/labs/lab4_global_memory" --repeat 1; fi
metrics=$("$build/labbook" metrics --lab lab4)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

seconds() {   # seconds COMMAND...: wall time of one run, output discarded
  local start end
  start=$(date +%s.%N)
  "$@" >"$work/last.log" 2>&1 || { echo "failed: $*" >&2; tail -20 "$work/last.log" >&2; exit 1; }
  end=$(date +%s.%N)
  awk "BEGIN { print $end - $start }"
}
ratio() { awk "BEGIN { print $1 / $2 }"; }
median3() { printf '%s\n' "$@" | sort -g | sed -n 2p; }

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv,noheader | sed 's/^/GPU: /'
echo "program: $*"
echo "metrics: $metrics"
alone=$(median3 "$(seconds "$@")" "$(seconds "$@")" "$(seconds "$@")")
trace=$(median3 "$(seconds "$build/labbook" profile --out "$work/t1" -- "$@")" \
                "$(seconds "$build/labbook" profile --out "$work/t2" -- "$@")" \
                "$(seconds "$build/labbook" profile --out "$work/t3" -- "$@")")
LABBOOK_VERBOSE=1 "$build/labbook" profile --metrics "$metrics" --out "$work/m" -- "$@" >"$work/verbose.log" 2>&1 || true
grep "labbook collector:" "$work/verbose.log" | sed 's/^/  /' || true
labbook=$(seconds "$build/labbook" profile --metrics "$metrics" --out "$work/m2" -- "$@")
printf '| run | wall time (s) | ratio |\n|---|---|---|\n'
printf '| program alone (median of 3) | %.2f | 1 |\n' "$alone"
printf '| labbook profile, trace only (median of 3) | %.2f | %.3f x program |\n' "$trace" "$(ratio "$trace" "$alone")"
printf '| labbook profile --metrics (trace run + metrics run) | %.2f | |\n' "$labbook"
if command -v ncu >/dev/null 2>&1; then
  ncu_default=$(seconds ncu --metrics "$metrics" "$@")
  ncu_none=$(seconds ncu --metrics "$metrics" --cache-control none --clock-control none "$@")
  printf '| ncu --metrics (defaults: caches flushed, clocks locked) | %.2f | labbook / ncu = %.3f |\n' \
    "$ncu_default" "$(ratio "$labbook" "$ncu_default")"
  printf '| ncu --metrics --cache-control none --clock-control none | %.2f | labbook / ncu = %.3f |\n' \
    "$ncu_none" "$(ratio "$labbook" "$ncu_none")"
fi
