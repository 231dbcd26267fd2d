#!/bin/bash
# GPU test (issue 32): `labbook profile --source` against Nsight Compute's Source page
# (SourceCounters section), instruction by instruction, on the misaligned read, the transposes
# of tests/programs/transpose (a strided store, a shared tile with and without padding, a local
# array), lab 4's readSegment at offset 11 and lab 3's tiles: executions, global sectors,
# ideal sectors, local sectors and shared conflict ways equal (compare_source_with_ncu.cpp).
#   source_agreement.sh BUILD
# LABBOOK_KEEP_RESULTS=DIR keeps the tables. Skips (77) without a GPU or without ncu.
set -uo pipefail
build=$1
nvidia-smi -L >/dev/null 2>&1 || { echo "no GPU: skipped"; exit 77; }
command -v ncu >/dev/null 2>&1 || { echo "ncu not found: skipped"; exit 77; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
keep=${LABBOOK_KEEP_RESULTS:-$out}
mkdir -p "$keep" || exit 1
failures=0

# compare NAME LABBOOK_KERNEL_GLOBS NCU_KERNEL_REGEX PROGRAM ARGS...
compare() {
  local name=$1 globs=$2 regex=$3
  shift 3
  "$build/labbook" profile --source --no-trace --kernel "$globs" --out "$out/$name" -- "$@" \
    >/dev/null 2>"$out/$name.log" || { cat "$out/$name.log"; echo "FAIL: labbook profile --source on $name"; failures=$((failures + 1)); return; }
  ncu --section SourceCounters --page source --csv --print-source sass --print-kernel-base mangled \
    --kernel-name-base mangled --kernel-name "regex:$regex" "$@" >"$out/$name.csv" 2>"$out/$name.ncu.log" || true
  echo "## $name"
  "$build/tests/compare_source_with_ncu" "$out/$name/measurements.json" "$out/$name.csv" | tee "$keep/source_agreement_$name.md" \
    || failures=$((failures + 1))
  cp "$out/$name/summary.md" "$keep/source_summary_$name.md" 2>/dev/null || true   # the tables as a user sees them
}

compare misaligned_read readOffset readOffset "$build/tests/programs/misaligned_read" 11
compare transpose 'copy,transpose*,reverse*' 'copy|transpose|reverse' "$build/tests/programs/transpose" 1024
compare lab4_readSegment_11 readSegment '^_ZN7labbook7kernels11readSegment' \
  "$build/labs/lab4_global_memory" --repeat 0 --only readSegment/offset=11
compare lab3_tiles 'tileColumnRead*' tileColumnRead "$build/labs/lab3_shared_memory" --repeat 0 --only tile/
echo "$failures failures"
[ "$failures" -eq 0 ]
