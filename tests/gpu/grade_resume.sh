#!/bin/bash
# GPU test: a grading batch killed (SIGKILL, as a lost node or an impatient instructor does)
# loses nothing already graded and leaves nothing half-written; running the same command
# again grades only the rest, and the class comes out with every planted outcome.
# Skips (77) without a GPU. Usage: grade_resume.sh BUILD SOURCE EXERCISE
set -uo pipefail
build=$1; source=$2; exercise=$3
planted=$source/tests/grading/$exercise
nvidia-smi -L >/dev/null 2>&1 || { echo "no GPU: skipped"; exit 77; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
chmod 755 "$out"
grades=$out/grades
students=$(wc -l <"$planted/expected.tsv")
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

"$build/labbook" grade "$exercise" "$planted" --out "$grades" 2>"$out/first.log" &
pid=$!
for _ in $(seq 600); do   # up to 5 minutes for the first student
  [ -n "$(find "$grades" -name score.json 2>/dev/null)" ] && break
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.5
done
kill -KILL "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
graded=$(find "$grades" -name score.json | wc -l)
echo "killed with $graded of $students students graded"
[ "$graded" -ge 1 ] && [ "$graded" -lt "$students" ] || fail "the kill should come between the first student and the last ($graded graded)"
[ -e "$grades/grades.csv" ] && fail "a killed batch wrote grades.csv"
for f in $(find "$grades" -name score.json); do
  python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$f" || fail "$f is not whole"
done
if find "$grades" -name '*.tmp.*' | grep -q .; then
  echo "left by the kill (ignored, overwritten): $(find "$grades" -name '*.tmp.*' | wc -l) temporary files"
fi

"$build/labbook" grade "$exercise" "$planted" --out "$grades" 2>"$out/again.log" || fail "the re-run: exit $?"
skipped=$(grep -c "graded before" "$out/again.log")
[ "$skipped" -eq "$graded" ] || fail "the re-run skipped $skipped students, not the $graded graded before the kill"
while IFS=$'\t' read -r student total_regex _; do
  total=$(awk -F, -v s="$student" '$1 == s {print $2}' "$grades/grades.csv" 2>/dev/null)
  [[ "$total" =~ ^($total_regex)$ ]] || fail "$student: total '$total', want $total_regex"
done < "$planted/expected.tsv"
cat "$grades/grades.csv" 2>/dev/null
echo "$failures failures"
[ "$failures" -eq 0 ]
