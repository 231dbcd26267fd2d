#!/bin/bash
# On the lent GPU machine, after tools/device-build.sh: `labbook profile` with metrics on each
# test program, printing labbook's notes and how long each took. Usage: tools/device-smoke.sh OUT
out=$1
lb=build/labbook; p=build/tests/programs
metrics=$($lb metrics --lab lab4)
for cmd in "templates" "graph_capture" "graph_explicit" "streams_callbacks" "zero_copy" "unified_memory" \
           "host_threads" "exit_deep 3" "many_launches" "misaligned_read 11" "transpose 1024"; do
  name=${cmd%% *}
  start=$(date +%s.%N)
  LABBOOK_VERBOSE=1 timeout 120 $lb profile --metrics "$metrics" --out "$out/smoke_$name" -- $p/$cmd \
      >"$out/smoke_$name.stdout" 2>"$out/smoke_$name.log"
  rc=$?
  end=$(date +%s.%N)
  echo "== $cmd: exit $rc, $(awk "BEGIN{print $end-$start}") s"
  grep -E "note:|collector:|kernels,|run:.*exit" "$out/smoke_$name.log" | cut -c1-300
done
