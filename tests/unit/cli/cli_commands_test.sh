#!/bin/bash
# CPU test: labbook's top level. `labbook` alone and `labbook help` print the help (exit 0),
# `--version` names the version and the CUDA it was built with (labbook run by its loader
# too), the programs labbook runs get the user's GLIBC_TUNABLES, a word that is no command is
# named with the closest command (exit 2), and no help text carries CLI11's "Excludes:" lists.
# Then the mistakes a student or an instructor makes with files: another lab's measurement,
# a sheet's JSON for a measurement, a recording over a sheet measured here, a handout over
# changed work, an empty class, a labbook without its labbook-grade; `labbook exercise --list`, and no exercise named; `compare`
# of a recording with itself, and with a file that is not there or is another lab's.
#   cli_commands_test.sh LABBOOK SOURCE_DIR
set -uo pipefail
lb=$1; src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
# expect NAME WANT_EXIT WANT_OUTPUT_PART ARGS...: the part is looked for in stdout and stderr.
expect() {
  local name=$1 want=$2 part=$3; shift 3
  local rc=0
  "$lb" "$@" >"$work/out" 2>&1 || rc=$?
  if [ "$rc" != "$want" ] || ! grep -qF -- "$part" "$work/out"; then
    echo "FAIL: $name: exit $rc (want $want); output: $(head -c 600 "$work/out")"
    failures=$((failures + 1))
  else
    echo "ok: $name"
  fi
}
expect "labbook alone prints the help" 0 "Usage: labbook [OPTIONS] SUBCOMMAND"
expect "labbook help prints the help" 0 "Usage: labbook [OPTIONS] SUBCOMMAND" help
expect "--version" 0 "built with CUDA 1" --version
# labbook starts itself a second time (cli/huge_pages.h), but not where the loader ran it:
# /proc/self/exe is then the loader, which would print its own version.
loader=$(readelf -l "$lb" 2>/dev/null | sed -n 's/.*program interpreter: \(.*\)]$/\1/p')
if [ -n "$loader" ]; then
  out=$("$loader" "$lb" --version 2>&1)
  if [[ $out != "labbook "*"built with CUDA 1"* ]]; then
    echo "FAIL: labbook run by its loader: $(head -c 300 <<<"$out")"
    failures=$((failures + 1))
  else
    echo "ok: labbook run by its loader"
  fi
else
  echo "skip: labbook run by its loader (readelf names no interpreter)"
fi
# The programs labbook runs get the user's GLIBC_TUNABLES, not the second start's: a copy of
# labbook runs the labbook-grade beside it for `labbook grade`, here one that prints its
# environment.
mkdir -p "$work/bin"
cp "$lb" "$work/bin/labbook"
printf '#!/bin/sh\nexec env\n' >"$work/bin/labbook-grade"
chmod +x "$work/bin/labbook-grade"
child_env() {   # child_env NAME: the environment labbook-grade got, in $work/NAME.env
  "$work/bin/labbook" grade >"$work/$1.env" 2>&1
  if ! grep -q '^PATH=' "$work/$1.env" || grep -q '^LABBOOK_USER_GLIBC_TUNABLES=' "$work/$1.env"; then
    echo "FAIL: $1: labbook-grade got: $(head -c 300 "$work/$1.env")"
    failures=$((failures + 1))
    return 1
  fi
}
if GLIBC_TUNABLES=glibc.malloc.arena_max=2 child_env tunables; then
  if grep -qx 'GLIBC_TUNABLES=glibc.malloc.arena_max=2' "$work/tunables.env"; then echo "ok: the user's GLIBC_TUNABLES"
  else echo "FAIL: the user's GLIBC_TUNABLES changed: $(grep GLIBC_TUNABLES "$work/tunables.env")"; failures=$((failures + 1)); fi
fi
if (unset GLIBC_TUNABLES; child_env no_tunables); then
  if ! grep -q '^GLIBC_TUNABLES=' "$work/no_tunables.env"; then echo "ok: no GLIBC_TUNABLES where the user had none"
  else echo "FAIL: GLIBC_TUNABLES set: $(grep GLIBC_TUNABLES "$work/no_tunables.env")"; failures=$((failures + 1)); fi
fi
expect "an unknown command, close to one" 2 "unknown command 'grde'; did you mean 'grade'?" grde
expect "an unknown command, close to none" 2 "unknown command 'frobnicate' (labbook help" frobnicate
for command in run render check compare workbook exercise grade profile summary metrics; do
  "$lb" "$command" --help >"$work/help" 2>&1
  if grep -q "Excludes" "$work/help"; then
    echo "FAIL: $command --help lists what each option excludes"
    failures=$((failures + 1))
  fi
done
lab4=$src/labs/04_global_memory/recorded/h100.json
expect "render with another lab's measurement" 2 "measured 'lab4_global_memory', not lab3's program 'lab3_shared_memory'" \
  render lab3 --measurement "$lab4" --out "$work/sheet3"
[ -e "$work/sheet3/lab3.md" ] && { echo "FAIL: a sheet was written from another lab's measurement"; failures=$((failures + 1)); }
expect "check with another lab's measurement" 2 "not lab3's program" check lab3 --measurement "$lab4"
"$lb" render lab4 --measurement "$lab4" --out "$work/sheet4" >/dev/null 2>&1
expect "summary of a sheet's JSON" 1 "a lab sheet's numbers, not a measurement" summary "$work/sheet4/lab4.json" --out "$work/s"
grep -qF '`labbook exercise lab4-soa --out handout`' "$work/sheet4/lab4.md" ||
  { echo "FAIL: lab 4's sheet does not name its exercise"; failures=$((failures + 1)); }
