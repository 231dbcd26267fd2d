#!/bin/bash
# GPU test: application replay of a metric that takes two passes (the L2 hit rate), each a
# run of the program, with counter-data images of 16 launches (LABBOOK_RANGES_PER_IMAGE=16).
# CUPTI 13.0 carries counter data from run to run only for a context's first batch of
# launches (docs/metrics.md, "Application replay in batches"):
# - tests/programs/many_launches 100 (101 launches): the first 16 get the hit rate, equal to
#   ncu's as compare_with_ncu.cpp allows; the other 85 none, with a note saying so;
# - many_launches 10 (11 launches, a first batch that does not fill its image): all 11;
# and a metric of one pass (DRAM bytes) every launch.
#   application_batches.sh BUILD
# Skips (77) without a GPU or without ncu.
set -euo pipefail
build=$1
here=$(cd "$(dirname "$0")" && pwd)
nvidia-smi -L >/dev/null 2>&1 || { echo "no GPU: skipped"; exit 77; }
command -v ncu >/dev/null 2>&1 || { echo "ncu not found: skipped"; exit 77; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
image=16
metrics=lts__t_sector_hit_rate.pct,dram__bytes_read.sum,lts__t_sectors.sum,lts__t_sectors_lookup_hit.sum,lts__t_sectors_lookup_miss.sum,lts__t_sectors_srcunit_ltcfabric_lookup_hit.sum

# check ARG LAUNCHES WITH_HIT_RATE: profile many_launches ARG and compare with ncu.
check() {
  local arg=$1 launches=$2 with=$3 dir=$out/$1
  local program=("$build/tests/programs/many_launches" "$arg")
  LABBOOK_RANGES_PER_IMAGE=$image "$build/labbook" profile --metrics "$metrics" --replay application --out "$dir" \
    -- "${program[@]}" >/dev/null 2>"$dir.log" || { cat "$dir.log"; return 1; }
  grep "note:" "$dir.log" || true
  if grep -q "launch_mismatch\|ranges_dropped\|another pass\|ranges to\|found no counter data" "$dir.log"; then
    echo "FAIL many_launches $arg: labbook lost metrics in the first batch"; return 1
  fi
  if [ "$with" -lt "$launches" ] &&
     ! grep -q "metrics_lost: .*lts__t_sector_hit_rate.pct.*: $((launches - with)) launches after the first $with have no value" "$dir.log"; then
    echo "FAIL many_launches $arg: no note for the launches after the first batch"; return 1
  fi
  LABBOOK_AGREEMENT_METRICS=$metrics LABBOOK_AGREEMENT_MEASUREMENT=$dir/measurements.json LABBOOK_NCU_REPLAY=application \
    bash "$here/ncu_agreement.sh" "$build" "application_batches_$arg" all application "${program[@]}" >"$dir.md" || true
  cat "$dir.md"
  compared() { sed -n "s/^| $1 | \([0-9]*\) |.*/\1/p" "$dir.md"; }
  if [ "$(compared lts__t_sector_hit_rate.pct)" != "$with" ] || [ "$(compared dram__bytes_read.sum)" != "$launches" ]; then
    echo "FAIL many_launches $arg: expected the hit rate of $with launches and the DRAM bytes of $launches"; return 1
  fi
  # Launches without a value are "missing (labbook)" to compare_with_ncu (the note's metrics,
  # counted above); every value given must agree.
  if grep "^FAIL" "$dir.md" | grep -qv "missing (labbook)"; then
    echo "FAIL many_launches $arg: values differ from ncu's"; return 1
  fi
  echo "ok many_launches $arg: the L2 hit rate of $with of $launches launches and the DRAM bytes of all agree with ncu's"
}

check 100 101 "$image"
check 10 11 11
