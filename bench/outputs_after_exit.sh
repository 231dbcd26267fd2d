#!/bin/bash
# Benchmark: what `labbook profile` writes after a trace-only run's program exits, where all four
# outputs were written while it ended (bench/probes/outputs_after_exit.cpp), each run a fresh
# process. No GPU needed.
#   bench/outputs_after_exit.sh BUILD MEASUREMENT [ROUNDS]   (default 7 rounds; a measurement of
#   10^5 launches: bench/synthetic_measurement.py 100000, then `labbook summary` of it)
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: bench/outputs_after_exit.sh BUILD MEASUREMENT [ROUNDS]" >&2; exit 2; }
build=$1 measurement=$2 rounds=${3:-7}
probe="$build/bench/outputs_after_exit_probe"
[ -x "$probe" ] || { echo "bench/outputs_after_exit.sh: $probe not built (cmake --build $build --target outputs_after_exit_probe)" >&2; exit 2; }
[ -f "$measurement" ] || { echo "bench/outputs_after_exit.sh: no measurement at $measurement" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
median() { printf '%s\n' "$@" | sort -g | sed -n "$(( ($# + 1) / 2 ))p"; }
early=(); zero=(); other=()
for _ in $(seq "$rounds"); do
  rm -rf "$work/out"
  read -r e z o < <("$probe" "$measurement" "$work/out")
  early+=("$e"); zero+=("$z"); other+=("$o")
done
e=$(median "${early[@]}") z=$(median "${zero[@]}") o=$(median "${other[@]}")
printf '| median of %s | seconds |\n|---|---|\n' "$rounds"
printf '| all four outputs, written while the program ends | %s |\n' "$e"
printf '| after the exit, exit code 0 | %s |\n' "$z"
printf '| after the exit, another code (the summary and the measurement again; before, every run) | %s |\n' "$o"
awk -v z="$z" -v o="$o" 'BEGIN { printf "after the exit, exit code 0 / another: %.3f\n", z / o }'
