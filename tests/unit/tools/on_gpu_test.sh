#!/bin/bash
# tests/gpu/on_gpu.sh: a GPU test sees the GPU ctest's resource spec gave it, and nothing else
# changes: without a spec its CUDA_VISIBLE_DEVICES stays, and its exit code (77: no GPU) comes back.
set -uo pipefail
on_gpu=$1
fail() { echo "FAIL: $*" >&2; exit 1; }
[ "$(CTEST_RESOURCE_GROUP_0_GPUS='id:3,slots:1' "$on_gpu" printenv CUDA_VISIBLE_DEVICES)" = 3 ] || fail "GPU 3 not given"
[ "$(CUDA_VISIBLE_DEVICES=5 "$on_gpu" printenv CUDA_VISIBLE_DEVICES)" = 5 ] || fail "CUDA_VISIBLE_DEVICES changed without a spec"
"$on_gpu" bash -c 'exit 77'
[ $? -eq 77 ] || fail "the exit code was not passed on"
CTEST_RESOURCE_GROUP_0_GPUS='slots:1' "$on_gpu" true 2>/dev/null
[ $? -eq 2 ] || fail "a group without an id was taken"
echo "on_gpu.sh: placement and exit codes as expected"
