#!/bin/bash
# CPU test of `labbook grade --build-only`: every planted submission is built with nvcc in the
# sandbox and its object checked against the exercise's allow-list, no GPU needed. The
# compiler's error is captured (as "does not build", not "refused"); a system call made by
# inline assembly, code run before or after main, calls the exercise does not allow (files,
# threads, device-wide settings), the lab's own reference kernel and a definition that
# replaces the harness's are refused, each naming what; the rest build.
# Usage: build_only.sh BUILD SOURCE [SET]
#   SET  adversarial (default): the adversarial class and lab 4's;
#        exercises: the classes of labs 1, 3, 6 and 7 (two tests, each within ctest's time limit)
#        host_code: the classes of labs 2 and 8, whose students write host code
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
  for student in atomic_reads diluted_loads scratch_stores; do expect "$classic" "$student: builds"; done
elif [ "$set_name" = host_code ]; then
  # Host code calling the exercise's runtime calls and the harness's process_words builds;
  # new[] (whose length error the C++ ABI throws) too.
  for exercise in lab2-pipeline lab8-tasks; do
    listing=$("$build/labbook" grade "$exercise" "$source/tests/grading/$exercise" --out "$out/$exercise" --build-only --jobs 2 --arch sm_90 2>/dev/null)
    [ $? -eq 0 ] || { echo "FAIL: --build-only of $exercise's class should exit 0"; failures=$((failures + 1)); }
    while IFS=$'\t' read -r student _; do expect "$listing" "$student: builds"; done < "$source/tests/grading/$exercise/expected.tsv"
  done
else
  # expect_class EXERCISE REFUSAL STUDENT...: the exercise's planted class builds, except its
  # reference_kernel, which launches the lab's own kernel and is refused, naming it.
  expect_class() {
    local exercise=$1 refusal=$2; shift 2
    # (listing stays set: a caller checks more lines of it)
    listing=$("$build/labbook" grade "$exercise" "$source/tests/grading/$exercise" --out "$out/$exercise" --build-only --jobs 2 --arch sm_90 2>/dev/null)
    expect "$listing" "reference_kernel: refused: the submission's device code calls $refusal"
    for student in "$@"; do expect "$listing" "$student: builds"; done
    # Built for one architecture, named: never nvcc's guess in a sandbox with no GPU.
    if grep -rl --include=build.log "Cannot find valid GPU" "$out/$exercise" >/dev/null; then
      echo "FAIL: $exercise: a build fell back from -arch=native"; failures=$((failures + 1))
    fi
    grep -q '^(nvcc -arch=sm_[0-9]*' "$out/$exercise"/{tiled,rows,local_array,padded}/build.log 2>/dev/null ||
      { echo "FAIL: $exercise: no build.log names its target"; failures=$((failures + 1)); }
  }
  expect_class lab1-registers "labbook::kernels::localArrayRuntime" \
    constant_start global_scratch local_array on_the_fly rotated_weights select_loop shared_array switch_start
  expect_class lab7-stencil "void labbook::kernels::stencilGlobal<false>" atomic_columns columns diluted_columns ignores_pitch \
    interior_only rows shared_tile shuffled_rows
  expect_class lab3-tile "void labbook::kernels::transposeTiled<true>" atomic_reads diluted no_shared padded swizzled unpadded
  expect_class lab6-tiled "void labbook::kernels::MatMulSharedKernel<float>" \
    atomic_reads half_tiles last_k_tile naive no_guards reread_global tiled
  expect "$listing" "bulk_copy_tiles: refused: the submission's device code copies with the Tensor Memory Accelerator"
fi
[ -e "$out/a/grades.csv" ] && { echo "FAIL: --build-only wrote grades"; failures=$((failures + 1)); }
echo "$failures failures"
[ "$failures" -eq 0 ]
