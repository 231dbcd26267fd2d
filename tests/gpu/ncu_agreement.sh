#!/bin/bash
# GPU test: every metric the collector reports for the lab 4 kernels agrees with
# `ncu --metrics` on the same binary (counters 1 %; times, clocks and DRAM write bytes 5 %,
# see compare_with_ncu.cpp), both without
# cache or clock control, which is what CUPTI's range profiler does. Skips (77) without a
# GPU or without ncu.
set -euo pipefail
build=$1
nvidia-smi -L >/dev/null 2>&1 || { echo "no GPU: skipped"; exit 77; }
command -v ncu >/dev/null 2>&1 || { echo "ncu not found: skipped"; exit 77; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
lab=("$build/labs/lab4_global_memory" --repeat 0)
metrics=$("$build/labbook" metrics --lab lab4)
"$build/labbook" profile --metrics "$metrics" --out "$out/labbook" -- "${lab[@]}" >/dev/null
ncu --metrics "$metrics" --cache-control none --clock-control none --csv --page raw --print-units base \
    "${lab[@]}" >"$out/ncu.csv" 2>"$out/ncu.log"
"$build/tests/compare_with_ncu" "$out/labbook/measurements.json" "$out/ncu.csv" | tee "${LABBOOK_KEEP_RESULTS:-$out}/ncu_agreement.md"
