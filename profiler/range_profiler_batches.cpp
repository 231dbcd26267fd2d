// What a batch of launches' counters become: stopped, decoded and evaluated into metric
// values, or, with application replay, carried in a file to the run that collects the next pass.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>

#include "cupti_status.h"
#include "pass_plan.h"
#include "range_profiler_state.h"
#include "stopwatch.h"
#include "labbook/model/text.h"

namespace labbook::profiler {

void RangeProfiler::evaluate_batch(Context& c) {
  const auto started = std::chrono::steady_clock::now();
  // A failed step loses this batch's metrics (said as an issue), never the run.
  auto lost = [&](const char* call, CUptiResult s) {
    issues_.add("metrics_lost", describe_call(call, s));
    c.pending.clear();
    if (carried_) std::remove(carried_data_path(c).c_str());   // the next run must not read the pass before
  };
  struct Accounting {   // runs on every return path
    RangeProfiler& p;
    Context& c;
    std::chrono::steady_clock::time_point started;
    ~Accounting() {
      c.running = false;
      p.evaluation_seconds_ += seconds_since(started);
    }
  } accounting{*this, c, started};
  auto stop = LABBOOK_PARAMS(CUpti_RangeProfiler_Stop_Params);
  stop.pRangeProfilerObject = c.object;
  if (CUptiResult s = cuptiRangeProfilerStop(&stop); s != CUPTI_SUCCESS) {
    return lost("cuptiRangeProfilerStop", s);
  }
  auto decode = LABBOOK_PARAMS(CUpti_RangeProfiler_DecodeData_Params);
  decode.pRangeProfilerObject = c.object;
  if (CUptiResult s = cuptiRangeProfilerDecodeData(&decode); s != CUPTI_SUCCESS) {
    return lost("cuptiRangeProfilerDecodeData", s);
  }
  if (carried_) {
    // Stop says which pass comes next: after this run's pass p, p + 1, or all submitted after
    // the last. Anything else means that CUPTI collected another pass than this run's.
    const bool as_planned = run_.last() ? stop.isAllPassSubmitted != 0
                                        : !stop.isAllPassSubmitted && stop.passIndex == static_cast<std::size_t>(run_.pass) + 1;
    if (!as_planned) {
      issues_.add("metrics_lost", join(metrics_, ", ") + ": CUPTI collected another pass than pass " +
                                      std::to_string(run_.pass + 1) + " of " + std::to_string(run_.passes) +
                                      " in this run, so its launches have no value for them");
      std::remove(carried_data_path(c).c_str());   // the next run must not read it
      c.pending.clear();
      return;
    }
  }
  if (carried_ && run_.pass > 0) {
    std::vector<std::string> kernels;
    for (const auto& l : c.pending) kernels.push_back(l.kernel);
    if (kernels != c.carried_kernels) {   // CUPTI would add one kernel's passes to another's
      issues_.add("launch_mismatch", join(metrics_, ", ") + ": batch " + std::to_string(c.batch + 1) +
                                         " launched other kernels than in the run before; its values are left out");
      c.pending.clear();
      return;
    }
  }
  if (carried_ && !run_.last()) {   // the next run collects the next pass into this image
    save_carried_data(c);
    c.pending.clear();
    return;
  }
  if (!replay_.application && !stop.isAllPassSubmitted)
    issues_.add("metrics_lost", "CUPTI expected more than the " + std::to_string(passes_) + " passes it had said for " +
                                    join(metrics_, ", ") + "; their values may be partial");
  if (decode.numOfRangeDropped > 0)
    issues_.add("ranges_dropped", std::to_string(decode.numOfRangeDropped) +
                                      " kernel ranges did not fit the counter data image");

  auto info = LABBOOK_PARAMS(CUpti_RangeProfiler_GetCounterDataInfo_Params);
  info.pCounterDataImage = c.counter_data.data();
  info.counterDataImageSize = c.counter_data.size();
  if (CUptiResult s = cuptiRangeProfilerGetCounterDataInfo(&info); s != CUPTI_SUCCESS) {
    return lost("cuptiRangeProfilerGetCounterDataInfo", s);
  }
  // Later batches that did not fill their image came back from the last run with their
  // ranges twice, the last pass's added after the first's (probe, docs/metrics.md): should a
  // first batch ever, its values would be another launch's.
  if (carried_ && info.numTotalRanges != c.pending.size()) {
    issues_.add("metrics_lost", join(metrics_, ", ") + ": CUPTI's last pass gave " + std::to_string(info.numTotalRanges) +
                                    " ranges to " + std::to_string(c.pending.size()) +
                                    " launches, so they have no value for them");
    c.pending.clear();
    return;
  }
  // Auto ranges are numbered in launch order; a mismatch means a launch labbook did not
  // see, and the mapping would be wrong, so say so.
  if (info.numTotalRanges != c.pending.size())
    issues_.add("launch_mismatch", "CUPTI profiled " + std::to_string(info.numTotalRanges) +
                                       " kernels where labbook saw " + std::to_string(c.pending.size()) +
                                       " launches; metrics are matched in launch order");

  std::vector<double> values(metric_ptrs_.size());
  for (std::size_t r = 0; r < info.numTotalRanges && r < c.pending.size(); ++r) {
    auto eval = LABBOOK_PARAMS(CUpti_Profiler_Host_EvaluateToGpuValues_Params);
    eval.pHostObject = host_->host;
    eval.pCounterDataImage = c.counter_data.data();
    eval.counterDataImageSize = c.counter_data.size();
    eval.rangeIndex = r;
    eval.ppMetricNames = metric_ptrs_.data();
    eval.numMetrics = metric_ptrs_.size();
    eval.pMetricValues = values.data();
    if (CUptiResult s = cuptiProfilerHostEvaluateToGpuValues(&eval); s != CUPTI_SUCCESS) {
      issues_.add("metrics_lost", describe_call("cuptiProfilerHostEvaluateToGpuValues", s));
      continue;
    }
    auto& out = results_[c.pending[r].index];
    for (std::size_t m = 0; m < metrics_.size(); ++m) {
      // A ratio over nothing (no requests of that kind) evaluates to NaN: no value, not a number.
      if (std::isfinite(values[m])) out[metrics_[m]] = values[m];
    }
  }
  c.pending.clear();
}

std::string RangeProfiler::carried_data_path(const Context& c) const {
  return carried_counters_prefix(replay_.plan_path) + c.name + "." + std::to_string(c.batch);
}

// A carried file: a line "labbook-counters N", the batch's N kernels a line each, then the
// counter data image as CUPTI left it.
bool RangeProfiler::load_carried_data(Context& c) {
  const std::string path = carried_data_path(c);
  std::ifstream in(path, std::ios::binary);
  std::string magic;
  std::size_t count = 0;
  in >> magic >> count;
  in.ignore(1);
  c.carried_kernels.clear();
  for (std::string kernel; in && c.carried_kernels.size() < count && std::getline(in, kernel);)
    c.carried_kernels.push_back(kernel);
  std::vector<std::uint8_t> data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  in.close();
  std::remove(path.c_str());   // read once: a later run must not take this pass for its own
  if (magic != "labbook-counters" || c.carried_kernels.size() != count || data.size() != c.counter_data.size()) {
    issues_.add("metrics_lost", "pass " + std::to_string(run_.pass + 1) + " of " + join(metrics_, ", ") +
                                    " found no counter data of the run before, so the launches have no value for them "
                                    "(a program that launches differently from run to run?)");
    return false;
  }
  c.counter_data = std::move(data);
  return true;
}

void RangeProfiler::save_carried_data(const Context& c) {
  const std::string path = carried_data_path(c);
  const std::string temporary = path + ".tmp";
  std::ofstream out(temporary, std::ios::binary);
  out << "labbook-counters " << c.pending.size() << "\n";
  for (const auto& l : c.pending) out << l.kernel << "\n";
  out.write(reinterpret_cast<const char*>(c.counter_data.data()), static_cast<std::streamsize>(c.counter_data.size()));
  out.close();
  if (out && std::rename(temporary.c_str(), path.c_str()) == 0) return;
  std::remove(temporary.c_str());
  issues_.add("metrics_lost", "could not keep the counter data of " + join(metrics_, ", ") + " for the next pass in " +
                                  path);
}

}  // namespace labbook::profiler
