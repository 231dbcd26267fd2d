#pragma once
// ExerciseHarness: what every exercise harness (labs/*/exercises/*/harness.cu) does around the
// student's code, so that a score rests on what the hardware did rather than on anything the
// student's code, which runs in this process, could write:
//   - before any student code runs, CUDA is set up and a seccomp filter forbids creating,
//     renaming or deleting files, opening them for writing, new processes and sockets
//     (syscall_filter.h);
//   - a fresh seed per call (the caller fills fresh inputs from it);
//   - each call in its own NVTX range, timed between device-wide synchronisations, so work on
//     any stream (or in child grids) counts;
//   - the persisting L2 carve-out set to zero before each call, and flagged when a call set one;
//   - records for `labbook grade` on the descriptor --records names, written as they happen
//     (grading/harness_records.h: protocol 2): every call, and each student call's output with
//     its seed, which labbook checks itself against inputs it draws again. Without --records
//     the harness checks the outputs itself (exercise_checks.h), for a student running it alone.
// Outputs are poisoned by the caller (DeviceBuffer::poison: 0xFF bytes, NaN for floats).
//
//   harness [--seed S] [--atol A] [--rtol R] [--records FD]
//   exit 0 right, 1 wrong, 2 usage, 3 CUDA error or no filter, 77 no GPU
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "arguments.h"
#include "cuda_check.h"
#include "exercise_checks.h"
#include "nvtx_range.h"
#include "syscall_filter.h"

namespace labbook::lab {

/// Index of the first element of `now` whose bits differ from `before`, if any.
inline std::optional<std::size_t> first_changed(const std::vector<float>& now, const std::vector<float>& before) {
  for (std::size_t i = 0; i < before.size(); ++i)
    if (std::memcmp(&now[i], &before[i], sizeof(float)) != 0) return i;
  return std::nullopt;
}

class ExerciseHarness {
 public:
  /// Reads the arguments; exits 77 without a GPU. Then sets CUDA up (the context, and a
  /// profiler injected into the program with it) and installs the seccomp filter: from here
  /// on nothing in the process creates a file or a process.
  ExerciseHarness(int argc, char** argv, const char* name) {
    Arguments args(argc, argv, name, "[--seed S] [--atol A] [--rtol R] [--records FD]");
    while (args.next()) {
      if (args.flag() == "--seed") seed_ = args.number<std::uint64_t>(0, ~0ull / 2000);
      else if (args.flag() == "--atol") tolerance_.absolute = real(args);
      else if (args.flag() == "--rtol") tolerance_.relative = real(args);
      else if (args.flag() == "--records") records_ = args.number<int>(3, 1023);
      else args.fail("unknown argument '" + args.flag() + "'");
    }
    record("{\"labbook_harness\": " + std::to_string(kHarnessProtocol) + "}\n");
    require_gpu();
    if (const cudaError_t e = cudaFree(nullptr); e != cudaSuccess) setup_failed(std::string("CUDA: ") + cudaGetErrorString(e));
    if (const std::string why = forbid_escapes(); !why.empty()) setup_failed(why);
  }

  const Tolerance& tolerance() const { return tolerance_; }
  /// A new seed for every call: no two calls see the same data.
  std::uint64_t next_seed() { return seed_ * 1000 + ++seeds_; }
  /// The name of the student's next call, numbered as labbook numbers outputs: "call 3 (8192 x 8192)".
  std::string next_student_call(const std::vector<std::uint64_t>& shape) { return call_name(++student_calls_, shape); }

  /// Runs `work` (which launches the student's code, or the reference's) as call `range`:
  /// persisting L2 reset, timed from a device-wide synchronisation to the next, inside NVTX
  /// range `range`, and recorded. A CUDA error ends the run with exit code 3, naming `what`.
  template <class Work>
  void call(const std::string& range, const std::string& what, Work&& work) {
    reset_persisting_l2();
    ok(cudaDeviceSynchronize(), what);
    const auto start = std::chrono::steady_clock::now();
    {
      NvtxPath nvtx(range);
      work();
      ok(cudaGetLastError(), what);
      ok(cudaDeviceSynchronize(), what);
    }
    const std::chrono::duration<double> seconds = std::chrono::steady_clock::now() - start;
    char line[64];
    std::snprintf(line, sizeof line, ", \"seconds\": %.9g}\n", seconds.count());
    record("{\"call\": " + json(range) + line);
    std::size_t carve_out = 0;
    if (cudaDeviceGetLimit(&carve_out, cudaLimitPersistingL2CacheSize) == cudaSuccess && carve_out > 0 &&
        !flagged_persisting_l2_) {
      flagged_persisting_l2_ = true;
      record("{\"flag\": \"persisting_l2\", \"message\": " +
             json(what + " set aside " + std::to_string(carve_out >> 10) +
                  " KiB of L2 for persisting accesses: data kept there does not come from DRAM") +
             "}\n");
    }
    cudaGetLastError();
  }

