#include "measurement_assembly.h"

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <vector>

#include <cuda.h>
#include <cupti.h>

#include "activity_records.h"
#include "activity_tracer.h"
#include "device_facts.h"
#include "issue_log.h"
#include "launch_join.h"
#include "nvtx_tracker.h"
#include "process_facts.h"
#include "range_profiler.h"
#include "sass_source.h"

namespace labbook::profiler {

namespace {

constexpr const char* kCollectorVersion = "0.1.0";

}  // namespace

AssembledMeasurement assemble_measurement(MeasurementParts parts) {
  const CollectorConfig& config = parts.config;
  IssueLog& issues = parts.issues;
  AssembledMeasurement assembled;
  Measurement& m = assembled.measurement;
  m.program.command = own_command_line();
  m.program.started_at = parts.started_at;
  m.program.mode = config.trace ? (config.metrics.empty() ? "trace" : "trace+metrics")
                   : parts.source ? "source"
                                  : "metrics";
  m.program.collector_version = kCollectorVersion;
  std::uint32_t cupti_version = 0;
  cuptiGetVersion(&cupti_version);
  m.program.cupti_version = static_cast<int>(cupti_version);
  m.metrics_requested = config.metrics;
  m.metric_scope = config.filter.describe();
  m.metric_passes = parts.profiler ? parts.profiler->passes() : 0;
  if (parts.profiler) {
    m.metric_replay = config.application_replay ? "application" : "kernel";
    m.cache_control = config.flush_l2 ? "all" : "none";
  }
  m.ranges = parts.nvtx.ranges();

  const std::vector<Launch>& launches = parts.launches.launches;
  if (std::optional<std::string> message = launches_beside_capture(launches))
    issues.add("launch_during_capture", *message);
  std::set<int> devices;
  for (const auto& l : launches) devices.insert(l.device);
  int count = 0;
  if (devices.empty() && cuDeviceGetCount(&count) == CUDA_SUCCESS && count > 0) devices.insert(0);
  for (int d : devices) m.devices.push_back(read_device_facts(d, issues));

  LaunchMetrics metrics = parts.profiler ? parts.profiler->results() : LaunchMetrics{};
  const auto sass = parts.source ? parts.source->results() : std::map<std::uint64_t, SassSource::Counted>{};
  if (parts.source) m.program.source_kernels = parts.source->functions_chosen();
  const NvtxTracker& nvtx = parts.nvtx;
  const RangePaths path_of = [&nvtx](std::size_t range) { return nvtx.path_of(range); };
  std::optional<ProfiledKernels> profiled;
  if (!parts.tracer && config.profiled_only) profiled = profiled_kernels_from_launches(launches, metrics, path_of);
  if (parts.tracer) {
    ActivityBatch batch = parts.tracer->take();
    name_copy_ranges(batch.copies, parts.launches.range_by_correlation, path_of);
    m.copies = std::move(batch.copies);
    m.memory_events = std::move(batch.memory_events);
    const TraceRows& trace = assembled.trace.emplace(TraceRows{
        JoinedKernels(std::move(batch.kernels), std::move(parts.launches.launches), std::move(metrics), path_of),
        NamedApiCalls(std::move(batch.api_calls))});
    for (const std::string& message : trace.kernels.unmatched()) issues.add("unmatched_kernel", message);
  } else if (profiled) {
    m.kernels = std::move(profiled->kernels);
    m.launch_tally = std::move(profiled->tally);
  } else {
    m.kernels = kernels_from_launches(launches, metrics, path_of);
    for (Kernel& k : m.kernels)
      if (auto st = sass.find(k.launch); st != sass.end()) {
        k.sass = st->second.instructions;
        k.sass_launches = st->second.launches;
      }
  }
  m.issues = issues.snapshot();
  return assembled;
}

}  // namespace labbook::profiler
