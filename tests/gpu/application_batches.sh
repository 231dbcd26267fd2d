#!/bin/bash
# GPU test: application replay of a metric that takes two passes (the L2 hit rate), each a
# run of the program, over more launches than one counter-data image holds
# (LABBOOK_RANGES_PER_IMAGE=16; tests/programs/many_launches 100: 101 launches). CUPTI 13.0
# carries counter data from run to run only for a context's first batch of launches
# (docs/metrics.md, "Application replay in batches"): those 16 launches must get the hit
# rate, equal to ncu's as compare_with_ncu.cpp allows; the other 85 none, with a note saying
# so; and a metric of one pass (DRAM bytes) all 101.
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
launches=101 first_batch=16
metrics=lts__t_sector_hit_rate.pct,dram__bytes_read.sum,lts__t_sectors.sum,lts__t_sectors_lookup_hit.sum,lts__t_sectors_lookup_miss.sum,lts__t_sectors_srcunit_ltcfabric_lookup_hit.sum
LABBOOK_RANGES_PER_IMAGE=$first_batch "$build/labbook" profile --metrics "$metrics" --replay application --out "$out/labbook" \
  -- "${program[@]}" >/dev/null 2>"$out/labbook.log" || { cat "$out/labbook.log"; exit 1; }
grep "note:" "$out/labbook.log" || true
if grep -q "launch_mismatch\|ranges_dropped\|another pass\|ranges to\|found no counter data" "$out/labbook.log"; then
  echo "FAIL: labbook lost metrics in the first batch"; exit 1
fi
grep -q "metrics_lost: .*lts__t_sector_hit_rate.pct.*: $((launches - first_batch)) launches after the first $first_batch have no value" \
  "$out/labbook.log" || { echo "FAIL: no note for the launches after the first batch"; exit 1; }
LABBOOK_AGREEMENT_METRICS=$metrics LABBOOK_AGREEMENT_MEASUREMENT=$out/labbook/measurements.json LABBOOK_NCU_REPLAY=application \
  bash "$here/ncu_agreement.sh" "$build" application_batches all application "${program[@]}" >"$out/agreement.md" || true
cat "$out/agreement.md"
compared() { sed -n "s/^| $1 | \([0-9]*\) |.*/\1/p" "$out/agreement.md"; }
[ "$(compared lts__t_sector_hit_rate.pct)" = "$first_batch" ] && [ "$(compared dram__bytes_read.sum)" = "$launches" ] ||
  { echo "FAIL: expected the hit rate of $first_batch launches and the DRAM bytes of $launches"; exit 1; }
# Launches without a value are "missing (labbook)" to compare_with_ncu (the note's metrics,
# checked above by their counts); every value given must agree.
if grep "^FAIL" "$out/agreement.md" | grep -qv "missing (labbook)"; then
  echo "FAIL: values differ from ncu's"; exit 1
fi
echo "ok: the first $first_batch launches' L2 hit rate and all $launches launches' DRAM bytes agree with ncu's"
