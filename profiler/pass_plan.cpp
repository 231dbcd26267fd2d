#include "pass_plan.h"

#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "cache_folder.h"
#include "labbook/model/text.h"

namespace labbook::profiler {

int PassPlan::runs() const {
  int runs = 0;
  for (const auto& g : groups) runs += g.passes;
  return runs;
}

std::optional<RunPass> PassPlan::run(int run) const {
  if (run < 0) return std::nullopt;
  for (std::size_t g = 0; g < groups.size(); ++g) {
    if (run < groups[g].passes) return RunPass{g, run, groups[g].passes};
    run -= groups[g].passes;
  }
  return std::nullopt;
}

PassPlan read_plan(const std::string& path) {
  PassPlan plan;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) continue;
    const std::size_t space = line.find(' ');
    int passes = 0;
    const char* count_end = line.data() + std::min(space, line.size());
    const auto [end, error] = std::from_chars(line.data(), count_end, passes);
    if (space == std::string::npos || error != std::errc() || end != count_end || passes < 1) return {};
    plan.groups.push_back({split(line.substr(space + 1), ','), passes});
  }
  return plan;
}

void write_plan(const std::string& path, const PassPlan& plan) {
  // A temporary file of this process's own, renamed only when fully written: two labbook
  // runs may share the cache.
  const std::string temporary = path + ".tmp." + std::to_string(::getpid());
  std::ofstream out(temporary);
  for (const auto& g : plan.groups) out << g.passes << " " << join(g.metrics, ",") << "\n";
  out.close();
  if (out) std::rename(temporary.c_str(), path.c_str());
  else std::remove(temporary.c_str());
}

std::string carried_counters_prefix(const std::string& plan_path) { return plan_path + ".counters."; }

void remove_carried_counters(const std::string& plan_path) {
  namespace fs = std::filesystem;
  const fs::path plan(plan_path);
  const std::string prefix = fs::path(carried_counters_prefix(plan_path)).filename().string();
  std::error_code error;
  const fs::path folder = plan.has_parent_path() ? plan.parent_path() : fs::path(".");
  for (const auto& entry : fs::directory_iterator(folder, error))
    if (entry.path().filename().string().rfind(prefix, 0) == 0) fs::remove(entry.path(), error);
}

bool plan_covers(const PassPlan& plan, const std::vector<std::string>& metrics) {
  std::vector<std::string> planned;
  for (const auto& g : plan.groups) planned.insert(planned.end(), g.metrics.begin(), g.metrics.end());
  std::vector<std::string> wanted = metrics;
  std::sort(planned.begin(), planned.end());
  std::sort(wanted.begin(), wanted.end());
  return planned == wanted;
}

Carrying carrying_for(bool without_stops, std::optional<std::uint64_t> launches,
                      std::optional<std::uint64_t> ranges_per_image) {
  const bool one_batch = without_stops && launches && *launches <= kOneGroupLaunches &&
                         *launches <= ranges_per_image.value_or(*launches);
  return one_batch ? Carrying::AllInOneBatch : Carrying::MultiPassMetricsOnly;
}

std::string plan_cache_file(const std::string& folder, const std::string& chip, int cupti_version,
                            const std::vector<std::string>& metrics, Carrying carrying) {
  const std::string key = join(metrics, ",") + (carrying == Carrying::AllInOneBatch ? "|all-in-one-batch" : "");
  return folder + "/" + chip + "-cupti" + std::to_string(cupti_version) + "-" + name_hash(key) + ".txt";
}

}  // namespace labbook::profiler
