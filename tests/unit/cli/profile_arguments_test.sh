#!/bin/bash
# CPU test: `labbook profile` finds command-line mistakes before anything else, on a machine
# without a GPU too (exit 2, the argument named on stderr, nothing on stdout, nothing run),
# and otherwise says "no GPU" with 77 without running the program.
#   profile_arguments_test.sh LABBOOK
set -uo pipefail
lb=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
marker=$work/ran
printf '#!/bin/sh\ntouch %s\n' "$marker" >"$work/prog"
chmod +x "$work/prog"
failures=0
# expect NAME WANT_EXIT WANT_STDERR_PART ARGS...
expect() {
  local name=$1 want=$2 part=$3; shift 3
  local rc=0
  (cd "$work" && "$lb" profile --out "$work/out" "$@") >"$work/stdout" 2>"$work/stderr" || rc=$?
  if [ "$rc" != "$want" ] || ! grep -qF -- "$part" "$work/stderr" || [ -s "$work/stdout" ] || [ -e "$marker" ]; then
    echo "FAIL: $name: exit $rc (want $want); stderr: $(cat "$work/stderr"); stdout: $(cat "$work/stdout")"
    [ -e "$marker" ] && echo "  and the program ran"
    failures=$((failures + 1))
  else
    echo "ok: $name"
  fi
  rm -f "$marker"
}
expect "misspelt catalog metric" 2 "--metrics: unknown metric 'gld_efficency' (closest: gld_efficiency" \
  --metrics gld_efficency -- "$work/prog"
expect "Perfworks name without a rollup" 2 "metric 'dram__bytes_read': a Perfworks metric needs a suffix" \
  --metrics dram__bytes_read -- "$work/prog"
expect "unclosed [ in --nvtx" 2 "--nvtx 'step[1': the '[' at position 5 is never closed" \
  --nvtx 'step[1' -- "$work/prog"
expect "unclosed [ in --kernel" 2 "--kernel 'k<float>[': the '[' at position 9" --kernel 'k<float>[' -- "$work/prog"
expect "no such program" 2 "'./no-such-program': no such program" -- ./no-such-program
expect "--launch-count 0" 2 "--launch-count: must be a whole number, at least 1 (not '0')" \
  --launch-count 0 -- "$work/prog"
expect "negative --launch-skip" 2 "--launch-skip: must be a whole number, at least 0 (not '-3')" \
  --launch-skip -3 -- "$work/prog"
expect "a folder as the program" 2 "'$work' is a folder, not a program" -- "$work"
expect "--no-trace without metrics" 2 "--no-trace needs --metrics or --source" --no-trace -- "$work/prog"
expect "--source with --launch-skip" 2 "--launch-skip cannot be used with --source: the source run counts every launch" \
  --source --launch-skip 1 -- "$work/prog"
expect "--source with --nvtx" 2 "--nvtx cannot be used with --source" --source --nvtx 'a/*' -- "$work/prog"
expect "bad --replay value" 2 "--replay" --replay sometimes -- "$work/prog"
expect "bad --cache-control value" 2 "--cache-control" --cache-control some -- "$work/prog"
# labbook's own test for a GPU: the driver's list of them.
if ! ls /proc/driver/nvidia/gpus/* >/dev/null 2>&1; then
  expect "good arguments, no GPU: 77 and the program not run" 77 "no CUDA GPU" \
    --metrics gld_efficiency,dram__bytes_read.sum --nvtx 'a/*' --kernel 'k[0-9]*' -- "$work/prog"
fi
[ "$failures" -eq 0 ] || { echo "$failures case(s) failed"; exit 1; }
