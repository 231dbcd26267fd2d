#include "labbook/model/quantity.h"

#include <stdexcept>
#include <string_view>
#include <vector>

#include "labbook/model/metric_catalog.h"
#include "labbook/model/quantity_labels.h"
#include "labbook/model/text.h"

namespace labbook {

namespace {

const std::vector<DerivedQuantity> kDerived = {
    {QuantityId::kTime, "time", "ns", "kernel time on the GPU, from the trace run (CUPTI activity records); for a range with no "
                   "kernel, the time of its copies",
     QuantityScope::kBoth, true},
    {QuantityId::kEffectiveBandwidth, "effective_bandwidth", "bytes/s",
     "bytes the threads requested (sectors x 32 B x efficiency, loads + stores) / time; for a range with no "
     "kernel, bytes its copies read and wrote (twice the size for device-to-device) / time", QuantityScope::kRange, true},
    {QuantityId::kHostTime, "host_time", "ns",
     "a copy as the program sees it: from the start of the runtime call that issued it to the later of the call's "
     "return and the copy's end on the GPU (median over the range's copies)",
     QuantityScope::kRange, true},
    {QuantityId::kHostBandwidth, "host_bandwidth", "bytes/s",
     "bytes a copy moved (twice the size for device-to-device) / host_time: the bandwidth the program sees, the "
     "call's own work (staging a pageable buffer, pinning, synchronising) included",
     QuantityScope::kRange, true},
    {QuantityId::kEffectiveBandwidthPctOfPeak, "effective_bandwidth_pct_of_peak", "%",
     "effective bandwidth as a share of the GPU's theoretical DRAM bandwidth (2 x memory clock x bus width / 8)",
     QuantityScope::kRange, true},
    {QuantityId::kDramBandwidth, "dram_bandwidth", "bytes/s", "(DRAM bytes read + written) / time", QuantityScope::kRange, true},
    {QuantityId::kThreads, "threads", "threads", "threads launched (grid x block)", QuantityScope::kRange, false},
    // Whole-range quantities: from the range's own start and end, not per kernel.
    {QuantityId::kPayload, "payload", "", "the number the program attached to the NVTX range (its payload; median over its occurrences)",
     QuantityScope::kRange, false},
    {QuantityId::kPayloadBytes, "payload_bytes", "B", "a byte count the program attached to the NVTX range (its payload; median over its occurrences)",
     QuantityScope::kRange, false},
    {QuantityId::kPayloadPct, "payload_pct", "%", "a share in percent the program attached to the NVTX range (its payload; median over its occurrences)",
     QuantityScope::kRange, true},
    {QuantityId::kPayloadError, "payload_error", "cudaError_t",
     "the cudaError_t a call returned, attached by the program to the NVTX range (its payload; 0 is cudaSuccess)",
     QuantityScope::kRange, false},
    {QuantityId::kPayloadNs, "payload_ns", "ns", "a duration the program attached to the NVTX range (its payload; median over its occurrences)",
     QuantityScope::kRange, true},
    {QuantityId::kRangeTime, "range_time", "ns", "wall time of the NVTX range, from its push to its pop (median over its occurrences): "
                         "everything the program did inside it, host work and waiting included",
     QuantityScope::kRange, true},
    // nvprof's "GPU activities" row of the range's kernels (all names together), host-to-device and
    // device-to-host copies; Time(%) is the row's share of the range's kernels, copies and memsets.
    {QuantityId::kKernelsTimePct, "kernels_time_pct", "%", "Time(%) of the range's kernels: their share of its GPU activity time",
     QuantityScope::kRange, true},
    {QuantityId::kKernelsTime, "kernels_time", "ns", "total time of the range's kernels", QuantityScope::kRange, true},
    {QuantityId::kKernelsCalls, "kernels_calls", "calls", "kernels launched in the range", QuantityScope::kRange, false},
    {QuantityId::kKernelsAvg, "kernels_avg", "ns", "average kernel time in the range", QuantityScope::kRange, true},
    {QuantityId::kKernelsMin, "kernels_min", "ns", "shortest kernel time in the range", QuantityScope::kRange, true},
    {QuantityId::kKernelsMax, "kernels_max", "ns", "longest kernel time in the range", QuantityScope::kRange, true},
    {QuantityId::kHtodTimePct, "memcpy_htod_time_pct", "%", "Time(%) of the range's host-to-device copies: their share of its GPU activity time",
     QuantityScope::kRange, true},
    {QuantityId::kHtodTime, "memcpy_htod_time", "ns", "total time of the range's host-to-device copies", QuantityScope::kRange, true},
    {QuantityId::kHtodCalls, "memcpy_htod_calls", "calls", "host-to-device copies in the range", QuantityScope::kRange, false},
    {QuantityId::kHtodAvg, "memcpy_htod_avg", "ns", "average host-to-device copy time in the range", QuantityScope::kRange, true},
    {QuantityId::kHtodMin, "memcpy_htod_min", "ns", "shortest host-to-device copy in the range", QuantityScope::kRange, true},
    {QuantityId::kHtodMax, "memcpy_htod_max", "ns", "longest host-to-device copy in the range", QuantityScope::kRange, true},
    {QuantityId::kDtohTimePct, "memcpy_dtoh_time_pct", "%", "Time(%) of the range's device-to-host copies: their share of its GPU activity time",
     QuantityScope::kRange, true},
    {QuantityId::kDtohTime, "memcpy_dtoh_time", "ns", "total time of the range's device-to-host copies", QuantityScope::kRange, true},
    {QuantityId::kDtohCalls, "memcpy_dtoh_calls", "calls", "device-to-host copies in the range", QuantityScope::kRange, false},
    {QuantityId::kDtohAvg, "memcpy_dtoh_avg", "ns", "average device-to-host copy time in the range", QuantityScope::kRange, true},
    {QuantityId::kDtohMin, "memcpy_dtoh_min", "ns", "shortest device-to-host copy in the range", QuantityScope::kRange, true},
    {QuantityId::kDtohMax, "memcpy_dtoh_max", "ns", "longest device-to-host copy in the range", QuantityScope::kRange, true},
    // Unified memory: the collector's events carry no range, so they are counted by time,
    // between the range's push and pop (any thread: the labs run one).
    {QuantityId::kUmHtodBytes, "um_htod_bytes", "bytes", "unified memory migrated host to device while the range was open",
     QuantityScope::kRange, false},
    {QuantityId::kUmDtohBytes, "um_dtoh_bytes", "bytes", "unified memory migrated device to host while the range was open",
     QuantityScope::kRange, false},
    {QuantityId::kUmGpuPageFaults, "um_gpu_page_faults", "faults", "GPU page-fault groups of unified memory while the range was open",
     QuantityScope::kRange, false},
    {QuantityId::kUmCpuPageFaults, "um_cpu_page_faults", "faults", "CPU page faults on unified memory while the range was open",
     QuantityScope::kRange, false},
    // Overlap of the range's GPU work, from the trace run's start and end of every kernel and copy.
    {QuantityId::kCopyOverlapPct, "copy_overlap_pct", "%",
     "share of the range's copy time (memcpys, each direction counted; for an exercise's call, copies between host "
     "and GPU only) during which at least one of its kernels was running: the copy time hidden behind kernels",
     QuantityScope::kBoth, true},
    {QuantityId::kMaxConcurrentKernels, "max_concurrent_kernels", "kernels", "the most kernels of the range running at one instant",
     QuantityScope::kBoth, true},
    {QuantityId::kCyclesPerLoad, "cycles_per_load", "cycles",
     "kernel time (trace run) x SM clock (sm_clock) / load instructions executed (inst_executed_global_loads + "
     "inst_executed_shared_loads + inst_executed_local_loads, those collected); for one thread following a chain of "
     "dependent loads, the latency of one load", QuantityScope::kRange, true},
    {QuantityId::kFlopRateSp, "flop_rate_sp", "FLOP/s",
     "single-precision FLOPs the counters saw (flop_count_sp, plus tensor_flop_count_tf32 where collected) / "
     "kernel time (trace run)", QuantityScope::kRange, true},
    {QuantityId::kFlopRateDp, "flop_rate_dp", "FLOP/s",
     "double-precision FLOPs the counters saw (flop_count_dp, plus tensor_flop_count_dp where collected: cuBLAS "
     "runs DGEMM on the FP64 tensor cores) / kernel time (trace run)", QuantityScope::kRange, true},
    {QuantityId::kCyclesPerInstruction, "cycles_per_instruction", "cycles",
     "kernel time (trace run) x SM clock (sm_clock) / warp instructions executed (inst_executed); for one thread "
     "running a chain of dependent instructions, the latency of one instruction", QuantityScope::kRange, true},
    // What the audit of an exercise's calls derives (grading/call_audit.h).
    {QuantityId::kSpeedPctOfReference, "speed_pct_of_reference", "%",
     "the lab's reference kernel's time over the student's, x 100, medians over the timed calls of one run",
     QuantityScope::kCall, true},
    // What it derives for an exercise whose student writes host code (labs 2 and 8), from the
    // trace: the calls' NVTX ranges, copies and the runtime calls that issued them.
    {QuantityId::kWallTime, "wall_time", "ns",
     "a call's wall time in the trace: its NVTX range from push to pop, host code, copies and kernels included "
     "(median over the timed calls)", QuantityScope::kCall, true},
    {QuantityId::kWallSpeedPctOfReference, "wall_speed_pct_of_reference", "%",
     "the lab's reference pipeline's wall time over the student's, x 100, medians over the timed calls of one run",
     QuantityScope::kCall, true},
    {QuantityId::kPageableCopyBytes, "pageable_copy_bytes", "B",
     "bytes a call copied between the GPU and pageable (not page-locked) host memory: the driver stages them through "
     "a page-locked buffer of its own (median over the timed calls)", QuantityScope::kCall, false},
    {QuantityId::kSynchronousCopies, "synchronous_copies", "copies",
     "host-device copies a call issued with a runtime or driver call that waits (cudaMemcpy, not cudaMemcpyAsync): "
     "nothing else the host issues can overlap them (median over the timed calls)", QuantityScope::kCall, false},
    {QuantityId::kLinkPct, "link_pct", "%",
     "the time the call's input and output take over the link at the bandwidth the harness measured in the same run "
     "(page-locked copies, each direction alone), over the call's wall time, x 100: above 100 when uploads and "
     "downloads overlap (median over the timed calls)", QuantityScope::kCall, true},
    {QuantityId::kCopyHiddenPct, "copy_hidden_pct", "%",
     "the share of the copy time a call needs that its schedule hid: its copies' time in each direction scaled to "
     "the bytes its input and output need, plus the kernel time it needs (its own, at most the reference's for the "
     "same words), minus its wall time, over that copy time, x 100, from 0 to 100; work or copies beyond the task's "
     "only add wall time (median over the timed calls)", QuantityScope::kCall, true},
};

const DerivedQuantity* find_derived(const std::string& name) {
  for (const auto& d : kDerived)
    if (name == d.name) return &d;
  return nullptr;
}

/// Catalog metrics that rest on a time without a time's unit: cycles counted over a kernel's
/// duration, and utilisations that are shares of it.
bool is_timed_metric(const CatalogMetric& m) {
  const std::string& unit = m.unit;
  const bool per_second = unit.size() > 2 && unit.compare(unit.size() - 2, 2, "/s") == 0;
  return unit == "ns" || unit == "Hz" || per_second || m.name == "elapsed_cycles" || m.name == "dram_utilization" ||
         m.name == "achieved_occupancy";
}

}  // namespace

const std::vector<DerivedQuantity>& derived_quantities() { return kDerived; }

std::string_view share_of_peak_rate(std::string_view name) {
  constexpr std::string_view kSuffix = "_pct_of_peak";
  if (name.size() <= kSuffix.size() || name.substr(name.size() - kSuffix.size()) != kSuffix) return {};
  return name.substr(0, name.size() - kSuffix.size());
}

std::optional<Quantity> Quantity::find(const std::string& name, QuantityScope scope) {
  if (const DerivedQuantity* d = find_derived(name)) {
    if (!d->in(scope)) return std::nullopt;
    return Quantity(name, d->id, d, nullptr);
  }
  if (const CatalogMetric* m = find_catalog_metric(name)) return Quantity(name, QuantityId::kMetric, nullptr, m);
  // A share of a peak: of a rate the table or the catalog knows, for a lab's ranges only.
  const std::string rate(share_of_peak_rate(name));
  if (scope == QuantityScope::kRange && !rate.empty() && (find_derived(rate) || find_catalog_metric(rate)))
    return Quantity(name, QuantityId::kShareOfPeak, nullptr, nullptr);
  return std::nullopt;
}

Quantity Quantity::named(const std::string& name) {
  if (auto q = find(name, QuantityScope::kRange)) return *q;
  if (auto q = find(name, QuantityScope::kCall)) return *q;
  throw std::logic_error("labbook names no quantity '" + name + "'");
}

Quantity Quantity::rate() const {
  if (id_ != QuantityId::kShareOfPeak) throw std::logic_error(name_ + " is not a share of a peak");
  return named(std::string(share_of_peak_rate(name_)));
}

bool Quantity::in(QuantityScope s) const {
  if (derived_) return derived_->in(s);
  return id_ == QuantityId::kMetric || (id_ == QuantityId::kShareOfPeak && s == QuantityScope::kRange);
}

std::string Quantity::unit() const {
  if (derived_) return derived_->unit;
  if (metric_) return metric_->unit;
  return id_ == QuantityId::kShareOfPeak ? "%" : "";
}

bool Quantity::timed() const {
  if (derived_) return derived_->timed;
  if (metric_) return is_timed_metric(*metric_);
  return id_ == QuantityId::kShareOfPeak;   // a share of a peak rate rests on a time
}

std::string Quantity::label() const { return name_.empty() ? "" : quantity_reader_label(name_); }

std::string Quantity::description() const {
  if (derived_) return derived_->description;
  if (metric_) return metric_->description + " (" + metric_->formula_text() + ")";
  if (id_ != QuantityId::kShareOfPeak) return "";
  return rate().name() + " as a share of this GPU's peak for it: the lab's published figure per clock per SM x SMs x "
                         "maximum SM clock (see the setup table)";
}

std::string closest_quantities(const std::string& name, QuantityScope s, std::size_t count) {
  std::vector<std::string> candidates;
  for (const auto& d : kDerived)
    if (d.in(s)) candidates.push_back(d.name);
  for (const auto& m : closest_metric_names(name, count)) candidates.push_back(m);
  return join(closest_names(name, candidates, count), ", ");
}

}  // namespace labbook
