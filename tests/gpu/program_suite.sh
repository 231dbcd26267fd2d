#!/bin/bash
# GPU test: programs written the way others write CUDA (tests/programs) behave exactly as
# without labbook, and labbook's counters equal ncu's on them.
#   program_suite.sh BUILD
# For each program: stdout byte for byte and the exit code, alone and under `labbook
# profile --metrics` (trace run + application-replay metrics runs, L2 flushed); then every
# counter of lab 4's metric set against `ncu --cache-control all` (ncu_agreement.sh): graph
# programs included, whose nodes labbook launches one by one in its metrics runs
# (profiler/graph_replay.h): kernels, memsets, host functions, event records and waits, and
# child graphs (graph_host_node, graph_mixed_nodes).
# capture_at_start holds a global-mode capture open while labbook prepares its L2 flusher on a
# thread of its own: the flusher's driver calls must leave that capture alone.
# capture_beside_launches launches profiled kernels from one thread while another holds a
# global-mode capture open: what labbook and CUPTI do around those launches must leave it too.
# persisting_l2 resets the persisting L2 lines between launches: GPU work of the driver that
# must not be counted as a kernel of the program.
# Skips (77) without a GPU or without ncu.
set -uo pipefail
build=$1
here=$(cd "$(dirname "$0")" && pwd)
nvidia-smi -L >/dev/null 2>&1 || { echo "no GPU: skipped"; exit 77; }
command -v ncu >/dev/null 2>&1 || { echo "ncu not found: skipped"; exit 77; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
programs=$build/tests/programs
# Lab 4's metrics, less its hit rates: with L2 flushed, the L2 hit rate is compared only where
# L2's lookups are collected too (gpu_lab4_ncu_agreement, gpu_cache_all_*), and L1's, which
# depends on how warps interleave, is compared there as well.
metrics=$("$build/labbook" metrics --lab lab4 | tr ',' '\n' | grep -v '_hit_rate' | paste -sd, -)
failures=0

# expect_note NAME PATTERN WHAT: labbook's log for NAME has a note matching PATTERN
expect_note() {
  if grep -q "$2" "$out/$1.labbook.log"; then
    echo "ok $1: $3"
  else
    echo "FAIL $1: no note matching '$2'"
    failures=$((failures + 1))
  fi
}

# check NAME WANT_EXIT COUNTERS PROGRAM ARGS...   COUNTERS: ncu (compare with ncu's),
# counters (the same without DRAM, L2 and times: managed memory migrates during the kernel in a
# real run, before it in ncu's replay) or capture (launches beside
# another thread's open stream capture: the program's behaviour, and labbook saying that those
# launches have no metrics; ncu's own replay synchronizes around them)
check() {
  local name=$1 want=$2 counters=$3; shift 3
  local alone=0 profiled=0
  "$@" >"$out/$name.alone" 2>/dev/null || alone=$?
  "$build/labbook" profile --metrics "$metrics" --out "$out/$name" -- "$@" >"$out/$name.profiled" \
      2>"$out/$name.labbook.log" || profiled=$?
  if [ "$alone" != "$want" ] || [ "$profiled" != "$alone" ]; then
    echo "FAIL $name: exit code alone $alone, under labbook $profiled (want $want)"
    tail -5 "$out/$name.labbook.log"
    failures=$((failures + 1))
  elif ! cmp -s "$out/$name.alone" "$out/$name.profiled"; then
    echo "FAIL $name: stdout differs under labbook"
    diff "$out/$name.alone" "$out/$name.profiled" | head -5
    failures=$((failures + 1))
  elif grep -q "unmatched_kernel\|launch_mismatch\|ranges_dropped\|metrics_lost\|metrics_run_failed\|graph_replay_failed" "$out/$name.labbook.log" ||
       { [ "${name#graph_}" != "$name" ] && grep -q "graph_kernels_no_metrics" "$out/$name.labbook.log"; }; then
    echo "FAIL $name: labbook lost kernels or metrics:"
    grep "note:" "$out/$name.labbook.log" | head -5
    failures=$((failures + 1))
  else
    echo "ok $name: same stdout ($(wc -l <"$out/$name.alone") lines) and exit code $alone"
  fi
  if [ -n "${LABBOOK_KEEP_RESULTS:-}" ]; then
    cp "$out/$name.labbook.log" "$LABBOOK_KEEP_RESULTS/suite_$name.log" 2>/dev/null || true
  fi
  case $counters in
    capture) expect_note "$name" "launch_during_capture: [0-9]* launches of add_one" \
               "the launches beside the capture said to have no metrics"; return ;;
  esac
  local only=""
  [ "$counters" = counters ] && only=1
  # The profile above (defaults: L2 flushed, application replay) is the one compared.
  if ! LABBOOK_COUNTERS_ONLY=$only LABBOOK_AGREEMENT_METRICS=$metrics LABBOOK_AGREEMENT_MEASUREMENT=$out/$name/measurements.json \
        bash "$here/ncu_agreement.sh" "$build" "suite_$name" all application "$@" >"$out/$name.ncu.md" 2>&1; then
    echo "FAIL $name: counters differ from ncu's"
    grep -v "^| .* | 0.000 % |" "$out/$name.ncu.md" | tail -15
    failures=$((failures + 1))
  else
    echo "ok $name: every metric within its limit of ncu's ($(grep -c '^| [a-z]' "$out/$name.ncu.md") metrics)"
  fi
}

check templates 0 ncu "$programs/templates"
check graph_capture 0 ncu "$programs/graph_capture"
check graph_explicit 0 ncu "$programs/graph_explicit"
check graph_update 0 ncu "$programs/graph_update"
check graph_host_node 0 ncu "$programs/graph_host_node"
check graph_mixed_nodes 0 ncu "$programs/graph_mixed_nodes"
check capture_at_start 0 ncu "$programs/capture_at_start"
check capture_beside_launches 0 capture "$programs/capture_beside_launches"
check streams_callbacks 0 ncu "$programs/streams_callbacks"
check zero_copy 0 ncu "$programs/zero_copy"
check unified_memory 0 counters "$programs/unified_memory"
check host_threads 0 ncu "$programs/host_threads"
check exit_deep 3 ncu "$programs/exit_deep" 3
check many_launches 0 ncu "$programs/many_launches"
check persisting_l2 0 ncu "$programs/persisting_l2"
[ "$failures" -eq 0 ] || { echo "$failures check(s) failed"; exit 1; }
