#!/bin/bash
# GPU test: every catalog metric `labbook profile` collects for a program's kernels agrees
# with `ncu --metrics` on the same command, both without cache or clock control (what
# CUPTI's range profiler does): counters within 1 %, times, clocks and the few metrics
# that vary from launch to launch within 5 % (compare_with_ncu.cpp says which and why).
#   ncu_agreement.sh BUILD NAME PROGRAM ARGS...
# Skips (77) without a GPU or without ncu.
set -euo pipefail
build=$1; name=$2; shift 2
nvidia-smi -L >/dev/null 2>&1 || { echo "no GPU: skipped"; exit 77; }
command -v ncu >/dev/null 2>&1 || { echo "ncu not found: skipped"; exit 77; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
metrics=$("$build/labbook" metrics --cupti-all)
"$build/labbook" profile --metrics "$metrics" --out "$out/labbook" -- "$@" >/dev/null
ncu --metrics "$metrics" --cache-control none --clock-control none --csv --page raw --print-units base \
    "$@" >"$out/ncu.csv" 2>"$out/ncu.log"
"$build/tests/compare_with_ncu" "$out/labbook/measurements.json" "$out/ncu.csv" | tee "${LABBOOK_KEEP_RESULTS:-$out}/ncu_agreement_$name.md"
