#!/bin/bash
# The collector lives inside someone else's program: it may load CUDA's libraries and the C and
# C++ runtimes, and nothing of labbook's own dependencies (simdjson, cmark-gfm, ...), which the
# static libraries it is linked from bring to the link line.
#   collector_libraries_test.sh COLLECTOR.so
set -euo pipefail
needed=$(readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
[ -n "$needed" ] || { echo "FAIL: readelf found no NEEDED entry in $1"; exit 1; }
unexpected=$(grep -v -E '^(libcupti|libcuda|libstdc\+\+|libgcc_s|libc|libm|ld-linux-x86-64|libdl|libpthread|librt)\.so' <<<"$needed" || true)
if [ -n "$unexpected" ]; then
  echo "FAIL: the collector loads $(tr '\n' ' ' <<<"$unexpected")into every program it profiles"
  exit 1
fi
echo "ok: the collector loads only $(tr '\n' ' ' <<<"$needed")"
