// Compares the collector's per-kernel metrics with Nsight Compute's on the same program.
//   compare_with_ncu --metrics MEASUREMENT.json          prints the CUPTI metric list (for ncu)
//   compare_with_ncu MEASUREMENT.json NCU.csv [TOL]      compares kernel by kernel: the n-th launch
//                                                         of a (mangled) name and grid with ncu's n-th
// NCU.csv needs `--print-kernel-base mangled`. Matching by name and count rather than by row
// keeps the independent branches of a graph, which may run in either order, apart.
// When the measurement says cache_control "all" (L2 flushed before every kernel in both
// tools), every kernel starts cold. Measured on the H100 (docs/metrics.md): DRAM bytes agree
// within 1 % for most kernels, but a kernel storing partial sectors (the naive transpose)
// reads and writes up to its stored bytes more under labbook (on an H200, it read up to
// 0.77 MB less than ncu instead), a kernel may write up to 2.7 MB less (one writing more than
// L2 holds, or beside a persisting-L2 set-aside), and short kernels ran up to 18 % longer. So
// DRAM bytes may exceed ncu's by at most the bytes the kernel stored, fall short by as much
// (writes: at most 4 MB), the L2 hit rate (each of its two
// passes a run of its own, started cold) must be within 1 percentage point plus what
// explained_points() finds in L2's lookups, and everything timed (durations, cycles,
// per-second rates) is shown, not compared.
// LABBOOK_COUNTERS_ONLY=1 shows DRAM, L2 and times without comparing them (a managed-memory
// program: ncu's replay migrates its pages before the kernel, a real run migrates them in it).
// NCU.csv: `ncu --csv --page raw --print-units base --metrics <list>`. Each metric has a limit
// by what it depends on (limit_for below):
//   1 % (TOL)  what the access pattern alone decides: sectors, requests, wavefronts,
//              instructions, efficiencies, DRAM bytes read;
//   5 %        time and clock: durations, cycles, anything per second or a share of peak
//              over the elapsed time (clocks are not locked in either tool);
//   10 %       what the state of L2 and the data banks decides when the kernel starts, with
//              caches not flushed (neither CUPTI 13.0 nor ncu --cache-control none flushes):
//              DRAM bytes written (dirty lines written back during the kernel), L1 and L2
//              hit rates (store lookups hit or miss as warps interleave), L2's bytes (the
//              other partition's traffic included, which follows where lines are: 1.56 %
//              apart on the 8192² transposes in kernel replay, H200), the sectors L1
//              reads from L2 (its misses), and shared-memory
//              bank conflicts, which on sm_90 also count cycles a bank was
//              busy with other L1 traffic. Identical launches differ by a few % in one tool.
//              Also achieved occupancy, an average over the kernel's cycles of the warps
//              resident, which depends on when each block finishes: 1.16 % apart once on lab
//              4 (H100), up to 5.8 % on 5 µs kernels of 1024² matrices (H200, 2026-11-27),
//              25.5 % once on the first launch of the 1024² copy kernel (25 µs) in kernel
//              replay, where 8 reruns on two builds passed (H200, 2026-11-28).
// Prints a table of the largest differences per metric, then each failing metric launch by
// launch; exit 0 pass, 1 fail.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "labbook/model/error.h"
#include "labbook/model/measurement_json.h"
#include "ncu_csv.h"
#include "labbook/model/text.h"

