#!/bin/bash
# Benchmark: labbook's own report step (what `labbook profile` does after the program ends:
# read the run's measurement, write trace.json.gz, timeline.svg, the summary and
# measurements.json), timed through `labbook summary`, two builds side by side. No GPU needed.
#   bench/report_speed.sh LABBOOK_BEFORE LABBOOK_AFTER [MEASUREMENT...]
# Default measurements: the recordings of lab 4 (320 kernels, 2410 API calls) and lab 8
# (2831 kernels, 8665 API calls); bench/synthetic_measurement.py makes one of any number of
# launches (10^5: what a trace run of tests/programs/many_launches 100000 records). Prints the
# median of 7 runs of each, alternating the two builds, and after / before.
set -euo pipefail
before=$1 after=$2; shift 2
here=$(cd "$(dirname "$0")/.." && pwd)
if [ $# -eq 0 ]; then set -- "$here/labs/04_global_memory/recorded/h100.json" "$here/labs/08_streams/recorded/h100.json"; fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

seconds() {   # seconds LABBOOK MEASUREMENT: wall time of one `labbook summary`
  local start end
  start=$(date +%s.%N)
  "$1" summary "$2" --out "$work/out" >/dev/null 2>&1 || { echo "failed: $1 summary $2" >&2; exit 1; }
  end=$(date +%s.%N)
  awk "BEGIN { print $end - $start }"
}
median() { printf '%s\n' "$@" | sort -g | sed -n "$(( ($# + 1) / 2 ))p"; }

printf '| measurement | records | before (ms) | after (ms) | after / before |\n|---|---|---|---|---|\n'
for m in "$@"; do
  records=$(python3 -c "import sys; sys.path.insert(0, sys.argv[2]); from measurement_records import load; d=load(sys.argv[1]); print(sum(len(d[k]) for k in ('ranges','kernels','copies','api_calls','memory_events')))" "$m" "$here/tools")
  a=(); b=()
  for _ in 1 2 3 4 5 6 7; do
    a+=("$(seconds "$before" "$m")")
    b+=("$(seconds "$after" "$m")")
  done
  ta=$(median "${a[@]}"); tb=$(median "${b[@]}")
  awk -v n="$(basename "$(dirname "$(dirname "$m")")")" -v r="$records" -v a="$ta" -v b="$tb" \
    'BEGIN { printf "| %s | %d | %.1f | %.1f | %.2f |\n", n, r, 1000 * a, 1000 * b, b / a }'
done
