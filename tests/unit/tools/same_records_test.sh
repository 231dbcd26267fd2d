#!/bin/bash
# tools/same_records.py: a measurement is the same as itself, and not once one copy's NVTX
# range or one kernel's launch number differs.
set -euo pipefail
tool=$1; recording=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 "$tool" "$recording" "$recording" >"$work/same.txt" || { cat "$work/same.txt"; echo "FAIL: not the same as itself"; exit 1; }
grep -q "^copies: [1-9][0-9]* in each, the same" "$work/same.txt" || { cat "$work/same.txt"; echo "FAIL: no copies compared"; exit 1; }
for change in copies:range kernels:launch; do
  python3 - "$(dirname "$tool")" "$recording" "$work/changed.json" "${change%%:*}" "${change##*:}" <<'PY'
import json, sys
sys.path.insert(0, sys.argv[1])
from measurement_records import load
source, target, key, column = sys.argv[2:6]
m = load(source)   # every list as objects, a form the reader takes too
record = m[key][0]
record[column] = record.get(column, 0) + 1 if column == "launch" else "a range of its own"
json.dump(m, open(target, "w"))
PY
  if python3 "$tool" "$recording" "$work/changed.json" >"$work/changed.txt"; then
    cat "$work/changed.txt"; echo "FAIL: a changed ${change%%:*} ${change##*:} went unseen"; exit 1
  fi
  grep -q "^${change%%:*}: .*only in the first" "$work/changed.txt" || { cat "$work/changed.txt"; echo "FAIL: ${change%%:*} not named"; exit 1; }
done
echo ok
