#!/bin/bash
# Benchmark: where the trace-only run's fixed cost goes. Times the program alone, then with
# injection libraries that do a growing prefix of the collector's start-up, or its records
# with each callback domain alone (bench/probes/startup_stages.cpp), then the collector
# itself, then `labbook profile`, in interleaved rounds (LABBOOK_BENCH_ROUNDS, default 9;
# LABBOOK_BENCH_VARIANTS, default all: the table's rows by number, 0 the program alone, which
# every selection needs), and prints each one's median as a ratio to the program alone's;
# then, for each probe stage, how long the program took to end after the probe's last exit
# handler (CUDA's and CUPTI's teardown). LABBOOK_BENCH_CUPTI="SETTINGS;SETTINGS..." adds a row
# for each: stage 4's records with CUPTI's activity settings changed (LABBOOK_PROBE_CUPTI in
# startup_stages.cpp, e.g. "host_pinned=1;per_thread=0;flush_period_ms=100"), numbered from 11.
#   bench/trace_startup.sh BUILD [PROGRAM ARGS...]   (default: tests/programs/many_launches, whose
#   own default is 520 launches; issue 59's figure: BUILD BUILD/tests/programs/many_launches 100000)
# Needs a GPU, and a C++ compiler to build the probes (LABBOOK_BENCH_BUILD_ONLY=1: only that).
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: bench/trace_startup.sh BUILD [PROGRAM ARGS...]" >&2; exit 2; }
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
if [ -n "${LABBOOK_BENCH_BUILD_ONLY:-}" ]; then echo "built: null.so stages.so"; exit 0; fi

seconds() {   # seconds COMMAND...: wall time of one run, output discarded
  local start end
  start=$(date +%s.%N)
  "$@" >/dev/null 2>"$work/last.log" || { echo "failed: $*" >&2; tail -20 "$work/last.log" >&2; exit 1; }
  end=$(date +%s.%N)
  awk "BEGIN { print $end - $start }"
}
collector_env=(LD_LIBRARY_PATH="$(dirname "$cupti_library")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" CUDA_INJECTION64_PATH="$build/lib/libcupti-collector.so"
               NVTX_INJECTION64_PATH="$cupti_library" LABBOOK_MODE=trace LABBOOK_OUTPUT="$work/m.json")
names=("program alone" "injection that does nothing" "libcupti loaded"
       "+ subscribed to runtime calls and launches" "+ kernel, copy and memset records, flushed at exit"
       "+ the runtime calls' records"
       "the same records, no callback" "the same records + the driver's launch calls alone"
       "the same records + the runtime API domain alone"
       "labbook's collector, trace only, no report" "labbook profile (collector and report)")
variant() {   # variant N PROGRAM ARGS...: wall time of one run of variant N
  local n=$1; shift
  case $n in
    0) seconds "$@" ;;
    1) seconds env CUDA_INJECTION64_PATH="$work/null.so" "$@" ;;
    2|3|4|5|6|7|8) seconds env LABBOOK_PROBE_STAGE=$((n - 2)) CUDA_INJECTION64_PATH="$work/stages.so" "$@" ;;
    9) seconds env "${collector_env[@]}" "$@" ;;
    10) seconds "$build/labbook" profile --out "$work/out" -- "$@" ;;
    *) seconds env LABBOOK_PROBE_STAGE=4 LABBOOK_PROBE_CUPTI="${settings[$((n - 11))]}" \
         CUDA_INJECTION64_PATH="$work/stages.so" "$@" ;;
  esac
}
settings=()
[ -z "${LABBOOK_BENCH_CUPTI:-}" ] || IFS=';' read -r -a settings <<<"$LABBOOK_BENCH_CUPTI"
for ((i = 0; i < ${#settings[@]}; ++i)); do names[11 + i]="the same records, no callback, ${settings[$i]}"; done
last=$((10 + ${#settings[@]}))
rounds=${LABBOOK_BENCH_ROUNDS:-9}
[ "$rounds" -ge 1 ] || { echo "LABBOOK_BENCH_ROUNDS must be 1 or more" >&2; exit 2; }
variants=${LABBOOK_BENCH_VARIANTS:-$(seq -s ' ' 0 "$last")}
for v in $variants; do
  [[ $v =~ ^(0|[1-9][0-9]*)$ ]] && ((v <= last)) || { echo "LABBOOK_BENCH_VARIANTS: '$v' is not a row number from 0 to $last" >&2; exit 2; }
done
[[ " $variants " == *" 0 "* ]] || { echo "LABBOOK_BENCH_VARIANTS must hold 0, the program alone" >&2; exit 2; }
declare -A times
# Rounds run every variant once, so that drift in the machine's state falls on all alike.
for ((round = 0; round < rounds; ++round)); do
  for v in $variants; do
    times[$v]+="$(variant "$v" "$@") "
  done
done
median() { printf '%s\n' $1 | sort -g | sed -n "$(( (rounds + 1) / 2 ))p"; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader | sed 's/^/GPU: /'
echo "program: $*"
printf '| run (median of %d, interleaved) | wall time (s) | / program alone |\n|---|---|---|\n' "$rounds"
alone=$(median "${times[0]}")
for v in $variants; do
  t=$(median "${times[$v]}")
  printf '| %s | %.3f | %.3f |\n' "${names[$v]}" "$t" "$(awk "BEGIN { print $t / $alone }")"
done
teardown() {   # teardown STAGE PROGRAM ARGS...: seconds from the probe's exit handler to the end
  local stage=$1 end; shift
  env LABBOOK_PROBE_STAGE="$stage" LABBOOK_PROBE_EXIT_STAMP="$work/stamp" CUDA_INJECTION64_PATH="$work/stages.so" "$@" \
    >/dev/null 2>"$work/last.log" || { echo "failed: $*" >&2; tail -20 "$work/last.log" >&2; exit 1; }
  end=$(date +%s%N)
  awk "BEGIN { printf \"%.3f\", ($end - $(cat "$work/stamp")) / 1e9 }"
}
echo "teardown after the probe's exit handler: libcupti loaded $(teardown 0 "$@") s, subscribed $(teardown 1 "$@") s," \
     "with activity records $(teardown 3 "$@") s"
for setting in "${settings[@]}"; do
  t=$(LABBOOK_PROBE_CUPTI="$setting" teardown 4 "$@")   # assigned apart, so that a failure stops the script
  echo "teardown with $setting: $t s"
done
env "${collector_env[@]}" LABBOOK_VERBOSE=1 "$@" 2>&1 >/dev/null | grep "labbook collector" || true
echo "measurement: $(wc -c <"$work/m.json") bytes"
LABBOOK_VERBOSE=1 "$build/labbook" profile --out "$work/out" -- "$@" 2>&1 >/dev/null | grep "run:.*exit code\|in all" || true
