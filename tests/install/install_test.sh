#!/bin/bash
# CPU test of an installed labbook (`cmake --install`), no GPU needed: it is installed into a
# temporary prefix, then run from an unrelated folder with the source and build trees hidden
# (bubblewrap mounts an empty folder over them), so that it passes only if the installed
# labbook finds its lab folders, recordings and exercises relative to itself:
# `labbook run lab4 --recorded` writes the sheet into ./reports, naming the installed
# recording, `labbook exercise lab4` hands out the installed starter file, and `labbook grade`
# runs the installed labbook-grade. The installed lab programs must also find their CUDA
# libraries.
#   install_test.sh BUILD SOURCE BINDIR LIBDIR DATADIR   (the last three relative to the prefix)
set -uo pipefail
build=$1; source=$2; bindir=$3; libdir=$4; datadir=$5
base=$(mktemp -d "${TMPDIR:-/tmp}/labbook-install.XXXXXX")
trap 'rm -rf "$base"' EXIT
prefix=$base/prefix
work=$base/elsewhere
mkdir -p "$work"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
ok() { echo "ok: $*"; }

if ! cmake --install "$build" --prefix "$prefix" >"$base/install.log" 2>&1; then
  cat "$base/install.log"
  echo "FAIL: cmake --install $build --prefix $prefix"
  exit 1
fi
labbook=$prefix/$bindir/labbook
lab4=$prefix/$datadir/labs/04_global_memory
for f in "$labbook" "$prefix/$bindir/labbook-grade" "$prefix/$libdir/libcupti-collector.so" "$prefix/$libdir/labs/lab4_global_memory" \
         "$lab4/lab.toml" "$lab4/recorded/h100.json" "$lab4/exercises/soa/starter.cu" "$prefix/$datadir/labs/sources.toml" \
         "$prefix/$datadir/labs/common/exercise_harness.h" "$prefix/$datadir/kernels/global_memory.cuh" \
         "$prefix/$datadir/grading/allowed_symbols.toml"; do
  [ -s "$f" ] || fail "not installed: $f"
done
missing=$(ldd "$prefix/$libdir/labs/lab4_global_memory" 2>&1 | grep "not found")
[ -z "$missing" ] && ok "the installed lab 4 program finds its libraries" || fail "the installed lab 4 program lacks: $missing"

# Runs the installed labbook in $work, with the source and build trees hidden where bubblewrap
# can (its prefix lies outside both).
hidden=(--tmpfs "$source")
case "$build/" in "$source"/*) ;; *) hidden+=(--tmpfs "$build") ;; esac
installed() {
  if [ -n "${bwrap:-}" ]; then
    bwrap --dev-bind / / "${hidden[@]}" --chdir "$work" -- "$@"
  else
    (cd "$work" && "$@")
  fi
}
case "$base/" in "$source"/* | "$build"/*) echo "note: $base lies in the source or build tree: not hidden" ;; *)
  if bwrap --dev-bind / / "${hidden[@]}" -- test ! -e "$source/labs/04_global_memory/lab.toml" 2>/dev/null; then
    bwrap=1
    ok "the source tree is hidden from the installed labbook"
  else
    echo "note: bubblewrap cannot hide the source tree here: the paths alone are checked"
  fi ;;
esac

rc=0
installed "$labbook" run lab4 --recorded >"$base/stdout" 2>"$base/stderr" || rc=$?
[ "$rc" = 0 ] || fail "labbook run lab4 --recorded: exit $rc; stderr: $(cat "$base/stderr")"
for f in lab4.md lab4.html lab4.json lab4.trace.json.gz labbook.css; do
  [ -s "$work/reports/$f" ] || fail "labbook run lab4 --recorded wrote no $work/reports/$f"
done
grep -qF "($lab4/recorded/h100.json)" "$base/stdout" && ok "the sheet comes from the installed recording" ||
  fail "the note does not name the installed recording $lab4/recorded/h100.json: $(head -3 "$base/stdout")"

rc=0
installed "$labbook" exercise lab4 --out handout >"$base/stdout" 2>"$base/stderr" || rc=$?
[ "$rc" = 0 ] || fail "labbook exercise lab4: exit $rc; stderr: $(cat "$base/stderr")"
cmp -s "$lab4/exercises/soa/starter.cu" "$work/handout/$(grep -m1 '^student_file' "$lab4/exercises/soa/exercise.toml" | cut -d'"' -f2)" &&
  [ -s "$work/handout/instructions.md" ] && ok "labbook exercise hands out the installed starter file" ||
  fail "labbook exercise lab4 did not hand out the installed starter file: $(ls "$work/handout" 2>&1)"

# `labbook grade` runs the installed labbook-grade, which finds the installed exercise: an
# empty class is refused by name, before any build.
mkdir -p "$work/class"
rc=0
installed "$labbook" grade lab4 class --build-only --out grades >"$base/stdout" 2>"$base/stderr" || rc=$?
[ "$rc" = 2 ] && grep -qF "'class' holds no submission" "$base/stderr" && ok "labbook grade runs the installed labbook-grade" ||
  fail "labbook grade lab4 on an empty class: exit $rc; stderr: $(cat "$base/stderr")"

[ "$failures" = 0 ] && echo "all install checks passed" || echo "$failures install checks failed"
[ "$failures" = 0 ]
