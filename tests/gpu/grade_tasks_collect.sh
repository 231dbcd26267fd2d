#!/bin/bash
# GPU test of a class graded as a Slurm job array, without Slurm: `labbook grade --slurm`
# writes the script, the script itself is run as array tasks 0 and 1 (SLURM_ARRAY_TASK_ID set
# by hand), and `labbook grade --collect` writes the class files. A task grades only its slice
# and writes no class files; collecting between the tasks names the students still to grade
# and exits 1; collecting after both gives every planted student the outcome in expected.tsv.
# Skips (77) without a GPU. Usage: grade_tasks_collect.sh BUILD SOURCE EXERCISE
set -uo pipefail
build=$1; source=$2; exercise=$3
planted=$source/tests/grading/$exercise
nvidia-smi -L >/dev/null 2>&1 || { echo "no GPU: skipped"; exit 77; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
chmod 755 "$out"   # the sandbox's user must reach the students' folders below it
grades=$out/grades
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
students=$(cut -f1 "$planted/expected.tsv" | LC_ALL=C sort)   # labbook sorts names bytewise
count=$(echo "$students" | wc -l)
per_task=$(( (count + 1) / 2 ))   # two tasks, the second one shorter or equal

"$build/labbook" grade "$exercise" "$planted" --out "$grades" --slurm --per-task "$per_task" || { echo "FAIL: --slurm exit $?"; exit 1; }
grep -qx '#SBATCH --array=0-1' "$grades/slurm/grade.sbatch" || fail "the script does not ask for tasks 0-1"

SLURM_ARRAY_TASK_ID=0 bash "$grades/slurm/grade.sbatch" || fail "task 0 exit $?"
[ -e "$grades/grades.csv" ] && fail "task 0 wrote grades.csv"
first=$(echo "$students" | head -n "$per_task")
rest=$(echo "$students" | tail -n +"$((per_task + 1))")
for s in $first; do [ -f "$grades/$s/score.json" ] || fail "task 0 did not grade $s"; done
for s in $rest; do [ -e "$grades/$s" ] && fail "task 0 touched $s, of task 1"; done

rc=0
"$build/labbook" grade --collect "$grades" 2>"$out/collect.err" || rc=$?
[ "$rc" = 1 ] || fail "--collect after task 0 alone: exit $rc, want 1"
grep -qF "not graded (no score.json), left out of the class files: $(echo $rest | sed 's/ /, /g')" "$out/collect.err" ||
  fail "--collect after task 0 alone says: $(cat "$out/collect.err")"

SLURM_ARRAY_TASK_ID=1 bash "$grades/slurm/grade.sbatch" || fail "task 1 exit $?"
"$build/labbook" grade --collect "$grades" || fail "--collect after both tasks: exit $?"
cat "$grades/grades.csv"
while IFS=$'\t' read -r student total_regex text; do
  total=$(awk -F, -v s="$student" '$1 == s {print $2}' "$grades/grades.csv")
  [[ "$total" =~ ^($total_regex)$ ]] || fail "$student: total $total, want $total_regex"
  grep -qF -- "$text" "$grades/$student/instructor.md" || fail "$student: feedback lacks '$text'"
done < "$planted/expected.tsv"
[ "$(($(wc -l <"$grades/grades.csv") - 1))" = "$count" ] || fail "grades.csv does not have $count students"
grep -qF "$count submissions graded" "$grades/summary.md" || fail "summary.md does not count $count students"
echo "$count students in 2 tasks, $failures failures"
[ "$failures" -eq 0 ]
