#!/bin/bash
# Benchmark: read_measurement alone, two builds side by side, each read in a fresh process (as
# `labbook profile` reads a run's measurement). No GPU needed.
#   bench/read_speed.sh BUILD_BEFORE BUILD_AFTER MEASUREMENT [ROUNDS]   (default 7 rounds)
# A measurement of 10^5 launches: bench/synthetic_measurement.py 100000, or LABBOOK_KEEP_RUNS=1
# with `labbook profile` (runs/trace-run.json).
set -euo pipefail
[ $# -ge 3 ] || { echo "usage: bench/read_speed.sh BUILD_BEFORE BUILD_AFTER MEASUREMENT [ROUNDS]" >&2; exit 2; }
before=$1/bench/read_speed_probe after=$2/bench/read_speed_probe measurement=$3 rounds=${4:-7}
for p in "$before" "$after"; do
  [ -x "$p" ] || { echo "bench/read_speed.sh: $p not built (cmake --build BUILD --target read_speed_probe)" >&2; exit 2; }
done
[ -f "$measurement" ] || { echo "bench/read_speed.sh: no measurement at $measurement" >&2; exit 2; }
median() { printf '%s\n' "$@" | sort -g | sed -n "$(( ($# + 1) / 2 ))p"; }
a=(); b=()
for i in $(seq "$rounds"); do
  if ((i % 2)); then order="before after"; else order="after before"; fi
  for v in $order; do
    read -r s rows kernels_read < <("${!v}" "$measurement")
    if [ "$v" = before ]; then a+=("$s"); else b+=("$s") fast=$rows kernels=$kernels_read; fi
  done
done
x=$(median "${a[@]}") y=$(median "${b[@]}")
printf '| %s (%s kernels, %s rows read fast by after) | before (s) | after (s) | after / before |\n|---|---|---|---|\n' \
  "$(basename "$measurement")" "$kernels" "$fast"
printf '| median of %s | %s | %s | %s |\n' "$rounds" "$x" "$y" "$(awk -v x="$x" -v y="$y" 'BEGIN { printf "%.2f", y / x }')"
