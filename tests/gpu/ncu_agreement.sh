#!/bin/bash
# GPU test: every catalog metric `labbook profile` collects for a program's kernels agrees
# with `ncu --metrics` on the same command, both with the same cache control and no clock
# control: counters within 1 %, times, clocks and the few metrics that vary from launch to
# launch within 5 % (compare_with_ncu.cpp says which and why).
#   ncu_agreement.sh BUILD NAME CACHE REPLAY PROGRAM ARGS...
# CACHE: all|none (both tools); REPLAY: application|kernel (labbook's).
# LABBOOK_AGREEMENT_METRICS overrides the metric set (default: the whole catalog);
# LABBOOK_AGREEMENT_EXTRA adds metrics to it; LABBOOK_NCU_REPLAY sets ncu's --replay-mode
# (default: ncu's own, kernel); LABBOOK_AGREEMENT_MEASUREMENT names a measurements.json that
# `labbook profile` already wrote for this command, metric set, CACHE and REPLAY, instead of
# profiling it again.
# Skips (77) without a GPU or without ncu.
set -euo pipefail
build=$1; name=$2; cache=$3; replay=$4; shift 4
nvidia-smi -L >/dev/null 2>&1 || { echo "no GPU: skipped"; exit 77; }
command -v ncu >/dev/null 2>&1 || { echo "ncu not found: skipped"; exit 77; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
metrics=${LABBOOK_AGREEMENT_METRICS:-$("$build/labbook" metrics --cupti-all)}${LABBOOK_AGREEMENT_EXTRA:+,$LABBOOK_AGREEMENT_EXTRA}
measurement=${LABBOOK_AGREEMENT_MEASUREMENT:-$out/labbook/measurements.json}
if [ -z "${LABBOOK_AGREEMENT_MEASUREMENT:-}" ]; then
  # The program's exit code is passed on; a program may exit non-zero on purpose.
  "$build/labbook" profile --metrics "$metrics" --cache-control "$cache" --replay "$replay" --out "$out/labbook" \
      -- "$@" >/dev/null 2>"$out/labbook.log" || true
fi
test -s "$measurement" || { echo "no measurement: $measurement"; cat "$out/labbook.log" 2>/dev/null; exit 1; }
ncu --metrics "$metrics" --cache-control "$cache" --clock-control none ${LABBOOK_NCU_REPLAY:+--replay-mode "$LABBOOK_NCU_REPLAY"} --csv --page raw --print-units base \
    --print-kernel-base mangled \
    "$@" >"$out/ncu.csv" 2>"$out/ncu.log" || true
if [ -n "${LABBOOK_KEEP_RESULTS:-}" ]; then mkdir -p "$LABBOOK_KEEP_RESULTS" || exit 1; fi
"$build/tests/compare_with_ncu" "$measurement" "$out/ncu.csv" \
  | tee "${LABBOOK_KEEP_RESULTS:-$out}/ncu_agreement_$name.md"
