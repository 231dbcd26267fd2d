#pragma once
// What every experiment of lab 7 shares: the options, the --only selection, one checked call
// plus --repeat timed ones inside the experiment's NVTX path, numbers the program reports as
// range payloads, and the closing table.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

#include "cuda_check.h"
#include "experiment_log.h"
#include "kernel_timer.h"
#include "nvtx_range.h"
#include "parallel_check.h"

namespace labbook::lab {

struct Options {
  unsigned width = 1001;    // floats per row of the 2-D image: odd, so packed rows start off sectors
  unsigned height = 8191;   // rows of the image (32 MB of floats)
  unsigned side = 256;      // floats per side of the cudaMemcpy3D volumes (64 MiB)
  int repeat = 4;           // timed calls after the first (checked) one
  std::string only;         // run only experiments whose range path contains this
  std::uint64_t seed = 7;
};

class LabRun {
 public:
  explicit LabRun(const Options& o) : opt(o), log_(o.only, 1 + o.repeat) {}

  const Options opt;

  bool selected(const std::string& path) const { return log_.selected(path); }

  /// Runs `work` 1 + repeat times between events inside NVTX path `path` (the innermost range
  /// carrying `payload` when given), then records check()'s verdict; `bytes` per call for the
  /// printed bandwidth (0: none).
  template <typename Work, typename Check>
  void measure(const std::string& path, double bytes, Work&& work, Check&& check, const double* payload = nullptr) {
    if (!selected(path)) return;
    float ms = 0;
    {
      NvtxPath range = payload ? NvtxPath(path, *payload) : NvtxPath(path);
      ms = median_kernel_ms(1 + opt.repeat, work);
    }
    log_.record(path, ms, check(), bytes);
  }

  /// A number found on the host, reported as range `path`'s payload. `inside` runs inside
  /// the range (the work that belongs to the number, e.g. a copy through a pitch) and returns
  /// whether its results were right.
  template <typename Inside>
  void report(const std::string& path, double payload, const char* unit, Inside&& inside) {
    if (!selected(path)) return;
    bool correct = false;
    {
      NvtxPath range(path, payload);
      correct = inside();
      CUDA_CHECK(cudaDeviceSynchronize());
    }
    std::printf("%-32s = %.17g %s\n", path.c_str(), payload, unit);
    log_.record(path, 0.f, correct);
  }
  void report(const std::string& path, double payload, const char* unit) {
    report(path, payload, unit, [] { return true; });
  }

  /// Records an experiment's verdict for work that ran outside measure() and report().
  void record(const std::string& path, bool correct) { log_.record(path, 0.f, correct); }

  int finish() const { return log_.report(); }

 private:
  ExperimentLog log_;
};

/// True when the `count` values at `got` equal those at `want` bit for bit; otherwise says
/// where on stderr.
template <typename T>
bool same_values(const std::string& what, const T* got, const T* want, std::size_t count) {
  const std::size_t wrong = first_wrong(count, [&](std::size_t i) { return std::memcmp(&got[i], &want[i], sizeof(T)) == 0; });
  if (wrong == count) return true;
  std::fprintf(stderr, "%s: element %zu is %g, expected %g\n", what.c_str(), wrong, static_cast<double>(got[wrong]),
               static_cast<double>(want[wrong]));
  return false;
}

}  // namespace labbook::lab
