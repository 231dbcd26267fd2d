#!/bin/bash
# GPU test of `labbook profile --source` (issue 32): the misaligned read of
# tests/programs/misaligned_read.cu (offset 11) must show, on its source line, loads of 5
# sectors per request where 4 would do and stores of 4 against 4; the program's output and
# exit code are its own; a program built without -lineinfo would get the SASS view instead
# (here every program has line information); both launches (the warm-up and the timed one)
# are counted, each on its own. Skips (77) without a GPU.
set -uo pipefail
build=$1; source=$2
nvidia-smi -L >/dev/null 2>&1 || { echo "no GPU: skipped"; exit 77; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

rc=0
"$build/labbook" profile --source --kernel readOffset --out "$out/p" -- "$build/tests/programs/misaligned_read" 11 \
  >"$out/stdout" 2>"$out/stderr" || rc=$?
[ "$rc" -eq 0 ] || { cat "$out/stderr"; fail "labbook profile --source exited $rc"; }
line=$(grep -n 'C\[i\] = A\[k\] + B\[k\]' "$source/tests/programs/misaligned_read.cu" | cut -d: -f1)
row=$(grep -F "| misaligned_read.cu:$line" "$out/p/summary.md" || true)
echo "row: $row"
[ -n "$row" ] || { sed -n '/## Lines that move memory/,$p' "$out/p/summary.md" | head -30; fail "no row for misaligned_read.cu:$line"; }
grep -qF "loads 5.00 (ideal 4.00); stores 4.00 (ideal 4.00)" <<<"$row" || fail "the read's line does not show 5 sectors per load against 4"
# Every launch counted alike: a CUPTI range per launch (once, only the first was).
counted=$(python3 - "$out/p/measurements.json" <<'PY'
import json, sys
kernels = json.load(open(sys.argv[1]))["kernels"]
def executions(k):
    return sum(i["metrics"].get("smsp__sass_inst_executed", 0) for i in k.get("sass", []))
print(" ".join(str(int(executions(k))) for k in kernels))
PY
)
echo "instructions executed per launch: $counted"
[ "$(wc -w <<<"$counted")" -eq 2 ] && [ "$(tr ' ' '\n' <<<"$counted" | sort -u | wc -l)" -eq 1 ] && [ "${counted%% *}" != 0 ] \
  || fail "the two launches were not counted alike: $counted"
grep -q "source_lost\|source_unsupported" "$out/p/summary.md" && fail "the source run lost something: $(grep -h 'source_' "$out/p/summary.md")"
echo "$failures failures"
[ "$failures" -eq 0 ]
