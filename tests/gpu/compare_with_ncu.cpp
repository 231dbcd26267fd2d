// Compares the collector's per-kernel metrics with Nsight Compute's on the same program.
//   compare_with_ncu --metrics MEASUREMENT.json          prints the CUPTI metric list (for ncu)
//   compare_with_ncu MEASUREMENT.json NCU.csv [TOL]      compares kernel by kernel: the n-th launch
//                                                         of a (mangled) name with ncu's n-th
// NCU.csv needs `--print-kernel-base mangled`. Matching by name and count rather than by row
// keeps the independent branches of a graph, which may run in either order, apart.
// When the measurement says cache_control "all" (L2 flushed before every kernel in both
// tools), what L2 holds no longer varies: DRAM bytes written get the 1 % limit and the L2
// hit rate must agree within 1 percentage point.
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

/// The agreement limit for `metric` (see the file comment), relative, except for
/// percentages compared in points (is_points).
double limit_for(const std::string& metric, double tolerance, bool cold_l2) {
  if (cold_l2 && starts_with(metric, "dram__bytes_write")) return tolerance;
  if (cold_l2 && starts_with(metric, "lts__t_sector_hit_rate")) return 1.0;   // percentage points
  if (starts_with(metric, "dram__bytes_write") || starts_with(metric, "lts__t_sector_hit_rate") ||
      starts_with(metric, "l1tex__data_bank_conflicts"))
    return 0.10;
  if (starts_with(metric, "gpu__time_duration") || starts_with(metric, "gpc__cycles_elapsed") ||
      starts_with(metric, "sm__warps_active") || contains(metric, "per_second") ||
      contains(metric, "pct_of_peak_sustained_elapsed"))
    return 0.05;
  return tolerance;
}

bool is_points(const std::string& metric, bool cold_l2) {
  return cold_l2 && starts_with(metric, "lts__t_sector_hit_rate");
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
    const bool cold_l2 = m.cache_control == "all";
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
    // ncu's row for each labbook kernel: the same occurrence of the same mangled name.
    std::map<std::string, std::vector<std::size_t>> ncu_rows_by_name;
    for (std::size_t r = 0; r < rows.size(); ++r) ncu_rows_by_name[rows[r]["Kernel Name"]].push_back(r);
    std::map<std::string, std::size_t> seen;
    std::vector<std::size_t> row_of(m.kernels.size());
    for (std::size_t i = 0; i < m.kernels.size(); ++i) {
      const auto& candidates = ncu_rows_by_name[m.kernels[i].mangled];
      const std::size_t n = seen[m.kernels[i].mangled]++;
      if (n >= candidates.size())
        throw labbook::Error("labbook's launch " + std::to_string(i) + " (" + m.kernels[i].mangled +
                             ") has no counterpart in ncu's output");
      row_of[i] = candidates[n];
    }

    struct Worst { double rel = 0; std::size_t launch = 0; double ours = 0, theirs = 0; std::size_t n = 0; };
    std::map<std::string, Worst> worst;
    int failures = 0;
    for (std::size_t i = 0; i < m.kernels.size(); ++i) {
      const auto& k = m.kernels[i];
      for (const auto& metric : m.metrics_requested) {
        auto ours = k.metrics.find(metric);
        const auto& row = rows[row_of[i]];
        auto theirs = row.find(metric);
        // A ratio over nothing (say, store efficiency of a kernel without stores) has no
        // value: labbook leaves it out, ncu prints nothing, "n/a" or 0.
        const bool theirs_empty = theirs == row.end() || theirs->second.empty() ||
                                  theirs->second.find_first_of("0123456789") == std::string::npos ||
                                  number(theirs->second) == 0;
        if (ours == k.metrics.end() && theirs_empty) continue;
        if (ours == k.metrics.end() || theirs == row.end() || theirs->second.empty()) {
          std::printf("FAIL launch %zu: %s missing (%s)\n", i, metric.c_str(), ours == k.metrics.end() ? "labbook" : "ncu");
          ++failures;
          continue;
        }
        const double t = number(theirs->second), o = ours->second;
        const bool points = is_points(metric, cold_l2);
        const double rel = points ? std::fabs(o - t) : std::fabs(o - t) / std::max(std::fabs(t), 1e-12);
        const bool ok = (std::fabs(o - t) < 1e-9) || rel <= limit_for(metric, tolerance, cold_l2);
        if (!ok) ++failures;
        auto& w = worst[metric];
        ++w.n;
        if (rel >= w.rel) w = {rel, i, o, t, w.n};
      }
    }
    std::printf("cache control: %s\n", m.cache_control.empty() ? "none" : m.cache_control.c_str());
    std::printf("| metric | kernels | worst difference | at launch | labbook | ncu | limit |\n|---|---|---|---|---|---|---|\n");
    for (const auto& [metric, w] : worst) {
      if (is_points(metric, cold_l2))
        std::printf("| %s | %zu | %.3f points | %zu | %.6g | %.6g | %.0f point |\n", metric.c_str(), w.n, w.rel,
                    w.launch, w.ours, w.theirs, limit_for(metric, tolerance, cold_l2));
      else
        std::printf("| %s | %zu | %.3f %% | %zu | %.6g | %.6g | %.0f %% |\n", metric.c_str(), w.n, 100 * w.rel,
                    w.launch, w.ours, w.theirs, 100 * limit_for(metric, tolerance, cold_l2));
    }
    std::printf("%d values outside their limit\n", failures);
    return failures == 0 ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "compare_with_ncu: %s\n", e.what());
    return 1;
  }
}
