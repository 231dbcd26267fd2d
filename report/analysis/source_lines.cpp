#include "source_lines.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <tuple>

#include "format.h"

namespace labbook::report {

namespace {

// CUPTI's SASS metric names (cuptiSassMetricsGetMetrics lists what a GPU offers).
const char* const kInstructions = "smsp__sass_inst_executed";
const char* const kGlobalSectors = "smsp__sass_sectors_mem_global";
const char* const kGlobalIdeal = "smsp__sass_sectors_mem_global_ideal";
const char* const kGlobalLoadIdeal = "smsp__sass_sectors_mem_global_op_ld_ideal";
const char* const kGlobalStoreIdeal = "smsp__sass_sectors_mem_global_op_st_ideal";
const char* const kSharedWavefronts = "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared";
const char* const kSharedIdeal = "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared_ideal";
const char* const kLocalSectors = "smsp__sass_sectors_mem_local";
const char* const kGlobalLoads = "smsp__sass_inst_executed_op_global_ld";
const char* const kGlobalStores = "smsp__sass_inst_executed_op_global_st";

double value(const SassInstruction& i, const char* metric) {
  const auto it = i.metrics.find(metric);
  return it == i.metrics.end() ? 0.0 : it->second;
}

double ideal_sectors(const SassInstruction& i) {
  if (i.metrics.count(kGlobalIdeal)) return value(i, kGlobalIdeal);
  return value(i, kGlobalLoadIdeal) + value(i, kGlobalStoreIdeal);
}

std::string hex(std::uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%x", v);
  return buf;
}

}  // namespace

const std::vector<std::string>& source_line_metrics() {
  static const std::vector<std::string> names = {kInstructions,     kGlobalSectors, kGlobalIdeal,
                                                 kGlobalLoadIdeal,  kGlobalStoreIdeal, kGlobalLoads,
                                                 kGlobalStores,     kSharedWavefronts, kSharedIdeal,
                                                 kLocalSectors};
  return names;
}

double SourceLine::excess_sectors() const { return std::max(0.0, global_sectors - global_ideal_sectors); }
double SourceLine::excess_wavefronts() const { return std::max(0.0, shared_wavefronts - shared_ideal_wavefronts); }
bool SourceLine::moves_memory() const { return global_sectors > 0 || shared_wavefronts > 0 || local_sectors > 0; }

std::string SourceLine::where() const {
  if (!file.empty()) {
    const std::size_t slash = file.find_last_of('/');
    return (slash == std::string::npos ? file : file.substr(slash + 1)) + ":" + std::to_string(line);
  }
  return function + "+" + hex(pc_offsets.empty() ? 0 : pc_offsets.front());
}

namespace {

/// One entry per instruction (function and offset), its metrics summed: a launch's records,
/// and several launches of a kernel, may name an instruction more than once.
std::vector<SassInstruction> by_instruction(const std::vector<SassInstruction>& records) {
  std::vector<SassInstruction> out;
  std::map<std::pair<std::string, std::uint32_t>, std::size_t> index;
  for (const auto& r : records) {
    const auto [at, added] = index.try_emplace({r.function, r.pc_offset}, out.size());
    if (added) {
      out.push_back(r);
      continue;
    }
    SassInstruction& i = out[at->second];
    for (const auto& [name, v] : r.metrics) i.metrics[name] += v;
    if (i.file.empty()) i.file = r.file, i.line = r.line;
  }
  return out;
}

}  // namespace

SourceProfile source_profile(const std::vector<SassInstruction>& records) {
  const std::vector<SassInstruction> instructions = by_instruction(records);
  SourceProfile out;
  // A line is (file, line); an instruction without one is its own row (function, offset).
  std::map<std::tuple<std::string, int, std::string, std::uint32_t>, SourceLine> by_line;
  std::vector<std::tuple<std::string, int, std::string, std::uint32_t>> order;
  std::set<std::string> seen;
  for (const auto& i : instructions) {
    for (const auto& [name, v] : i.metrics) seen.insert(name);
    const bool known = !i.file.empty() && i.line > 0;
    out.line_info = out.line_info || known;
    const auto key = known ? std::make_tuple(i.file, i.line, std::string(), 0u) : std::make_tuple(std::string(), 0, i.function, i.pc_offset);
    auto [it, added] = by_line.try_emplace(key);
    SourceLine& l = it->second;
    if (added) {
      order.push_back(key);
      l.file = known ? i.file : "", l.line = known ? i.line : 0, l.function = i.function;
    }
    if (std::find(l.pc_offsets.begin(), l.pc_offsets.end(), i.pc_offset) == l.pc_offsets.end()) l.pc_offsets.push_back(i.pc_offset);
    const double executed = value(i, kInstructions);
    l.instructions += executed;
    if (const double sectors = value(i, kGlobalSectors); sectors > 0) {
      l.global_requests += executed;
      l.global_sectors += sectors;
      l.global_ideal_sectors += ideal_sectors(i);
      GlobalAccesses* kind = value(i, kGlobalLoads) > 0 ? &l.loads : value(i, kGlobalStores) > 0 ? &l.stores : nullptr;
      if (kind) kind->requests += executed, kind->sectors += sectors, kind->ideal_sectors += ideal_sectors(i);
    }
    if (const double wavefronts = value(i, kSharedWavefronts); wavefronts > 0) {
      l.shared_requests += executed;
      l.shared_wavefronts += wavefronts;
      l.shared_ideal_wavefronts += value(i, kSharedIdeal);
    }
    l.local_sectors += value(i, kLocalSectors);
  }
  for (const auto& key : order) {
    const SourceLine& l = by_line.at(key);
    out.excess_sectors += l.excess_sectors();
    if (l.moves_memory()) out.lines.push_back(l);
  }
  std::stable_sort(out.lines.begin(), out.lines.end(), [](const SourceLine& a, const SourceLine& b) {
    return std::make_tuple(a.excess_sectors(), a.excess_wavefronts(), a.local_sectors) >
           std::make_tuple(b.excess_sectors(), b.excess_wavefronts(), b.local_sectors);
  });
  if (!instructions.empty()) {
    const bool any_ideal = seen.count(kGlobalIdeal) || seen.count(kGlobalLoadIdeal) || seen.count(kGlobalStoreIdeal);
    for (const auto& name : source_line_metrics()) {
      const bool ideal_part = name == kGlobalIdeal || name == kGlobalLoadIdeal || name == kGlobalStoreIdeal;
      if (name == kGlobalLoads || name == kGlobalStores) continue;   // a refinement: without it, the line's average
      if (ideal_part ? !any_ideal && name == kGlobalIdeal : !seen.count(name)) out.missing.push_back(name);
    }
  }
  return out;
}

std::string source_line_explanation(const SourceLine& l, double kernel_excess_sectors) {
  std::string out;
  if (l.excess_sectors() > 0 && l.global_requests > 0) {
    // The kind that wastes, where the GPU told loads from stores; else the line's average.
    GlobalAccesses a{l.global_requests, l.global_sectors, l.global_ideal_sectors};
    std::string what;
    for (const auto& [kind, name] : {std::pair{&l.loads, "load"}, std::pair{&l.stores, "store"}})
      if (kind->requests > 0 && kind->sectors - kind->ideal_sectors > (a.sectors - a.ideal_sectors) / 2) a = *kind, what = name;
    out = "Each " + (what.empty() ? "" : what + " ") + "request here moves " + two_decimals(a.sectors / a.requests) + " sectors where " +
          two_decimals(a.ideal_sectors / a.requests) +
          " would carry the same bytes: the warp's addresses spread over more 32-byte sectors than they fill (a "
          "stride between threads, a start off a sector boundary, or fields of an array of structures).";
    if (kernel_excess_sectors > 0)
      out += " " + format_value(100.0 * l.excess_sectors() / kernel_excess_sectors, "%") + " of the kernel's excess sectors.";
  }
  if (l.excess_wavefronts() > 0 && l.shared_requests > 0 && l.shared_ideal_wavefronts > 0) {
    const double ways = l.shared_wavefronts / l.shared_ideal_wavefronts;
    const double whole = std::round(ways);   // "32-way", but "2.50-way" for a mix of degrees
    if (!out.empty()) out += " ";
    out += "Shared memory needs " + two_decimals(l.shared_wavefronts / l.shared_requests) +
           " wavefronts per request where " + two_decimals(l.shared_ideal_wavefronts / l.shared_requests) + " would do: a " +
           (std::fabs(ways - whole) < 0.05 ? std::to_string(std::llround(whole)) : two_decimals(ways)) +
           "-way bank conflict, threads of a warp reading different words of the same bank "
           "(as when a warp reads a column of a tile whose rows are a multiple of 32 words long: pad each row by one word).";
  }
  if (l.local_sectors > 0) {
    if (!out.empty()) out += " ";
    out += "Local memory: " + with_thousands(std::llround(l.local_sectors)) +
           " sectors for register spills or a per-thread array indexed at run time.";
  }
  return out;
}

}  // namespace labbook::report