  /// Sends the output of the student's call just made (named by next_student_call), its
  /// inputs drawn from `seed`, of size `shape`, for labbook to check. `check()` is the
  /// harness's own check ("" or the problem), run only for a student running it alone: under
  /// `labbook grade` (--records) labbook checks, and checking twice would only cost time.
  template <class Check>
  void output(std::uint64_t seed, const std::vector<std::uint64_t>& shape, const std::vector<float>& values, Check&& check) {
    if (records_ < 0) {
      if (const std::string problem = check(); !problem.empty() && local_problem_.empty())
        local_problem_ = call_name(student_calls_, shape) + ": " + problem;
      return;
    }
    std::string head = "{\"output\": " + std::to_string(seed) + ", \"shape\": [";
    for (std::size_t i = 0; i < shape.size(); ++i) head += (i ? ", " : "") + std::to_string(shape[i]);
    record(head + "], \"bytes\": " + std::to_string(values.size() * sizeof(float)) + "}\n");
    record(values.data(), values.size() * sizeof(float));
  }

  /// Something the harness saw wrong that labbook cannot see from the outputs (an input
  /// changed): recorded, and the run is wrong.
  void wrong(const std::string& problem) {
    record("{\"problem\": " + json(problem) + "}\n");
    if (local_problem_.empty()) local_problem_ = problem;
  }

  /// Ends the records, prints the harness's own verdict (under `labbook grade`, only what it saw
  /// itself: labbook judges the outputs), and returns the exit code.
  int finish() {
    record("{\"end\": true}\n");
    const char* verdict = records_ >= 0 ? "done: labbook checks the outputs" : "correct";
    std::printf("%s\n", local_problem_.empty() ? verdict : local_problem_.c_str());
    return local_problem_.empty() ? 0 : 1;
  }

  /// Ends the run for a CUDA error (a crash, an access the driver caught, a kernel stopped).
  void ok(cudaError_t e, const std::string& what) {
    if (e == cudaSuccess) return;
    const std::string problem = what + ": CUDA error: " + cudaGetErrorString(e);
    record("{\"problem\": " + json(problem) + "}\n");
    std::fprintf(stderr, "%s\n", problem.c_str());
    std::exit(3);
  }

 private:
  /// CUDA or the filter could not be set up, before any student code ran: labbook's trouble.
  [[noreturn]] void setup_failed(const std::string& why) {
    record("{\"setup_failed\": " + json(why) + "}\n");
    std::fprintf(stderr, "harness: %s\n", why.c_str());
    std::exit(3);
  }

  static double real(Arguments& args) {
    const char* text = args.value();
    char* end = nullptr;
    const double v = std::strtod(text, &end);
    if (!*text || *end || !(v >= 0)) args.fail(args.flag() + ": expected a number >= 0, got '" + text + "'");
    return v;
  }

  /// No L2 set aside for persisting lines, and no access-policy window on the default stream.
  /// The reset runs GPU work of the driver's own (the collector stops counting around it),
  /// so it is done only when a carve-out exists: an honest call pays nothing.
  static void reset_persisting_l2() {
    std::size_t carve_out = 0;
    if (cudaDeviceGetLimit(&carve_out, cudaLimitPersistingL2CacheSize) == cudaSuccess && carve_out > 0) {
      cudaCtxResetPersistingL2Cache();
      cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 0);
    }
    cudaStreamAttrValue none{};
    cudaStreamSetAttribute(0, cudaStreamAttributeAccessPolicyWindow, &none);
    cudaGetLastError();   // a GPU without persisting L2 refuses these: nothing to reset
  }

  static std::string json(const std::string& s) {
    std::string out = "\"";
    for (char c : s) {
      if (c == '"' || c == '\\') out += '\\';
      out += static_cast<unsigned char>(c) < 0x20 ? ' ' : c;
    }
    return out + "\"";
  }

  void record(const std::string& line) { record(line.data(), line.size()); }
  /// Writes it all to the records descriptor, if there is one; a reader gone is labbook's
  /// business (it judges what it got), never a reason to stop.
  void record(const void* data, std::size_t size) {
    if (records_ < 0) return;
    const char* p = static_cast<const char*>(data);
    while (size > 0) {
      const ssize_t n = ::write(records_, p, size);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return;
      p += n;
      size -= static_cast<std::size_t>(n);
    }
  }

  std::uint64_t seed_ = 1, seeds_ = 0;
  Tolerance tolerance_;
  int records_ = -1;
  int student_calls_ = 0;
  bool flagged_persisting_l2_ = false;
  std::string local_problem_;
};

/// The calls of an exercise on one array of n elements (labs 1 and 4): two odd sizes, then
/// three timed calls of the student's kernel at 2^22 each beside the lab's reference kernel on
/// data of its own, then one more odd size (still right after the timed calls). The range
/// names are those the exercise's measured_range and reference_range name.
template <typename StudentCall, typename ReferenceCall>
int run_array_calls(ExerciseHarness& h, StudentCall student_call, ReferenceCall reference_call) {
  student_call(h, "student/n=1000003", 1000003u);
  student_call(h, "student/n=4194321", 4194304u + 17u);
  for (int i = 1; i <= 3; ++i) {
    student_call(h, "student/n=4194304/" + std::to_string(i), 4194304u);
    reference_call(h, "reference/n=4194304/" + std::to_string(i), 4194304u);
  }
  student_call(h, "student/n=999999", 999999u);
  return h.finish();
}

}  // namespace labbook::lab
