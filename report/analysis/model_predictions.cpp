#include "model_predictions.h"

#include <fnmatch.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "architecture.h"
#include "format.h"
#include "global_cost.h"
#include "kernel_models.h"
#include "quantities.h"

namespace labbook::report {

struct ModelPredictions::Launch {
  std::string kernel;
  warp::ModelLaunch launch;
  std::string architecture;
};

namespace {

/// "offset=11" in the path's last part sets offset to 11; "block=32x8" sets block_x and
/// block_y; several are joined by ','. Parts that are not name=integer are left alone.
void override_from_path(const std::string& experiment, std::map<std::string, long long>& params) {
  const std::string last = experiment.substr(experiment.rfind('/') + 1);
  std::size_t begin = 0;
  while (begin <= last.size()) {
    const std::size_t end = std::min(last.find(',', begin), last.size());
    const std::string part = last.substr(begin, end - begin);
    begin = end + 1;
    const std::size_t eq = part.find('=');
    if (eq == std::string::npos || eq == 0) continue;
    const std::string name = part.substr(0, eq), value = part.substr(eq + 1);
    char* rest = nullptr;
    const long long first = std::strtoll(value.c_str(), &rest, 10);
    if (rest == value.c_str()) continue;
    if (*rest == '\0') {
      params[name] = first;
    } else if (*rest == 'x') {
      char* tail = nullptr;
      const long long second = std::strtoll(rest + 1, &tail, 10);
      if (tail != rest + 1 && *tail == '\0') params[name + "_x"] = first, params[name + "_y"] = second;
    }
  }
}

std::string key_of(const std::string& kernel, const warp::ModelLaunch& l, const std::string& arch) {
  std::string key = kernel + "|" + arch;
  for (const auto& [name, value] : l.params) key += "|" + name + "=" + std::to_string(value);
  if (l.measured)
    for (int d = 0; d < 3; ++d)
      key += "|" + std::to_string(l.measured->grid[d]) + "," + std::to_string(l.measured->block[d]);
  return key;
}

}  // namespace

ModelPredictions::ModelPredictions(const LabData& lab, const Measurement& m) : lab_(lab), m_(m) {}

std::optional<ModelPredictions::Launch> ModelPredictions::launch_for(const std::string& experiment,
                                                                     bool on_source) const {
  if (!lab_.model) return std::nullopt;
  const ModelPattern* p = lab_.model->pattern_for(experiment);
  if (!p) return std::nullopt;
  Launch l;
  l.kernel = p->kernel;
  l.architecture = on_source ? p->source_architecture : lab_.model->this_architecture;
  if (on_source) l.launch.params = lab_.model->source_params;
  for (const auto& [name, value] : p->params) l.launch.params[name] = value;
  override_from_path(experiment, l.launch.params);
  if (on_source) return l;
  // This GPU: the launch the measurement recorded for the experiment.
  for (const auto& k : m_.kernels) {
    if (k.range != experiment) continue;
    warp::LaunchShape shape;
    for (int d = 0; d < 3; ++d) {
      shape.grid[d] = static_cast<unsigned>(k.grid[d]);
      shape.block[d] = static_cast<unsigned>(k.block[d]);
    }
    l.launch.measured = shape;
    return l;
  }
  return std::nullopt;
}

Prediction ModelPredictions::predict(const std::string& experiment, const Quantity& quantity) {
  Prediction out;
  auto value = [&](bool on_source) -> std::optional<double> {
    const auto l = launch_for(experiment, on_source);
    if (!l) return std::nullopt;
    if (on_source) out.source_architecture = l->architecture;
    const std::string key = key_of(l->kernel, l->launch, l->architecture);
    auto it = cache_.find(key);
    if (it == cache_.end())
      it = cache_.emplace(key, warp::modelled_cost(l->kernel, l->launch, warp::architecture(l->architecture))).first;
    return it->second.quantity(quantity.name());
  };
  out.source_gpu = value(true);
  out.this_gpu = value(false);
  return out;
}

std::string ModelPredictions::verdict(const std::string& experiment, const Quantity& quantity,
                                      std::optional<double> measured) {
  const Prediction p = predict(experiment, quantity);
  if (!p.this_gpu || !measured) return "—";
  const std::string unit = quantity.unit();
  const bool percent = unit == "%";
  const double model = *p.this_gpu;
  std::string text;
  if (!percent && model == 0) {   // no relative gap to a model of none: any count differs
    if (*measured == 0) return "as predicted";
    text = "measured " + format_value(*measured, unit) + " where the model has none";
  } else {
    const double gap = percent ? *measured - model : 100.0 * (*measured - model) / model;
    if (std::fabs(gap) <= lab_.model->tolerance) return "as predicted";
    text = "measured " + format_number(percent ? "%.2f pts" : "%.1f %%", std::fabs(gap)) +
           (gap > 0 ? " above" : " below") + " the model";
  }
  if (const ModelGap* g = gap_for(experiment, quantity)) return text + ": " + g->reason;
  return text;
}

const ModelGap* ModelPredictions::gap_for(const std::string& experiment, const Quantity& quantity) const {
  if (!lab_.model) return nullptr;
  for (const auto& g : lab_.model->gaps)
    if (g.quantity == quantity && ::fnmatch(g.experiments.c_str(), experiment.c_str(), 0) == 0) return &g;
  return nullptr;
}

std::optional<warp::WarpAccess> ModelPredictions::telling_access(const std::string& experiment) const {
  const auto l = launch_for(experiment, true);
  if (!l) return std::nullopt;
  std::vector<warp::WarpAccess> instructions;
  warp::kernel_models().find(l->kernel)(l->launch).program(0, instructions);
  const warp::Architecture& arch = warp::architecture(l->architecture);
  const auto& stores = lab_.model->figure_stores;
  const bool stores_only = std::find(stores.begin(), stores.end(), experiment) != stores.end();
  std::optional<warp::WarpAccess> worst;
  double worst_efficiency = 101;
  for (const auto& i : instructions) {
    if (i.space != warp::Space::Global || (stores_only && i.op != warp::Operation::Store)) continue;
    const double e = warp::global_cost(i, arch).efficiency_pct();
    if (e < worst_efficiency) worst = i, worst_efficiency = e;
  }
  return worst;
}

}  // namespace labbook::report
