#include "combined_counters.h"

#include <algorithm>

namespace labbook::grading {

namespace {

/// Per-kernel averages that combine over kernels weighted by their own denominator: the
/// global load and store efficiencies, weighted by the sectors moved.
const std::map<std::string, std::string>& weighted_averages() {
  static const std::map<std::string, std::string> weights = {
      {"smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"},
      {"smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"}};
  return weights;
}

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

}  // namespace

std::map<std::string, double> combined_counters(const std::vector<const Kernel*>& kernels) {
  std::map<std::string, double> out;
  if (kernels.empty()) return out;
  for (const auto& [name, first_value] : kernels.front()->metrics) {
    const auto weight = weighted_averages().find(name);
    double sum = 0, weights = 0;
    bool everywhere = true;
    for (const Kernel* k : kernels) {
      const auto v = k->metrics.find(name);
      if (v == k->metrics.end()) {
        everywhere = false;
        break;
      }
      if (weight != weighted_averages().end()) {
        const auto w = k->metrics.find(weight->second);
        if (w == k->metrics.end()) {
          everywhere = false;
          break;
        }
        sum += v->second * w->second;
        weights += w->second;
      } else {
        sum += v->second;
      }
    }
    if (!everywhere) continue;
    if (weight != weighted_averages().end()) {
      if (weights > 0) out[name] = sum / weights;
    } else if (ends_with(name, ".sum") || kernels.size() == 1) {
      out[name] = kernels.size() == 1 ? first_value : sum;
    }
  }
  return out;
}

std::vector<std::string> with_combining_weights(std::vector<std::string> cupti_metrics) {
  for (const auto& [average, weight] : weighted_averages())
    if (std::find(cupti_metrics.begin(), cupti_metrics.end(), average) != cupti_metrics.end() &&
        std::find(cupti_metrics.begin(), cupti_metrics.end(), weight) == cupti_metrics.end())
      cupti_metrics.push_back(weight);
  return cupti_metrics;
}

}  // namespace labbook::grading
