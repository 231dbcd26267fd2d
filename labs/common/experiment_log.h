#pragma once
// What every lab program keeps of its experiments: which ones --only selects, each one's
// median time and verdict as it finishes ("path ok"), and the closing table whose verdicts
// decide the exit code.
#include <cstdio>
#include <string>
#include <vector>

namespace labbook::lab {

class ExperimentLog {
 public:
  /// `only`: run only experiments whose path holds it ("" for all); `launches` per experiment.
  ExperimentLog(std::string only, int launches) : only_(std::move(only)), launches_(launches) {}

  bool selected(const std::string& path) const { return only_.empty() || path.find(only_) != std::string::npos; }

  /// One finished experiment; `bytes` its threads moved per launch (0: no bandwidth column).
  void record(const std::string& path, float median_ms, bool correct, double bytes = 0) {
    results_.push_back({path, median_ms, bytes, correct});
    std::printf("%-32s %s\n", path.c_str(), correct ? "ok" : "WRONG");
    std::fflush(stdout);
  }

  /// Prints every experiment's median time (and GB/s where bytes were given); 0 when every
  /// result was right, else 1.
  int report() const {
    bool bandwidth = false;
    for (const auto& r : results_) bandwidth = bandwidth || r.bytes > 0;
    std::printf("\n%-32s %12s%s  %s\n", "experiment (NVTX range)", "median ms", bandwidth ? "         GB/s" : "", "check");
    int wrong = 0;
    for (const auto& r : results_) {
      std::printf("%-32s %12.4f", r.path.c_str(), r.median_ms);
      if (bandwidth) std::printf(" %12.1f", r.bytes / (r.median_ms * 1e-3) / 1e9);
      std::printf("  %s\n", r.correct ? "ok" : "WRONG");
      wrong += r.correct ? 0 : 1;
    }
    std::printf("\nran %zu experiments, %d launches each; %d wrong\n", results_.size(), launches_, wrong);
    return wrong == 0 ? 0 : 1;
  }

 private:
  struct Result {
    std::string path;
    float median_ms;
    double bytes;
    bool correct;
  };
  std::string only_;
  int launches_;
  std::vector<Result> results_;
};

}  // namespace labbook::lab
