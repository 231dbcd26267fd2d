#!/bin/bash
# On the lent GPU machine: the GPU tests spread over all its GPUs by ctest itself, one test a
# GPU at a time (tests/gpu/on_gpu.sh), longest first once ctest has timed them. Builds first
# when build/labbook is missing; records the clock state.
# Usage (from the repository root): bash tools/device-suite.sh OUTDIR [ctest selection...]
#   bash tools/device-suite.sh $OUT/a -E grade     # the suite less grading: one call on 4 GPUs
#   bash tools/device-suite.sh $OUT/b -R grade     # grading: another
# LABBOOK_SUITE_GPUS=0,1,2 gives the tests those GPUs only, leaving the others to a bench:
#   bash tools/device-build.sh && { LABBOOK_SUITE_GPUS=0,1,2 bash tools/device-suite.sh $OUT/a -E grade &
#     CUDA_VISIBLE_DEVICES=3 bash bench/metrics_speed.sh build >$OUT/bench.txt; wait; }
# (counters are per GPU, so a bench beside the tests counts alike; its times share the host's CPUs)
set -uo pipefail
[ $# -ge 1 ] || { echo "usage: tools/device-suite.sh OUTDIR [ctest selection...]" >&2; exit 2; }
out=$1; shift
mkdir -p "$out"
{ test -x build/labbook && test -x build/labbook-grade; } || bash tools/device-build.sh >"$out/build.log" 2>&1 || { tail -40 "$out/build.log"; exit 1; }
present=$(nvidia-smi --list-gpus | wc -l)
[ "$present" -ge 1 ] || { echo "device-suite.sh: nvidia-smi lists no GPU" >&2; exit 1; }
ids=${LABBOOK_SUITE_GPUS:-$(seq -s, 0 $((present - 1)))}
IFS=, read -r -a ids <<<"${ids//[[:space:]]/}"
gpus=${#ids[@]}
for id in "${ids[@]}"; do   # ctest would refuse the spec, or the tests skip on a GPU not there
  [[ $id =~ ^[0-9]+$ ]] && [ "$id" -lt "$present" ] ||
    { echo "device-suite.sh: LABBOOK_SUITE_GPUS='$LABBOOK_SUITE_GPUS': '$id' is not one of GPUs 0-$((present - 1))" >&2; exit 2; }
done
[ "$gpus" -ge 1 ] || { echo "device-suite.sh: LABBOOK_SUITE_GPUS names no GPU" >&2; exit 2; }
nvidia-smi --query-gpu=index,name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,clocks_throttle_reasons.active \
  --format=csv | tee "$out/clocks.txt"
spec=$out/gpus.json   # ctest's resource spec: each GPU one slot
{
  printf '{"version": {"major": 1, "minor": 0}, "local": [{"gpus": ['
  for ((i = 0; i < gpus; i++)); do printf '%s{"id": "%s", "slots": 1}' "$([ $i -gt 0 ] && echo ,)" "${ids[i]}"; done
  printf ']}]}\n'
} >"$spec"
(cd build && ctest -L gpu -j "$gpus" --resource-spec-file "$(realpath "$spec")" --output-on-failure "$@") >"$out/suite.log" 2>&1
rc=$?
grep -E "Test +#|tests passed|tests failed" "$out/suite.log" || tail -20 "$out/suite.log"
exit $rc
