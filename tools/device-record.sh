#!/bin/bash
# On the lent GPU machine, after tools/device-build.sh: measure labs and bring back what a new
# recording needs. For each LAB: `labbook run`, `labbook check` on the measurement, and in OUT
# the measurement (LAB.json, to become labs/NN_name/recorded/h100.json once read) and the
# check's output (LAB.check.txt). The GPU's clocks are recorded, never changed. (A lab's ptxas
# capture is the same from any nvcc 13 build: take it from build/labs/ here.)
# Usage: tools/device-record.sh OUT LAB...
set -uo pipefail
out=$1; shift
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,persistence_mode --format=csv \
  >"$out/clocks.txt" 2>&1
status=0
for lab in "$@"; do
  work=$(mktemp -d)
  start=$(date +%s)
  if build/labbook run "$lab" --out "$work" >"$work/run.log" 2>&1; then
    cp "$work/$lab.measurement.json" "$out/$lab.json"
    build/labbook check "$lab" --measurement "$work/$lab.measurement.json" >"$out/$lab.check.txt" 2>&1 || status=1
  else
    status=1
    tail -20 "$work/run.log"
  fi
  echo "== $lab: $(( $(date +%s) - start )) s; $(tail -1 "$out/$lab.check.txt" 2>/dev/null)"
done
exit $status
