// Compares the collector's per-kernel metrics with Nsight Compute's on the same program.
//   compare_with_ncu --metrics MEASUREMENT.json          prints the CUPTI metric list (for ncu)
//   compare_with_ncu MEASUREMENT.json NCU.csv [TOL]      compares, kernel by kernel in launch order
// NCU.csv: `ncu --csv --page raw --print-units base --metrics <list>`. Each metric has a limit
// by what it depends on (limit_for below):
//   1 % (TOL)  what the access pattern alone decides: sectors, requests, wavefronts,
//              instructions, efficiencies, L1 hit rate, DRAM bytes read;
//   5 %        time and clock: durations, cycles, anything per second or a share of peak
//              over the elapsed time (clocks are not locked in either tool), and achieved
//              occupancy, an average over the kernel's cycles of the warps resident, which
//              depends on when each block finishes (1.16 % apart once on lab 4);
//   10 %       what the state of L2 and the data banks decides when the kernel starts, with
//              caches not flushed (neither CUPTI 13.0 nor ncu --cache-control none flushes):
//              DRAM bytes written (dirty lines written back during the kernel), L2 hit rate,
//              and shared-memory bank conflicts, which on sm_90 also count cycles a bank was
//              busy with other L1 traffic. Identical launches differ by a few % in one tool.
// Prints a table of the largest differences per metric; exit 0 pass, 1 fail.
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "labbook/model/error.h"
#include "labbook/model/measurement_json.h"
#include "labbook/model/text.h"

namespace {

std::vector<std::string> csv_fields(const std::string& line) {
  std::vector<std::string> out;
  std::string field;
  bool quoted = false;
  for (char c : line) {
    if (c == '"') quoted = !quoted;
    else if (c == ',' && !quoted) {
      out.push_back(field);
      field.clear();
    } else field += c;
  }
  out.push_back(field);
  return out;
}

double number(std::string text) {
  std::string digits;
  for (char c : text)
    if (c != ',') digits += c;   // ncu prints thousands separators
  return std::stod(digits);
}

bool starts_with(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }
bool contains(const std::string& s, const char* part) { return s.find(part) != std::string::npos; }

/// The agreement limit for `metric` (see the file comment).
double limit_for(const std::string& metric, double tolerance) {
  if (starts_with(metric, "dram__bytes_write") || starts_with(metric, "lts__t_sector_hit_rate") ||
      starts_with(metric, "l1tex__data_bank_conflicts"))
    return 0.10;
  if (starts_with(metric, "gpu__time_duration") || starts_with(metric, "gpc__cycles_elapsed") ||
      starts_with(metric, "sm__warps_active") || contains(metric, "per_second") ||
      contains(metric, "pct_of_peak_sustained_elapsed"))
    return 0.05;
  return tolerance;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    if (argc == 3 && std::string(argv[1]) == "--metrics") {
      const auto m = labbook::read_measurement(argv[2]);
      std::printf("%s\n", labbook::join(m.metrics_requested, ",").c_str());
      return 0;
    }
    if (argc < 3) {
      std::fprintf(stderr, "usage: compare_with_ncu MEASUREMENT.json NCU.csv [TOLERANCE]\n");
      return 2;
    }
    const double tolerance = argc > 3 ? std::stod(argv[3]) : 0.01;
    const auto m = labbook::read_measurement(argv[1]);
    std::ifstream in(argv[2]);
    std::string line;
    std::vector<std::string> header;
    std::vector<std::map<std::string, std::string>> rows;
    while (std::getline(in, line)) {
      if (line.rfind("\"ID\"", 0) == 0) header = csv_fields(line);
      else if (!header.empty() && line.rfind("\"", 0) == 0) {
        const auto f = csv_fields(line);
        if (f.size() != header.size() || f[0].empty()) continue;   // the units row
        std::map<std::string, std::string> row;
        for (std::size_t i = 0; i < f.size(); ++i) row[header[i]] = f[i];
        rows.push_back(std::move(row));
      }
    }
    if (rows.empty()) throw labbook::Error(std::string(argv[2]) + ": no kernel rows (is it ncu --csv --page raw output?)");
    if (rows.size() != m.kernels.size())
      throw labbook::Error("ncu profiled " + std::to_string(rows.size()) + " kernels, labbook " + std::to_string(m.kernels.size()));

    struct Worst { double rel = 0; std::size_t launch = 0; double ours = 0, theirs = 0; std::size_t n = 0; };
    std::map<std::string, Worst> worst;
    int failures = 0;
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const auto& k = m.kernels[i];
      for (const auto& metric : m.metrics_requested) {
        auto ours = k.metrics.find(metric);
        auto theirs = rows[i].find(metric);
        if (ours == k.metrics.end() || theirs == rows[i].end() || theirs->second.empty()) {
          std::printf("FAIL launch %zu: %s missing (%s)\n", i, metric.c_str(), ours == k.metrics.end() ? "labbook" : "ncu");
          ++failures;
          continue;
        }
        const double t = number(theirs->second), o = ours->second;
        const double rel = std::fabs(o - t) / std::max(std::fabs(t), 1e-12);
        const bool ok = (std::fabs(o - t) < 1e-9) || rel <= limit_for(metric, tolerance);
        if (!ok) ++failures;
        auto& w = worst[metric];
        ++w.n;
        if (rel >= w.rel) w = {rel, i, o, t, w.n};
      }
    }
    std::printf("| metric | kernels | worst difference | at launch | labbook | ncu | limit |\n|---|---|---|---|---|---|---|\n");
    for (const auto& [metric, w] : worst)
      std::printf("| %s | %zu | %.3f %% | %zu | %.6g | %.6g | %.0f %% |\n", metric.c_str(), w.n, 100 * w.rel, w.launch,
                  w.ours, w.theirs, 100 * limit_for(metric, tolerance));
    std::printf("%d values outside their limit\n", failures);
    return failures == 0 ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "compare_with_ncu: %s\n", e.what());
    return 1;
  }
}
