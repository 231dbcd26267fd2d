#!/bin/bash
# On the lent GPU machine, after tools/device-build.sh: why labbook's L2 hit rate (L2 flushed,
# --cache-control all) disagrees with ncu's on L2-resident kernels (89 % against 42 % on the
# 2^20-float misaligned read) while their DRAM bytes agree. Collects L2's raw counters, split
# by operation and by source unit, in both tools, kernel by kernel, and prints
# compare_with_ncu's table for each case. Usage: tools/probe-l2-hit-rate.sh OUT
# Reading the tables: if the difference is in the write lookups, the program's output lines
# outlive labbook's flush; if it is in the fabric (ltcfabric) lookups, the flush leaves the
# other L2 partition's copies; if reads differ while DRAM bytes agree, the counting window does.
set -uo pipefail
out=$1
build=build
metrics=lts__t_sector_hit_rate.pct,lts__t_sectors.sum,lts__t_sectors_lookup_hit.sum,lts__t_sectors_lookup_miss.sum
metrics+=,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum,lts__t_sector_op_read_hit_rate.pct
metrics+=,lts__t_sector_op_write_hit_rate.pct,lts__t_sectors_srcunit_tex.sum,lts__t_sectors_srcunit_ltcfabric.sum
metrics+=,lts__t_sectors_srcunit_tex_lookup_hit.sum,lts__t_sectors_srcunit_tex_lookup_miss.sum
metrics+=,dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum
for cmd in "misaligned_read 11" "transpose 1024"; do
  name=${cmd%% *}
  for cache in all none; do
    echo "== $cmd, cache control $cache"
    LABBOOK_KEEP_RESULTS=$out LABBOOK_COUNTERS_ONLY=1 LABBOOK_AGREEMENT_METRICS=$metrics \
      bash tests/gpu/ncu_agreement.sh "$build" "l2probe_${name}_$cache" "$cache" application \
      "$build/tests/programs/$name" ${cmd#* } 2>&1 | tail -25
  done
done
