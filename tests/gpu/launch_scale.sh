#!/bin/bash
# GPU test (issue 34): a program of 10^5 short launches (tests/programs/many_launches), NVTX
# ranges every 1 000, under `labbook profile` trace only and with metrics for 20 launches:
# the program's stdout and exit code as without labbook, the measurement at most 150 bytes a
# launch and on disk once, the timeline picture aggregated (under 2 MB), 20 launches with
# metrics and the rest without, and the metrics run's peak memory within 25 % of ncu's with
# the same filter (where GNU time and ncu are installed), and the trace run's peak at most 100 MB
# above the program's own (where GNU time is). Prints the trace run's cost per launch.
# Skips (77) without a GPU.
set -euo pipefail
build=$1
launches=${LABBOOK_SCALE_LAUNCHES:-100000}
nvidia-smi -L >/dev/null 2>&1 || { echo "no GPU: skipped"; exit 77; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
lb="$build/labbook"; program="$build/tests/programs/many_launches"
fail() { echo "FAIL: $*"; exit 1; }
timed() {   # timed NAME COMMAND...: runs it, its stdout in $out/NAME.out, seconds in $out/NAME.s
  local name=$1; shift
  local timer=() rc=0 start end
  [ -x /usr/bin/time ] && timer=(/usr/bin/time -f %M -o "$out/$name.kb")
  start=$(date +%s.%N)
  "${timer[@]}" "$@" >"$out/$name.out" 2>"$out/$name.err" || rc=$?
  end=$(date +%s.%N)
  awk "BEGIN { print $end - $start }" >"$out/$name.s"
  return $rc
}

timed alone "$program" "$launches" || fail "the program alone failed"
timed trace "$lb" profile --out "$out/trace" -- "$program" "$launches" || fail "labbook profile failed: $(tail -3 "$out/trace.err")"
cmp -s "$out/alone.out" "$out/trace.out" || fail "stdout differs under labbook"
bytes=$(stat -c %s "$out/trace/measurements.json")
kernels=$(sed -n 's/^labbook: \([0-9]*\) kernels,.*/\1/p' "$out/trace.err")
[ "${kernels:-0}" -ge "$launches" ] || fail "the trace holds ${kernels:-no} kernels for $launches launches"
per_launch=$((bytes / kernels))
echo "trace only: $(cat "$out/alone.s") s alone, $(cat "$out/trace.s") s profiled; measurements.json $bytes bytes, $per_launch a launch"
[ "$per_launch" -le 150 ] || fail "measurements.json holds $per_launch bytes a launch (at most 150)"
[ ! -e "$out/trace/runs" ] || fail "runs/ kept a second copy of the measurement: $(ls "$out/trace/runs")"
svg=$(stat -c %s "$out/trace/timeline.svg")
[ "$svg" -le 2000000 ] || fail "timeline.svg is $svg bytes: the picture must aggregate launches"
awk "BEGIN { printf \"trace run: %.1f us a launch above the program alone\n\", 1e6 * ($(cat "$out/trace.s") - $(cat "$out/alone.s")) / $launches }"
if [ -s "$out/alone.kb" ] && [ -s "$out/trace.kb" ]; then   # the largest process's peak: the program's
  above=$((($(tail -1 "$out/trace.kb") - $(tail -1 "$out/alone.kb")) / 1024))
  echo "trace run: $above MB above the program alone at its peak"
  [ "$above" -le 100 ] || fail "the trace run held $above MB more than the program alone (at most 100)"
fi

metrics=$("$lb" metrics --lab lab4)
timed metrics "$lb" profile --metrics "$metrics" --kernel readOffset --launch-skip 1000 --launch-count 20 \
    --out "$out/metrics" -- "$program" "$launches" || fail "labbook profile --metrics failed: $(tail -3 "$out/metrics.err")"
cmp -s "$out/alone.out" "$out/metrics.out" || fail "stdout differs under labbook --metrics"
with=$(python3 -c 'import sys; sys.path.insert(0, sys.argv[1]); from measurement_records import load
print(sum(1 for k in load(sys.argv[2])["kernels"] if k.get("metrics")))' "$(dirname "$0")/../../tools" "$out/metrics/measurements.json")
[ "$with" -eq 20 ] || fail "$with launches have metrics, 20 asked for"
echo "metrics for 20 launches: $(cat "$out/metrics.s") s; $(grep -h 'replay:' "$out/metrics.err" || true)"
if command -v ncu >/dev/null 2>&1 && [ -s "$out/metrics.kb" ]; then
  timed ncu ncu --metrics "$metrics" -k readOffset -s 1000 -c 20 "$program" "$launches" || fail "ncu failed"
  labbook_kb=$(tail -1 "$out/metrics.kb"); ncu_kb=$(tail -1 "$out/ncu.kb")
  echo "peak memory: labbook $((labbook_kb / 1024)) MB, ncu $((ncu_kb / 1024)) MB; ncu $(cat "$out/ncu.s") s"
  [ "$labbook_kb" -le $((ncu_kb * 5 / 4)) ] || fail "labbook's metrics run held $((labbook_kb / 1024)) MB, ncu $((ncu_kb / 1024)) MB"
fi
echo "ok"
