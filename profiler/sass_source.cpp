#include "sass_source.h"

#include <cupti_pcsampling.h>
#include <cupti_profiler_target.h>
#include <cupti_sass_metrics.h>
#include <cupti_target.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <tuple>

#include "context_sync.h"
#include "cupti_status.h"
#include "labbook/model/text.h"

namespace labbook::profiler {

namespace {

std::string chip_of(std::uint32_t device) {
  auto chip = LABBOOK_PARAMS(CUpti_Device_GetChipName_Params);
  chip.deviceIndex = device;
  return cuptiDeviceGetChipName(&chip) == CUPTI_SUCCESS && chip.pChipName ? chip.pChipName : "";
}

}  // namespace

SassSource::SassSource(std::vector<std::string> wanted, std::string kernel, IssueLog& issues, bool verbose)
    : wanted_(std::move(wanted)), kernel_(std::move(kernel)), issues_(issues), verbose_(verbose) {}

void SassSource::on_module_loaded(const CUpti_ModuleResourceData& module) {
  if (!module.pCubin || module.cubinSize == 0) return;
  CUpti_GetCubinCrcParams crc{};
  crc.size = CUpti_GetCubinCrcParamsSize;
  crc.cubin = module.pCubin;
  crc.cubinSize = module.cubinSize;
  if (cuptiGetCubinCrc(&crc) != CUPTI_SUCCESS) return;
  std::lock_guard<std::mutex> lock(mutex_);
  // The SASS records name a cubin by a 32-bit CRC.
  cubins_.emplace(static_cast<std::uint32_t>(crc.cubinCrc), std::string(module.pCubin, module.cubinSize));
}

void SassSource::on_launch(CUcontext ctx, std::uint64_t launch, const std::string& mangled, bool selected) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (selected && std::find(chosen_.begin(), chosen_.end(), mangled) == chosen_.end()) chosen_.push_back(mangled);
    const bool first_execution = launched_.insert(mangled).second;
    if (counting_) {
      if (ctx == counting_ && mangled == kernel_ && !done_) counted_launches_.push_back(launch);
      return;
    }
    if (done_) return;
    // Not yet counting: this launch starts it if it is the named kernel's first, or (none
    // named) a chosen kernel's first execution; one that ran before would never be counted.
    if (kernel_.empty() ? !(selected && first_execution) : mangled != kernel_) return;
    if (!first_execution) {   // a named kernel launched before: never counted in this run
      done_ = true;
      issues_.add("source_lost", "the kernel to count, " + demangled(mangled) + ", ran before collection could start");
      return;
    }
    kernel_ = mangled;
    counting_ = ctx;   // claimed under the lock: no other launch enables twice
    counted_launches_.push_back(launch);
  }
  if (!enable(ctx)) {
    std::lock_guard<std::mutex> lock(mutex_);
    done_ = true;
    counting_ = nullptr;
    counted_launches_.clear();
  }
}

std::vector<std::string> SassSource::functions_chosen() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return chosen_;
}

bool SassSource::enable(CUcontext ctx) {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto fail = [&](const std::string& why) {
    issues_.add("source_unsupported", "per-instruction counts could not be collected: " + why);
    return false;
  };
  std::uint32_t device = 0;
  if (CUptiResult s = cuptiGetDeviceId(ctx, &device); s != CUPTI_SUCCESS) return fail(describe_call("cuptiGetDeviceId", s));
  auto init = LABBOOK_PARAMS(CUpti_Profiler_Initialize_Params);
  if (CUptiResult s = cuptiProfilerInitialize(&init); s != CUPTI_SUCCESS) return fail(describe_call("cuptiProfilerInitialize", s));
  const std::string chip = chip_of(device);
  // What this GPU offers, listed rather than assumed.
  auto count = LABBOOK_PARAMS(CUpti_SassMetrics_GetNumOfMetrics_Params);
  count.pChipName = chip.c_str();
  if (CUptiResult s = cuptiSassMetricsGetNumOfMetrics(&count); s != CUPTI_SUCCESS)
    return fail(describe_call("cuptiSassMetricsGetNumOfMetrics", s));
  std::vector<CUpti_SassMetrics_MetricDetails> offered(count.numOfMetrics);
  auto list = LABBOOK_PARAMS(CUpti_SassMetrics_GetMetrics_Params);
  list.pChipName = chip.c_str();
  list.numOfMetrics = offered.size();
  list.pMetricsList = offered.data();
  if (CUptiResult s = cuptiSassMetricsGetMetrics(&list); s != CUPTI_SUCCESS)
    return fail(describe_call("cuptiSassMetricsGetMetrics", s));
  // Those the GPU lacks are named by the report, which knows which ones stand in for
  // others (the ideal sectors come whole on some GPUs, as loads plus stores on others).
  std::vector<CUpti_SassMetrics_Config> configs;
  for (const auto& name : wanted_)
    for (const auto& m : offered)
      if (m.pMetricName && name == m.pMetricName) {
        configs.push_back({m.metricId, CUPTI_SASS_METRICS_OUTPUT_GRANULARITY_GPU});
        metric_names_[m.metricId] = name;
      }
  if (configs.empty()) return fail("the " + chip + " offers none of the SASS metrics labbook reads");
  auto config = LABBOOK_PARAMS(CUpti_SassMetricsSetConfig_Params);
  config.numOfMetricConfig = configs.size();
  config.pConfigs = configs.data();
  config.deviceIndex = device;
  if (CUptiResult s = cuptiSassMetricsSetConfig(&config); s != CUPTI_SUCCESS)
    return fail(describe_call("cuptiSassMetricsSetConfig", s));
  auto enable = LABBOOK_PARAMS(CUpti_SassMetricsEnable_Params);
  enable.ctx = ctx;
  enable.enableLazyPatching = 1;   // only the functions that run are patched
  if (CUptiResult s = cuptiSassMetricsEnable(&enable); s != CUPTI_SUCCESS) return fail(describe_call("cuptiSassMetricsEnable", s));
  return true;
}

