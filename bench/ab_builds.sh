#!/bin/bash
# Benchmark: two builds of labbook side by side on one GPU, their runs alternating, so that a
# change is measured against what came before under the same load. For each program: wall time
# and peak memory of each run (GNU time), the collector's stages (LABBOOK_VERBOSE), and whether
# the two builds' measurements hold the same records (tools/same_records.py: names, NVTX ranges
# and launch numbers of kernels, API calls and copies).
#   bench/ab_builds.sh OLD_BUILD NEW_BUILD [ROUNDS]
# The programs: 10^5 launches traced (tests/programs/many_launches), labs 2 and 8 traced (copies
# in NVTX ranges), lab 4 and the misaligned read with lab 4's metrics. LABBOOK_AB_RUNS overrides
# them (one "trace|metrics PROGRAM ARGS" a line, PROGRAM relative to a build). An older commit's
# build on the lent GPU machine: `git archive -o old.tar REV` here, carry old.tar, and there
# `mkdir old && tar -xf old.tar -C old && (cd old && bash tools/device-build.sh)`. A change that
# a variable turns off compares in one build: LABBOOK_AB_OLD_ENV holds NAME=VALUE words for the
# old side's runs (GLIBC_TUNABLES=glibc.malloc.hugetlb=0: labbook's heap without huge pages).
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: bench/ab_builds.sh OLD_BUILD NEW_BUILD [ROUNDS]" >&2; exit 2; }
old=$1 new=$2 rounds=${3:-3}
read -r -a old_env <<<"${LABBOOK_AB_OLD_ENV:-}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "$0")/timing.sh"   # seconds, rss, median3, stages
tools=$(dirname "$0")/../tools
metrics=$("$new/labbook" metrics --lab lab4)
runs=${LABBOOK_AB_RUNS:-"trace tests/programs/many_launches 100000
trace labs/lab2_transfers
trace labs/lab8_streams
metrics labs/lab4_global_memory --repeat 0
metrics tests/programs/misaligned_read 11"}

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv,noheader | sed 's/^/GPU (name, driver, SM clock, max SM clock, memory clock): /'
echo "old: $old${old_env[*]:+ (with ${old_env[*]})}; new: $new; $rounds rounds, alternating"
while read -r mode program args; do
  [ -n "$mode" ] || continue
  echo
  echo "## $mode: $program $args"
  for ((round = 1; round <= rounds; ++round)); do
    for side in old new; do
      build=$old side_env=("${old_env[@]}"); [ $side = new ] && build=$new side_env=()
      flags=(); [ "$mode" = metrics ] && flags=(--metrics "$metrics")
      # shellcheck disable=SC2086 # ARGS are words
      if t=$(LABBOOK_VERBOSE=1 seconds env "${side_env[@]}" "$build/labbook" profile "${flags[@]}" --out "$work/$side" -- "$build/$program" $args); then
        echo "$side, round $round: $t s, peak $(rss)"
        stages "    "
      else
        echo "$side, round $round: failed"
      fi
    done
    [ "$round" -gt 1 ] || python3 "$tools/same_records.py" "$work/old/measurements.json" "$work/new/measurements.json" |
      sed 's/^/  records: /' || true
  done
done <<<"$runs"
