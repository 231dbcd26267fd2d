// The collector's life: CUPTI subscribed and the parts a run needs built (start), each
// callback dispatched to its part, and the measurement assembled and written (finish).
#include "collector.h"

#include <chrono>
#include <cstdio>
#include <string_view>

#include "callback_switches.h"
#include "collector_state.h"
#include "collector_subscriptions.h"
#include "cupti_status.h"
#include "graph_exec_calls.h"
#include "labbook/model/error.h"
#include "labbook/model/measurement_json.h"
#include "measurement_assembly.h"
#include "nvtx_callbacks.h"
#include "overhead_report.h"
#include "stopwatch.h"

namespace labbook::profiler {

namespace {

double seconds(std::uint64_t ns) { return static_cast<double>(ns) * 1e-9; }

}  // namespace

bool Collector::start() {
  if (CUptiResult s = cuptiSubscribe(&subscriber_, &Collector::on_callback, this); s != CUPTI_SUCCESS) {
    std::fprintf(stderr, "labbook collector: %s\n", describe_call("cuptiSubscribe", s).c_str());
    return false;
  }
  const bool metrics = !config_.metrics.empty();
  if (!config_.source_metrics.empty())
    source_ = std::make_unique<SassSource>(config_.source_metrics, config_.source_kernel, issues_, config_.verbose);
  if (config_.trace) tracer_ = std::make_unique<ActivityTracer>(issues_, names_);
  if (metrics) {
    profiler_ = std::make_unique<RangeProfiler>(
        config_.metrics, ReplayOptions{config_.application_replay, config_.pass, config_.pass_plan, config_.expected_launches,
                                     config_.without_stops, config_.ranges_per_image}, issues_);
    profiler_->initialize_soon();
    if (config_.flush_l2) flusher_ = std::make_unique<L2Flusher>(config_.flush_passes);
  }
  CallbackSwitches on(subscriber_, issues_);   // after the parts its callbacks reach
  subscribe(on, {config_.trace, !config_.source_metrics.empty(), metrics && config_.flush_l2});
  // Any callback refused, the runtime domain perhaps: CUPTI records the launch calls then.
  if (tracer_ && on.failures() > 0) tracer_->leave_launch_calls_to_cupti();
  return true;
}

void Collector::finish(const std::string& stop_reason) {
  if (finished_.exchange(true)) return;
  const std::uint64_t started = now_ns();
  if (config_.verbose) finish_stages_.peak_before_mb = peak_resident_mb();
  if (flusher_) flusher_->settle();
  if (profiler_) profiler_->finish_all();
  if (source_) source_->finish_all();
  const std::uint64_t profiler_finished = now_ns();
  if (tracer_) tracer_->flush();
  finish_stages_.flushed_ns = finish_stages_.built_ns = now_ns();   // built_ns again once built
  bool built = false;
  try {
    AssembledMeasurement m = assemble_measurement(
        {config_, started_at_, book_.take(), nvtx_, profiler_.get(), source_.get(), tracer_.get(), issues_});
    m.measurement.program.stop_reason = stop_reason;
    finish_stages_.built_ns = now_ns();
    built = true;
    // At exit the program's work is done, so the rows may be made on threads of their own;
    // not in a signal handler, where starting a thread is not safe.
    const MeasurementWriting writing = stop_reason == "exit" ? MeasurementWriting::SideBySide : MeasurementWriting::OneThread;
    const MadeTables made = m.trace ? m.trace->tables() : MadeTables{};
    if (config_.output_fd >= 0)
      write_measurement_text(m.measurement, made,
                             [this](std::string_view piece) { write_all(config_.output_fd, piece); }, writing);
    else write_measurement(m.measurement, made, config_.output, writing);
  } catch (const Error& e) {
    if (!built) finish_stages_.built_ns = now_ns();   // the time went to building; nothing was written
    std::fprintf(stderr, "labbook collector: %s\n", e.what());
  }
  if (config_.verbose) report_overhead(started, profiler_finished);
}

void CUPTIAPI Collector::on_callback(void* self, CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                                 const void* data) {
  auto* c = static_cast<Collector*>(self);
  if (c->finished_) return;
  if (!c->config_.verbose) return c->dispatch(domain, cbid, data);
  const auto entered = std::chrono::steady_clock::now();   // the trace run's cost per call
  c->dispatch(domain, cbid, data);
  c->callback_ns_ += static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - entered).count());
  ++c->callbacks_;
}

