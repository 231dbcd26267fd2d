#pragma once
// ExerciseHarness: what every exercise harness (labs/*/exercises/*/harness.cu) does around the
// student's code, so that a score rests on what the hardware did rather than on what a timer
// or a stale buffer showed:
//   - a fresh seed per call (the caller fills fresh inputs from it and keeps a private host
//     copy for its double-precision reference);
//   - each call in its own NVTX range, timed between device-wide synchronisations, so work on
//     any stream (or in child grids) counts;
//   - the persisting L2 carve-out set to zero before each call, and flagged when a call set one;
//   - result.json for `labbook grade`: the verdict, every call (range, time, the bytes the
//     problem must move), and what was flagged.
// Outputs are poisoned by the caller (DeviceBuffer::poison: 0xFF bytes, NaN for floats).
//
//   harness [--seed S] [--atol A] [--rtol R]   exit 0 right, 1 wrong, 2 usage, 3 CUDA error, 77 no GPU
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "arguments.h"
#include "cuda_check.h"
#include "nvtx_range.h"

namespace labbook::lab {

/// How far a result may be from the double-precision reference: |got - want| <= absolute +
/// relative * |want|. NaN and infinities never pass (the poison is NaN).
struct Tolerance {
  double absolute = 0, relative = 0;
  bool accepts(double got, double want) const {
    return std::isfinite(got) && std::fabs(got - want) <= absolute + relative * std::fabs(want);
  }
};

/// Index of the first element of `got` outside `tolerance` of the reference `want(i)`, a
/// double computed on the host from the caller's private copy of the inputs.
template <class Reference>
std::optional<std::size_t> first_wrong(const std::vector<float>& got, const Tolerance& tolerance, Reference want) {
  for (std::size_t i = 0; i < got.size(); ++i)
    if (!tolerance.accepts(got[i], want(i))) return i;
  return std::nullopt;
}

/// Index of the first element of `now` whose bits differ from `before`, if any.
inline std::optional<std::size_t> first_changed(const std::vector<float>& now, const std::vector<float>& before) {
  for (std::size_t i = 0; i < before.size(); ++i)
    if (std::memcmp(&now[i], &before[i], sizeof(float)) != 0) return i;
  return std::nullopt;
}

/// "0.123456791" or, for an element still holding the poison, what that means.
inline std::string describe_value(float v) {
  std::uint32_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  if (bits == 0xFFFFFFFFu) return "never written (it still holds the poison the harness filled it with)";
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

class ExerciseHarness {
 public:
  /// Reads --seed, --atol and --rtol (the rubric's tolerances); exits 77 without a GPU.
  ExerciseHarness(int argc, char** argv, const char* name) {
    Arguments args(argc, argv, name, "[--seed S] [--atol A] [--rtol R]");
    while (args.next()) {
      if (args.flag() == "--seed") seed_ = args.number<std::uint64_t>(0, ~0ull);
      else if (args.flag() == "--atol") tolerance_.absolute = real(args);
      else if (args.flag() == "--rtol") tolerance_.relative = real(args);
      else args.fail("unknown argument '" + args.flag() + "'");
    }
    require_gpu();
  }

  const Tolerance& tolerance() const { return tolerance_; }
  /// A new seed for every call: no two calls see the same data.
  std::uint64_t next_seed() { return seed_ * 1000 + ++seeds_; }

  /// The bytes a call's problem must move through DRAM at least (inputs read once, outputs
  /// written once), for labbook grade's compulsory-traffic check; 0 when not checked.
  struct Traffic {
    double read = 0, written = 0;
  };

  /// Runs `work` (which launches the student's code) as call `range`: persisting L2 reset,
  /// timed from a device-wide synchronisation to the next, inside NVTX range `range`. A CUDA
  /// error ends the run with exit code 3, naming `what`.
  template <class Work>
  void call(const std::string& range, const std::string& what, Traffic traffic, Work&& work) {
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
    calls_.push_back({range, seconds.count(), traffic});
    std::size_t carve_out = 0;
    if (cudaDeviceGetLimit(&carve_out, cudaLimitPersistingL2CacheSize) == cudaSuccess && carve_out > 0)
      flag("persisting_l2", what + " set aside " + std::to_string(carve_out >> 10) +
                                " KiB of L2 for persisting accesses: data kept there does not come from DRAM");
    cudaGetLastError();
  }

  /// Records that the results are wrong; the first reason is the one reported.
  void wrong(const std::string& problem) {
    if (problem_.empty()) problem_ = problem;
  }
  bool right() const { return problem_.empty(); }

  /// Writes result.json, prints the verdict, and returns the exit code.
  int finish() {
    write_result();
    std::printf("%s\n", right() ? "correct" : problem_.c_str());
    return right() ? 0 : 1;
  }

  /// Ends the run for a CUDA error (a crash, an access the driver caught, a kernel stopped).
  void ok(cudaError_t e, const std::string& what) {
    if (e == cudaSuccess) return;
    wrong(what + ": CUDA error: " + cudaGetErrorString(e));
    std::fprintf(stderr, "%s\n", problem_.c_str());
    write_result();
    std::exit(3);
  }

 private:
  struct Call {
    std::string range;
    double seconds;
    Traffic traffic;
  };
  struct Flag {
    std::string code, message;
  };

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

  void flag(const std::string& code, const std::string& message) {
    for (const auto& f : flags_)
      if (f.code == code) return;
    flags_.push_back({code, message});
  }

  static std::string json(const std::string& s) {
    std::string out = "\"";
    for (char c : s) {
      if (c == '"' || c == '\\') out += '\\';
      out += static_cast<unsigned char>(c) < 0x20 ? ' ' : c;
    }
    return out + "\"";
  }

  void write_result() const {
    FILE* f = std::fopen("result.json", "w");
    if (!f) return;
    std::fprintf(f, "{\"version\": 1, \"correct\": %s, \"problem\": %s,\n \"calls\": [", right() ? "true" : "false",
                 json(problem_).c_str());
    for (std::size_t i = 0; i < calls_.size(); ++i)
      std::fprintf(f, "%s\n  {\"range\": %s, \"seconds\": %.9g, \"compulsory_read_bytes\": %.17g, \"compulsory_write_bytes\": %.17g}",
                   i ? "," : "", json(calls_[i].range).c_str(), calls_[i].seconds, calls_[i].traffic.read,
                   calls_[i].traffic.written);
    std::fprintf(f, "],\n \"flags\": [");
    for (std::size_t i = 0; i < flags_.size(); ++i)
      std::fprintf(f, "%s{\"code\": %s, \"message\": %s}", i ? ", " : "", json(flags_[i].code).c_str(),
                   json(flags_[i].message).c_str());
    std::fprintf(f, "]}\n");
    std::fclose(f);
  }

  std::uint64_t seed_ = 1, seeds_ = 0;
  Tolerance tolerance_;
  std::string problem_;
  std::vector<Call> calls_;
  std::vector<Flag> flags_;
};

}  // namespace labbook::lab
