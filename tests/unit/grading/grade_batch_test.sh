#!/bin/bash
# CPU test of `labbook grade --slurm` and `labbook grade --collect`, no GPU or Slurm needed:
# the job script for the planted lab4-soa class (its #SBATCH lines, and the words its command
# line gives the shell, with paths holding a space and a quote), the rubric copied beside it,
# command-line mistakes (exit 2), and collecting a folder where two students are graded and
# the others are not (class files written for the two, the rest named, exit 1).
#   grade_batch_test.sh LABBOOK SOURCE
set -uo pipefail
lb=$1; source=$2
base=$(mktemp -d)
trap 'rm -rf "$base"' EXIT
chmod 711 "$base"   # the sandbox's users pass through to --out folders below it
planted=$base/class
bash "$source/tests/grading/copy_fixed_class.sh" "$source" "$planted"
work="$base/o'k dir"          # a space and a quote in every path the script names
out="$work/grades"
mkdir -p "$work"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
ok() { echo "ok: $*"; }

# --slurm: the script, the students it shares out, the rubric, and what to run next.
rc=0
"$lb" grade lab4-soa "$planted" --out "$out" --slurm --per-task 3 --gpus-per-task 2 --time-limit 30 --partition gpu \
  >"$base/stdout" 2>"$base/stderr" || rc=$?
script=$out/slurm/grade.sbatch
if [ "$rc" != 0 ] || [ ! -f "$script" ]; then
  fail "--slurm: exit $rc; stderr: $(cat "$base/stderr")"
else
  for line in '#SBATCH --job-name=labbook-grade-lab4-soa' '#SBATCH --array=0-2' '#SBATCH --gres=gpu:2' '#SBATCH --time=30' \
              "#SBATCH --output=\"$out/slurm/task-%a.log\"" '#SBATCH --partition=gpu'; do
    grep -qxF -- "$line" "$script" || fail "--slurm: the script lacks the line $line"
  done
  bash -n "$script" || fail "--slurm: the script is not valid bash"
  # The words the task's command line gives the shell: `exec` replaced by a function that
  # prints them one per line (bash looks functions up before builtins).
  (exec() { printf '%s\n' "$@"; }; SLURM_ARRAY_TASK_ID=1; source "$script") >"$base/words" 2>&1
  printf '%s\n' "$(readlink -f "$lb")" grade lab4-soa "$planted" --out "$out" --task 1 --per-task 3 >"$base/want"
  cmp -s "$base/want" "$base/words" || fail "--slurm: the task runs $(cat "$base/words"), not $(cat "$base/want")"
  (exec() { echo "ran"; }; unset SLURM_ARRAY_TASK_ID; source "$script") >"$base/words" 2>&1 && fail "the script ran outside Slurm"
  grep -q "submit this script with sbatch" "$base/words" || fail "outside Slurm, the script says $(cat "$base/words")"
  [ "$(cat "$out/slurm/students.txt")" = "$(printf 'ada_fast\nbob_slow\ncarl_wrong\ndana_nocompile\neve_loop\nfinn_oob\ngina_snoop\nhugo_off_by_one')" ] ||
    fail "--slurm: students.txt is $(cat "$out/slurm/students.txt")"
  cmp -s "$out/rubric.toml" "$source/labs/04_global_memory/exercises/soa/rubric.toml" || fail "--slurm: rubric.toml is not the exercise's rubric"
  grep -qF "sbatch '$base/o'\\''k dir/grades/slurm/grade.sbatch'" "$base/stdout" || fail "--slurm: stdout lacks the sbatch line: $(cat "$base/stdout")"
  grep -qF "grade --collect '$base/o'\\''k dir/grades'" "$base/stdout" || fail "--slurm: stdout lacks the --collect line"
  [ -e "$out/grades.csv" ] && fail "--slurm wrote grades.csv"
  [ "$failures" = 0 ] && ok "--slurm writes the job script, students.txt and rubric.toml"
fi

