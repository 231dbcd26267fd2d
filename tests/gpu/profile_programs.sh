#!/bin/bash
# GPU test: `labbook profile` on programs that know nothing of labbook (tests/programs):
# threads, streams, NVTX push/pop and start/end, copies, managed memory and a launch
# filter; a crash and an exit() mid-run, whose exit codes must pass through and whose
# measurements must stay valid; a program without NVTX, with every catalog metric, whose
# summary must carry nvprof's GPU activities; kernel-name and launch-window filters with a
# metric the GPU lacks; a program's environment the user's, GLIBC_TUNABLES included (labbook
# runs itself with its own); the summary of a trace-only run, written while the program ends,
# showing the exit code it gave. Skips (77) without a GPU.
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
# A trace-only run writes its summary while the program ends, assuming exit code 0: what the
# folder holds once labbook is done must show the code the program gave.
summary_says_exit() {   # summary_says_exit NAME CODE
  grep -q "Exit code: $2;" "$out/$1/summary.md" || { echo "FAIL: $1: summary.md does not say exit code $2"; exit 1; }
  [ ! -e "$out/$1/.written-before-the-exit" ] || { echo "FAIL: $1: the outputs written early were left apart"; exit 1; }
}
echo "== crash after 2 kernels"
expect_exit 139 crash --crash-after 2
"$check" stopped "$out/crash" 139 "signal SIGSEGV" 2
summary_says_exit crash 139
echo "== exit(3) after 3 kernels"
expect_exit 3 exit --exit-after 3
"$check" stopped "$out/exit" 3 exit 3
summary_says_exit exit 3
echo "== trace only, exit code 0: its summary written while the program ended"
LABBOOK_VERBOSE=1 "$lb" profile --out "$out/trace_only" -- "$programs/threads_streams" --launches 2 \
  >/dev/null 2>"$out/trace_only.log"
grep -q 'summary.md/html/json [0-9.]* s while the program ended' "$out/trace_only.log" ||
  { echo "FAIL: trace_only: the summary was not written while the program ended"; tail -5 "$out/trace_only.log"; exit 1; }
summary_says_exit trace_only 0

echo "== transpose, every catalog metric"
"$lb" profile --metrics "$("$lb" metrics --cupti-all)" --out "$out/transpose" -- "$programs/transpose" 1024
"$check" transpose "$out/transpose"
echo "== transpose, --kernel/--launch-skip/--launch-count filter and a metric no GPU has"
"$lb" profile --metrics dram_read_bytes,foo__bar.sum --kernel 'transpose*' --launch-skip 1 --launch-count 1 \
    --out "$out/filtered" -- "$programs/transpose" 256
"$check" filtered "$out/filtered"
echo "== the program gets the user's environment, not the one labbook runs itself in"
user_env() {   # user_env NAME: the environment a program under labbook profile prints
  "$lb" profile --out "$out/$1" -- env > "$out/$1.txt" 2>/dev/null || true
  grep -q '^CUDA_INJECTION64_PATH=' "$out/$1.txt" || { echo "FAIL: $1: the program did not print its environment"; exit 1; }
  if grep -q '^LABBOOK_USER_GLIBC_TUNABLES=' "$out/$1.txt"; then echo "FAIL: $1: labbook's own variable reached the program"; exit 1; fi
}
GLIBC_TUNABLES=glibc.malloc.arena_max=2 user_env tunables
grep -qx 'GLIBC_TUNABLES=glibc.malloc.arena_max=2' "$out/tunables.txt" || { echo "FAIL: the user's GLIBC_TUNABLES changed"; exit 1; }
(unset GLIBC_TUNABLES; user_env no_tunables)
if grep -q '^GLIBC_TUNABLES=' "$out/no_tunables.txt"; then echo "FAIL: GLIBC_TUNABLES set for the program"; exit 1; fi

if [ -n "${LABBOOK_KEEP_RESULTS:-}" ]; then
  for run in threads crash exit transpose; do
    mkdir -p "$LABBOOK_KEEP_RESULTS/$run"
    cp "$out/$run"/summary.md "$out/$run"/timeline.svg "$out/$run"/measurements.json "$LABBOOK_KEEP_RESULTS/$run/"
  done
fi
