#!/bin/bash
# GPU test for any lab: `labbook run LAB` on a real GPU writes the sheet's files, and the
# measurement passes the lab's acceptance checks (`labbook check LAB`: its [[check]]s and
# the timeline checks). Skips (77) without a GPU. Usage: lab_end_to_end.sh BUILD LAB
set -euo pipefail
build=$1; lab=$2
nvidia-smi -L >/dev/null 2>&1 || { echo "no GPU: skipped"; exit 77; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$build/labbook" run "$lab" --out "$out"
for f in "$lab.md" "$lab.html" "$lab.json" "$lab.trace.json.gz" "$lab.measurement.json"; do
  test -s "$out/$f" || { echo "FAIL: $f missing or empty"; exit 1; }
done
status=0
"$build/labbook" check "$lab" --measurement "$out/$lab.measurement.json" || status=$?
if [ -n "${LABBOOK_KEEP_RESULTS:-}" ]; then mkdir -p "$LABBOOK_KEEP_RESULTS" && cp "$out/$lab".* "$LABBOOK_KEEP_RESULTS"/; fi
exit $status