std::vector<SassInstruction> SassSource::take(CUcontext ctx) {
  auto properties = LABBOOK_PARAMS(CUpti_SassMetricsGetDataProperties_Params);
  properties.ctx = ctx;
  if (CUptiResult s = cuptiSassMetricsGetDataProperties(&properties); s != CUPTI_SUCCESS) {
    issues_.add("source_lost", describe_call("cuptiSassMetricsGetDataProperties", s));
    return {};
  }
  const std::size_t records = properties.numOfPatchedInstructionRecords, instances = properties.numOfInstances;
  if (verbose_) std::fprintf(stderr, "labbook collector: source flush: %zu records, %zu instances\n", records, instances);
  if (records == 0 || instances == 0) return {};
  std::vector<CUpti_SassMetrics_Data> data(records);
  std::vector<CUpti_SassMetrics_InstanceValue> values(records * instances);
  for (std::size_t r = 0; r < records; ++r) {
    data[r] = {};
    data[r].structSize = sizeof(CUpti_SassMetrics_Data);
    data[r].pInstanceValues = &values[r * instances];
  }
  auto flush = LABBOOK_PARAMS(CUpti_SassMetricsFlushData_Params);
  flush.ctx = ctx;
  flush.numOfPatchedInstructionRecords = records;
  flush.numOfInstances = instances;
  flush.pMetricsData = data.data();
  if (CUptiResult s = cuptiSassMetricsFlushData(&flush); s != CUPTI_SUCCESS) {
    issues_.add("source_lost", describe_call("cuptiSassMetricsFlushData", s));
    return {};
  }
  // CUPTI gives a record per instruction and metric (GH100, CUPTI 13.0): one instruction's
  // records become one entry, holding every metric collected (0 where it did not count), so
  // that a metric absent from an entry is one the GPU does not offer.
  std::vector<SassInstruction> out;
  std::map<std::tuple<std::uint32_t, std::string, std::uint32_t>, std::size_t> index;
  std::lock_guard<std::mutex> lock(mutex_);
  for (const auto& d : data) {
    const std::string function = d.functionName ? d.functionName : "";
    auto [at, added] = index.try_emplace({d.cubinCrc, function, d.pcOffset}, out.size());
    if (added) {
      SassInstruction i;
      i.function = function;
      i.pc_offset = d.pcOffset;
      for (const auto& [id, name] : metric_names_) i.metrics[name] = 0;
      line_of(d.cubinCrc, i);
      out.push_back(std::move(i));
    }
    SassInstruction& i = out[at->second];
    for (std::size_t v = 0; v < instances; ++v) {
      const auto name = metric_names_.find(d.pInstanceValues[v].metricId);
      if (name != metric_names_.end()) i.metrics[name->second] += static_cast<double>(d.pInstanceValues[v].value);
    }
  }
  return out;
}

void SassSource::line_of(std::uint32_t crc, SassInstruction& i) {
  const auto cubin = cubins_.find(crc);
  if (cubin == cubins_.end() || i.function.empty()) return;
  CUpti_GetSassToSourceCorrelationParams where{};
  where.size = CUpti_GetSassToSourceCorrelationParamsSize;
  where.cubin = cubin->second.data();
  where.cubinSize = cubin->second.size();
  where.functionName = i.function.c_str();
  where.pcOffset = i.pc_offset;
  if (cuptiGetSassToSourceCorrelation(&where) != CUPTI_SUCCESS) return;   // no -lineinfo: the SASS view
  if (where.fileName && where.lineNumber > 0) {
    const std::string dir = where.dirName ? where.dirName : "";
    i.file = dir.empty() || where.fileName[0] == '/' ? where.fileName : dir + "/" + where.fileName;
    i.line = static_cast<int>(where.lineNumber);
  }
  std::free(where.fileName);   // CUPTI allocates them; the caller frees
  std::free(where.dirName);
}

void SassSource::finish(CUcontext ctx) {
  std::string function;
  std::vector<std::uint64_t> launches;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!counting_ || counting_ != ctx || done_) return;
    done_ = true;   // counts come once (sass_source.h): this context's are all there will be
    function = kernel_;
    launches = std::move(counted_launches_);
  }
  synchronize_context(ctx);
  std::vector<SassInstruction> instructions = take(ctx);
  auto disable = LABBOOK_PARAMS(CUpti_SassMetricsDisable_Params);
  disable.ctx = ctx;
  cuptiSassMetricsDisable(&disable);
  // Only the counted kernel was patched; anything else would be another's.
  instructions.erase(std::remove_if(instructions.begin(), instructions.end(),
                                    [&](const SassInstruction& i) { return i.function != function; }),
                     instructions.end());
  if (instructions.empty() || launches.empty()) {
    issues_.add("source_lost", "CUPTI returned no per-instruction counts for " + demangled(function));
    return;
  }
  std::lock_guard<std::mutex> lock(mutex_);
  results_[launches.front()] = {std::move(instructions), launches.size()};
}

void SassSource::finish_all() {
  CUcontext ctx = nullptr;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!done_) ctx = counting_;
  }
  if (ctx) finish(ctx);
}

std::map<std::uint64_t, SassSource::Counted> SassSource::results() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return results_;
}

}  // namespace labbook::profiler
