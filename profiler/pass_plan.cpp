#include "pass_plan.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>

#include "labbook/model/text.h"

namespace labbook::profiler {

PassPlan read_plan(const std::string& path) {
  PassPlan plan;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) plan.groups.push_back(split(line, ','));
  return plan;
}

void write_plan(const std::string& path, const PassPlan& plan) {
  // A temporary file of this process's own, renamed only when fully written: two labbook
  // runs may share the cache.
  const std::string temporary = path + ".tmp." + std::to_string(::getpid());
  std::ofstream out(temporary);
  for (const auto& g : plan.groups) out << join(g, ",") << "\n";
  out.close();
  if (out) std::rename(temporary.c_str(), path.c_str());
  else std::remove(temporary.c_str());
}

bool plan_covers(const PassPlan& plan, const std::vector<std::string>& metrics) {
  std::vector<std::string> planned;
  for (const auto& g : plan.groups) planned.insert(planned.end(), g.begin(), g.end());
  std::vector<std::string> wanted = metrics;
  std::sort(planned.begin(), planned.end());
  std::sort(wanted.begin(), wanted.end());
  return planned == wanted;
}

}  // namespace labbook::profiler
