#!/bin/bash
# On the lent GPU machine, after tools/device-build.sh: does labbook's L2 flush leave L2 as
# `ncu --cache-control all` does, for a naive 1024² transpose (partial-sector stores) set up in
# several ways (tools/probes/l2_flush_state.cu)? Prints, per set-up, the transpose's DRAM bytes
# and duration under ncu's flush, under labbook's (--cache-control all), and under the same
# passes done by the program itself with ncu --cache-control none; then the same for
# tests/programs/transpose's transposeNaive. Usage: tools/probe-l2-flush-state.sh
# What it showed on the H100 (2026-11-23, an earlier form of the probe):
# - the program's own write,discard flush, and labbook's, left the probe's transpose reading
#   4.20 MB and writing 0-5 KB, ncu's 4.20 MB and 0-1 KB, whatever the set-up (kernels or
#   copies, a copy kernel and a read-back before): the flush leaves L2 as ncu's does;
# - in tests/programs/transpose, labbook's transposeNaive read 5.04-5.13 MB and wrote
#   0.86-0.95 MB against ncu's 4.20 MB and 256 B, with every kernel profiled or only it, with
#   or without the trace, with kernel replay, and with the flush done twice. The probe then
#   placed its matrices after 300 MB of other buffers and left the GPU no idle time before the
#   flush; `alloc-first` asks whether the matrices' place (the context's first allocations)
#   is what differs, `pause` whether the test program's 20 ms of checking on the host is, and
#   `write-lines` whether a line written from one L2 partition and discarded from the other
#   survives the flush (labbook's write pass stores 16 bytes a thread, its discard 128).
set -uo pipefail
build=build
metrics=dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d .)
probe=$(mktemp -d)/l2_flush_state
trap 'rm -rf "$(dirname "$probe")"' EXIT
nvcc -O3 -arch="sm_$arch" -o "$probe" tools/probes/l2_flush_state.cu || exit 1

ncu_row() {   # ncu_row KERNEL CACHE PROGRAM ARGS...: DRAM read, written, duration of KERNEL's launches
  local kernel=$1 cache=$2; shift 2
  ncu --cache-control "$cache" --clock-control none -k "regex:^$kernel\$" --metrics "$metrics" --csv --page raw \
      --print-units base --print-kernel-base function "$@" 2>/dev/null | python3 -c '
import csv, sys
rows = list(csv.reader(l for l in sys.stdin if l.startswith("\"")))
if len(rows) < 3: print("(no ncu rows)"); sys.exit()
cols = [rows[0].index(m) for m in sys.argv[1].split(",")]
print(" | ".join(" / ".join(r[c].replace(",", "") for r in rows[2:]) for c in cols))' "$metrics"
}
labbook_row() {   # labbook_row KERNEL PROGRAM ARGS...
  local kernel=$1 out
  shift
  out=$(mktemp -d)
  "$build/labbook" profile --cache-control all --no-trace --kernel "$kernel*" --metrics "$metrics" --out "$out" -- "$@" \
      >/dev/null 2>"$out.log" || { tail -3 "$out.log"; return; }
  python3 -c '
import json, sys
kernels = [k for k in json.load(open(sys.argv[1]))["kernels"] if k.get("metrics")]
print(" | ".join(" / ".join("%.0f" % k["metrics"].get(m, -1) for k in kernels) for m in sys.argv[2].split(",")))' \
      "$out/measurements.json" "$metrics"
  rm -rf "$out" "$out.log"
}

echo "| set-up | flushed by | DRAM read (B) | DRAM written (B) | duration (ns) |"
echo "|---|---|---|---|---|"
for setup in "alloc-first copies copy-kernel read-back" "alloc-first copies copy-kernel read-back pause" \
             "copies copy-kernel read-back" "alloc-first" ""; do
  # shellcheck disable=SC2086  # the set-up is a list of words
  echo "| ${setup:-kernels} | ncu | $(ncu_row transpose_naive all "$probe" $setup) |"
  # shellcheck disable=SC2086
  echo "| ${setup:-kernels} | labbook | $(labbook_row transpose_naive "$probe" $setup) |"
  # shellcheck disable=SC2086
  echo "| ${setup:-kernels} | the program (write,discard) | $(ncu_row transpose_naive none "$probe" $setup flush=write,discard) |"
done
# Other flushes by the program itself, on the test program's layout.
for flush in "write-lines,discard" "write,discard flush-size=4" "write,read,discard" "write,write,discard" "discard"; do
  # shellcheck disable=SC2086
  echo "| alloc-first copies copy-kernel read-back pause | the program ($flush) | $(ncu_row transpose_naive none "$probe" alloc-first copies copy-kernel read-back pause flush=$flush) |"
done
echo "| tests/programs/transpose 1024 | ncu | $(ncu_row transposeNaive all "$build/tests/programs/transpose" 1024) |"
echo "| tests/programs/transpose 1024 | labbook | $(labbook_row transposeNaive "$build/tests/programs/transpose" 1024) |"
for flush in write-lines,discard write,discard,write-lines,discard; do
  echo "| tests/programs/transpose 1024 | labbook ($flush) | $(LABBOOK_L2_FLUSH=$flush labbook_row transposeNaive "$build/tests/programs/transpose" 1024) |"
done
