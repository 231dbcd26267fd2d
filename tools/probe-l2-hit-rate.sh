#!/bin/bash
# On the lent GPU machine, after tools/device-build.sh: L2's raw counters, split by operation
# and by source unit, in labbook and ncu, kernel by kernel, for the 2^20-float misaligned read
# and the 1024^2 transposes, with cache control all and none, and then with other flushes
# (LABBOOK_L2_FLUSH); prints compare_with_ncu's table for each case. Usage:
# tools/probe-l2-hit-rate.sh OUT
# What it showed on the H100:
# - 2026-11-23, before a multi-pass metric got a run per pass: every raw lts counter agreed
#   with ncu's within 4 %, while lts__t_sector_hit_rate.pct read 89 % against 42 %: its two
#   passes ran in one run with kernel replay, the second with L2 warm from CUPTI's restore.
# - after: the SMs' own lookups (srcunit_tex, hits and misses) are identical in both tools;
#   the hit rates differ by 0.3 to 2.3 points, all of it in lookups from the other L2
#   partition (srcunit_ltcfabric), which ncu's hit-counting passes see more of than its
#   sector-counting pass (docs/metrics.md, "Where the remaining points come from").
set -uo pipefail
out=$1
build=build
metrics=lts__t_sector_hit_rate.pct,lts__t_sectors.sum,lts__t_sectors_lookup_hit.sum,lts__t_sectors_lookup_miss.sum
metrics+=,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum,lts__t_sector_op_read_hit_rate.pct
metrics+=,lts__t_sector_op_write_hit_rate.pct,lts__t_sectors_srcunit_tex.sum,lts__t_sectors_srcunit_ltcfabric.sum
metrics+=,lts__t_sectors_srcunit_tex_lookup_hit.sum,lts__t_sectors_srcunit_tex_lookup_miss.sum
metrics+=,lts__t_sectors_srcunit_ltcfabric_lookup_hit.sum,lts__t_sectors_srcunit_ltcfabric_lookup_miss.sum
metrics+=,dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum
probe() {   # probe NAME CACHE FLUSH PROGRAM ARGS...
  local name=$1 cache=$2 flush=$3; shift 3
  echo "== $*: cache control $cache, labbook's flush $flush"
  LABBOOK_L2_FLUSH=$flush LABBOOK_KEEP_RESULTS=$out LABBOOK_COUNTERS_ONLY=1 LABBOOK_AGREEMENT_METRICS=$metrics \
    bash tests/gpu/ncu_agreement.sh "$build" "l2probe_${name}_${cache}_${flush//,/-}" "$cache" application "$@" 2>&1 | tail -22
}
for cmd in "misaligned_read 11" "transpose 1024"; do
  name=${cmd%% *}
  probe "$name" all write,discard "$build/tests/programs/$name" ${cmd#* }
  probe "$name" none write,discard "$build/tests/programs/$name" ${cmd#* }
done
# Which flush leaves L2 as ncu's does? (LABBOOK_L2_FLUSH: passes over a buffer twice the L2.)
for flush in write write,read write,discard,read; do
  probe misaligned_read all "$flush" "$build/tests/programs/misaligned_read" 11
done
