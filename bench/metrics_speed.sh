#!/bin/bash
# Benchmark (issue 34): `labbook profile --metrics` against `ncu --metrics` with the same
# metric set (lab 4's), side by side on this GPU, on programs of every size: a few launches
# (tests/programs), lab 4 (80) and many_launches (521). For each: the program alone (median of
# 3), labbook's default (--replay auto: the replay it chose in brackets), labbook with
# --replay application, ncu with its defaults, the ratios to ncu, and each run's peak memory;
# then the stages of each run of the program (LABBOOK_VERBOSE), for the default.
#   bench/metrics_speed.sh BUILD
# LABBOOK_BENCH_PROGRAMS (one "PROGRAM ARGS" a line) overrides the list. Needs a GPU and ncu;
# peak memory needs GNU time (/usr/bin/time).
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: bench/metrics_speed.sh BUILD" >&2; exit 2; }
build=$1
metrics=${LABBOOK_BENCH_METRICS:-$("$build/labbook" metrics --lab lab4)}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "$0")/timing.sh"   # seconds, rss, median3, stages
ratio() { awk "BEGIN { printf \"%.2f\", $1 / $2 }"; }

p=$build/tests/programs
programs=${LABBOOK_BENCH_PROGRAMS:-"$p/misaligned_read 11
$p/templates
$p/zero_copy
$p/persisting_l2
$p/streams_callbacks
$p/transpose 1024
$build/labs/lab4_global_memory --repeat 0
$p/many_launches"}

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv,noheader | sed 's/^/GPU (name, driver, SM clock, max SM clock, memory clock): /'
echo "metrics: $metrics"
echo
echo "| program | launches | alone (s) | labbook default (s, replay) | --replay application (s) | ncu (s) | default / ncu | application / ncu | peak memory: default / application / ncu |"
echo "|---|---|---|---|---|---|---|---|---|"
while read -r -a command; do
  [ ${#command[@]} -gt 0 ] || continue
  alone=$(median3 "$(seconds "${command[@]}")" "$(seconds "${command[@]}")" "$(seconds "${command[@]}")")
  auto=$(seconds "$build/labbook" profile --metrics "$metrics" --out "$work/auto" -- "${command[@]}")
  auto_rss=$(rss)
  chosen=$(sed -n 's/^labbook: \([a-z]*\) replay: .*/\1/p' "$work/last.log")
  launches=$(sed -n 's/^labbook: \([0-9]*\) kernels,.*/\1/p' "$work/last.log")
  app=$(seconds "$build/labbook" profile --metrics "$metrics" --replay application --out "$work/app" -- "${command[@]}")
  app_rss=$(rss)
  ncu_s=$(seconds ncu --metrics "$metrics" "${command[@]}")
  ncu_rss=$(rss)
  rm -rf "$work/auto" "$work/app"
  printf '| %s | %s | %.2f | %.2f (%s) | %.2f | %.2f | %s | %s | %s / %s / %s |\n' "$(basename "${command[0]}") ${command[*]:1}" \
    "$launches" "$alone" "$auto" "$chosen" "$app" "$ncu_s" "$(ratio "$auto" "$ncu_s")" "$(ratio "$app" "$ncu_s")" \
    "$auto_rss" "$app_rss" "$ncu_rss"
done <<<"$programs"

# Where each run's time goes: the default once more per program, with LABBOOK_VERBOSE=1 (its
# timers cost a little; the table is timed without them): a line per run of the program.
echo
echo "Stages of each run, the default replay (LABBOOK_VERBOSE=1):"
while read -r -a command; do
  [ ${#command[@]} -gt 0 ] || continue
  LABBOOK_VERBOSE=1 seconds "$build/labbook" profile --metrics "$metrics" --out "$work/verbose" -- "${command[@]}" >/dev/null
  echo "- $(basename "${command[0]}") ${command[*]:1}"
  stages "  "
  rm -rf "$work/verbose"
done <<<"$programs"
