#!/bin/bash
# On the lent GPU machine: run GPU tests in lanes side by side, one lane per GPU.
# Usage (from the repository root): bash tools/device-lanes.sh OUTDIR LANE0 [LANE1 ...]
# Lane i runs `ctest -R LANEi` with CUDA_VISIBLE_DEVICES=i, or, for a lane written "!COMMAND",
# that command from the repository root (a bench: "!bash bench/metrics_speed.sh build").
# Counters are per device, so lanes do not disturb one another's measurements (times do: they
# share the host's CPUs). Builds first when build/labbook is missing.
set -uo pipefail
out=$1; shift
mkdir -p "$out"
test -x build/labbook || bash tools/device-build.sh >"$out/build.log" 2>&1 || { tail -40 "$out/build.log"; exit 1; }
nvidia-smi --query-gpu=index,name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,clocks_throttle_reasons.active \
  --format=csv | tee "$out/clocks.txt"
lane=0
for spec in "$@"; do
  if [ "${spec#!}" != "$spec" ]; then
    (CUDA_VISIBLE_DEVICES=$lane bash -c "${spec#!}" >"$out/lane$lane.log" 2>&1
     echo "lane $lane rc=$?" >>"$out/lane$lane.log") &
  else
    (cd build && CUDA_VISIBLE_DEVICES=$lane ctest -R "$spec" --output-on-failure >"$out/lane$lane.log" 2>&1
     echo "lane $lane rc=$?" >>"$out/lane$lane.log") &
  fi
  lane=$((lane + 1))
done
wait
grep -hE "Test +#|rc=" "$out"/lane*.log
