#!/bin/bash
# GPU test of `labbook grade` on planted lab4-soa submissions (tests/grading/lab4-soa): each
# gets the outcome it was written for and the batch completes; a second run skips them all.
# Skips (77) without a GPU. Usage: grade_planted.sh BUILD SOURCE
set -uo pipefail
build=$1; source=$2
nvidia-smi -L >/dev/null 2>&1 || { echo "no GPU: skipped"; exit 77; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
chmod 755 "$out"   # the sandbox's user must reach the students' folders below it
"$build/labbook" grade lab4 "$source/tests/grading/lab4-soa" --out "$out/grades" || { echo "FAIL: labbook grade exit $?"; exit 1; }
cat "$out/grades/grades.csv"
failures=0
expect() {   # student, what grades.csv's total must match (an extended regex), a text in its feedback
  local total
  total=$(awk -F, -v s="$1" '$1 == s {print $2}' "$out/grades/grades.csv")
  if ! [[ "$total" =~ ^($2)$ ]]; then echo "FAIL $1: total $total, want $2"; failures=$((failures + 1)); fi
  if ! grep -q -- "$3" "$out/grades/$1/instructor.md"; then echo "FAIL $1: feedback lacks '$3'"; failures=$((failures + 1)); fi
}
expect ada_fast "100.00" "100.00 (full at 100.00"
expect bob_slow "4[0-9].[0-9]{2}" "12.50 (full at 100.00"          # correct, every access in its own sector
expect carl_wrong "0.00" "expected ("
expect dana_nocompile "0.00" 'error: expected a ";"'
expect eve_loop "0.00" "time limit"
expect finn_oob "0.00" "CUDA error"
expect gina_snoop "0.00" "runs code before main"
if grep -rq --include=run.log SNOOPED "$out/grades"; then echo "FAIL: a submission read files outside its folder"; failures=$((failures + 1)); fi
# Re-running skips what is graded and keeps the same scores.
cp "$out/grades/grades.csv" "$out/first.csv"
"$build/labbook" grade lab4 "$source/tests/grading/lab4-soa" --out "$out/grades" 2> "$out/again.log"
grep -c "graded before" "$out/again.log" | grep -qx 7 || { echo "FAIL: a re-run graded again"; failures=$((failures + 1)); }
cmp -s "$out/first.csv" "$out/grades/grades.csv" || { echo "FAIL: a re-run changed grades.csv"; failures=$((failures + 1)); }
if [ -n "${LABBOOK_KEEP_RESULTS:-}" ]; then cp "$out/grades/grades.csv" "$LABBOOK_KEEP_RESULTS/"; fi
echo "$failures failures"
[ "$failures" -eq 0 ]