void Collector::dispatch(CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void* data) {
  switch (domain) {
    case CUPTI_CB_DOMAIN_NVTX:
      record_nvtx_call(nvtx_, cbid, *static_cast<const CUpti_NvtxData*>(data), this_thread_id(), now_ns);
      break;
    case CUPTI_CB_DOMAIN_RUNTIME_API: on_runtime(cbid, static_cast<const CUpti_CallbackData*>(data)); break;
    case CUPTI_CB_DOMAIN_DRIVER_API: on_driver_call(cbid, static_cast<const CUpti_CallbackData*>(data)); break;
    case CUPTI_CB_DOMAIN_RESOURCE:
      if (cbid == CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING && profiler_)
        profiler_->finish(static_cast<const CUpti_ResourceData*>(data)->context);
      else if (cbid == CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING && source_)
        source_->finish(static_cast<const CUpti_ResourceData*>(data)->context);
      else if (cbid == CUPTI_CBID_RESOURCE_MODULE_LOADED && source_)
        source_->on_module_loaded(*static_cast<const CUpti_ModuleResourceData*>(
            static_cast<const CUpti_ResourceData*>(data)->resourceDescriptor));
      else if (cbid == CUPTI_CBID_RESOURCE_CONTEXT_CREATED && flusher_)
        prepare_flusher(static_cast<const CUpti_ResourceData*>(data)->context);
      break;
    default: break;
  }
}

void Collector::on_driver_call(CUpti_CallbackId cbid, const CUpti_CallbackData* d) {
  if (is_graph_exec_call(cbid)) return graphs_.on_exec_call(cbid, *d);
  const DriverCallback* call = find_driver_callback(cbid);
  if (!call) return;
  switch (call->role) {
    case DriverCallRole::kManagedMemory:
      if (tracer_ && d->callbackSite == CUPTI_API_ENTER) tracer_->enable_unified_memory();
      break;
    case DriverCallRole::kGraphInstantiate: graphs_.on_instantiate(*d); break;
    case DriverCallRole::kBeginCapture:
    case DriverCallRole::kEndCapture: on_capture(*call, d); break;
    case DriverCallRole::kDriverGpuWork: stop_profiling_before(d); break;
    case DriverCallRole::kLaunch:
    case DriverCallRole::kGraphLaunch: on_launch(*call, d); break;
  }
}

// The flusher's context, kernel and buffer (about 0.13 s on the H100) are made while the
// program sets itself up, rather than at its first profiled kernel.
void Collector::prepare_flusher(CUcontext context) {
  std::uint32_t device = 0;
  if (cuptiGetDeviceId(context, &device) == CUPTI_SUCCESS) flusher_->prepare_soon(static_cast<int>(device));
}

// finish() began at `started`, and had evaluated the profiler's last batch and torn CUPTI's
// profiler down at `profiler_finished` (the rest: trace records and the measurement).
void Collector::report_overhead(std::uint64_t started, std::uint64_t profiler_finished) const {
  const std::uint64_t finish_ns = now_ns() - started, profiler_ns = profiler_finished - started;
  if (!profiler_) {
    TraceOverhead f;
    f.launches = book_.launches_seen();
    f.callback_seconds = seconds(callback_ns_.load());
    f.callbacks = callbacks_.load();
    f.finish_seconds = seconds(finish_ns);
    f.records_seconds = seconds(finish_stages_.flushed_ns - profiler_finished);
    f.build_seconds = seconds(finish_stages_.built_ns - finish_stages_.flushed_ns);
    f.write_seconds = seconds(now_ns() - finish_stages_.built_ns);
    f.since_start_seconds = seconds(now_ns() - started_ns_);
    f.peak_mb = peak_resident_mb();
    f.peak_before_finish_mb = finish_stages_.peak_before_mb;
    std::fputs(describe_overhead(f).c_str(), stderr);
    return;
  }
  ProfilerOverhead f;
  profiler_->add_costs(f);
  if (flusher_) flusher_->add_costs(f);
  f.launches = book_.launches_seen();
  f.launch_seconds = seconds(launch_ns_.load());
  f.finish_seconds = seconds(finish_ns);
  f.profiler_finish_seconds = seconds(profiler_ns);
  f.since_start_seconds = seconds(now_ns() - started_ns_);
  f.peak_mb = peak_resident_mb();
  std::fputs(describe_overhead(f).c_str(), stderr);
}

namespace {

Collector* g_collector = nullptr;

}  // namespace

bool start_collector(const CollectorConfig& config) {
  if (g_collector) return true;
  auto collector = std::make_unique<Collector>(config);
  if (!collector->start()) return false;
  g_collector = collector.release();   // lives until exit: CUPTI may call back until then
  return true;
}

void finish_collector(const std::string& stop_reason) {
  if (g_collector) g_collector->finish(stop_reason);
}

}  // namespace labbook::profiler
