// What a metrics run after the trace run costs labbook besides the program: its measurement
// written (by the collector), read and merged into the trace run's (by labbook), once with
// every launch and once with the profiled kernels alone (Measurement::launch_tally), in the
// same build. The metrics run of 20 launches is made from the trace run's measurement.
//   metrics_handoff_probe TRACE_MEASUREMENT WORK_DIR [ROUNDS]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "labbook/model/error.h"
#include "labbook/model/measurement_json.h"
#include "labbook/model/merge.h"

using namespace labbook;

namespace {

// 20 launches across two NVTX ranges (the synthetic run's ranges hold 1,000): their ordinals
// are not their places among the profiled kernels.
constexpr std::size_t kFirstProfiled = 990, kProfiled = 20;

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

/// The metrics run as the collector writes it: kernels without the trace's times, 20 with a
/// metric; with `profiled_only`, only those 20, numbered, and the tally of every launch.
Measurement metrics_run(const Measurement& trace, bool profiled_only) {
  Measurement m;
  m.program = trace.program;
  m.devices = trace.devices;
  m.metrics_requested = {"dram__bytes_read.sum"};
  std::map<std::pair<std::string, std::string>, std::uint64_t> launched;
  if (profiled_only) m.launch_tally.emplace();
  for (std::size_t i = 0; i < trace.kernels.size(); ++i) {
    Kernel k = trace.kernels[i];
    k.start_ns.reset(), k.end_ns.reset();
    const bool profiled = i >= kFirstProfiled && i < kFirstProfiled + kProfiled;
    if (profiled) k.metrics["dram__bytes_read.sum"] = 1e6 + static_cast<double>(i);
    std::uint64_t& before = launched[{k.range, k.mangled}];
    if (profiled_only) k.ordinal = before;
    if (profiled || !profiled_only) m.kernels.push_back(std::move(k));
    ++before;
  }
  if (profiled_only)
    for (const auto& [key, count] : launched) m.launch_tally->push_back({key.first, key.second, count});
  return m;
}

struct Costs {
  double write = 0, read = 0, merge = 0;
  std::vector<std::pair<std::size_t, double>> attached;   // (trace kernel, metric value)
  std::size_t issues = 0;
};

Costs hand_off(const Measurement& trace, const Measurement& metrics, const std::string& path) {
  Costs c;
  auto start = std::chrono::steady_clock::now();
  write_measurement(metrics, path);
  c.write = seconds_since(start);
  start = std::chrono::steady_clock::now();
  const Measurement back = read_measurement(path);
  c.read = seconds_since(start);
  Measurement into = trace;
  start = std::chrono::steady_clock::now();
  const Measurement merged = merge_runs(std::move(into), back);
  c.merge = seconds_since(start);
  for (std::size_t i = 0; i < merged.kernels.size(); ++i)
    for (const auto& [name, value] : merged.kernels[i].metrics) c.attached.emplace_back(i, value);
  c.issues = merged.issues.size();
  return c;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3 || argc > 4) {
    std::fprintf(stderr, "usage: metrics_handoff_probe TRACE_MEASUREMENT WORK_DIR [ROUNDS]\n");
    return 2;
  }
  const int rounds = argc == 4 ? std::atoi(argv[3]) : 7;
  if (rounds < 1) {
    std::fprintf(stderr, "metrics_handoff_probe: ROUNDS '%s': expected a whole number, 1 or more\n", argv[3]);
    return 2;
  }
  try {
    const Measurement trace = read_measurement(argv[1]);
    const std::string path = std::string(argv[2]) + "/metrics-run.json";
    const Measurement every = metrics_run(trace, false), profiled = metrics_run(trace, true);
    std::vector<double> times[2];
    Costs last[2];
    for (int r = 0; r < rounds; ++r)   // alternating, so that both share the machine's load
      for (int form = 0; form < 2; ++form) {
        last[form] = hand_off(trace, form ? profiled : every, path);
        times[form].push_back(last[form].write + last[form].read + last[form].merge);
      }
    std::printf("%zu launches, %zu profiled; median of %d rounds, alternating\n", trace.kernels.size(), kProfiled, rounds);
    std::printf("| metrics run carries | write, read, merge (last round, ms) | in all (ms) | kernels with metrics | issues |\n");
    std::printf("|---|---|---|---|---|\n");
    for (int form = 0; form < 2; ++form)
      std::printf("| %s | %.1f, %.1f, %.1f | %.1f | %zu | %zu |\n", form ? "the profiled kernels" : "every launch",
                  1e3 * last[form].write, 1e3 * last[form].read, 1e3 * last[form].merge, 1e3 * median(times[form]),
                  last[form].attached.size(), last[form].issues);
    std::printf("profiled / every launch: %.3f\n", median(times[1]) / median(times[0]));
    const bool same = last[0].attached == last[1].attached && last[0].issues == last[1].issues;
    std::printf("%s\n", same ? "the same merged metrics either way" : "the two forms merged differently");
    return same ? 0 : 1;
  } catch (const Error& e) {
    std::fprintf(stderr, "metrics_handoff_probe: %s\n", e.what());
    return 1;
  }
}
