#!/bin/bash
# compare_with_ncu, the GPU tests' judge of agreement with ncu, on ncu CSV made here from a
# recorded measurement: the same values pass; a count moved past its limit at one launch fails,
# naming that launch, and lists the metric launch by launch; a move within the limit passes;
# a CSV with a kernel fewer is an error naming both counts.
#   compare_with_ncu_test.sh COMPARE_WITH_NCU MEASUREMENT.json
set -euo pipefail
compare=$1
measurement=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# ncu's --csv --page raw form: a header, a units row, a row a kernel. Arguments: the metric to
# scale, the factor, the launch, and "drop" to leave the last kernel out.
ncu_csv() {
  python3 - "$measurement" "$@" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
metric, factor, launch = sys.argv[2], float(sys.argv[3]), int(sys.argv[4])
kernels = m["kernels"][:-1] if len(sys.argv) > 5 and sys.argv[5] == "drop" else m["kernels"]
names = m["metrics_requested"]
quote = lambda fields: ",".join('"%s"' % f for f in fields)
print(quote(["ID", "Kernel Name", "Grid Size"] + names))
print(quote(["", "", ""] + ["" for _ in names]))
for i, k in enumerate(kernels):
    values = []
    for name in names:
        value = k["metrics"].get(name)
        if value is not None and name == metric and i == launch:
            value *= factor
        values.append("" if value is None else repr(value))
    print(quote([str(i), k["mangled"], "(%d, %d, %d)" % tuple(k["grid"])] + values))
PY
}

metric=l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum   # a count: 1 % allowed
kernels=$(python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))['kernels']))" "$measurement")

ncu_csv "$metric" 1 0 >"$work/same.csv"
"$compare" "$measurement" "$work/same.csv" >"$work/same.txt" || { cat "$work/same.txt"; fail "the same values did not pass"; }
grep -q '^0 values outside their limit$' "$work/same.txt" || fail "no count of values outside their limit"

ncu_csv "$metric" 1.5 3 >"$work/moved.csv"
if "$compare" "$measurement" "$work/moved.csv" >"$work/moved.txt"; then fail "a count 1.5 times ncu's passed"; fi
grep -q "^FAIL launch 3: $metric: " "$work/moved.txt" || fail "the failing launch is not named"
grep -q '^1 values outside their limit$' "$work/moved.txt" || fail "not exactly one value outside its limit"
grep -q "^$metric, launch by launch (labbook / ncu):$" "$work/moved.txt" || fail "no launch-by-launch listing"
listed=$(sed -n "/^$metric, launch by launch/,/values outside/p" "$work/moved.txt" | grep -c '^  [0-9]* ')
[ "$listed" -eq "$kernels" ] || fail "listed $listed launches of $kernels"
grep -q "^  3 [^ ]*: [0-9.e+]* / [0-9.e+]*$" "$work/moved.txt" || fail "launch 3's line does not give both values"

ncu_csv "$metric" 1.005 3 >"$work/within.csv"
"$compare" "$measurement" "$work/within.csv" >"$work/within.txt" || { cat "$work/within.txt"; fail "0.5 % off failed a 1 % limit"; }
if grep -q 'launch by launch' "$work/within.txt"; then fail "a listing where nothing failed"; fi

ncu_csv "$metric" 1 0 drop >"$work/fewer.csv"
if "$compare" "$measurement" "$work/fewer.csv" >"$work/fewer.txt" 2>&1; then fail "a kernel fewer passed"; fi
grep -q "ncu profiled $((kernels - 1)) kernels, labbook $kernels" "$work/fewer.txt" || fail "the kernel counts are not named"
echo "compare_with_ncu: same values pass, a moved count fails at its launch with a listing, a kernel fewer is an error"
