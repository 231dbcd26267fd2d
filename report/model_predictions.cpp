#include "model_predictions.h"

#include <fnmatch.h>

#include <cmath>
#include <cstdio>

#include "architecture.h"
#include "global_cost.h"
#include "lab4_kernels.h"
#include "quantities.h"

namespace labbook::report {

struct ModelPredictions::Launch {
  warp::Lab4Launch kernel;
  std::string architecture;
};

namespace {

/// "offset=11" in the path's last part sets `name` to 11.
void override_from_path(const std::string& experiment, const char* name, unsigned& value) {
  const std::string part = experiment.substr(experiment.rfind('/') + 1);
  const std::string key = std::string(name) + "=";
  if (part.rfind(key, 0) == 0) value = static_cast<unsigned>(std::stoul(part.substr(key.size())));
}

std::string key_of(const warp::Lab4Launch& l, const std::string& arch) {
  return l.kernel + "|" + std::to_string(l.elements) + "|" + std::to_string(l.block) + "|" +
         std::to_string(l.offset) + "|" + std::to_string(l.unroll) + "|" + arch;
}

std::string printf_string(const char* format, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

}  // namespace

ModelPredictions::ModelPredictions(const LabData& lab, const Measurement& m) : lab_(lab), m_(m) {}

std::optional<ModelPredictions::Launch> ModelPredictions::launch_for(const std::string& experiment,
                                                                     bool on_source) const {
  if (!lab_.model) return std::nullopt;
  const ModelPattern* p = lab_.model->pattern_for(experiment);
  if (!p) return std::nullopt;
  Launch l{{p->kernel, 0, p->block, p->offset, p->unroll}, on_source ? p->source_architecture : lab_.model->this_architecture};
  override_from_path(experiment, "offset", l.kernel.offset);
  override_from_path(experiment, "unroll", l.kernel.unroll);
  override_from_path(experiment, "block", l.kernel.block);
  if (on_source) {
    l.kernel.elements = lab_.model->source_elements;
    if (l.kernel.block == 0) l.kernel.block = 512;
    return l;
  }
  // This GPU: the launch the measurement recorded for the experiment.
  for (const auto& k : m_.kernels) {
    if (k.range != experiment) continue;
    if (l.kernel.block == 0) l.kernel.block = static_cast<unsigned>(k.block[0]);
    l.kernel.elements = static_cast<std::uint64_t>(k.grid[0]) * static_cast<std::uint64_t>(k.block[0]) *
                        (l.kernel.kernel == "readSegmentUnroll" ? l.kernel.unroll : 1);
    return l;
  }
  return std::nullopt;
}

Prediction ModelPredictions::predict(const std::string& experiment, const std::string& quantity) {
  Prediction out;
  auto value = [&](bool on_source) -> std::optional<double> {
    const auto l = launch_for(experiment, on_source);
    if (!l) return std::nullopt;
    if (on_source) out.source_architecture = l->architecture;
    const std::string key = key_of(l->kernel, l->architecture);
    auto it = cache_.find(key);
    if (it == cache_.end()) {
      const warp::KernelCost cost = warp::lab4_kernel_cost(l->kernel, warp::architecture(l->architecture));
      std::map<std::string, double> values;
      for (const char* q : {"gld_efficiency", "gst_efficiency", "gld_transactions", "gst_transactions",
                            "gld_transactions_per_request", "gst_transactions_per_request",
                            "inst_executed_global_loads", "inst_executed_global_stores"})
        if (auto v = cost.quantity(q)) values[q] = *v;
      it = cache_.emplace(key, std::move(values)).first;
    }
    const auto v = it->second.find(quantity);
    return v == it->second.end() ? std::nullopt : std::optional<double>(v->second);
  };
  out.source_gpu = value(true);
  out.this_gpu = value(false);
  return out;
}

std::string ModelPredictions::verdict(const std::string& experiment, const std::string& quantity,
                                      std::optional<double> measured) {
  const Prediction p = predict(experiment, quantity);
  if (!p.this_gpu || !measured) return "—";
  const bool percent = quantity_unit(quantity) == "%";
  const double model = *p.this_gpu;
  const double gap = percent ? *measured - model : (model != 0 ? 100.0 * (*measured - model) / model : 0.0);
  if (std::fabs(gap) <= lab_.model->tolerance) return "as predicted";
  std::string text = "measured " + printf_string(percent ? "%.2f pts" : "%.1f %%", std::fabs(gap)) +
                     (gap > 0 ? " above" : " below") + " the model";
  for (const auto& g : lab_.model->gaps)
    if (g.quantity == quantity && ::fnmatch(g.experiments.c_str(), experiment.c_str(), 0) == 0)
      return text + ": " + g.reason;
  return text;
}

std::optional<warp::WarpAccess> ModelPredictions::telling_access(const std::string& experiment) const {
  const auto l = launch_for(experiment, true);
  if (!l) return std::nullopt;
  std::vector<warp::WarpAccess> instructions;
  warp::program_of(l->kernel)(0, instructions);
  const warp::Architecture& arch = warp::architecture(l->architecture);
  std::optional<warp::WarpAccess> worst;
  double worst_efficiency = 101;
  for (const auto& i : instructions) {
    const double e = warp::global_cost(i, arch).efficiency_pct();
    if (e < worst_efficiency) worst = i, worst_efficiency = e;
  }
  return worst;
}

}  // namespace labbook::report
