// Compares `labbook profile --source` with Nsight Compute's Source page, instruction by
// instruction: labbook's counts of a kernel are the sums over its launches (Kernel::sass,
// sass_launches), so ncu's launches of that kernel are summed alike; every SASS instruction's
// executions, global sectors and their ideal, local sectors and shared-memory conflict ways
// must be equal (these counts follow from the access pattern alone, so there is no tolerance).
//   compare_source_with_ncu MEASUREMENT.json NCU.csv
// NCU.csv: `ncu --section SourceCounters --page source --csv --print-source sass
// --print-kernel-base mangled`: per launch a "Kernel Name" line, a header, then one row per
// instruction with its absolute address (the first row is the function's first instruction,
// so address minus the first address is labbook's PC offset).
// Prints a table per launch; exit 0 when everything agrees, 1 otherwise.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "labbook/model/error.h"
#include "labbook/model/measurement_json.h"
#include "ncu_csv.h"

namespace {

using labbook::test::csv_fields;

/// One launch on ncu's Source page: instruction offset -> column -> value.
struct NcuLaunch {
  std::string kernel;
  std::map<std::uint64_t, std::map<std::string, double>> rows;
  std::map<std::uint64_t, std::string> text;   ///< the SASS, for the report
  bool has_local_column = false;
};

std::vector<NcuLaunch> read_ncu(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw labbook::Error(path + ": cannot be read");
  std::vector<NcuLaunch> out;
  std::vector<std::string> header;
  std::uint64_t first = 0;
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("\"Kernel Name\"", 0) == 0) {
      out.push_back({csv_fields(line).at(1), {}, {}, false});
      header.clear();
    } else if (line.rfind("\"Address\"", 0) == 0 && !out.empty()) {
      header = csv_fields(line);
      for (const auto& h : header) out.back().has_local_column |= h == "L2 Theoretical Sectors Local";
    } else if (!header.empty() && line.rfind("\"0x", 0) == 0) {
      const auto f = csv_fields(line);
      if (f.size() != header.size()) continue;
      const std::uint64_t address = std::stoull(f[0], nullptr, 16);
      if (out.back().rows.empty()) first = address;
      auto& row = out.back().rows[address - first];
      for (std::size_t i = 2; i < f.size(); ++i)
        if (header[i].rfind("stall", 0) != 0 && header[i].find("Sampl") == std::string::npos) row[header[i]] = labbook::test::csv_number(f[i]);
      out.back().text[address - first] = f[1];
    }
  }
  if (out.empty()) throw labbook::Error(path + ": no \"Kernel Name\" lines (is it ncu --page source --csv output?)");
  return out;
}

/// Launches `first` to `first + count - 1` of one kernel as one: every column summed, but the
/// conflict ways, a property of the instruction, taken as the largest.
NcuLaunch summed(const std::vector<const NcuLaunch*>& launches, std::size_t first, std::size_t count) {
  NcuLaunch sum = *launches[first];
  for (std::size_t n = first + 1; n < first + count; ++n)
    for (const auto& [offset, row] : launches[n]->rows)
      for (const auto& [column, value] : row) {
        double& total = sum.rows[offset][column];
        total = column == "L1 Conflicts Shared N-Way" ? std::max(total, value) : total + value;
      }
  return sum;
}

