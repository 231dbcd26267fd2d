#include "quantities.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "activity_summary.h"
#include "labbook/model/metric_catalog.h"
#include "labbook/model/numbers.h"
#include "lab_data.h"
#include "stream_overlap.h"

namespace labbook::report {

namespace {

/// The median of `samples`, keeping them; nullopt when there are none.
std::optional<QuantityValue> from_samples(std::vector<double> samples) {
  const auto m = median(samples);
  if (!m) return std::nullopt;
  return QuantityValue{m, "", std::move(samples)};
}

/// `v` with its value and every sample scaled by `factor` (a share of a peak).
QuantityValue scaled(QuantityValue v, double factor) {
  if (v.value) *v.value *= factor;
  for (double& s : v.samples) s *= factor;
  return v;
}

/// Requested bytes of one kind of access: sectors x 32 x efficiency / 100.
std::optional<double> requested_bytes(const Kernel& k, const char* sectors_metric, const char* efficiency_metric) {
  const CatalogMetric* sectors = find_catalog_metric(sectors_metric);
  const CatalogMetric* efficiency = find_catalog_metric(efficiency_metric);
  const auto s = sectors->evaluate(k.metrics);
  if (!s) return std::nullopt;
  if (*s == 0) return 0.0;
  const auto e = efficiency->evaluate(k.metrics);
  if (!e) return std::nullopt;
  return *s * kSectorBytes * *e / 100.0;
}

/// Load instructions a kernel executed: global, shared and local together, counting the
/// kinds that were collected; nullopt when none was.
std::optional<double> load_instructions(const Kernel& k) {
  std::optional<double> sum;
  for (const char* name : {"inst_executed_global_loads", "inst_executed_shared_loads", "inst_executed_local_loads"})
    if (const auto v = find_catalog_metric(name)->evaluate(k.metrics)) sum = sum.value_or(0.0) + *v;
  return sum;
}


std::optional<double> kernel_value(const Kernel& k, const Quantity& quantity) {
  const auto t = k.duration_ns();
  const auto metric = [&](const char* name) { return find_catalog_metric(name)->evaluate(k.metrics); };
  switch (quantity.id()) {
    case QuantityId::kTime: return t;
    case QuantityId::kThreads:
      return static_cast<double>(k.grid[0]) * k.grid[1] * k.grid[2] * k.block[0] * k.block[1] * k.block[2];
    case QuantityId::kEffectiveBandwidth: {
      const auto ld = requested_bytes(k, "gld_transactions", "gld_efficiency");
      const auto st = requested_bytes(k, "gst_transactions", "gst_efficiency");
      if (!t || !ld || !st || *t <= 0) return std::nullopt;
      return (*ld + *st) / (*t * 1e-9);
    }
    case QuantityId::kDramBandwidth: {
      const auto r = metric("dram_read_bytes"), w = metric("dram_write_bytes");
      if (!t || !r || !w || *t <= 0) return std::nullopt;
      return (*r + *w) / (*t * 1e-9);
    }
    case QuantityId::kCyclesPerLoad:
    case QuantityId::kCyclesPerInstruction: {
      const auto clock = metric("sm_clock");
      const auto count =
          quantity.id() == QuantityId::kCyclesPerLoad ? load_instructions(k) : metric("inst_executed");
      if (!t || !clock || !count || *count <= 0) return std::nullopt;
      return *t * 1e-9 * *clock / *count;
    }
    case QuantityId::kFlopRateSp:
    case QuantityId::kFlopRateDp: {
      const auto count = flop_count([&](const std::string& name) { return find_catalog_metric(name)->evaluate(k.metrics); },
                                    quantity.id() == QuantityId::kFlopRateSp ? "sp" : "dp");
      if (!t || !count || *t <= 0) return std::nullopt;
      return *count / (*t * 1e-9);
    }
    case QuantityId::kMetric: return quantity.metric()->evaluate(k.metrics);
    default: return std::nullopt;
  }
}

std::string why_missing(const Measurement& m, const Quantity& quantity) {
  for (const auto& issue : m.issues)
    if (issue.code == "counters_denied") return "not collected: GPU counters were denied (see Collection notes)";
  if (quantity.id() == QuantityId::kTime) return "not measured: the trace run recorded no kernel times";
  if (const CatalogMetric* metric = quantity.metric()) {
    for (const auto& input : metric->inputs)
      if (std::find(m.metrics_requested.begin(), m.metrics_requested.end(), input) == m.metrics_requested.end())
        return "not collected: " + input + " was not requested";
  }
  for (const auto& issue : m.issues)
    if (issue.code == "metric_unavailable" || issue.code == "metrics_unsupported" || issue.code == "metrics_lost")
      return "not collected: " + issue.message;
  return "not collected";
}

/// The runtime call that issued `c` (same correlation id), or nullptr.
const ApiCall* issuing_call(const Measurement& m, const Copy& c) {
  for (const auto& call : m.api_calls)
    if (call.correlation == c.correlation) return &call;
  return nullptr;
}

/// A copy's value: its time on the GPU or as the program saw it (from its call's start to the
/// later of the call's return and the copy's end), or the bytes it moved through memory (a
/// device-to-device copy reads and writes its size) per second of either.
std::optional<double> copy_value(const Measurement& m, const Copy& c, const Quantity& quantity) {
  const QuantityId id = quantity.id();
  const bool as_host_saw = id == QuantityId::kHostTime || id == QuantityId::kHostBandwidth;
  double t = static_cast<double>(c.end_ns - c.start_ns);
  if (as_host_saw) {
    const ApiCall* call = issuing_call(m, c);
    if (!call) return std::nullopt;
    t = static_cast<double>(std::max(call->end_ns, c.end_ns) - call->start_ns);
  }
  if (id == QuantityId::kTime || id == QuantityId::kHostTime) return t;
  if ((id == QuantityId::kEffectiveBandwidth || id == QuantityId::kHostBandwidth) && t > 0)
    return static_cast<double>(c.bytes) * (c.kind == CopyKind::DeviceToDevice ? 2.0 : 1.0) / (t * 1e-9);
  return std::nullopt;
}

/// A range that launched no kernel: its copies (not memsets), or nullopt when it has none.
std::optional<QuantityValue> copies_quantity(const Measurement& m, const std::string& range, const Quantity& quantity) {
  std::vector<double> values;
  bool any_copy = false;
  for (const auto& c : m.copies) {
    if (c.range != range || c.is_memset) continue;
    any_copy = true;
    if (auto v = copy_value(m, c, quantity)) values.push_back(*v);
  }
  if (!any_copy) return std::nullopt;
  if (auto v = from_samples(values)) return *v;
  if (quantity.id() == QuantityId::kHostTime || quantity.id() == QuantityId::kHostBandwidth)
    return QuantityValue{std::nullopt, "not measured: the trace holds no runtime call for range '" + range + "''s copies"};
  return QuantityValue{std::nullopt, "not measured: range '" + range + "' holds copies, not kernels"};
}

/// The occurrences of `path` in the timeline that have ended.
std::vector<const Range*> closed_ranges(const Measurement& m, const std::string& path) {
  std::vector<const Range*> out;
  for (const auto& r : m.ranges)
    if (r.path == path && r.end_ns) out.push_back(&r);
  return out;
}

enum class ActivityStat { kTimePct, kTime, kCalls, kAvg, kMin, kMax };

/// nvprof's row and column a "kernels_*", "memcpy_htod_*" or "memcpy_dtoh_*" quantity reads.
struct ActivityCell {
  QuantityId id;
  const char* row;
  ActivityStat stat;
};

constexpr ActivityCell kActivityCells[] = {
    {QuantityId::kKernelsTimePct, "kernels", ActivityStat::kTimePct},
    {QuantityId::kKernelsTime, "kernels", ActivityStat::kTime},
    {QuantityId::kKernelsCalls, "kernels", ActivityStat::kCalls},
    {QuantityId::kKernelsAvg, "kernels", ActivityStat::kAvg},
    {QuantityId::kKernelsMin, "kernels", ActivityStat::kMin},
    {QuantityId::kKernelsMax, "kernels", ActivityStat::kMax},
    {QuantityId::kHtodTimePct, "[CUDA memcpy HtoD]", ActivityStat::kTimePct},
    {QuantityId::kHtodTime, "[CUDA memcpy HtoD]", ActivityStat::kTime},
    {QuantityId::kHtodCalls, "[CUDA memcpy HtoD]", ActivityStat::kCalls},
    {QuantityId::kHtodAvg, "[CUDA memcpy HtoD]", ActivityStat::kAvg},
    {QuantityId::kHtodMin, "[CUDA memcpy HtoD]", ActivityStat::kMin},
    {QuantityId::kHtodMax, "[CUDA memcpy HtoD]", ActivityStat::kMax},
    {QuantityId::kDtohTimePct, "[CUDA memcpy DtoH]", ActivityStat::kTimePct},
    {QuantityId::kDtohTime, "[CUDA memcpy DtoH]", ActivityStat::kTime},
    {QuantityId::kDtohCalls, "[CUDA memcpy DtoH]", ActivityStat::kCalls},
    {QuantityId::kDtohAvg, "[CUDA memcpy DtoH]", ActivityStat::kAvg},
    {QuantityId::kDtohMin, "[CUDA memcpy DtoH]", ActivityStat::kMin},
    {QuantityId::kDtohMax, "[CUDA memcpy DtoH]", ActivityStat::kMax},
};

/// nvprof's row for one kind of activity in `range`, from the same table the sheet's
/// [[activity_table]] shows.
std::optional<QuantityValue> activity_quantity(const Measurement& m, const std::string& range, const Quantity& quantity) {
  const auto cell = std::find_if(std::begin(kActivityCells), std::end(kActivityCells),
                                 [&](const ActivityCell& c) { return c.id == quantity.id(); });
  if (cell == std::end(kActivityCells)) return std::nullopt;
  const auto rows = gpu_activities_in(m, range, /*kernels_together=*/true);
  const auto row = std::find_if(rows.begin(), rows.end(), [&](const ActivityRow& r) { return r.name == cell->row; });
  if (row == rows.end())
    return cell->stat == ActivityStat::kCalls
               ? QuantityValue{0.0, ""}
               : QuantityValue{std::nullopt, "not measured: no such activity in range '" + range + "'"};
  switch (cell->stat) {
    case ActivityStat::kCalls: return QuantityValue{static_cast<double>(row->calls), ""};
    case ActivityStat::kTime: return QuantityValue{static_cast<double>(row->total_ns), ""};
    case ActivityStat::kTimePct: return QuantityValue{row->share_pct, ""};
    case ActivityStat::kAvg: return QuantityValue{row->average_ns(), ""};
    case ActivityStat::kMin: return QuantityValue{static_cast<double>(row->min_ns), ""};
    case ActivityStat::kMax: break;
  }
  return QuantityValue{static_cast<double>(row->max_ns), ""};
}

/// How the range's copies and kernels overlapped (stream_overlap.h).
QuantityValue overlap_quantity(const Measurement& m, const std::string& range, QuantityId id) {
  const StreamOverlap o = stream_overlap(m, range);
  if (id == QuantityId::kMaxConcurrentKernels) {
    if (o.kernels == 0) return QuantityValue{std::nullopt, "not measured: no kernel ran in range '" + range + "'"};
    return QuantityValue{static_cast<double>(o.max_concurrent_kernels), ""};
  }
  if (o.copies == 0) return QuantityValue{std::nullopt, "not measured: range '" + range + "' holds no copy"};
  return QuantityValue{o.copy_overlap_pct(), ""};
}

/// Unified-memory events that started while an occurrence of `range` was open.
QuantityValue unified_memory_quantity(const Measurement& m, const std::string& range, QuantityId id) {
  const std::string kind = id == QuantityId::kUmHtodBytes   ? "htod"
                           : id == QuantityId::kUmDtohBytes ? "dtoh"
                           : id == QuantityId::kUmGpuPageFaults ? "gpu_page_fault"
                                                                : "cpu_page_fault";
  const auto ranges = closed_ranges(m, range);
  if (ranges.empty()) return QuantityValue{std::nullopt, "not measured: range '" + range + "' is not in the timeline"};
  if (m.has_issue("unified_memory_untraced"))
    return QuantityValue{std::nullopt, "not collected: unified-memory events were not traced (see Collection notes)"};
  double total = 0;
  for (const auto& e : m.memory_events) {
    if (e.kind != kind) continue;
    for (const Range* r : ranges)
      if (e.start_ns >= r->start_ns && e.start_ns <= *r->end_ns) {
        // A CPU fault record is one fault (its value is the faulting instruction's address);
        // a GPU fault record's value is its number of fault groups; a transfer's, its bytes.
        total += kind == "cpu_page_fault" ? 1.0 : static_cast<double>(e.value);
        break;
      }
  }
  return QuantityValue{total, ""};
}

/// The peak `range` is measured against: that of units of their own (tensor cores) whose
/// counter counted work in it, else the general one.
const ArithmeticPeak* peak_of_range(const Measurement& m, const std::string& range, const Quantity& rate,
                                    const DeviceFacts& d, const std::vector<ArithmeticPeak>& peaks) {
  for (const auto& p : peaks)
    if (p.quantity == rate && p.counter && p.on(d) && range_quantity(m, range, *p.counter).value.value_or(0) > 0) return &p;
  return peak_for(peaks, rate, d);
}

}  // namespace

double QuantityValue::low() const {
  return samples.empty() ? value.value_or(0.0) : *std::min_element(samples.begin(), samples.end());
}
double QuantityValue::high() const {
  return samples.empty() ? value.value_or(0.0) : *std::max_element(samples.begin(), samples.end());
}

std::pair<double, double> QuantityValue::median_interval() const {
  if (samples.size() < 2) return {low(), high()};
  std::vector<double> sorted = samples;
  std::sort(sorted.begin(), sorted.end());
  // [k-th, (n+1-k)-th] misses the median when at most k-1 repeats lie on one side of it:
  // twice the binomial(n, 1/2) tail P(X <= k-1), which must stay within 5 %.
  const std::size_t n = sorted.size();
  long double pmf = std::pow(0.5L, static_cast<long double>(n)), tail = 0;
  std::size_t k = 1;
  for (std::size_t j = 0; 2 * (j + 1) <= n; ++j) {
    tail += pmf;   // P(X <= j)
    if (2 * tail > 0.05L) break;
    k = j + 1;
    pmf = pmf * static_cast<long double>(n - j) / static_cast<long double>(j + 1);
  }
  return {sorted[k - 1], sorted[n - k]};
}

QuantityValue range_quantity(const Measurement& m, const std::string& range, const Quantity& quantity,
                             const std::vector<ArithmeticPeak>& peaks) {
  switch (quantity.id()) {
    case QuantityId::kRangeTime: {
      std::vector<double> times;
      for (const Range* r : closed_ranges(m, range)) times.push_back(static_cast<double>(*r->end_ns - r->start_ns));
      if (auto v = from_samples(times)) return *v;
      return {std::nullopt, "not measured: range '" + range + "' is not in the timeline"};
    }
    case QuantityId::kPayload:
    case QuantityId::kPayloadBytes:
    case QuantityId::kPayloadNs:
    case QuantityId::kPayloadPct:
    case QuantityId::kPayloadError: {
      std::vector<double> payloads;
      for (const Range* r : closed_ranges(m, range))
        if (r->payload) payloads.push_back(*r->payload);
      if (auto v = from_samples(payloads)) return *v;
      return {std::nullopt, "not measured: range '" + range + "' carried no payload"};
    }
    case QuantityId::kUmHtodBytes:
    case QuantityId::kUmDtohBytes:
    case QuantityId::kUmGpuPageFaults:
    case QuantityId::kUmCpuPageFaults: return unified_memory_quantity(m, range, quantity.id());
    case QuantityId::kCopyOverlapPct:
    case QuantityId::kMaxConcurrentKernels: return overlap_quantity(m, range, quantity.id());
    case QuantityId::kShareOfPeak: {
      const Quantity rate = quantity.rate();
      const QuantityValue measured = range_quantity(m, range, rate);
      if (!measured.value) return measured;
      if (m.devices.empty()) return {std::nullopt, "not known: the measurement names no GPU"};
      const DeviceFacts& d = m.devices.front();
      const ArithmeticPeak* peak = peak_of_range(m, range, rate, d, peaks);
      if (!peak)
        return {std::nullopt, "not known: the lab data gives no [[peak]] for " + rate.name() + " on compute capability " +
                                  std::to_string(d.cc_major) + "." + std::to_string(d.cc_minor)};
      return scaled(measured, 100.0 / *peak->on(d));
    }
    case QuantityId::kEffectiveBandwidthPctOfPeak: {
      const QuantityValue bandwidth = range_quantity(m, range, Quantity::named("effective_bandwidth"));
      const double peak = m.devices.empty() ? 0 : m.devices.front().peak_dram_bytes_per_second();
      if (!bandwidth.value) return bandwidth;
      if (peak <= 0) return {std::nullopt, "not known: the measurement names no GPU"};
      // Above DRAM's peak the bytes came from L2: the number is no share of DRAM's.
      if (*bandwidth.value > peak) return {std::nullopt, "none: above DRAM peak, the bytes came from L2"};
      return scaled(bandwidth, 100.0 / peak);
    }
    default: break;
  }
  if (auto v = activity_quantity(m, range, quantity)) return *v;
  std::vector<double> values;
  bool any_kernel = false;
  for (const auto& k : m.kernels) {
    if (k.range != range) continue;
    any_kernel = true;
    if (auto v = kernel_value(k, quantity)) values.push_back(*v);
  }
  if (!any_kernel) {
    if (auto copies = copies_quantity(m, range, quantity)) return *copies;
    return {std::nullopt, "not measured: no kernel ran in range '" + range + "'"};
  }
  if (auto v = from_samples(values)) return *v;
  return {std::nullopt, why_missing(m, quantity)};
}

std::string metric_collection(const Measurement& m) {
  if (m.metrics_requested.empty()) return "none: no metric was asked for, only the trace run (kernel and copy times, ranges)";
  const std::string passes = m.metric_passes ? std::to_string(m.metric_passes) : std::string("an unknown number of");
  std::string out = m.metric_replay == "application"
                        ? "application replay (" + passes + " runs of the program, one per pass)"
                        : "kernel replay (" + passes + " passes per kernel, in one run; the kernel's memory put "
                                                       "back before each pass)";
  out += m.cache_control == "all" ? "; L2 flushed and invalidated before each pass of each profiled kernel (cache "
                                    "control all)"
                                  : "; L2 not flushed: kernels found what earlier work left in it (cache control none)";
  return out;
}

std::optional<double> flop_count(const MeasuredQuantity& measured, const std::string& precision) {
  const bool sp = precision == "sp";
  auto sum = measured(sp ? "flop_count_sp" : "flop_count_dp");
  if (sum)
    if (const auto tensor = measured(sp ? "tensor_flop_count_tf32" : "tensor_flop_count_dp")) *sum += *tensor;
  return sum;
}

}  // namespace labbook::report
