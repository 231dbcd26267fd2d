#!/bin/bash
# GPU test: application replay of a metric that takes two passes (the L2 hit rate), each a
# run of the program, over launches cut into several batches (LABBOOK_RANGES_PER_IMAGE=16:
# tests/programs/many_launches 100, 101 launches, in 6 full batches and one of 5). CUPTI
# counts passes itself from batch to batch, and gives a batch that did not fill its image
# other ranges in the last pass (docs/metrics.md, "Application replay in batches"): every
# launch of the full batches must get its value, and every value must equal ncu's as
# compare_with_ncu.cpp allows; the last batch may go without, with a note saying so.
#   application_batches.sh BUILD
# Skips (77) without a GPU or without ncu.
set -euo pipefail
build=$1
here=$(cd "$(dirname "$0")" && pwd)
nvidia-smi -L >/dev/null 2>&1 || { echo "no GPU: skipped"; exit 77; }
command -v ncu >/dev/null 2>&1 || { echo "ncu not found: skipped"; exit 77; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
program=("$build/tests/programs/many_launches" 100)
launches=101 in_full_batches=96
metrics=lts__t_sector_hit_rate.pct,dram__bytes_read.sum,lts__t_sectors.sum,lts__t_sectors_lookup_hit.sum,lts__t_sectors_lookup_miss.sum,lts__t_sectors_srcunit_ltcfabric_lookup_hit.sum
LABBOOK_RANGES_PER_IMAGE=16 "$build/labbook" profile --metrics "$metrics" --replay application --out "$out/labbook" \
  -- "${program[@]}" >/dev/null 2>"$out/labbook.log" || { cat "$out/labbook.log"; exit 1; }
if grep -q "launch_mismatch\|ranges_dropped\|did not collect pass\|found no counter data" "$out/labbook.log"; then
  echo "FAIL: labbook lost metrics over batches:"; grep "note:" "$out/labbook.log"; exit 1
fi
LABBOOK_AGREEMENT_METRICS=$metrics LABBOOK_AGREEMENT_MEASUREMENT=$out/labbook/measurements.json LABBOOK_NCU_REPLAY=application \
  bash "$here/ncu_agreement.sh" "$build" application_batches all application "${program[@]}" | tee "$out/agreement.md"
compared=$(sed -n 's/^| lts__t_sector_hit_rate.pct | \([0-9]*\) |.*/\1/p' "$out/agreement.md")
[ "${compared:-0}" -ge "$in_full_batches" ] ||
  { echo "FAIL: the hit rate compared on ${compared:-no} launches of $launches ($in_full_batches in full batches)"; exit 1; }
grep "note:" "$out/labbook.log" || true
echo "ok: the L2 hit rate of $compared of $launches launches, in batches of 16, agrees with ncu's"
