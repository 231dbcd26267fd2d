#!/bin/bash
# GPU test: `labbook run lab4` on a real GPU writes the four report files, and the
# measurement passes check_lab4. Skips (77) without a GPU.
set -euo pipefail
build=$1; source=$2
nvidia-smi -L >/dev/null 2>&1 || { echo "no GPU: skipped"; exit 77; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$build/labbook" run lab4 --out "$out"
for f in lab4.md lab4.html lab4.json lab4.trace.json lab4.measurement.json; do
  test -s "$out/$f" || { echo "FAIL: $f missing or empty"; exit 1; }
done
"$build/tests/check_lab4" "$out/lab4.measurement.json" "$source/labs/04_global_memory/lab.toml"
if [ -n "${LABBOOK_KEEP_RESULTS:-}" ]; then cp "$out"/lab4.* "$LABBOOK_KEEP_RESULTS"/; fi
