#!/bin/bash
# GPU test: `labbook profile` on programs that know nothing of labbook (tests/programs):
# threads, streams, NVTX push/pop and start/end, copies, managed memory and a launch
# filter; a crash and an exit() mid-run, whose exit codes must pass through and whose
# measurements must stay valid; a program without NVTX, with every catalog metric, whose
# summary must carry nvprof's GPU activities; kernel-name and launch-window filters with a
# metric the GPU lacks. Skips (77) without a GPU.
set -euo pipefail
build=$1
nvidia-smi -L >/dev/null 2>&1 || { echo "no GPU: skipped"; exit 77; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
lb="$build/labbook"; programs="$build/tests/programs"; check="$build/tests/check_profile"

echo "== threads, streams, unified memory, --nvtx filter"
"$lb" profile --metrics gld_efficiency,duration --nvtx 'worker0/*' --out "$out/threads" -- "$programs/threads_streams" --launches 4
"$check" threads "$out/threads" 4

expect_exit() {   # expect_exit CODE NAME ARGS...: labbook profile passes the program's exit code on
  local want=$1 name=$2; shift 2
  local rc=0
  "$lb" profile --out "$out/$name" -- "$programs/threads_streams" "$@" || rc=$?
  [ "$rc" -eq "$want" ] || { echo "FAIL: $name: labbook profile exited $rc, the program's code is $want"; exit 1; }
}
echo "== crash after 2 kernels"
expect_exit 139 crash --crash-after 2
"$check" stopped "$out/crash" 139 "signal SIGSEGV" 2
echo "== exit(3) after 3 kernels"
expect_exit 3 exit --exit-after 3
"$check" stopped "$out/exit" 3 exit 3

echo "== transpose, every catalog metric"
"$lb" profile --metrics "$("$lb" metrics --cupti-all)" --out "$out/transpose" -- "$programs/transpose" 1024
"$check" transpose "$out/transpose"
echo "== transpose, --kernel/--launch-skip/--launch-count filter and a metric no GPU has"
"$lb" profile --metrics dram_read_bytes,foo__bar.sum --kernel 'transpose*' --launch-skip 1 --launch-count 1 \
    --out "$out/filtered" -- "$programs/transpose" 256
"$check" filtered "$out/filtered"
if [ -n "${LABBOOK_KEEP_RESULTS:-}" ]; then
  for run in threads crash exit transpose; do
    mkdir -p "$LABBOOK_KEEP_RESULTS/$run"
    cp "$out/$run"/summary.md "$out/$run"/timeline.svg "$out/$run"/measurements.json "$LABBOOK_KEEP_RESULTS/$run/"
  done
fi
