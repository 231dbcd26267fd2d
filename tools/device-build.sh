#!/bin/bash
# On the lent GPU machine: unpack the carried Debian packages, then configure and build.
# Usage (from the repository root): bash tools/device-build.sh [extra cmake args]
# The packages travel as .device-deps/ (carry it); grading needs bubblewrap and libseccomp-dev
# besides the default set:
#   ../shared/tools/device-deps fetch libcmark-gfm-dev libcmark-gfm-extensions-dev libtomlplusplus-dev \
#     nlohmann-json3-dev libcli11-dev libsimdjson-dev libsimdjson14 libgtest-dev libgmock-dev bubblewrap libseccomp-dev zlib1g-dev
set -euo pipefail
if [ -d .device-deps ]; then bash .device-deps/install >/dev/null; fi
cmake -S . -B build -G Ninja "$@" >/tmp/labbook-configure.log 2>&1 || { cat /tmp/labbook-configure.log; exit 1; }
cmake --build build -j 16 2>&1 | grep -E 'error|FAILED|warning' || true
test -x build/labbook && test -x build/labbook-grade