# expect NAME WANT_EXIT WANT_STDERR_PART ARGS...: labbook grade ARGS exits WANT_EXIT, saying it.
expect() {
  local name=$1 want=$2 part=$3; shift 3
  local rc=0
  "$lb" grade "$@" >"$base/stdout" 2>"$base/stderr" || rc=$?
  if [ "$rc" != "$want" ] || { [ -n "$part" ] && ! grep -qF -- "$part" "$base/stderr"; }; then
    fail "$name: exit $rc (want $want); stderr: $(cat "$base/stderr")"
  else
    ok "$name"
  fi
}
mkdir -p "$base/nobody"
expect "--slurm without submissions" 1 "$base/nobody: no submissions to grade" lab4-soa "$base/nobody" --out "$base/x" --slurm
expect "--task beyond the class" 2 "--task 3: $planted holds 8 submissions, so tasks of 3 run from 0 to 2" \
  lab4-soa "$planted" --out "$base/x" --task 3 --per-task 3
expect "neither --collect nor the positionals" 2 "grade needs an exercise and a submissions folder (or --collect DIR)"
expect "--collect with the positionals" 2 "excludes" lab4-soa "$planted" --collect "$out"
expect "--per-task alone" 2 "--per-task goes with --task or --slurm" lab4-soa "$planted" --per-task 3
expect "--time-limit without --slurm" 2 "--time-limit requires --slurm" lab4-soa "$planted" --time-limit 5
expect "--task with --slurm" 2 "excludes" lab4-soa "$planted" --slurm --task 0

# --collect: ada and bob graded (score.json as grade writes it), carl's task killed while
# grading him (a folder, no score.json, the temporary file of a write it never renamed), the
# others never reached (listed in students.txt).
score() {   # score STUDENT CORRECT LOAD STORE SPEED
  mkdir -p "$out/$1"
  cat >"$out/$1/score.json" <<EOF
{"student": "$1", "total": $(($2 + $3 + $4 + $5)), "max": 100, "built": true, "problem": "",
 "criteria": [{"id": "correct", "points": $2, "note": ""}, {"id": "load_sectors", "points": $3, "note": ""},
              {"id": "store_sectors", "points": $4, "note": ""}, {"id": "speed", "points": $5, "note": ""}]}
EOF
}
score ada_fast 40 25 15 20
score bob_slow 40 10 5 2
mkdir -p "$out/carl_wrong/work"
echo '{"student": "carl_wr' >"$out/carl_wrong/score.json.tmp.4242"
expect "--collect with students not graded" 1 "6 students not graded (no score.json), left out of the class files: carl_wrong, dana_nocompile, eve_loop, finn_oob, gina_snoop, hugo_off_by_one" \
  --collect "$out"
want_csv=$'student,total,max,correct,load_sectors,store_sectors,speed\nada_fast,100.00,100.00,40.00,25.00,15.00,20.00\nbob_slow,57.00,100.00,40.00,10.00,5.00,2.00'
[ "$(cat "$out/grades.csv" 2>/dev/null)" = "$want_csv" ] || fail "--collect: grades.csv is $(cat "$out/grades.csv" 2>/dev/null)"
grep -q '"student": "bob_slow"' "$out/grades.json" 2>/dev/null || fail "--collect: grades.json lacks bob_slow"
grep -qF "2 submissions graded; median score 100.00 of 100.00." "$out/summary.md" 2>/dev/null || fail "--collect: summary.md is wrong"
[ -f "$out/summary.html" ] || fail "--collect: no summary.html"
grep -qF "collected 2 graded students: $out/grades.csv" "$base/stdout" || fail "--collect: stdout is $(cat "$base/stdout")"

# Every student graded: exit 0.
for s in carl_wrong dana_nocompile eve_loop finn_oob gina_snoop hugo_off_by_one; do score "$s" 0 0 0 0; done
expect "--collect with every student graded" 0 "" --collect "$out"
[ "$(wc -l <"$out/grades.csv")" = 9 ] || fail "--collect: grades.csv has $(wc -l <"$out/grades.csv") lines, want 9"

# A corrupt score.json, a folder without rubric.toml: errors naming the file.
echo '{"student": "bob_slow", "criteria": [' >"$out/bob_slow/score.json"
expect "--collect with a corrupt score.json" 1 "$out/bob_slow/score.json: not a score labbook wrote" --collect "$out"
mkdir -p "$base/empty"
expect "--collect without rubric.toml" 1 "$base/empty/rubric.toml: missing" --collect "$base/empty"
expect "--collect of a missing folder" 2 "--collect" --collect "$base/nowhere"

[ "$failures" -eq 0 ] || { echo "$failures case(s) failed"; exit 1; }
