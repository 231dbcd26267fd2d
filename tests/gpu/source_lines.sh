#!/bin/bash
# GPU test of `labbook profile --source` (issue 32): the misaligned read of
# tests/programs/misaligned_read.cu (offset 11) must show, on its source line, loads of 5
# sectors per request where 4 would do and stores of 4 against 4; the program's output and
# exit code are its own; a program built without -lineinfo would get the SASS view instead
# (here every program has line information); both launches (the warm-up and the timed one)
# are counted, summed (CUPTI counts a kernel once per run): twice the instructions of one
# launch, which a run with --kernel on a program launching it once gives. Skips (77) without a GPU.
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
# Both launches counted, summed and kept with the first: one entry covering 2 launches.
counted=$(python3 - "$out/p/measurements.json" "$source/tools" <<'PY'
import sys
sys.path.insert(0, sys.argv[2])
from measurement_records import load
kernels = load(sys.argv[1])["kernels"]
with_sass = [k for k in kernels if k.get("sass")]
launches = sum(1 for k in kernels if "readOffset" in k["name"])
executions = sum(i["metrics"].get("smsp__sass_inst_executed", 0) for k in with_sass for i in k["sass"])
print(len(with_sass), with_sass[0].get("sass_launches", 1) if with_sass else 0, launches, int(executions))
PY
)
echo "entries with counts, launches they cover, readOffset launches, instructions executed: $counted"
read -r entries covered launches executions <<<"$counted"
[ "$entries" = 1 ] && [ "$covered" = 2 ] && [ "$launches" = 2 ] && [ "$executions" -gt 0 ] \
  || fail "expected one entry covering the 2 launches: $counted"
# One launch counts half as many instructions: the program run with a single launch.
"$build/labbook" profile --source --no-trace --kernel readOffset --out "$out/once" -- "$build/tests/programs/misaligned_read" 11 --once \
  >/dev/null 2>&1 || fail "labbook profile --source on a single launch failed"
once=$(python3 -c 'import sys; sys.path.insert(0, sys.argv[2]); from measurement_records import load; print(int(sum(i["metrics"].get("smsp__sass_inst_executed",0) for k in load(sys.argv[1])["kernels"] for i in k.get("sass",[]))))' "$out/once/measurements.json" "$source/tools" 2>/dev/null || echo 0)
echo "instructions executed by one launch: $once"
[ "$once" -gt 0 ] && [ $((2 * once)) -eq "$executions" ] || fail "two launches did not count twice one launch: $executions against $once"
grep -q "source_lost\|source_unsupported" "$out/p/summary.md" && fail "the source run lost something: $(grep -h 'source_' "$out/p/summary.md")"
echo "$failures failures"
[ "$failures" -eq 0 ]