"$lb" exercise lab4 --out "$work/handout" >/dev/null 2>&1
grep -qF 'goes with lab4'"'"'s sheet: `labbook run lab4`' "$work/handout/instructions.md" ||
  { echo "FAIL: the handout does not lead back to the sheet"; failures=$((failures + 1)); }
expect "exercise --list names every exercise with its lab" 0 "lab4-soa         lab4  Lab 4 exercise" exercise --list
expect "exercise without a name" 2 "name an exercise (\`labbook exercise --list\` shows them)" exercise
echo "// my work" >>"$work/handout/submission.cu"
expect "a handout over a changed submission" 0 "differs from the starter file: left as it is" exercise lab4 --out "$work/handout"
grep -q "// my work" "$work/handout/submission.cu" || { echo "FAIL: the student's work was overwritten"; failures=$((failures + 1)); }
# A sheet measured on this machine is not replaced by one from a recording without --force.
python3 - "$work/sheet4/lab4.json" <<'PY'
import json, sys
sheet = json.load(open(sys.argv[1]))
sheet["recorded"] = False
sheet["measured_at"] = "2026-01-01T00:00:00Z"
json.dump(sheet, open(sys.argv[1], "w"))
PY
cp "$work/sheet4/lab4.json" "$work/measured.json"
expect "a recording over a sheet measured here" 1 "lab4.json is not replaced: it was measured on this machine" \
  run lab4 --recorded --out "$work/sheet4"
cmp -s "$work/sheet4/lab4.json" "$work/measured.json" || { echo "FAIL: the measured sheet was replaced"; failures=$((failures + 1)); }
expect "the same with --force" 0 "sheet:" run lab4 --recorded --force --out "$work/sheet4"
cmp -s "$work/sheet4/lab4.json" "$work/measured.json" && { echo "FAIL: --force did not replace the sheet"; failures=$((failures + 1)); }
# What a new user gets wrong on the first day: an option before the command, --out naming a
# file, a JSON file that is no measurement, a name 100 KB long, arguments for a recording.
expect "an option before any command" 2 "unknown option '--frob': a command comes first" --frob
: > "$work/a_file"
expect "--out names a file" 2 "--out: '$work/a_file' cannot be a folder: a file stands there" workbook --recorded --out "$work/a_file"
if "$lb" workbook --recorded --out "$work/a_file" 2>&1 | grep -q "rendered from a recording"; then
  echo "FAIL: the workbook went on after refusing --out"; failures=$((failures + 1))
fi
echo '{"a": 1}' > "$work/other.json"
expect "a JSON file that is no measurement" 1 "not a labbook measurement (it has no \"schema\" field)" summary "$work/other.json" --out "$work/s2"
long=$(head -c 100000 /dev/zero | tr '\0' a)
"$lb" run "$long" > "$work/out" 2>&1
if [ "$(wc -c < "$work/out")" -gt 400 ]; then echo "FAIL: a 100 KB lab name was echoed whole"; failures=$((failures + 1)); fi
expect "a program's arguments with --recorded" 2 "leave the program's arguments (--bogus) out" run lab4 --recorded --out "$work/r" -- --bogus
expect "summary counts what it wrote" 0 "summary.html (open it in a browser)" summary "$lab4" --out "$work/s3"
files=$(find "$work/s3" -type f | wc -l)
grep -q "wrote $files files to" "$work/out" || { echo "FAIL: summary's count is not the $files files it wrote: $(cat "$work/out")"; failures=$((failures + 1)); }
expect "a recording's terminal table says so" 0 "recorded           model, its GPU" run lab4 --recorded --force --out "$work/r"
expect "a lab's recording against itself" 0 "0 of 6 claims change their verdict" compare lab4 recorded "$lab4" --out "$work/c"
[ -s "$work/c/lab4.compare.html" ] || { echo "FAIL: compare wrote no lab4.compare.html"; failures=$((failures + 1)); }
expect "compare with a file that is not there" 2 "compare: 'no-such.json' is not a measurement file" compare lab4 recorded no-such.json
expect "compare with another lab's measurement" 2 "not lab3's program" compare lab3 recorded "$lab4"
expect "a run set beside the recording" 0 "0 of 6 claims change their verdict" run lab4 --recorded --force --compare recorded --out "$work/rc"
expect "a run compared with nothing, refused before it runs" 2 "compare: 'no-such.json'" run lab4 --compare no-such.json --out "$work/rc2"
[ ! -e "$work/rc2" ] || { echo "FAIL: run --compare with a missing file wrote $work/rc2"; failures=$((failures + 1)); }
mkdir -p "$work/no_students"
expect "an empty class" 2 "holds no submission" grade lab4 "$work/no_students" --out "$work/grades" --build-only
expect "grade's help is labbook-grade's" 0 "Usage: labbook grade [OPTIONS] [exercise] [submissions]" grade --help
# A labbook without labbook-grade beside it says what to build, and exits 1.
mkdir -p "$work/alone" && cp "$lb" "$work/alone/labbook"
lb=$work/alone/labbook expect "grade without labbook-grade" 1 "labbook-grade (No such file or directory): it is the target labbook-grade" \
  grade lab4 "$work/no_students"
[ "$failures" -eq 0 ] || { echo "$failures case(s) failed"; exit 1; }
