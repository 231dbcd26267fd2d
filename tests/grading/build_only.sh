#!/bin/bash
# CPU test of `labbook grade --build-only`: every planted submission is built with nvcc in the
# sandbox and its object checked against the exercise's allow-list, no GPU needed. The
# compiler's error is captured (as "does not build", not "refused"); a system call made by
# inline assembly, code run before or after main, calls the exercise does not allow (files,
# threads, device-wide settings), the lab's own reference kernel and a definition that
# replaces the harness's are refused, each naming what; the rest build.
# Usage: build_only.sh BUILD SOURCE [SET]
#   SET  adversarial (default): the adversarial class and lab 4's;
#        exercises: the classes of labs 1, 6 and 7 (two tests, each within ctest's time limit)
set -uo pipefail
build=$1; source=$2; set_name=${3:-adversarial}
command -v bwrap >/dev/null || { echo "no bubblewrap: skipped"; exit 77; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
chmod 755 "$out"
failures=0
expect() {   # expect LISTING LINE-PREFIX
  grep -qF -- "$2" <<<"$1" && return
  echo "FAIL: no line '$2' in:"; echo "$1"; failures=$((failures + 1))
}
if [ "$set_name" = adversarial ]; then
  adversarial=$("$build/labbook" grade lab5-transpose "$source/tests/grading/adversarial" --out "$out/a" --build-only --jobs 2 2>/dev/null)
  [ $? -eq 1 ] || { echo "FAIL: --build-only with refused submissions should exit 1"; failures=$((failures + 1)); }
  expect "$adversarial" "forged_verdict: refused: the submission calls fopen, fwrite and fclose, which this exercise does not allow"
  expect "$adversarial" "global_constructor: refused: the submission runs code before main"
  expect "$adversarial" "raw_syscall: refused: the submission makes a system call itself (syscall in "
  expect "$adversarial" "exit_handler: refused: the submission calls fopen, fwrite, fclose and atexit"
  expect "$adversarial" "static_destructor: refused: the submission calls puts and __cxa_atexit"
  expect "$adversarial" "fini_array: refused: the submission puts code or data in section .fini_array"
  expect "$adversarial" "device_setting: refused: the submission calls cudaDeviceSetCacheConfig"
  expect "$adversarial" "persisting_l2: refused: the submission calls cudaDeviceSetLimit and cudaStreamSetAttribute"
  expect "$adversarial" "other_thread: refused: the submission calls std::thread"
  expect "$adversarial" "nvtx_blame: refused: the submission defines nvtxEtiGetModuleFunctionTable_v3, which replaces the harness's"
  expect "$adversarial" "reference_kernel: refused: "
  for student in cached_result child_grid device_state found_at_run_time input_modified other_stream padded_efficiency \
                 reduced_precision right_then_wrong stale_output; do
    expect "$adversarial" "$student: builds"
  done
  classic=$("$build/labbook" grade lab4-soa "$source/tests/grading/lab4-soa" --out "$out/b" --build-only 2>/dev/null)
  expect "$classic" 'dana_nocompile: does not build: submission.cu(6): error: expected a ";"'
  expect "$classic" "ada_fast: builds"
else
  # Lab 1's exercise: its class builds, and launching lab 1's own kernel is refused.
  registers=$("$build/labbook" grade lab1-registers "$source/tests/grading/lab1-registers" --out "$out/c" --build-only --jobs 2 2>/dev/null)
  expect "$registers" "reference_kernel: refused: the submission's device code calls labbook::kernels::localArrayRuntime"
  for student in constant_start local_array on_the_fly rotated_weights select_loop switch_start; do
    expect "$registers" "$student: builds"
  done
  # Lab 7's exercise: its class builds, and launching lab 7's own stencil kernel is refused.
  layouts=$("$build/labbook" grade lab7-stencil "$source/tests/grading/lab7-stencil" --out "$out/lab7" --build-only --jobs 2 2>/dev/null)
  expect "$layouts" "reference_kernel: refused: the submission's device code calls void labbook::kernels::stencilGlobal<false>"
  for student in columns ignores_pitch interior_only rows shared_tile; do
    expect "$layouts" "$student: builds"
  done
  # Lab 6's exercise: likewise with lab 6's tiled kernel.
  matmul=$("$build/labbook" grade lab6-tiled "$source/tests/grading/lab6-tiled" --out "$out/lab6" --build-only --jobs 2 2>/dev/null)
  expect "$matmul" "reference_kernel: refused: the submission's device code calls void labbook::kernels::MatMulSharedKernel<float>"
  for student in half_tiles last_k_tile naive no_guards reread_global tiled; do
    expect "$matmul" "$student: builds"
  done
fi
[ -e "$out/a/grades.csv" ] && { echo "FAIL: --build-only wrote grades"; failures=$((failures + 1)); }
echo "$failures failures"
[ "$failures" -eq 0 ]
