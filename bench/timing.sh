# Sourced by the benches that time whole runs: `work` must name their scratch folder.
# seconds COMMAND...: wall time of one run; its output in $work/last.log, the peak resident
# memory of its largest process (kB) in $work/last.rss where GNU time is installed.
seconds() {
  local start end timer=()
  [ -x /usr/bin/time ] && timer=(/usr/bin/time -f %M -o "$work/last.rss")
  start=$(date +%s.%N)
  "${timer[@]}" "$@" >"$work/last.log" 2>&1 || { echo "failed: $*" >&2; tail -20 "$work/last.log" >&2; exit 1; }
  end=$(date +%s.%N)
  awk "BEGIN { print $end - $start }"
}
# rss: the last run's peak resident memory, in MB.
rss() { [ -s "$work/last.rss" ] && echo "$(( $(tail -1 "$work/last.rss") / 1024 )) MB" || echo "not measured (no /usr/bin/time)"; }
median3() { printf '%s\n' "$@" | sort -g | sed -n 2p; }
# stages INDENT: the last run's LABBOOK_VERBOSE lines (the collector's stages, each run's
# measurement read, labbook's whole time), each after INDENT.
stages() { grep -E "^labbook collector: |^labbook: [0-9.]+ s in all|^labbook: [^ ]+ read in " "$work/last.log" | sed "s/^/$1/"; }
