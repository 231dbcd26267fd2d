#!/bin/bash
# On the lent GPU machine, after tools/device-build.sh: why labbook's L2 hit rate (L2 flushed,
# --cache-control all) disagrees with ncu's on L2-resident kernels (89 % against 42 % on the
# 2^20-float misaligned read) while their DRAM bytes agree. Collects L2's raw counters, split
# by operation and by source unit, in both tools, kernel by kernel, and prints
# compare_with_ncu's table for each case. Usage: tools/probe-l2-hit-rate.sh OUT
# Reading the tables: if the difference is in the write lookups, the program's output lines
# outlive labbook's flush; if it is in the fabric (ltcfabric) lookups, the flush leaves the
# other L2 partition's copies; if reads differ while DRAM bytes agree, the counting window does.
# Then the same with other flushes (LABBOOK_L2_FLUSH), to see which leaves L2 as ncu's does.
# The leading suspect: with DRAM bytes equal, the misses are too, so 89 % against 42 % means
# about 2.5 M sector lookups against ncu's 0.46 M (the kernel's own: 5 read sectors per 4
# for the misaligned warps, and its writes), all extra ones hits and none reaching DRAM: like
# the discard pass's lookups, if L2 is still working through them when counting starts
# ('settle' waits 1 ms after the passes).
set -uo pipefail
out=$1
build=build
metrics=lts__t_sector_hit_rate.pct,lts__t_sectors.sum,lts__t_sectors_lookup_hit.sum,lts__t_sectors_lookup_miss.sum
metrics+=,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum,lts__t_sector_op_read_hit_rate.pct
metrics+=,lts__t_sector_op_write_hit_rate.pct,lts__t_sectors_srcunit_tex.sum,lts__t_sectors_srcunit_ltcfabric.sum
metrics+=,lts__t_sectors_srcunit_tex_lookup_hit.sum,lts__t_sectors_srcunit_tex_lookup_miss.sum
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
for flush in write write,read write,discard,read write,discard,settle; do
  probe misaligned_read all "$flush" "$build/tests/programs/misaligned_read" 11
done