double metric(const std::map<std::string, double>& m, const char* name) {
  const auto it = m.find(name);
  return it == m.end() ? 0.0 : it->second;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    if (argc != 3) {
      std::fprintf(stderr, "usage: compare_source_with_ncu MEASUREMENT.json NCU.csv\n");
      return 2;
    }
    const auto m = labbook::read_measurement(argv[1]);
    const auto ncu = read_ncu(argv[2]);
    std::map<std::string, std::vector<const NcuLaunch*>> ncu_by_kernel;
    for (const auto& l : ncu) ncu_by_kernel[l.kernel].push_back(&l);
    std::map<std::string, std::size_t> seen;
    int differences = 0, compared = 0;
    std::printf("| kernel | first launch | launches | instructions compared | executions | global sectors | ideal | local sectors | shared ways | differ |\n");
    std::printf("|---|---|---|---|---|---|---|---|---|---|\n");
    for (const auto& k : m.kernels) {
      const std::size_t n = seen[k.mangled]++;
      if (k.sass.empty()) continue;
      const auto& candidates = ncu_by_kernel[k.mangled];
      if (n + k.sass_launches > candidates.size()) {
        std::printf("FAIL %s launches %zu to %zu: ncu has %zu launches\n", k.name.c_str(), n,
                    n + static_cast<std::size_t>(k.sass_launches) - 1, candidates.size());
        ++differences;
        continue;
      }
      const NcuLaunch theirs = summed(candidates, n, k.sass_launches);
      // labbook's entries by offset (an instruction may come as several entries: summed).
      std::map<std::uint64_t, std::map<std::string, double>> ours;
      for (const auto& i : k.sass)
        for (const auto& [name, v] : i.metrics) ours[i.pc_offset][name] += v;
      std::set<std::uint64_t> offsets;
      for (const auto& [o, row] : ours) offsets.insert(o);
      for (const auto& [o, row] : theirs.rows)
        if (metric(row, "Instructions Executed") > 0) offsets.insert(o);
      double totals[5] = {0, 0, 0, 0, 0};
      int differ = 0;
      for (const auto o : offsets) {
        const auto& a = ours[o];
        const auto it = theirs.rows.find(o);
        const std::map<std::string, double> none;
        const auto& b = it == theirs.rows.end() ? none : it->second;
        const double wavefronts = metric(a, "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared");
        const double ideal_wavefronts = metric(a, "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared_ideal");
        const double ways = ideal_wavefronts > 0 ? std::round(wavefronts / ideal_wavefronts) : 0;
        struct Pair { const char* what; double labbook, ncu; };
        std::vector<Pair> pairs = {
            {"executions", metric(a, "smsp__sass_inst_executed"), metric(b, "Instructions Executed")},
            {"global sectors", metric(a, "smsp__sass_sectors_mem_global"), metric(b, "L2 Theoretical Sectors Global")},
            {"ideal sectors", metric(a, "smsp__sass_sectors_mem_global_ideal"), metric(b, "L2 Theoretical Sectors Global Ideal")},
            {"shared ways", ways, metric(b, "L1 Conflicts Shared N-Way")},
        };
        if (theirs.has_local_column)
          pairs.push_back({"local sectors", metric(a, "smsp__sass_sectors_mem_local"), metric(b, "L2 Theoretical Sectors Local")});
        for (std::size_t p = 0; p < pairs.size(); ++p) {
          if (p < 3) totals[p] += pairs[p].labbook;
          if (p == 4) totals[3] += pairs[p].labbook;
          if (p == 3) totals[4] = std::max(totals[4], pairs[p].labbook);
          if (pairs[p].labbook != pairs[p].ncu) {
            const auto text = theirs.text.find(o);
            std::printf("FAIL %s launch %zu +0x%llx (%s): %s labbook %.0f, ncu %.0f\n", k.name.c_str(), n,
                        static_cast<unsigned long long>(o), text == theirs.text.end() ? "?" : text->second.c_str(),
                        pairs[p].what, pairs[p].labbook, pairs[p].ncu);
            ++differ;
          }
        }
      }
      ++compared;
      differences += differ;
      std::printf("| %s | %zu | %llu | %zu | %.0f | %.0f | %.0f | %s | %.0f | %d |\n", labbook::kernel_short_name(k.name).c_str(), n,
                  static_cast<unsigned long long>(k.sass_launches), offsets.size(), totals[0], totals[1], totals[2],
                  theirs.has_local_column ? std::to_string(std::llround(totals[3])).c_str() : "(no column)", totals[4], differ);
    }
    if (compared == 0) throw labbook::Error(std::string(argv[1]) + ": no launch has per-instruction counts");
    // Every kernel ncu profiled has labbook's counts too (one source run per kernel).
    for (const auto& [mangled, launches] : ncu_by_kernel)
      if (std::none_of(m.kernels.begin(), m.kernels.end(), [&](const auto& k) { return k.mangled == mangled && !k.sass.empty(); })) {
        std::printf("FAIL %s: ncu counted %zu launches, labbook none\n", mangled.c_str(), launches.size());
        ++differences;
      }
    std::printf("%d kernels compared, %d values differ\n", compared, differences);
    return differences == 0 ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "compare_source_with_ncu: %s\n", e.what());
    return 2;
  }
}
