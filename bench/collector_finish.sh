#!/bin/bash
# Benchmark: the collector's finishing at a trace run's exit, its kernels and API calls held as
# objects and then written against made as their rows are written, side by side in one build,
# each run a fresh process (at a program's exit the memory is fresh). No GPU needed.
#   bench/collector_finish.sh BUILD [LAUNCHES] [ROUNDS]     (defaults: 100000 launches, 7 rounds)
set -euo pipefail
build=$1 launches=${2:-100000} rounds=${3:-7}
probe="$build/bench/collector_finish_probe"
[ -x "$probe" ] || { echo "bench/collector_finish.sh: $probe not built (cmake --build $build --target collector_finish_probe)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
median() { printf '%s\n' "$@" | sort -g | sed -n "$(( ($# + 1) / 2 ))p"; }
held_s=(); rows_s=(); held_kib=(); rows_kib=()
for _ in $(seq "$rounds"); do
  read -r s k < <("$probe" "$launches" held "$work/held.json"); held_s+=("$s"); held_kib+=("$k")
  read -r s k < <("$probe" "$launches" rows "$work/rows.json"); rows_s+=("$s"); rows_kib+=("$k")
done
hs=$(median "${held_s[@]}") rs=$(median "${rows_s[@]}") hk=$(median "${held_kib[@]}") rk=$(median "${rows_kib[@]}")
printf '| %s launches, median of %s | held, then written | made as written | made / held |\n|---|---|---|---|\n' "$launches" "$rounds"
printf '| seconds | %s | %s | %s |\n' "$hs" "$rs" "$(awk "BEGIN { printf \"%.2f\", $rs / $hs }")"
printf '| peak memory added (MiB) | %s | %s | %s |\n' "$(( hk / 1024 ))" "$(( rk / 1024 ))" \
  "$(awk "BEGIN { printf \"%.2f\", ($rk + 1) / ($hk + 1) }")"
cmp -s "$work/held.json" "$work/rows.json" && echo "the same file either way" || { echo "the files differ" >&2; exit 1; }
