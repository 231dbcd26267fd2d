#!/bin/bash
# Benchmark (issue 59): the GPU figures of the issue's table, each from alternating runs side by
# side on this GPU, with the median of each: the trace-only run at 10^5 launches and on lab 4's
# program against the program alone; `labbook profile --metrics` against `ncu --metrics` (lab
# 4's set) on programs of a few launches, and on 20 of 10^5 launches (the replay labbook chose
# beside each run), with every run's peak memory. One pair of runs is one sample: a host's load
# moves both alike.
#   bench/goal_medians.sh BUILD [ROUNDS]      (ROUNDS: samples of each figure, default 5)
# Needs a GPU, ncu on PATH and GNU time (/usr/bin/time).
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: bench/goal_medians.sh BUILD [ROUNDS]" >&2; exit 2; }
build=$1 rounds=${2:-5}
[[ $rounds =~ ^[1-9][0-9]*$ ]] || { echo "goal_medians: ROUNDS must be a whole number of at least 1, not '$rounds'" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "$0")/timing.sh"   # seconds, rss
[ -x "$build/labbook" ] && [ -x "$build/tests/programs/many_launches" ] && [ -x "$build/labs/lab4_global_memory" ] ||
  { echo "goal_medians: $build holds no built labbook, tests/programs and lab 4" >&2; exit 2; }
command -v ncu >/dev/null 2>&1 || { echo "goal_medians: ncu is not on PATH" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "goal_medians: peak memory needs GNU time (/usr/bin/time)" >&2; exit 2; }
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
ratio() { awk "BEGIN { printf \"%.3f\", $1 / $2 }"; }
replay() { sed -n 's/^labbook: \([a-z]*\) replay: .*/\1/p' "$work/last.log"; }
p=$build/tests/programs
metrics=$("$build/labbook" metrics --lab lab4)

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv,noheader | sed 's/^/GPU (name, driver, SM clock, max SM clock, memory clock): /'
echo "metrics: $metrics; $rounds samples of each figure"

# trace_pairs GOAL COMMAND...: the program alone, then labbook's trace-only run of it, ROUNDS
# pairs, and the median of their ratios.
trace_pairs() {
  local goal=$1 alone traced i ratios=()
  shift
  for ((i = 1; i <= rounds; ++i)); do
    alone=$(seconds "$@")
    traced=$(seconds "$build/labbook" profile --out "$work/trace" -- "$@")
    ratios+=("$(ratio "$traced" "$alone")")
    echo "alone $alone s, labbook $traced s: ${ratios[-1]} x"
  done
  echo "median: $(median "${ratios[@]}") x (goal $goal)"
}

echo
echo "## Trace only, 10^5 launches (many_launches 100000): program alone, then labbook"
trace_pairs 1.5 "$p/many_launches" 100000

echo
echo "## Trace only, lab 4's program (88 launches, NVTX ranges, copies; --repeat 0): program alone, then labbook"
trace_pairs 1.10 "$build/labs/lab4_global_memory" --repeat 0

echo
echo "## Metrics, programs of a few launches: labbook (its replay), then ncu, $rounds pairs a program"
per_program=()
for program in "misaligned_read 11" templates zero_copy persisting_l2 streams_callbacks "transpose 1024"; do
  read -r -a command <<<"$p/$program"
  ratios=()
  for ((i = 1; i <= rounds; ++i)); do
    lb=$(seconds "$build/labbook" profile --metrics "$metrics" --out "$work/metrics" -- "${command[@]}")
    lb_rss=$(rss)
    chosen=$(replay)
    nc=$(seconds ncu --metrics "$metrics" "${command[@]}")
    ratios+=("$(ratio "$lb" "$nc")")
    echo "$program: labbook $lb s ($chosen, $lb_rss), ncu $nc s ($(rss)): ${ratios[-1]}"
  done
  per_program+=("$(median "${ratios[@]}")")
done
echo "median of the programs' medians: $(median "${per_program[@]}") (goal 0.6)"

echo
echo "## Metrics, 20 of 10^5 launches (--kernel readOffset --launch-skip 1000 --launch-count 20): labbook, then ncu"
peaks=()
for ((i = 1; i <= rounds; ++i)); do
  lb=$(seconds "$build/labbook" profile --metrics "$metrics" --kernel readOffset --launch-skip 1000 --launch-count 20 \
    --out "$work/metrics20" -- "$p/many_launches" 100000)
  lb_kb=$(tail -1 "$work/last.rss")
  chosen=$(replay)
  nc=$(seconds ncu --metrics "$metrics" -k readOffset -s 1000 -c 20 "$p/many_launches" 100000)
  nc_kb=$(tail -1 "$work/last.rss")
  peaks+=("$(ratio "$lb_kb" "$nc_kb")")
  echo "labbook $lb s ($chosen), $((lb_kb / 1024)) MB; ncu $nc s, $((nc_kb / 1024)) MB: peak ${peaks[-1]} x ncu's"
done
echo "median peak: $(median "${peaks[@]}") x ncu's (goal 1.0)"
