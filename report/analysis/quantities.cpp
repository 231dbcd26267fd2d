#include "quantities.h"

#include <algorithm>
#include <vector>

#include "activity_summary.h"
#include "labbook/model/metric_catalog.h"
#include "labbook/model/numbers.h"
#include "labbook/model/quantity_labels.h"
#include "labbook/model/quantity_table.h"
#include "lab_data.h"
#include "stream_overlap.h"

namespace labbook::report {

namespace {

const DerivedQuantity* find_derived(const std::string& name) {
  const DerivedQuantity* d = find_derived_quantity(name);
  return d && d->in(QuantityScope::kRange) ? d : nullptr;
}

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
  return *s * 32.0 * *e / 100.0;
}

/// Load instructions a kernel executed: global, shared and local together, counting the
/// kinds that were collected; nullopt when none was.
std::optional<double> load_instructions(const Kernel& k) {
  std::optional<double> sum;
  for (const char* name : {"inst_executed_global_loads", "inst_executed_shared_loads", "inst_executed_local_loads"})
    if (const auto v = find_catalog_metric(name)->evaluate(k.metrics)) sum = sum.value_or(0.0) + *v;
  return sum;
}


std::optional<double> kernel_value(const Kernel& k, const std::string& quantity) {
  if (quantity == "time") return k.duration_ns();
  if (quantity == "threads")
    return static_cast<double>(k.grid[0]) * k.grid[1] * k.grid[2] * k.block[0] * k.block[1] * k.block[2];
  const auto t = k.duration_ns();
  if (quantity == "effective_bandwidth") {
    const auto ld = requested_bytes(k, "gld_transactions", "gld_efficiency");
    const auto st = requested_bytes(k, "gst_transactions", "gst_efficiency");
    if (!t || !ld || !st || *t <= 0) return std::nullopt;
    return (*ld + *st) / (*t * 1e-9);
  }
  if (quantity == "dram_bandwidth") {
    const auto r = find_catalog_metric("dram_read_bytes")->evaluate(k.metrics);
    const auto w = find_catalog_metric("dram_write_bytes")->evaluate(k.metrics);
    if (!t || !r || !w || *t <= 0) return std::nullopt;
    return (*r + *w) / (*t * 1e-9);
  }
  if (quantity == "cycles_per_load" || quantity == "cycles_per_instruction") {
    const auto clock = find_catalog_metric("sm_clock")->evaluate(k.metrics);
    const auto count = quantity == "cycles_per_load" ? load_instructions(k) : find_catalog_metric("inst_executed")->evaluate(k.metrics);
    if (!t || !clock || !count || *count <= 0) return std::nullopt;
    return *t * 1e-9 * *clock / *count;
  }
  if (quantity == "flop_rate_sp" || quantity == "flop_rate_dp") {
    const auto count = flop_count([&](const std::string& name) { return find_catalog_metric(name)->evaluate(k.metrics); },
                                  quantity == "flop_rate_sp" ? "sp" : "dp");
    if (!t || !count || *t <= 0) return std::nullopt;
    return *count / (*t * 1e-9);
  }
  if (const CatalogMetric* m = find_catalog_metric(quantity)) return m->evaluate(k.metrics);
  return std::nullopt;
}

std::string why_missing(const Measurement& m, const std::string& quantity) {
  for (const auto& issue : m.issues)
    if (issue.code == "counters_denied") return "not collected: GPU counters were denied (see Collection notes)";
  if (quantity == "time") return "not measured: the trace run recorded no kernel times";
  const CatalogMetric* metric = find_catalog_metric(quantity);
  if (metric) {
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
std::optional<double> copy_value(const Measurement& m, const Copy& c, const std::string& quantity) {
  double t = static_cast<double>(c.end_ns - c.start_ns);
  if (quantity == "host_time" || quantity == "host_bandwidth") {
    const ApiCall* call = issuing_call(m, c);
    if (!call) return std::nullopt;
    t = static_cast<double>(std::max(call->end_ns, c.end_ns) - call->start_ns);
  }
  if (quantity == "time" || quantity == "host_time") return t;
  if ((quantity == "effective_bandwidth" || quantity == "host_bandwidth") && t > 0)
    return static_cast<double>(c.bytes) * (c.kind == CopyKind::DeviceToDevice ? 2.0 : 1.0) / (t * 1e-9);
  return std::nullopt;
}

/// A range that launched no kernel: its copies (not memsets), or nullopt when it has none.
std::optional<QuantityValue> copies_quantity(const Measurement& m, const std::string& range, const std::string& quantity) {
  std::vector<double> values;
  bool any_copy = false;
  for (const auto& c : m.copies) {
    if (c.range != range || c.is_memset) continue;
    any_copy = true;
    if (auto v = copy_value(m, c, quantity)) values.push_back(*v);
  }
  if (!any_copy) return std::nullopt;
  if (auto v = from_samples(values)) return *v;
  if (quantity == "host_time" || quantity == "host_bandwidth")
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

/// nvprof's row for one kind of activity in `range` ("kernels_*", "memcpy_htod_*",
/// "memcpy_dtoh_*"), from the same table the sheet's [[activity_table]] shows.
std::optional<QuantityValue> activity_quantity(const Measurement& m, const std::string& range, const std::string& quantity) {
  static const std::pair<const char*, const char*> kRows[] = {
      {"kernels_", "kernels"}, {"memcpy_htod_", "[CUDA memcpy HtoD]"}, {"memcpy_dtoh_", "[CUDA memcpy DtoH]"}};
  const char* row_name = nullptr;
  std::string stat;
  for (const auto& [prefix, name] : kRows)
    if (quantity.rfind(prefix, 0) == 0) row_name = name, stat = quantity.substr(std::string(prefix).size());
  if (!row_name) return std::nullopt;
  const auto rows = gpu_activities_in(m, range, /*kernels_together=*/true);
  const auto row = std::find_if(rows.begin(), rows.end(), [&](const ActivityRow& r) { return r.name == row_name; });
  if (row == rows.end())
    return stat == "calls" ? QuantityValue{0.0, ""} : QuantityValue{std::nullopt, "not measured: no such activity in range '" + range + "'"};
  if (stat == "calls") return QuantityValue{static_cast<double>(row->calls), ""};
  if (stat == "time") return QuantityValue{static_cast<double>(row->total_ns), ""};
  if (stat == "time_pct") return QuantityValue{row->share_pct, ""};
  if (stat == "avg") return QuantityValue{row->average_ns(), ""};
  if (stat == "min") return QuantityValue{static_cast<double>(row->min_ns), ""};
  return QuantityValue{static_cast<double>(row->max_ns), ""};
}

/// How the range's copies and kernels overlapped (stream_overlap.h).
std::optional<QuantityValue> overlap_quantity(const Measurement& m, const std::string& range, const std::string& quantity) {
  if (quantity != "copy_overlap_pct" && quantity != "max_concurrent_kernels") return std::nullopt;
  const StreamOverlap o = stream_overlap(m, range);
  if (quantity == "max_concurrent_kernels") {
    if (o.kernels == 0) return QuantityValue{std::nullopt, "not measured: no kernel ran in range '" + range + "'"};
    return QuantityValue{static_cast<double>(o.max_concurrent_kernels), ""};
  }
  if (o.copies == 0) return QuantityValue{std::nullopt, "not measured: range '" + range + "' holds no copy"};
  return QuantityValue{o.copy_overlap_pct(), ""};
}

/// Unified-memory events that started while an occurrence of `range` was open.
std::optional<QuantityValue> unified_memory_quantity(const Measurement& m, const std::string& range, const std::string& quantity) {
  const char* kind = quantity == "um_htod_bytes" ? "htod"
                     : quantity == "um_dtoh_bytes" ? "dtoh"
                     : quantity == "um_gpu_page_faults" ? "gpu_page_fault"
                     : quantity == "um_cpu_page_faults" ? "cpu_page_fault" : nullptr;
  if (!kind) return std::nullopt;
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
        total += kind == std::string("cpu_page_fault") ? 1.0 : static_cast<double>(e.value);
        break;
      }
  }
  return QuantityValue{total, ""};
}

}  // namespace

double QuantityValue::low() const {
  return samples.empty() ? value.value_or(0.0) : *std::min_element(samples.begin(), samples.end());
}
double QuantityValue::high() const {
  return samples.empty() ? value.value_or(0.0) : *std::max_element(samples.begin(), samples.end());
}

std::string peak_rate_of(const std::string& quantity) {
  static const std::string suffix = "_pct_of_peak";
  if (find_derived(quantity) || quantity.size() <= suffix.size() ||
      quantity.compare(quantity.size() - suffix.size(), suffix.size(), suffix) != 0)
    return "";
  const std::string rate = quantity.substr(0, quantity.size() - suffix.size());
  return find_derived(rate) || find_catalog_metric(rate) ? rate : "";
}

bool is_known_quantity(const std::string& name) {
  return find_derived(name) != nullptr || find_catalog_metric(name) != nullptr || !peak_rate_of(name).empty();
}

std::string quantity_unit(const std::string& quantity) {
  if (const DerivedQuantity* d = find_derived(quantity)) return d->unit;
  if (const CatalogMetric* m = find_catalog_metric(quantity)) return m->unit;
  if (!peak_rate_of(quantity).empty()) return "%";
  return "";
}

bool is_timed_quantity(const std::string& quantity) {
  // Durations, rates and clocks, by their unit; shares of a peak rate; then what rests on a time
  // or on what ran when without a time's unit: shares of time, cycles from a time, overlaps.
  const std::string unit = quantity_unit(quantity);
  const bool per_second = unit.size() > 2 && unit.compare(unit.size() - 2, 2, "/s") == 0;
  if (unit == "ns" || unit == "Hz" || per_second || !peak_rate_of(quantity).empty()) return true;
  static const char* const kTimedWithoutATimesUnit[] = {
      "effective_bandwidth_pct_of_peak", "payload_pct", "kernels_time_pct", "memcpy_htod_time_pct",
      "memcpy_dtoh_time_pct", "copy_overlap_pct", "max_concurrent_kernels", "cycles_per_load",
      "cycles_per_instruction", "elapsed_cycles", "speed_pct_of_reference", "wall_speed_pct_of_reference",
      "link_pct", "dram_utilization", "achieved_occupancy"};
  for (const char* name : kTimedWithoutATimesUnit)
    if (quantity == name) return true;
  return false;
}

std::string quantity_label(const std::string& quantity) { return quantity_reader_label(quantity); }

std::string quantity_description(const std::string& quantity) {
  if (const DerivedQuantity* d = find_derived(quantity)) return d->description;
  if (const CatalogMetric* m = find_catalog_metric(quantity)) return m->description + " (" + m->formula_text() + ")";
  if (const std::string rate = peak_rate_of(quantity); !rate.empty())
    return rate + " as a share of this GPU's peak for it: the lab's published figure per clock per SM x SMs x "
                  "maximum SM clock (see the setup table)";
  return "";
}

QuantityValue range_quantity(const Measurement& m, const std::string& range, const std::string& quantity,
                             const std::vector<ArithmeticPeak>& peaks) {
  if (quantity == "range_time") {
    std::vector<double> times;
    for (const Range* r : closed_ranges(m, range)) times.push_back(static_cast<double>(*r->end_ns - r->start_ns));
    if (auto v = from_samples(times)) return *v;
    return {std::nullopt, "not measured: range '" + range + "' is not in the timeline"};
  }
  if (quantity == "payload" || quantity == "payload_bytes" || quantity == "payload_ns" || quantity == "payload_pct" ||
      quantity == "payload_error") {
    std::vector<double> payloads;
    for (const Range* r : closed_ranges(m, range))
      if (r->payload) payloads.push_back(*r->payload);
    if (auto v = from_samples(payloads)) return *v;
    return {std::nullopt, "not measured: range '" + range + "' carried no payload"};
  }
  if (auto v = activity_quantity(m, range, quantity)) return *v;
  if (auto v = unified_memory_quantity(m, range, quantity)) return *v;
  if (auto v = overlap_quantity(m, range, quantity)) return *v;
  if (const std::string rate = peak_rate_of(quantity); !rate.empty()) {
    const QuantityValue measured = range_quantity(m, range, rate);
    if (!measured.value) return measured;
    if (m.devices.empty()) return {std::nullopt, "not known: the measurement names no GPU"};
    const DeviceFacts& d = m.devices.front();
    const ArithmeticPeak* peak = peak_for(peaks, rate, d);
    if (!peak)
      return {std::nullopt, "not known: the lab data gives no [[peak]] for " + rate + " on compute capability " +
                                std::to_string(d.cc_major) + "." + std::to_string(d.cc_minor)};
    return scaled(measured, 100.0 / *peak->on(d));
  }
  if (quantity == "effective_bandwidth_pct_of_peak") {
    const QuantityValue bandwidth = range_quantity(m, range, "effective_bandwidth");
    const double peak = m.devices.empty() ? 0 : m.devices.front().peak_dram_bytes_per_second();
    if (!bandwidth.value) return bandwidth;
    if (peak <= 0) return {std::nullopt, "not known: the measurement names no GPU"};
    return scaled(bandwidth, 100.0 / peak);
  }
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