namespace {

using labbook::test::csv_fields;

double number(std::string text) {
  std::string digits;
  for (char c : text)
    if (c != ',') digits += c;   // ncu prints thousands separators
  return std::stod(digits);
}

bool starts_with(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }
bool contains(const std::string& s, const char* part) { return s.find(part) != std::string::npos; }

/// How one metric is compared (see the file comment).
struct Limit {
  enum class Rule { Relative, Points, RangeEnd, NotCompared } rule = Rule::Relative;
  double value = 0;   // relative limit, or percentage points
  std::string describe() const {
    switch (rule) {
      case Rule::Relative: return std::to_string(static_cast<int>(100 * value)) + " %";
      case Rule::Points: {
        char text[32];
        std::snprintf(text, sizeof text, "%.2f points", value);
        return text;
      }
      case Rule::RangeEnd: return "within bytes stored";
      case Rule::NotCompared: return "shown only";
    }
    return "";
  }
};

bool time_like(const std::string& metric) {
  return starts_with(metric, "gpu__time_duration") || starts_with(metric, "gpc__cycles_elapsed.max") ||
         contains(metric, "per_second") || contains(metric, "pct_of_peak_sustained_elapsed");
}

Limit limit_for(const std::string& metric, double tolerance, bool cold_l2, bool counters_only) {
  using R = Limit::Rule;
  const bool dram_bytes = metric == "dram__bytes_read.sum" || metric == "dram__bytes_write.sum";
  if (counters_only && (starts_with(metric, "dram__") || starts_with(metric, "lts__") || time_like(metric)))
    return {R::NotCompared, 0};
  if (cold_l2) {
    // Labbook's flush does not leave L2 exactly as ncu's does (see the file comment).
    if (dram_bytes) return {R::RangeEnd, tolerance};
    // Every pass of the hit rate's two starts cold, a run each, as in ncu: 1 point, plus what
    // explained_points() finds for the kernel. L2's raw lookups show where the rest comes from.
    if (starts_with(metric, "lts__t_sector_hit_rate")) return {R::Points, 1};
    // L2's bytes are its sectors x 32, every unit's, the other partition's included (above).
    if (starts_with(metric, "lts__t_sectors") || metric == "lts__t_bytes.sum" || starts_with(metric, "dram__") ||
        time_like(metric))
      return {R::NotCompared, 0};
  }
  // The L1 hit rate counts store lookups too, whose hits depend on how warps interleave: the
  // naive transpose of 1024² floats was 4 % and 5.6 % apart in two runs with L2 flushed. The
  // sectors L1 reads from L2 are its misses, so they vary with it (not yet compared on the GPU).
  if (starts_with(metric, "dram__bytes_write") || starts_with(metric, "lts__t_sector_hit_rate") ||
      starts_with(metric, "l1tex__data_bank_conflicts") || starts_with(metric, "l1tex__t_sector_hit_rate") ||
      starts_with(metric, "lts__t_sectors_srcunit_tex_op_read") || starts_with(metric, "sm__warps_active") ||
      metric == "lts__t_bytes.sum")
    return {R::Relative, 0.10};
  if (time_like(metric) || starts_with(metric, "gpc__cycles_elapsed"))
    return {R::Relative, 0.05};
  return {R::Relative, tolerance};
}

/// Percentage points of L2 hit rate that a kernel's counters explain, when the run collected
/// lts__t_sectors.sum and its lookup hits and misses (ncu_agreement.sh's
/// LABBOOK_AGREEMENT_EXTRA), measured on the H100 (docs/metrics.md):
/// - a tool's passes that count hits and misses saw more or fewer lookups than its pass
///   counting sectors (ncu: hits + misses > sectors by 3 500 to 10 000 on 1024^2 transposes,
///   all of them arriving from the other L2 partition over ltcfabric, and all hits, where the
///   SMs' own lookups (srcunit tex) were identical in both tools: traffic that is not the
///   kernel's; lab 4's scattered read through L2, H200: ncu's hits + misses 0.82 million
///   short of its sectors, labbook's 1.1 million over, 10 points apart): each tool's own
///   disagreement between its passes counts;
/// - the lookups arriving from the other partition themselves (srcunit_ltcfabric, with
///   lts__t_sectors_srcunit_ltcfabric_lookup_hit.sum collected) hit more often in one tool than
///   in the other where a kernel's footprint is near L2's size: lab 4's two-segment stores,
///   27 000 more fabric hits under ncu (1.0 to 1.4 points, three runs, H100, 2026-11-27), while
///   the SMs' own lookups agreed; the larger of the two fabric shares counts, not both;
/// - labbook reads more from DRAM than ncu for partial-sector writes (the DRAM rule above),
///   each extra sector a lookup that missed.
double explained_points(const std::map<std::string, double>& ours, const std::map<std::string, std::string>& theirs) {
  const auto get = [](const auto& values, const char* metric, auto convert) -> double {
    const auto it = values.find(metric);
    return it == values.end() ? 0.0 : convert(it->second);
  };
  const auto same = [](double v) { return v; };
  const auto parse = [](const std::string& v) { return v.empty() ? 0.0 : number(v); };
  const double sectors = get(theirs, "lts__t_sectors.sum", parse);
  if (sectors <= 0) return 0;
  // Hits + misses against sectors, in one tool: how far its passes disagree with one another.
  const auto pass_disagreement = [&](const auto& values, auto convert) {
    const double counted = get(values, "lts__t_sectors.sum", convert);
    if (counted <= 0) return 0.0;
    return std::fabs(get(values, "lts__t_sectors_lookup_hit.sum", convert) +
                     get(values, "lts__t_sectors_lookup_miss.sum", convert) - counted);
  };
  const double passes = pass_disagreement(theirs, parse) + pass_disagreement(ours, same);
  const char* fabric_hits = "lts__t_sectors_srcunit_ltcfabric_lookup_hit.sum";
  const double fabric_difference = std::fabs(get(theirs, fabric_hits, parse) - get(ours, fabric_hits, same));
  const double extra_reads = (get(ours, "dram__bytes_read.sum", same) - get(theirs, "dram__bytes_read.sum", parse)) / 32;
  return 100 * (std::max(passes, fabric_difference) + std::max(0.0, extra_reads)) / sectors;
}

/// L2's raw lookups of one kernel in both tools, those collected: why a hit rate differs.
void print_l2_lookups(const std::map<std::string, double>& ours, const std::map<std::string, std::string>& theirs) {
  for (const auto& [metric, value] : ours) {
    const auto it = theirs.find(metric);
    if (starts_with(metric, "lts__t_sectors") && it != theirs.end())
      std::printf("     %s: labbook %.6g, ncu %s\n", metric.c_str(), value, it->second.c_str());
  }
}

/// Whether labbook's value `o` passes against ncu's `t`; `stored` is the bytes the kernel
/// stored (its global store sectors x 32), which labbook may write back or, for
/// partly written sectors, read to merge.
bool within(const std::string& metric, const Limit& l, double o, double t, double stored) {
  using R = Limit::Rule;
  if (std::fabs(o - t) < 1e-9 || l.rule == R::NotCompared) return true;
  if (l.rule == R::Points) return std::fabs(o - t) <= l.value;
  if (l.rule == R::RangeEnd) {
    // 1 % plus 256 sectors of the tools' own traffic either way: on exit_deep's ramp, a kernel
    // that reads nothing, ncu read 4 864 bytes from DRAM and labbook 768 (H100, 2026-11-23).
    const double slack = l.value * t + 8192;
    // Both flushes leave L2 empty, but not the same lines free: labbook's L2 may keep more of
    // a kernel's dirty lines at its end than ncu's, which the next kernel writes back instead.
    // Measured: up to 2.7 MB on kernels storing more than L2 holds (lab 4, 80 kernels storing
    // 64 MB each, H100: 1.9 to 2.7 MB, 2.0 to 5.1 % fewer bytes written over four sessions);
    // 2.5 MB on persisting_l2's gathers, which store 16 MiB beside a persisting-L2 set-aside
    // (22 % fewer, H200, 2026-11-27; within 2 MB in earlier runs). So writes may fall short by
    // the stored bytes, at most 4 MB. Reads may fall short by the stored bytes: ncu's run may
    // be the one that read partial sectors to merge them (transpose of 1024² floats, H200:
    // 0.77 MB more under ncu).
    const double below = starts_with(metric, "dram__bytes_write") ? std::min(stored, 4.0 * (1 << 20)) : stored;
    return o - t >= -(slack + below) && o - t <= stored + slack;
  }
  return std::fabs(o - t) / std::max(std::fabs(t), 1e-12) <= l.value;
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
    const char* only = std::getenv("LABBOOK_COUNTERS_ONLY");
    const bool counters_only = only && *only;
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
    // ncu's row for each labbook kernel: the same occurrence of the same mangled name and
    // grid (ncu's own application-replay match): threads interleave their launches
    // differently in each run, but not their own sizes.
    const auto digits_and_commas = [](const std::string& text) {   // "(1024, 1, 1)" -> "1024,1,1"
      std::string out;
      for (char c : text)
        if ((c >= '0' && c <= '9') || c == ',') out += c;
      return out;
    };
    const auto grid_of = [](const labbook::Kernel& k) {
      return std::to_string(k.grid[0]) + "," + std::to_string(k.grid[1]) + "," + std::to_string(k.grid[2]);
    };
    const bool by_grid = rows.front().count("Grid Size") > 0;
    std::map<std::string, std::vector<std::size_t>> ncu_rows_by_key;
    for (std::size_t r = 0; r < rows.size(); ++r)
      ncu_rows_by_key[rows[r]["Kernel Name"] + (by_grid ? " " + digits_and_commas(rows[r]["Grid Size"]) : "")].push_back(r);
    std::map<std::string, std::size_t> seen;
    std::vector<std::size_t> row_of(m.kernels.size());
    for (std::size_t i = 0; i < m.kernels.size(); ++i) {
      const std::string key = m.kernels[i].mangled + (by_grid ? " " + grid_of(m.kernels[i]) : "");
      const auto& candidates = ncu_rows_by_key[key];
      const std::size_t n = seen[key]++;
      if (n >= candidates.size())
        throw labbook::Error("labbook's launch " + std::to_string(i) + " (" + key +
                             ") has no counterpart in ncu's output");
      row_of[i] = candidates[n];
    }

    struct Worst { double rel = 0; std::size_t launch = 0; double ours = 0, theirs = 0; std::size_t n = 0; };
    std::map<std::string, Worst> worst;
    std::set<std::string> failed;   // metrics outside their limit at some launch
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
        Limit limit = limit_for(metric, tolerance, cold_l2, counters_only);
        if (limit.rule == Limit::Rule::Points) limit.value += explained_points(k.metrics, row);
        const auto st = k.metrics.find("l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum");
        const double stored = st == k.metrics.end() ? 0 : 32 * st->second;
        const double rel = std::fabs(o - t) / std::max(std::fabs(t), 1e-12);
        if (!within(metric, limit, o, t, stored)) {
          ++failures;
          failed.insert(metric);
          std::printf("FAIL launch %zu: %s: labbook %.6g, ncu %.6g (%s)\n", i, metric.c_str(), o, t,
                      limit.describe().c_str());
          if (limit.rule == Limit::Rule::Points) print_l2_lookups(k.metrics, row);
        }
        auto& w = worst[metric];
        ++w.n;
        if (rel >= w.rel) w = {rel, i, o, t, w.n};
      }
    }
    std::printf("cache control: %s\n", m.cache_control.empty() ? "none" : m.cache_control.c_str());
    std::printf("| metric | kernels | worst difference | at launch | labbook | ncu | limit |\n|---|---|---|---|---|---|---|\n");
    for (const auto& [metric, w] : worst) {
      const Limit limit = limit_for(metric, tolerance, cold_l2, counters_only);
      const std::string explained = limit.rule == Limit::Rule::Points ? " + what the kernel's counters explain" : "";
      std::printf("| %s | %zu | %.3f %% | %zu | %.6g | %.6g | %s%s |\n", metric.c_str(), w.n, 100 * w.rel, w.launch,
                  w.ours, w.theirs, limit.describe().c_str(), explained.c_str());
    }
    // Every launch of a metric that failed somewhere: a one-off miss of a timing-dependent
    // metric then shows whether one tool's launch was the odd one among like launches.
    for (const auto& metric : failed) {
      std::printf("%s, launch by launch (labbook / ncu):\n", metric.c_str());
      for (std::size_t i = 0; i < m.kernels.size(); ++i) {
        const auto ours = m.kernels[i].metrics.find(metric);
        const auto& row = rows[row_of[i]];
        const auto theirs = row.find(metric);
        char value[32] = "-";
        if (ours != m.kernels[i].metrics.end()) std::snprintf(value, sizeof value, "%.6g", ours->second);
        std::printf("  %zu %s: %s / %s\n", i, m.kernels[i].mangled.c_str(), value,
                    theirs == row.end() || theirs->second.empty() ? "-" : theirs->second.c_str());
      }
    }
    std::printf("%d values outside their limit\n", failures);
    return failures == 0 ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "compare_with_ncu: %s\n", e.what());
    return 1;
  }
}
