#!/bin/bash
# GPU test of `labbook grade` on planted submissions (tests/grading/EXERCISE/): each gets the
# outcome written in the folder's expected.tsv (student, a regex for its total in grades.csv,
# a text its feedback must hold), the batch completes, nothing a program printed shows it read
# files outside its folder, and a second run skips every student and keeps grades.csv.
# With LABBOOK_GRADE_FLAGS=--memcheck, each student of the folder's expected-memcheck.tsv
# (student, a text) must also have that text in its feedback. With LABBOOK_GRADE_TWICE=POINTS,
# the class is graded a second time from scratch (another folder: built and run again), and
# every student's two totals must lie within POINTS of each other, the verdicts alike.
# Skips (77) without a GPU. Usage: grade_planted.sh BUILD SOURCE EXERCISE [FOLDER]
# (FOLDER, under tests/grading/, defaults to EXERCISE).
set -uo pipefail
build=$1; source=$2; exercise=$3
planted=$source/tests/grading/${4:-$exercise}
nvidia-smi -L >/dev/null 2>&1 || { echo "no GPU: skipped"; exit 77; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
chmod 755 "$out"   # the sandbox's user must reach the students' folders below it
start=$(date +%s)
# shellcheck disable=SC2086  # the flags are words
"$build/labbook" grade "$exercise" "$planted" --out "$out/grades" --jobs "$(nproc)" ${LABBOOK_GRADE_FLAGS:-} || { echo "FAIL: labbook grade exit $?"; exit 1; }
echo "graded in $(( $(date +%s) - start )) s"
cat "$out/grades/grades.csv"
failures=0
students=0
while IFS=$'\t' read -r student total_regex text; do
  students=$((students + 1))
  total=$(awk -F, -v s="$student" '$1 == s {print $2}' "$out/grades/grades.csv")
  if ! [[ "$total" =~ ^($total_regex)$ ]]; then echo "FAIL $student: total $total, want $total_regex"; failures=$((failures + 1)); fi
  if ! grep -qF -- "$text" "$out/grades/$student/instructor.md"; then echo "FAIL $student: feedback lacks '$text'"; failures=$((failures + 1)); fi
done < "$planted/expected.tsv"
if [[ "${LABBOOK_GRADE_FLAGS:-}" == *--memcheck* ]]; then
  while IFS=$'\t' read -r student text; do
    grep -qF -- "$text" "$out/grades/$student/instructor.md" || { echo "FAIL $student: memcheck feedback lacks '$text'"; failures=$((failures + 1)); }
  done < "$planted/expected-memcheck.tsv"
fi
if grep -rq --include=run.log SNOOPED "$out/grades"; then echo "FAIL: a submission read files outside its folder"; failures=$((failures + 1)); fi
cp "$out/grades/grades.csv" "$out/first.csv"
"$build/labbook" grade "$exercise" "$planted" --out "$out/grades" 2> "$out/again.log"
grep -c "graded before" "$out/again.log" | grep -qx "$students" || { echo "FAIL: a re-run graded again"; failures=$((failures + 1)); }
cmp -s "$out/first.csv" "$out/grades/grades.csv" || { echo "FAIL: a re-run changed grades.csv"; failures=$((failures + 1)); }
if [ -n "${LABBOOK_GRADE_TWICE:-}" ]; then
  # shellcheck disable=SC2086
  "$build/labbook" grade "$exercise" "$planted" --out "$out/second" --jobs "$(nproc)" ${LABBOOK_GRADE_FLAGS:-} >/dev/null ||
    { echo "FAIL: the second grading exit $?"; failures=$((failures + 1)); }
  echo "graded twice (student, first total, second total):"
  while IFS=, read -r student first rest; do
    [ "$student" = student ] && continue
    second=$(awk -F, -v s="$student" '$1 == s {print $2}' "$out/second/grades.csv")
    echo "  $student $first $second"
    awk -v a="$first" -v b="$second" -v p="$LABBOOK_GRADE_TWICE" 'BEGIN { d = a - b; exit !(b != "" && d <= p && -d <= p) }' ||
      { echo "FAIL $student: totals $first and $second differ by more than $LABBOOK_GRADE_TWICE"; failures=$((failures + 1)); }
    verdict() { grep -o '"correct": *[a-z]*' "$1/$student/score.json" 2>/dev/null; }
    [ "$(verdict "$out/grades")" = "$(verdict "$out/second")" ] ||
      { echo "FAIL $student: verdicts '$(verdict "$out/grades")' and '$(verdict "$out/second")'"; failures=$((failures + 1)); }
  done < "$out/first.csv"
fi
if [ -n "${LABBOOK_KEEP_RESULTS:-}" ]; then cp "$out/grades/grades.csv" "$LABBOOK_KEEP_RESULTS/grades-${4:-$exercise}.csv"; tar -C "$out" -czf "$LABBOOK_KEEP_RESULTS/grades-${4:-$exercise}.tgz" --exclude='*.o' --exclude='*/work/harness' --exclude='*.cu' grades; fi
echo "$students students, $failures failures"
[ "$failures" -eq 0 ]
