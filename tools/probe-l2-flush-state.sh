#!/bin/bash
# On the lent GPU machine, after tools/device-build.sh: why does labbook's L2 flush not leave L2
# as `ncu --cache-control all` does before a naive 1024² transpose (partial-sector stores), when
# the program's own flush with the same passes does? tools/probes/l2_flush_state.cu sets the
# transpose up and flushes in the ways asked; each row gives its DRAM bytes and duration.
#   tools/probe-l2-flush-state.sh             what differs between the two flushes (about 1 min)
#   tools/probe-l2-flush-state.sh --cupti     the program's own flush under labbook (40 s)
#   tools/probe-l2-flush-state.sh --settings  CUPTI's replay modes, metric subsets, trace-only
#                                             durations, against ncu's two replays (40 s)
#   tools/probe-l2-flush-state.sh --events    the transpose timed by the probe's own events
#   tools/probe-l2-flush-state.sh --apis      the transpose profiled from inside a program by CUPTI's
#                                             Range Profiler API and by its deprecated Profiler API
#                                             (tools/probes/profiler_apis.cu), against ncu (2 min)
#   tools/probe-l2-flush-state.sh --sweep     the set-ups and other passes studied first (2 min)
# What it showed on the H100 (2026-11-23, each row twice; docs/metrics.md has the numbers):
# under ncu --cache-control none, the program's own write,discard flush leaves the transpose
# reading 4.20 MB and writing under 15 KB, as ncu's flush does, whatever its context, kernel or
# buffer. Under labbook, the same flush by the program gives 5.05-5.08 MB read and 0.87-0.91 MB
# written as soon as CUPTI's range profiler is on the program's context, even never stopped
# between the flush and the kernel; so does labbook's own flush, in user and kernel replay and
# with any metric subset. The extra traffic comes with the range profiler, not with the flush.
# --apis: a program profiling the transpose itself gets the same extra traffic from CUPTI's
# deprecated Profiler API as from its Range Profiler API (5.07-5.13 MB read, 0.89-0.95 MB
# written, 22.3-23.6 us), where ncu gives 4.20 MB, under 2 KB and 20.0-20.2 us.
# --events settles nothing: the GPU idles between the start event and the kernel while a
# tool's launch callbacks run, so the events time those too (median 24.7 us alone, 35.7 us
# under labbook's trace, 30.7 us with the range profiler on but the transpose not profiled,
# 106 us under ncu profiling another kernel).
set -uo pipefail
build=build
metrics=dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d .)
probe=$(mktemp -d)/l2_flush_state
trap 'rm -rf "$(dirname "$probe")"' EXIT
nvcc -O3 -arch="sm_$arch" -o "$probe" tools/probes/l2_flush_state.cu -lcuda || exit 1

ncu_row() {   # ncu_row KERNEL CACHE PROGRAM ARGS...: DRAM read, written, duration of KERNEL's launches
  local kernel=$1 cache=$2; shift 2
  timeout 120 ncu --cache-control "$cache" --clock-control none -k "regex:^$kernel\$" --metrics "$metrics" --csv --page raw \
      --print-units base --print-kernel-base function "$@" 2>/dev/null | python3 -c '
import csv, sys
rows = list(csv.reader(l for l in sys.stdin if l.startswith("\"")))
if len(rows) < 3: print("(no ncu rows)"); sys.exit()
cols = [rows[0].index(m) for m in sys.argv[1].split(",")]
print(" | ".join(" / ".join(r[c].replace(",", "") for r in rows[2:]) for c in cols))' "$metrics"
}
labbook_row() {   # [globs=G] labbook_row KERNEL CACHE PROGRAM ARGS...: KERNEL's launches, profiled with
  local kernel=$1 cache=$2 out   # those matching G (default KERNEL*)
  shift 2
  out=$(mktemp -d)
  "$build/labbook" profile --cache-control "$cache" --replay "${replay:-application}" --no-trace --kernel "${globs:-$kernel*}" --metrics "$metrics" \
      --out "$out" -- "$@" >/dev/null 2>"$out.log" || { tail -3 "$out.log"; return; }
  python3 -c '
import sys
sys.path.insert(0, sys.argv[4])
from measurement_records import load
kernels = [k for k in load(sys.argv[1])["kernels"] if k.get("metrics") and k["name"].startswith(sys.argv[3])]
print(" | ".join(" / ".join("%.0f" % k["metrics"].get(m, -1) for k in kernels) for m in sys.argv[2].split(",")))' \
      "$out/measurements.json" "$metrics" "$kernel" "$(dirname "$0")"
  rm -rf "$out" "$out.log"
}

