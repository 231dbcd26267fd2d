#!/bin/bash
# Benchmark: the first `make lab4` of two commits, each a fresh clone, built side by side (one
# job each, at the same time, so that both see the same load) and timed with GNU time: CPU
# seconds (user + system) and wall time of each, and their ratio. Runs the lab too, which
# without a GPU renders its recording (a second or two).
#   bench/first_build.sh OLD_REV NEW_REV [TARGET]
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: bench/first_build.sh OLD_REV NEW_REV [TARGET]" >&2; exit 2; }
old=$1 new=$2 target=${3:-lab4}
repo=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for side in old new; do
  rev=${!side}
  git clone -q "$repo" "$work/$side"
  git -C "$work/$side" checkout -q "$rev" || { echo "bench/first_build.sh: no commit $rev in $repo" >&2; exit 2; }
done
build() {   # build SIDE: configure and make TARGET with one job, timed
  (cd "$work/$1" && /usr/bin/time -f "%U %S %e" -o "$work/$1.time" \
     env CMAKE_BUILD_PARALLEL_LEVEL=1 make "$target" >"$work/$1.log" 2>&1) ||
    { echo "bench/first_build.sh: $1 ($(git -C "$work/$1" rev-parse --short HEAD)) failed to build:"; tail -5 "$work/$1.log"; exit 1; }
}
build old & old_pid=$!
build new & new_pid=$!
wait "$old_pid"; wait "$new_pid"
echo "first \`make $target\`, fresh clones built side by side, one job each, on $(nproc) cores"
for side in old new; do
  read -r user sys wall <"$work/$side.time"
  printf '%s %s: %.0f s of CPU (%.0f user + %.0f system), %.0f s wall\n' "$side" \
    "$(git -C "$work/$side" rev-parse --short HEAD)" "$(echo "$user + $sys" | bc)" "$user" "$sys" "$wall"
done
read -r ou os _ <"$work/old.time"; read -r nu ns _ <"$work/new.time"
printf 'new/old CPU: %.2f\n' "$(echo "($nu + $ns) / ($ou + $os)" | bc -l)"
