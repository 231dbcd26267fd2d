#include "labbook/model/merge.h"

#include <string>

namespace labbook {

Measurement merge_runs(Measurement trace, const Measurement& metrics) {
  Measurement& m = trace;
  m.program.mode = "trace+metrics";
  m.metrics_requested = metrics.metrics_requested;
  m.metric_scope = metrics.metric_scope;
  m.metric_passes = metrics.metric_passes;
  // The run that ended abnormally says why collection stopped.
  if (!metrics.program.stop_reason.empty() && metrics.program.stop_reason != "exit")
    m.program.stop_reason = metrics.program.stop_reason;
  if (m.devices.empty()) m.devices = metrics.devices;
  for (const auto& issue : metrics.issues)
    if (!m.has_issue(issue.code)) m.issues.push_back(issue);

  if (m.kernels.size() != metrics.kernels.size())
    m.issues.push_back({"launch_mismatch", "the trace run launched " + std::to_string(m.kernels.size()) +
                                               " kernels and the metrics run " +
                                               std::to_string(metrics.kernels.size()) +
                                               "; metrics are kept only where the kernel names agree"});
  std::size_t renamed = 0;
  for (std::size_t i = 0; i < m.kernels.size() && i < metrics.kernels.size(); ++i) {
    const Kernel& measured = metrics.kernels[i];
    if (measured.mangled != m.kernels[i].mangled || measured.launch != m.kernels[i].launch) {
      ++renamed;
      continue;
    }
    for (const auto& [name, value] : measured.metrics) m.kernels[i].metrics[name] = value;
  }
  if (renamed)
    m.issues.push_back({"launch_mismatch", std::to_string(renamed) +
                                               " kernels differ between the trace and metrics runs; "
                                               "their metrics were dropped"});
  return m;
}

}  // namespace labbook
