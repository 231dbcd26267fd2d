#!/bin/bash
# Benchmark: what a metrics run after the trace run costs labbook besides the program (its
# measurement written, read back and merged), carrying every launch against the profiled
# kernels alone, side by side in one build. No GPU needed.
#   bench/metrics_handoff.sh BUILD [LAUNCHES] [ROUNDS]     (defaults: 100000 launches, 7 rounds)
# The trace run is bench/synthetic_measurement.py's; 20 of its launches get metrics.
set -euo pipefail
build=$1 launches=${2:-100000} rounds=${3:-7}
here=$(cd "$(dirname "$0")/.." && pwd)
probe="$build/bench/metrics_handoff_probe"
[ -x "$probe" ] || { echo "bench/metrics_handoff.sh: $probe not built (cmake --build $build --target metrics_handoff_probe)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 "$here/bench/synthetic_measurement.py" "$launches" "$work/trace.json"
"$probe" "$work/trace.json" "$work" "$rounds"
