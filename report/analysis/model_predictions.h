#pragma once
/// @file
/// The warp-level model's predictions for a lab's experiments, on the source's GPU and on
/// the measured one, and the verdict that compares the measurement with the latter.
#include <map>
#include <optional>
#include <string>

#include "lab_data.h"
#include "labbook/model/measurement.h"
#include "kernel_cost.h"
#include "warp_access.h"

namespace labbook::report {

struct Prediction {
  std::optional<double> source_gpu;   ///< on the pattern's source architecture, source_elements
  std::optional<double> this_gpu;     ///< on [model] this_architecture, the measured launch
  std::string source_architecture;
};

class ModelPredictions {
 public:
  /// Predicts nothing when the lab has no [model].
  ModelPredictions(const LabData& lab, const Measurement& m);

  Prediction predict(const std::string& experiment, const Quantity& quantity);

  /// "as predicted", or how the measurement differs from the model for this GPU and, when
  /// the lab data knows it, why. "—" when there is no prediction or no measurement.
  std::string verdict(const std::string& experiment, const Quantity& quantity, std::optional<double> measured);

  /// The lab data's reason why the measurement and the model differ, or nullptr.
  const ModelGap* gap_for(const std::string& experiment, const Quantity& quantity) const;

  /// For pictures: of the first warp's instructions in `experiment`'s kernel (its stores only
  /// when the lab data lists it in `figure_stores`), the one the source's GPU served least
  /// efficiently (the first of equals); nullopt without a pattern.
  std::optional<warp::WarpAccess> telling_access(const std::string& experiment) const;

 private:
  struct Launch;
  std::optional<Launch> launch_for(const std::string& experiment, bool on_source) const;

  const LabData& lab_;
  const Measurement& m_;
  std::map<std::string, warp::KernelCost> cache_;   // launch key -> its cost
};

}  // namespace labbook::report