sweep() {   # the set-ups and passes studied first
  echo "| set-up | flushed by | DRAM read (B) | DRAM written (B) | duration (ns) |"
  echo "|---|---|---|---|---|"
  for setup in "alloc-first copies copy-kernel read-back" "alloc-first copies copy-kernel read-back pause" \
               "copies copy-kernel read-back" "alloc-first" ""; do
    # shellcheck disable=SC2086  # the set-up is a list of words
    echo "| ${setup:-kernels} | ncu | $(ncu_row transpose_naive all "$probe" $setup) |"
    # shellcheck disable=SC2086
    echo "| ${setup:-kernels} | labbook | $(labbook_row transpose_naive all "$probe" $setup) |"
    # shellcheck disable=SC2086
    echo "| ${setup:-kernels} | the program (write,discard) | $(ncu_row transpose_naive none "$probe" $setup flush=write,discard) |"
  done
  # Other flushes by the program itself, on the test program's layout.
  for flush in "write-lines,discard" "write,discard flush-size=4" "write,read,discard" "write,write,discard" "discard"; do
    # shellcheck disable=SC2086
    echo "| alloc-first copies copy-kernel read-back pause | the program ($flush) | $(ncu_row transpose_naive none "$probe" alloc-first copies copy-kernel read-back pause flush=$flush) |"
  done
  echo "| tests/programs/transpose 1024 | ncu | $(ncu_row transposeNaive all "$build/tests/programs/transpose" 1024) |"
  echo "| tests/programs/transpose 1024 | labbook | $(labbook_row transposeNaive all "$build/tests/programs/transpose" 1024) |"
  for flush in write-lines,discard write,discard,write-lines,discard; do
    echo "| tests/programs/transpose 1024 | labbook ($flush) | $(LABBOOK_L2_FLUSH=$flush labbook_row transposeNaive all "$build/tests/programs/transpose" 1024) |"
  done
}

contexts() {   # one difference between the program's flush and labbook's at a time
  local layout=(alloc-first copies copy-kernel read-back pause) flush=flush=write,discard
  echo "| tests/programs/transpose's layout: ${layout[*]} | DRAM read (B) | DRAM written (B) | duration (ns) |"
  echo "|---|---|---|---|"
  echo "| ncu --cache-control all | $(ncu_row transpose_naive all "$probe" "${layout[@]}") |"
  for _ in 1 2; do
    echo "| labbook --cache-control all | $(labbook_row transpose_naive all "$probe" "${layout[@]}") |"
    echo "| the program's flush (ncu none) | $(ncu_row transpose_naive none "$probe" "${layout[@]}" $flush) |"
    echo "| the program's flush from a context of its own | $(ncu_row transpose_naive none "$probe" "${layout[@]}" $flush flush-context=other) |"
    echo "| labbook's kernel, the program's context | $(ncu_row transpose_naive none "$probe" "${layout[@]}" $flush flush-kernel=labbook) |"
    echo "| labbook's kernel, a context of its own | $(ncu_row transpose_naive none "$probe" "${layout[@]}" $flush flush-kernel=labbook flush-context=other) |"
    echo "| the program's flush under labbook --cache-control none | $(labbook_row transpose_naive none "$probe" "${layout[@]}" $flush) |"
    echo "| the same from a context of its own | $(labbook_row transpose_naive none "$probe" "${layout[@]}" $flush flush-context=other) |"
  done
  echo "| a context of its own, made first | $(ncu_row transpose_naive none "$probe" "${layout[@]}" $flush flush-context=other flush-first) |"
  echo "| a context of its own, then a memset in the program's | $(ncu_row transpose_naive none "$probe" "${layout[@]}" $flush flush-context=other touch) |"
  echo "| tests/programs/transpose 1024, ncu | $(ncu_row transposeNaive all "$build/tests/programs/transpose" 1024) |"
  echo "| tests/programs/transpose 1024, labbook | $(labbook_row transposeNaive all "$build/tests/programs/transpose" 1024) |"
}

