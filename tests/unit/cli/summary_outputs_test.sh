#!/bin/bash
# CPU test: `labbook summary` writes its four outputs side by side, each on its own: all of
# them from a recording, and when one cannot be written (a folder stands where trace.json.gz
# goes) the others still are, the failure is named on stderr, the exit code is non-zero and
# the summary and measurements.json record the failure as a report_failed issue.
#   summary_outputs_test.sh LABBOOK RECORDING
set -uo pipefail
lb=$1; recording=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

"$lb" summary "$recording" --out "$work/all" >/dev/null 2>"$work/all.err" || fail "summary of $recording: $(cat "$work/all.err")"
for f in trace.json.gz timeline.svg summary.md summary.html summary.json measurements.json; do
  test -s "$work/all/$f" || fail "$f missing or empty"
done
grep -q report_failed "$work/all/measurements.json" && fail "report_failed with nothing failing"

mkdir -p "$work/one/trace.json.gz/blocker"
rc=0
"$lb" summary "$recording" --out "$work/one" >/dev/null 2>"$work/one.err" || rc=$?
[ "$rc" != 0 ] || fail "exit 0 although trace.json.gz could not be written"
grep -q "could not write trace.json.gz" "$work/one.err" || fail "stderr does not name trace.json.gz: $(cat "$work/one.err")"
for f in timeline.svg summary.md measurements.json; do
  test -s "$work/one/$f" || fail "$f not written when only trace.json.gz failed"
done
grep -q '"report_failed"' "$work/one/measurements.json" || fail "measurements.json does not record the failure"
grep -q "report_failed" "$work/one/summary.md" || fail "summary.md does not list the failure"
[ "$failures" = 0 ] && echo "all outputs written side by side; a failed one is reported"
exit $((failures > 0))
