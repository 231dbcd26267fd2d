#pragma once
// What every experiment of lab 2 shares: the options, the --only selection, event timing of
// any GPU work, and the results table the program prints.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "cuda_check.h"
#include "median.h"
#include "nvtx_range.h"

namespace labbook::lab {

struct Options {
  int repeat = 4;                         // timed repetitions of a large copy or a kernel
  std::string only;                       // run only experiments whose range path contains this
  std::size_t max_copy_bytes = 1ull << 30;  // the copy sweep goes 4 KiB, 16 KiB, ... up to this
  unsigned mmm_n = 2048;                  // matrix size of the matrix-product experiment (see lab.toml)
  unsigned products = 10;                 // matrix products per variant, as in the source
  std::size_t max_elements = 1ull << 26;  // the zero-copy sweep goes 1024, 4096, ... up to this
  unsigned um_side = 4096;                // unified memory: side of the square float matrices
  std::uint64_t seed = 2;
};

struct Result {
  std::string path;
  double ms = 0;         // the program's own event timing (median, or the whole run)
  std::string detail;    // e.g. "12.3 GB/s"
  bool correct = true;
};

class Run {
 public:
  explicit Run(Options o) : opt(std::move(o)) {}

  const Options opt;

  bool selected(const std::string& path) const {
    return opt.only.empty() || path.find(opt.only) != std::string::npos;
  }
  /// True when some of `paths` is selected: a group range is opened only then.
  bool any_selected(const std::vector<std::string>& paths) const {
    return std::any_of(paths.begin(), paths.end(), [&](const std::string& p) { return selected(p); });
  }

  void add(Result r) {
    std::printf("%-44s %10.4f ms  %-22s %s\n", r.path.c_str(), r.ms, r.detail.c_str(), r.correct ? "ok" : "WRONG");
    std::fflush(stdout);
    results_.push_back(std::move(r));
  }

  /// Prints the summary; the exit code: 0 when every result was right, else 1.
  int finish() const {
    const auto wrong = std::count_if(results_.begin(), results_.end(), [](const Result& r) { return !r.correct; });
    std::printf("\nran %zu experiments; %ld wrong\n", results_.size(), static_cast<long>(wrong));
    return wrong == 0 ? 0 : 1;
  }

 private:
  std::vector<Result> results_;
};

/// Milliseconds between two events on the default stream around `work`, waiting for the
/// whole device at the end (the source's "GPU time in ms").
template <typename Work>
double event_ms(Work&& work) {
  cudaEvent_t start, stop;
  CUDA_CHECK(cudaEventCreate(&start));
  CUDA_CHECK(cudaEventCreate(&stop));
  CUDA_CHECK(cudaEventRecord(start));
  work();
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaEventRecord(stop));
  CUDA_CHECK(cudaDeviceSynchronize());
  float ms = 0;
  CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
  CUDA_CHECK(cudaEventDestroy(start));
  CUDA_CHECK(cudaEventDestroy(stop));
  return ms;
}

/// Median over `count` runs of event_ms(work).
template <typename Work>
double median_ms(int count, Work&& work) {
  std::vector<double> ms;
  for (int i = 0; i < std::max(1, count); ++i) ms.push_back(event_ms(work));
  return median(ms);
}

/// "12.34 GB/s" for `bytes` moved in `ms`.
inline std::string gb_per_s(double bytes, double ms) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f GB/s", ms > 0 ? bytes / (ms * 1e-3) / 1e9 : 0.0);
  return buf;
}

/// Sizes 4^k x `first` up to `last` inclusive: the sweeps' parameter values.
inline std::vector<std::size_t> powers_of_four(std::size_t first, std::size_t last) {
  std::vector<std::size_t> out;
  for (std::size_t v = first; v <= last; v *= 4) out.push_back(v);
  return out;
}

/// One 64-bit word of the copy pattern: distinct per position and seed, never all-ones.
inline std::uint64_t pattern_word(std::size_t i, std::uint64_t seed) {
  return ((i + 1) * 0x9E3779B97F4A7C15ull) ^ (seed << 1);
}

}  // namespace labbook::lab
