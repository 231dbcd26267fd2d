#!/bin/bash
# On the lent GPU machine: named GPU tests one after another, each started only if its
# estimated seconds fit before the deadline, so that a call ends with whole tests and a log of
# each. A session's device time cannot hold the whole suite, so it is gathered over calls this
# way. Builds first when build/labbook is missing; records the clock state and the host's CPU.
# Exits 0 only if every named test ran and passed.
# Usage (from the repository root): bash tools/device-tests.sh OUTDIR SECONDS TEST:ESTIMATE...
#   bash tools/device-tests.sh /tmp/t 560 gpu_lab7_end_to_end:25 gpu_grade_planted:200; tar -C /tmp -czf $OUT/t.tgz t
# (a log a test: tar them, since a call brings back only a few files).
set -uo pipefail
[ $# -ge 3 ] || { echo "usage: tools/device-tests.sh OUTDIR SECONDS TEST:ESTIMATE..." >&2; exit 2; }
out=$1; seconds=$2; shift 2
[[ $seconds =~ ^[0-9]+$ ]] || { echo "device-tests.sh: SECONDS must be a whole number, not '$seconds'" >&2; exit 2; }
for spec in "$@"; do
  [[ $spec =~ ^[A-Za-z0-9_]+:[0-9]+$ ]] || { echo "device-tests.sh: '$spec' is not TEST:SECONDS" >&2; exit 2; }
done
deadline=$(( $(date +%s) + seconds ))
mkdir -p "$out"
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,clocks_throttle_reasons.active --format=csv
  lscpu | grep -E '^Model name|^Model:|^CPU\(s\)'; } | tee "$out/clocks.txt"
if ! { test -x build/labbook && test -x build/labbook-grade; }; then
  start=$(date +%s)
  bash tools/device-build.sh >"$out/build.log" 2>&1 || { tail -40 "$out/build.log"; exit 1; }
  echo "built in $(( $(date +%s) - start )) s"
fi
failed=0
for spec in "$@"; do
  name=${spec%%:*} estimate=${spec#*:}
  now=$(date +%s)
  # At least a second must be left: `timeout 0` would set no limit at all.
  if (( now + estimate > deadline || now >= deadline )); then echo "not started: $name (about $estimate s, $(( deadline - now )) s left)"; failed=1; continue; fi
  (cd build && timeout $(( deadline - now )) ctest -R "^$name\$" --output-on-failure) >"$out/$name.log" 2>&1
  rc=$?
  status=passed
  if (( rc == 124 )); then status="stopped at the deadline" failed=1
  elif (( rc != 0 )); then status=FAILED failed=1
  elif grep -q "No tests were found" "$out/$name.log"; then status="no such test" failed=1
  elif grep -q "Skipped" "$out/$name.log"; then status="skipped (no GPU or no ncu)" failed=1; fi
  echo "$name: $status, $(( $(date +%s) - now )) s"
done
exit $failed
