#!/bin/bash
# Benchmark: what `labbook profile --source` (the run counting each SASS instruction) costs
# next to the program alone and next to Nsight Compute collecting the same counters (its
# SourceCounters section), measured side by side on this GPU, and how much the per-instruction
# records weigh (entries kept, bytes in the measurement, the run's peak memory).
#   bench/source_speed.sh BUILD [PROGRAM ARGS...]     (default: lab 4, --repeat 0)
# Needs a GPU; the ncu row needs ncu on PATH. Issue 32's goal: at most 2x the program alone
# on lab 4, and at most ncu's time.
set -euo pipefail
build=$1; shift
if [ $# -eq 0 ]; then set -- "$build/labs/lab4_global_memory" --repeat 0; fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

source "$(dirname "$0")/timing.sh"   # seconds, rss, median3
ratio() { awk "BEGIN { printf \"%.2f\", $1 / $2 }"; }
row() { printf '| %s | %.2f | %s |\n' "$1" "$2" "$3"; }

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv,noheader | sed 's/^/GPU (name, driver, SM clock, max SM clock, memory clock): /'
echo "program: $*"
echo
printf '| run | wall time (s) | ratio |\n|---|---|---|\n'
alone=$(median3 "$(seconds "$@")" "$(seconds "$@")" "$(seconds "$@")")
alone_rss=$(rss)
row "program alone (median of 3)" "$alone" 1
source_only=$(median3 "$(seconds "$build/labbook" profile --source --no-trace --out "$work/s1" -- "$@")" \
                      "$(seconds "$build/labbook" profile --source --no-trace --out "$work/s2" -- "$@")" \
                      "$(seconds "$build/labbook" profile --source --no-trace --out "$work/s3" -- "$@")")
source_rss=$(rss)
row "labbook profile --source --no-trace (one source run per kernel, and the report; median of 3)" "$source_only" "$(ratio "$source_only" "$alone") x program"
if command -v ncu >/dev/null 2>&1; then
  ncu_time=$(seconds ncu --section SourceCounters "$@")
  row "ncu --section SourceCounters" "$ncu_time" "labbook / ncu = $(ratio "$source_only" "$ncu_time")"
fi
echo
python3 - "$work/s3/measurements.json" "$(dirname "$0")/../tools" <<'PY'
import json, sys
sys.path.insert(0, sys.argv[2])
from measurement_records import load
m = load(sys.argv[1])
kernels = [k for k in m.get("kernels", []) if k.get("sass")]
entries = sum(len(k["sass"]) for k in kernels)
launches = sum(k.get("sass_launches", 1) for k in kernels)
size = sum(len(json.dumps(k["sass"])) for k in kernels)
print(f"per-instruction records: {entries} entries for {len(kernels)} kernels (one source run each) over "
      f"{launches} launches, {size} bytes of JSON")
PY
echo "peak memory: program alone $alone_rss; the source run $source_rss"
