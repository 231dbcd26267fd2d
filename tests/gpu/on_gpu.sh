#!/bin/bash
# Runs a GPU test's command on the GPU ctest gave it. Under `ctest --resource-spec-file`
# (tools/device-suite.sh), each GPU test asks for one GPU (RESOURCE_GROUPS gpus:1) and ctest
# names it in CTEST_RESOURCE_GROUP_0_GPUS ("id:N,slots:1"): the command then sees that GPU
# alone. Without a resource spec, the command runs on the GPUs CUDA_VISIBLE_DEVICES allows.
#   tests/gpu/on_gpu.sh COMMAND [ARGS...]
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: tests/gpu/on_gpu.sh COMMAND [ARGS...]" >&2; exit 2; }
if [ -n "${CTEST_RESOURCE_GROUP_0_GPUS:-}" ]; then
  id=${CTEST_RESOURCE_GROUP_0_GPUS#id:}
  id=${id%%,*}
  [[ "$id" =~ ^[0-9]+$ ]] || { echo "on_gpu.sh: no GPU id in CTEST_RESOURCE_GROUP_0_GPUS='$CTEST_RESOURCE_GROUP_0_GPUS'" >&2; exit 2; }
  export CUDA_VISIBLE_DEVICES=$id
fi
exec "$@"