cupti() {   # what CUPTI's range profiler, started by labbook around the program's flush, changes
  local layout=(alloc-first copies copy-kernel read-back pause) flush=flush=write,discard
  echo "| under labbook, tests/programs/transpose's layout: ${layout[*]} | DRAM read (B) | DRAM written (B) | duration (ns) |"
  echo "|---|---|---|---|"
  for _ in 1 2; do
    echo "| none, no flush | $(labbook_row transpose_naive none "$probe" "${layout[@]}") |"
    echo "| none, the program's write,discard (CUPTI set up after it) | $(labbook_row transpose_naive none "$probe" "${layout[@]}" $flush) |"
    echo "| none, the program's write alone | $(labbook_row transpose_naive none "$probe" "${layout[@]}" flush=write) |"
    echo "| none, the program's write,discard, copy_rows profiled too (CUPTI set up before; stopped by the flush, started again) | $(globs='copy_rows*,transpose_naive*' labbook_row transpose_naive none "$probe" "${layout[@]}" $flush) |"
    echo "| none, the program's write,discard, every kernel profiled (never stopped) | $(globs='*' labbook_row transpose_naive none "$probe" "${layout[@]}" $flush) |"
    echo "| all | $(labbook_row transpose_naive all "$probe" "${layout[@]}") |"
    echo "| all, copy_rows profiled too | $(globs='copy_rows*,transpose_naive*' labbook_row transpose_naive all "$probe" "${layout[@]}") |"
  done
  for passes in write,discard write,discard,write,discard write,write,discard discard,write,discard write,read; do
    for _ in 1 2; do
      echo "| tests/programs/transpose 1024, all, $passes | $(LABBOOK_L2_FLUSH=$passes labbook_row transposeNaive all "$build/tests/programs/transpose" 1024) |"
    done
  done
}

trace_row() {   # trace_row KERNEL PROGRAM ARGS...: KERNEL's duration (ns) from CUPTI's activity record,
  local kernel=$1 out   # labbook tracing only: no range profiler on the program
  shift
  out=$(mktemp -d)
  "$build/labbook" profile --out "$out" -- "$@" >/dev/null 2>"$out.log" || { tail -3 "$out.log"; return; }
  python3 -c '
import sys
sys.path.insert(0, sys.argv[3])
from measurement_records import load
print(" / ".join(str(k["end_ns"] - k["start_ns"]) for k in load(sys.argv[1])["kernels"]
                 if k["name"].startswith(sys.argv[2]) and "end_ns" in k))' "$out/measurements.json" "$kernel" "$(dirname "$0")"
  rm -rf "$out" "$out.log"
}

settings() {   # whether a setting of CUPTI's range profiler, or ncu's replay, changes the naive transpose
  local program=("$build/tests/programs/transpose" 1024)
  echo "| tests/programs/transpose 1024, --cache-control all | DRAM read (B) | DRAM written (B) | duration (ns) |"
  echo "|---|---|---|---|"
  for _ in 1 2; do
    echo "| ncu, kernel replay | $(ncu_row transposeNaive all "${program[@]}") |"
    echo "| ncu --replay-mode application | $(ncu_row transposeNaive all --replay-mode application "${program[@]}") |"
    echo "| labbook (application replay, a single pass: CUPTI's user replay) | $(labbook_row transposeNaive all "${program[@]}") |"
    echo "| labbook --replay kernel (CUPTI's kernel replay) | $(replay=kernel labbook_row transposeNaive all "${program[@]}") |"
    echo "| labbook, DRAM written alone | $(metrics=dram__bytes_write.sum labbook_row transposeNaive all "${program[@]}") |"
    echo "| labbook, duration alone | $(metrics=gpu__time_duration.sum labbook_row transposeNaive all "${program[@]}") |"
  done
  local layout=(alloc-first copies copy-kernel read-back pause)
  echo
  echo "| l2_flush_state ${layout[*]}, the program's own flush | duration (ns) |"
  echo "|---|---|"
  for _ in 1 2; do
    echo "| ncu --cache-control none, no flush | $(metrics=gpu__time_duration.sum ncu_row transpose_naive none "$probe" "${layout[@]}") |"
    echo "| ncu --cache-control none, write,discard | $(metrics=gpu__time_duration.sum ncu_row transpose_naive none "$probe" "${layout[@]}" flush=write,discard) |"
    echo "| labbook trace only (activity record), no flush | $(trace_row transpose_naive "$probe" "${layout[@]}") |"
    echo "| labbook trace only (activity record), write,discard | $(trace_row transpose_naive "$probe" "${layout[@]}" flush=write,discard) |"
    echo "| labbook --metrics gpu__time_duration.sum, write,discard, every kernel profiled | $(globs='*' metrics=gpu__time_duration.sum labbook_row transpose_naive none "$probe" "${layout[@]}" flush=write,discard) |"
  done
}

