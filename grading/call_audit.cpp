#include "call_audit.h"

#include <algorithm>
#include <cstdio>

#include "labbook/model/metric_catalog.h"

namespace labbook::grading {

namespace {

// A timed call whose time between device synchronisations exceeds its kernels' by more than
// this (and by more than its kernels' own time) did work the collector did not see in
// kernels. An honest call's excess is the launch and synchronisation (~0.05 ms on the H100).
constexpr double kUnaccountedNs = 1e6;
// A timed call faster than this share of the first timed call, on fresh data of the same size.
constexpr double kCachedShare = 0.5;
// DRAM reads below this share of the compulsory bytes, with L2 flushed before every kernel.
constexpr double kCompulsoryShare = 0.95;

/// Per-kernel averages that combine over kernels weighted by their own denominator: the
/// global load and store efficiencies, weighted by the sectors moved.
const std::map<std::string, std::string>& weighted_averages() {
  static const std::map<std::string, std::string> weights = {
      {"smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"},
      {"smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"}};
  return weights;
}

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

/// The counters of several kernels as if of one: sums add up, efficiencies average weighted
/// by sectors; anything else (rates, peaks) only for a single kernel. A counter some kernel
/// lacks is left out rather than summed in part.
std::map<std::string, double> combine(const std::vector<const Kernel*>& kernels) {
  std::map<std::string, double> out;
  if (kernels.empty()) return out;
  for (const auto& [name, first_value] : kernels.front()->metrics) {
    const auto weight = weighted_averages().find(name);
    double sum = 0, weights = 0;
    bool everywhere = true;
    for (const Kernel* k : kernels) {
      const auto v = k->metrics.find(name);
      if (v == k->metrics.end()) {
        everywhere = false;
        break;
      }
      if (weight != weighted_averages().end()) {
        const auto w = k->metrics.find(weight->second);
        if (w == k->metrics.end()) {
          everywhere = false;
          break;
        }
        sum += v->second * w->second;
        weights += w->second;
      } else {
        sum += v->second;
      }
    }
    if (!everywhere) continue;
    if (weight != weighted_averages().end()) {
      if (weights > 0) out[name] = sum / weights;
    } else if (ends_with(name, ".sum") || kernels.size() == 1) {
      out[name] = kernels.size() == 1 ? first_value : sum;
    }
  }
  return out;
}

}  // namespace

std::vector<std::string> with_combining_weights(std::vector<std::string> cupti_metrics) {
  for (const auto& [average, weight] : weighted_averages())
    if (std::find(cupti_metrics.begin(), cupti_metrics.end(), average) != cupti_metrics.end() &&
        std::find(cupti_metrics.begin(), cupti_metrics.end(), weight) == cupti_metrics.end())
      cupti_metrics.push_back(weight);
  return cupti_metrics;
}

namespace {

/// The share of the sectors a call's kernels moved that the problem needed: compulsory bytes
/// over sectors x 32. Extra loads that hit whole sectors (reading the input twice, or a
/// buffer of one's own) raise the hardware's efficiency, an average over every access, but
/// not this.
std::optional<double> useful_share(const CallMeasure& c, const std::string& sectors_metric, double compulsory_bytes) {
  const auto sectors = c.counters.find(sectors_metric);
  if (sectors == c.counters.end() || sectors->second <= 0 || compulsory_bytes <= 0) return std::nullopt;
  return 100.0 * compulsory_bytes / (32.0 * sectors->second);
}

std::optional<double> call_value(const CallMeasure& c, const std::string& quantity) {
  if (quantity == "time") return c.kernels ? std::optional<double>(c.kernel_ns) : std::nullopt;
  const CatalogMetric* m = find_catalog_metric(quantity);
  if (!m) return std::nullopt;
  std::optional<double> value = m->evaluate(c.counters);
  // Load and store efficiency count only the bytes the problem needs.
  std::optional<double> useful;
  if (quantity == "gld_efficiency")
    useful = useful_share(c, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", c.call.compulsory_read_bytes);
  else if (quantity == "gst_efficiency")
    useful = useful_share(c, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", c.call.compulsory_write_bytes);
  if (value && useful) value = std::min(*value, *useful);
  return value;
}

std::optional<double> median(std::vector<double> v) {
  if (v.empty()) return std::nullopt;
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

std::string megabytes(double bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f MB", bytes / 1e6);
  return buf;
}

std::string gigabytes_per_second(double bytes_per_second) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f GB/s", bytes_per_second / 1e9);
  return buf;
}

std::string milliseconds(double ns) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f ms", ns / 1e6);
  return buf;
}

CallMeasure measure_call(const Measurement& m, const HarnessCall& call) {
  CallMeasure c;
  c.call = call;
  std::vector<const Kernel*> kernels;
  for (const auto& k : m.kernels)
    if (within(k.range, call.range)) {
      kernels.push_back(&k);
      c.kernel_ns += k.duration_ns().value_or(0);
    }
  c.kernels = static_cast<int>(kernels.size());
  c.counters = combine(kernels);
  for (const auto& copy : m.copies)
    if (within(copy.range, call.range) && !copy.is_memset &&
        (copy.kind == CopyKind::HostToDevice || copy.kind == CopyKind::DeviceToHost)) {
      c.host_copy_bytes += static_cast<double>(copy.bytes);
      if (copy.kind == CopyKind::DeviceToHost) c.device_to_host_bytes += static_cast<double>(copy.bytes);
    }
  return c;
}

/// Kernels in no call of the harness: launched from another thread (outside every NVTX
/// range the harness opened) or otherwise hidden from the calls.
void check_outside(const Measurement& m, const HarnessResult& h, CallAudit& audit) {
  int outside = 0;
  std::string first;
  for (const auto& k : m.kernels) {
    const bool in_call =
        std::any_of(h.calls.begin(), h.calls.end(), [&](const HarnessCall& c) { return within(k.range, c.range); });
    if (in_call) continue;
    if (!outside++) first = kernel_short_name(k.name);
  }
  if (outside)
    audit.findings.push_back(std::to_string(outside) + " kernel launch" + (outside > 1 ? "es" : "") + " (the first: " + first +
                             ") ran outside the harness's calls, launched from another thread or after a call "
                             "returned: work hidden from the calls' measurement");
}

/// What one call of the student's says about the measurement.
void check_student_call(const CallMeasure& c, bool timed, const CallMeasure* first_timed, const DeviceFacts* device,
                        CallAudit& audit) {
  const std::string& range = c.call.range;
  if (c.kernels == 0) {
    audit.findings.push_back("call " + range + " ran no kernel: its results were made elsewhere (host code or copies)");
    return;
  }
  if (c.host_copy_bytes > 0)
    audit.findings.push_back("call " + range + " copied " + megabytes(c.host_copy_bytes) +
                             " between host and device: the work must be done by kernels on the GPU");
  if (!timed) return;
  const double wall_ns = c.call.seconds * 1e9;
  if (wall_ns - c.kernel_ns > std::max(kUnaccountedNs, c.kernel_ns))
    audit.findings.push_back("call " + range + " took " + milliseconds(wall_ns) +
                             " between device synchronisations, but its kernels only " + milliseconds(c.kernel_ns) +
                             ": work outside its kernels (host code, copies, or kernels launched elsewhere)");
  if (first_timed && first_timed != &c && c.kernel_ns < kCachedShare * first_timed->kernel_ns)
    audit.findings.push_back("call " + range + " took " + milliseconds(c.kernel_ns) + " against " +
                             milliseconds(first_timed->kernel_ns) + " for call " + first_timed->call.range +
                             " on fresh data of the same size: a result kept from an earlier call?");
  const auto read = c.counters.find("dram__bytes_read.sum");
  if (read != c.counters.end() && read->second < kCompulsoryShare * c.call.compulsory_read_bytes)
    audit.findings.push_back("call " + range + " read " + megabytes(read->second) + " from DRAM, less than the " +
                             megabytes(c.call.compulsory_read_bytes) +
                             " a correct answer must read once (L2 was flushed before each kernel): data kept in L2");
  const auto written = c.counters.find("dram__bytes_write.sum");
  const double l2 = device ? static_cast<double>(device->l2_bytes) : 0;
  if (written != c.counters.end() && written->second < c.call.compulsory_write_bytes - l2)
    audit.findings.push_back("call " + range + " wrote " + megabytes(written->second) + " to DRAM, less than the " +
                             megabytes(c.call.compulsory_write_bytes - l2) + " its output cannot avoid");
  const double peak = device ? device->peak_dram_bytes_per_second() : 0;
  const double bytes = c.call.compulsory_read_bytes + c.call.compulsory_write_bytes;
  if (peak > 0 && c.kernel_ns > 0 && bytes / (c.kernel_ns * 1e-9) > peak)
    audit.findings.push_back("call " + range + " would have moved " + megabytes(bytes) + " in " +
                             milliseconds(c.kernel_ns) + ", " + gigabytes_per_second(bytes / (c.kernel_ns * 1e-9)) +
                             ", beyond the GPU's DRAM peak of " + gigabytes_per_second(peak) + ": impossible, so not scored");
}

}  // namespace

bool within(const std::string& range, const std::string& call_range) {
  return range.compare(0, call_range.size(), call_range) == 0 &&
         (range.size() == call_range.size() || range[call_range.size()] == '/');
}

CallAudit audit_calls(const Measurement& m, const HarnessResult& h, const std::string& measured_range,
                      const std::string& reference_range, const std::vector<std::string>& quantities) {
  CallAudit audit;
  for (const auto& call : h.calls) audit.calls.push_back(measure_call(m, call));
  check_outside(m, h, audit);
  const CallMeasure* first_timed = nullptr;
  std::vector<const CallMeasure*> timed, reference;
  for (const auto& c : audit.calls) {
    if (within(c.call.range, reference_range)) {
      reference.push_back(&c);
      continue;
    }
    const bool is_timed = within(c.call.range, measured_range);
    if (is_timed) {
      timed.push_back(&c);
      if (!first_timed) first_timed = &c;
    }
    check_student_call(c, is_timed, first_timed, m.device(0), audit);
  }
  for (const auto& f : h.flags) audit.findings.push_back(f.message);

  const auto median_over = [](const std::vector<const CallMeasure*>& calls, const std::string& q) {
    std::vector<double> values;
    for (const CallMeasure* c : calls)
      if (const auto v = call_value(*c, q)) values.push_back(*v);
    return values.size() == calls.size() ? median(values) : std::nullopt;
  };
  for (const auto& q : quantities) {
    std::optional<double> value;
    if (q == "speed_pct_of_reference") {
      const auto mine = median_over(timed, "time"), theirs = median_over(reference, "time");
      if (mine && theirs && *mine > 0) value = 100.0 * *theirs / *mine;
    } else {
      value = median_over(timed, q);
    }
    if (value) audit.measured[q] = *value;
  }
  return audit;
}

}  // namespace labbook::grading
