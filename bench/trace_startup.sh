#!/bin/bash
# Benchmark: where the trace-only run's fixed cost goes. Times the program alone, then with
# injection libraries that do a growing prefix of the collector's start-up
# (bench/probes/startup_stages.cpp), then the collector itself, then `labbook profile`, each
# the median of 5 runs side by side, and prints each as a ratio to the program alone.
#   bench/trace_startup.sh BUILD [PROGRAM ARGS...]   (default: tests/programs/many_launches)
# Needs a GPU, and a C++ compiler to build the probes.
set -euo pipefail
build=$1; shift
if [ $# -eq 0 ]; then set -- "$build/tests/programs/many_launches"; fi
cache() { sed -n "s/^$1:[A-Z]*=//p" "$build/CMakeCache.txt"; }
cupti_library=$(cache CUDA_cupti_LIBRARY)
cupti_include=$(cache CUDAToolkit_CUPTI_INCLUDE_DIR)
cuda_include=$(dirname "$(cache CMAKE_CUDA_COMPILER)")/../include
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
here=$(dirname "$0")
c++ -O2 -shared -fPIC -o "$work/null.so" "$here/probes/null_injection.cpp"
c++ -O2 -shared -fPIC -I"$cupti_include" -I"$cuda_include" -o "$work/stages.so" "$here/probes/startup_stages.cpp" \
    "$cupti_library" -Wl,-rpath,"$(dirname "$cupti_library")"

seconds() {   # seconds COMMAND...: wall time of one run, output discarded
  local start end
  start=$(date +%s.%N)
  "$@" >/dev/null 2>"$work/last.log" || { echo "failed: $*" >&2; tail -20 "$work/last.log" >&2; exit 1; }
  end=$(date +%s.%N)
  awk "BEGIN { print $end - $start }"
}
median5() {   # median5 COMMAND...
  local times=()
  for _ in 1 2 3 4 5; do times+=("$(seconds "$@")"); done
  printf '%s\n' "${times[@]}" | sort -g | sed -n 3p
}
row() { printf '| %s | %.3f | %.3f |\n' "$1" "$2" "$(awk "BEGIN { print $2 / $alone }")"; }

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader | sed 's/^/GPU: /'
echo "program: $*"
printf '| run (median of 5) | wall time (s) | / program alone |\n|---|---|---|\n'
alone=$(median5 "$@")
row "program alone" "$alone"
row "injection that does nothing" "$(CUDA_INJECTION64_PATH=$work/null.so median5 "$@")"
for stage in 0 1 2; do
  what=("libcupti loaded" "+ subscribed to runtime calls and launches" "+ activity records, flushed at exit")
  row "${what[$stage]}" "$(LABBOOK_PROBE_STAGE=$stage CUDA_INJECTION64_PATH=$work/stages.so median5 "$@")"
done
collector=$(LD_LIBRARY_PATH=$(dirname "$cupti_library") CUDA_INJECTION64_PATH=$build/lib/libcupti-collector.so \
  NVTX_INJECTION64_PATH=$cupti_library LABBOOK_MODE=trace LABBOOK_OUTPUT=$work/m.json median5 "$@")
row "labbook's collector, trace only, no report" "$collector"
row "labbook profile (collector and report)" "$(median5 "$build/labbook" profile --out "$work/out" -- "$@")"
LABBOOK_VERBOSE=1 LD_LIBRARY_PATH=$(dirname "$cupti_library") CUDA_INJECTION64_PATH=$build/lib/libcupti-collector.so \
  NVTX_INJECTION64_PATH=$cupti_library LABBOOK_MODE=trace LABBOOK_OUTPUT=$work/m.json "$@" 2>&1 >/dev/null | grep "labbook collector" || true
echo "measurement: $(wc -c <"$work/m.json") bytes"
