#!/bin/bash
# On the lent GPU machine: unpack the carried Debian packages, then configure and build.
# Usage (from the repository root): bash tools/device-build.sh [extra cmake args]
set -euo pipefail
if [ -d .device-deps ]; then bash .device-deps/install >/dev/null; fi
cmake -S . -B build -G Ninja "$@" >/tmp/labbook-configure.log 2>&1 || { cat /tmp/labbook-configure.log; exit 1; }
cmake --build build -j 16 2>&1 | grep -E 'error|FAILED|warning' || true
test -x build/labbook
