#!/bin/sh
# Compiler launcher for the lab programs (cmake/AddLab.cmake): runs the nvcc command it is
# given, which includes -Xptxas -v, and keeps ptxas's resource report (registers, spills,
# stack, shared and constant memory per kernel) in OBJECT.ptxas.txt beside the object file
# instead of the build log. Every other message passes through; the exit code is nvcc's.
object=
previous=
for argument in "$@"; do
  [ "$previous" = "-o" ] && object=$argument
  previous=$argument
done
log=$(mktemp) || exit 1
"$@" 2>"$log"
status=$?
if [ -n "$object" ]; then
  grep -E '^ptxas info|bytes stack frame' "$log" >"$object.ptxas.txt"
fi
grep -v -E '^ptxas info|bytes stack frame' "$log" >&2
rm -f "$log"
exit $status