events_row() {   # events_row COMMAND...: the median the probe's own events measured (repeat=N)
  "$@" 2>/dev/null | sed -n 's/^transpose_naive: //p'
}

events() {   # one clock for every tool: does the range profiler slow the transpose when stopped, or only around it?
  local layout=(alloc-first copies copy-kernel read-back pause repeat=20) flush=flush=write,discard out
  out=$(mktemp -d)
  local labbook=("$build/labbook" profile --out "$out")
  local metrics_run=("${labbook[@]}" --no-trace --cache-control none --metrics dram__bytes_read.sum)
  echo "| l2_flush_state ${layout[*]}: the transpose timed by the program's events | median, range |"
  echo "|---|---|"
  for _ in 1 2; do
    echo "| alone, no flush | $(events_row "$probe" "${layout[@]}") |"
    echo "| alone, the program's write,discard | $(events_row "$probe" "${layout[@]}" $flush) |"
    echo "| labbook trace only (activity records, no range profiler) | $(events_row "${labbook[@]}" -- "$probe" "${layout[@]}" $flush) |"
    echo "| labbook metrics run, range profiler on the context, copy_rows profiled, the transposes not | $(events_row "${metrics_run[@]}" --kernel 'copy_rows*' -- "$probe" "${layout[@]}" $flush) |"
    echo "| labbook metrics run, the transposes profiled | $(events_row "${metrics_run[@]}" --kernel 'transpose_naive*' -- "$probe" "${layout[@]}" $flush) |"
    echo "| labbook metrics run, every kernel profiled (never stopped) | $(events_row "${metrics_run[@]}" --kernel '*' -- "$probe" "${layout[@]}" $flush) |"
    echo "| ncu --cache-control none, copy_rows profiled, the transposes not | $(events_row ncu --cache-control none --clock-control none -k regex:copy_rows --metrics dram__bytes_read.sum "$probe" "${layout[@]}" $flush) |"
  done
  rm -rf "$out"
}

apis_row() {   # apis_row API: the probe's own lines, three repetitions in one process
  local out
  out=$(timeout 60 "$apis" "api=$1" repeat=3 2>&1)
  python3 -c '
import re, sys
rows = [dict(re.findall(r"(\w+)=(\d+)", l)) for l in sys.argv[2].splitlines() if l.startswith(sys.argv[1] + ":")]
if not rows: print("(failed: " + " ".join(sys.argv[2].splitlines()[-2:]) + ")"); sys.exit()
print(" | ".join(" / ".join(r[k] for r in rows) for k in ("read", "written", "duration")))' "$1" "$out"
}

apis() {   # is the extra traffic the Range Profiler API's, or any CUPTI profiling session's?
  apis=$(dirname "$probe")/profiler_apis
  nvcc -O3 -arch="sm_$arch" -o "$apis" tools/probes/profiler_apis.cu -lcuda -lcupti -lnvperf_host || exit 1
  echo "| profiler_apis: the transpose after a write,discard flush from another context | DRAM read (B) | DRAM written (B) | duration (ns) |"
  echo "|---|---|---|---|"
  for _ in 1 2; do
    echo "| ncu --cache-control none, not profiled by the program | $(ncu_row transpose_naive none "$apis" api=none repeat=3) |"
    echo "| the program's Range Profiler API (cupti_range_profiler.h), user replay | $(apis_row range) |"
    echo "| the program's deprecated Profiler API (cupti_profiler_target.h), user replay | $(apis_row legacy) |"
  done
}

case "${1:-}" in
  --sweep) sweep ;;
  --cupti) cupti ;;
  --settings) settings ;;
  --events) events ;;
  --apis) apis ;;
  "") contexts ;;
  *) echo "usage: tools/probe-l2-flush-state.sh [--sweep|--cupti|--settings|--events|--apis]" >&2; exit 2 ;;
esac
