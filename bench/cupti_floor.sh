#!/bin/bash
# Benchmark (issue 34): the floor CUPTI itself puts under labbook's runs on this GPU, measured
# by the probes in tools/probes/ beside labbook's own figures for the same work, so that what
# is left to win can be told from what no CUPTI client can win:
#   1. a traced launch: no CUPTI, empty callbacks, kernel records, kernel and API records, all
#      (tools/probes/trace_cost.cu), each as µs a launch and as a ratio to no CUPTI at all;
#   2. a metrics run's set-up, call by call (tools/probes/profiler_setup_cost.cu), with and
#      without the counter availability image;
#   3. a profiled launch: kernel replay as labbook does it, and the first pass of application
#      replay with and without an L2 flush before each launch (tools/probes/kernel_replay_cost.cu),
#      with the bench's metric set and with one metric.
#   bench/cupti_floor.sh BUILD
# LABBOOK_BENCH_LAUNCHES sets the traced launches (100000), LABBOOK_BENCH_METRICS the set (lab
# 4's). Needs a GPU; builds the probes with the nvcc and CUPTI that BUILD was configured with,
# for LABBOOK_BENCH_ARCH (native: this machine's GPU). LABBOOK_BENCH_BUILD_ONLY=1: only that, no
# GPU needed (the CPU test bench_probes_build).
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: bench/cupti_floor.sh BUILD" >&2; exit 2; }
build=$1
launches=${LABBOOK_BENCH_LAUNCHES:-100000}
cache() { sed -n "s/^$1:[A-Z]*=//p" "$build/CMakeCache.txt"; }
nvcc=$(cache CMAKE_CUDA_COMPILER)
cupti_library=$(cache CUDA_cupti_LIBRARY)
cupti_include=$(cache CUDAToolkit_CUPTI_INCLUDE_DIR)
[ -x "$nvcc" ] && [ -f "$cupti_library" ] || { echo "bench/cupti_floor.sh: $build was not configured with nvcc and CUPTI" >&2; exit 2; }
cupti_dir=$(dirname "$cupti_library")
export LD_LIBRARY_PATH=$cupti_dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
probes=$(dirname "$0")/../tools/probes
for probe in trace_cost profiler_setup_cost kernel_replay_cost; do
  "$nvcc" -O2 -arch="${LABBOOK_BENCH_ARCH:-native}" -o "$work/$probe" "$probes/$probe.cu" -I"$cupti_include" -L"$cupti_dir" -lcupti -lcheckpoint -lcuda \
    -Xlinker -rpath="$cupti_dir" 2>&1 | grep -v deprecated || true
  [ -x "$work/$probe" ] || { echo "bench/cupti_floor.sh: $probe did not build" >&2; exit 1; }
done
if [ -n "${LABBOOK_BENCH_BUILD_ONLY:-}" ]; then echo "built: trace_cost profiler_setup_cost kernel_replay_cost"; exit 0; fi
metrics=${LABBOOK_BENCH_METRICS:-$("$build/labbook" metrics --lab lab4)}
# The median of three numbers; stops the bench where a probe's line no longer reads as one.
median3() {
  local value
  for value in "$@"; do
    [[ $value =~ ^[0-9.]+$ ]] || { echo "bench/cupti_floor.sh: '$value' is not a number a probe printed" >&2; exit 1; }
  done
  printf '%s\n' "$@" | sort -g | sed -n 2p
}

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv,noheader | sed 's/^/GPU (name, driver, SM clock, max SM clock, memory clock): /'
echo "metrics: $metrics"
echo
echo "1. A traced launch ($launches launches of a short kernel, median of 3 runs, one way a process):"
echo
echo "| CUPTI | µs a launch | × none |"
echo "|---|---|---|"
declare -A per_launch
for way in none callbacks kernels api all; do
  runs=()
  for _ in 1 2 3; do runs+=("$("$work/trace_cost" "$way" "$launches" | sed -n 's/.*, \([0-9.]*\) us a launch.*/\1/p')"); done
  per_launch[$way]=$(median3 "${runs[@]}")
  printf '| %s | %.2f | %.2f |\n' "$way" "${per_launch[$way]}" "$(awk "BEGIN { print ${per_launch[$way]} / ${per_launch[none]} }")"
done
echo
echo "2. A metrics run's set-up, each CUPTI call (ms; three processes each way):"
for way in with-availability without-availability; do
  for i in 1 2 3; do "$work/profiler_setup_cost" "$way" "$metrics" >"$work/setup-$way-$i.txt"; done
done
echo
echo "| call | with availability | without |"
echo "|---|---|---|"
call_ms() { sed -n "s/^$2  *\([0-9.]*\) ms$/\1/p" "$1" | head -1; }
while IFS= read -r call; do
  cells=()
  for way in with-availability without-availability; do
    values=()
    for i in 1 2 3; do values+=("$(call_ms "$work/setup-$way-$i.txt" "$call")"); done
    if [ -z "${values[0]}" ]; then
      cells+=("not called")
    else
      median=$(median3 "${values[@]}")
      cells+=("$median")
    fi
  done
  printf '| %s | %s | %s |\n' "$call" "${cells[0]}" "${cells[1]}"
done < <(sed -n 's/^\(.*[^ ]\)  *[0-9.]* ms$/\1/p' "$work/setup-with-availability-1.txt" | awk '!seen[$0]++')
echo
echo "3. A profiled launch (ms a launch; kernel replay, 20 launches: as labbook does it (per-launch: a config and an image"
echo "   a launch, memory saved and put back, L2 flushed before each pass), one config for all launches (shared) with and"
echo "   without the memory and the flush; application replay: the first pass, 200 launches, with and without the flush;"
echo "   then the ranges decoded and the first metric's smallest and largest value, alike where each range holds its launch):"
echo
for set in "$metrics" dram__bytes_read.sum; do
  "$work/kernel_replay_cost" 20 plain 1 "$set" per-launch
  "$work/kernel_replay_cost" 20 plain 1 "$set"
  "$work/kernel_replay_cost" 20 none 0 "$set"
  "$work/kernel_replay_cost" 200 none 0 "$set" application
  "$work/kernel_replay_cost" 200 none 1 "$set" application
done | sed 's/^/- /'
