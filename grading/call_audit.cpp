#include "call_audit.h"

#include <algorithm>
#include <set>
#include <tuple>

#include "labbook/model/metric_catalog.h"
#include "labbook/model/numbers.h"
#include "combined_counters.h"
#include "stream_overlap.h"

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
// A host-code call whose work kernel ran longer than this many times the reference's for the
// same words, and this much longer, did work beyond the task: kernels that only fill the
// timeline beside the copies, to be counted as overlap. (Less than the reference's proves
// nothing: results made on the host cost more than the GPU's, so no one gains by it.)
constexpr double kExtraWorkShare = 1.5, kExtraWorkNs = 1e5;
// A host-code call that copied more than this share of its input (or output), and this many
// bytes more, copied what the task does not need: copies beside the kernels that would pass
// for copies hidden behind them.
constexpr double kExtraCopyShare = 1.25, kExtraCopyBytes = 1e6;

/// The share of the sectors a call's kernels moved that the problem needed: compulsory bytes
/// over sectors x 32. Extra loads that hit whole sectors (reading the input twice, or a
/// buffer of one's own) raise the hardware's efficiency, an average over every access, but
/// not this.
std::optional<double> useful_share(const CallMeasure& c, const std::string& sectors_metric, double compulsory_bytes) {
  const auto sectors = c.counters.find(sectors_metric);
  if (sectors == c.counters.end() || sectors->second <= 0 || compulsory_bytes <= 0) return std::nullopt;
  return 100.0 * compulsory_bytes / (32.0 * sectors->second);
}

/// A quantity of one call: what the call itself gives (the shares of the reference's time and
/// of the link are medians over calls, in audit_calls).
std::optional<double> call_value(const CallMeasure& c, const Quantity& quantity) {
  switch (quantity.id()) {
    case QuantityId::kTime: return c.kernels ? std::optional<double>(c.kernel_ns) : std::nullopt;
    case QuantityId::kWallTime: return c.wall_ns;
    case QuantityId::kPageableCopyBytes: return c.pageable_copy_bytes;
    case QuantityId::kSynchronousCopies: return c.synchronous_copies;
    case QuantityId::kCopyOverlapPct: return c.copy_overlap_pct;
    case QuantityId::kMaxConcurrentKernels:
      return c.kernels ? std::optional<double>(c.max_concurrent_kernels) : std::nullopt;
    case QuantityId::kMetric: break;
    default: return std::nullopt;
  }
  const CatalogMetric* m = quantity.metric();
  std::optional<double> value = m->evaluate(c.counters);
  // Load and store efficiency count only the bytes the problem needs: the metric's own
  // sectors, over which the problem's compulsory bytes are the useful share.
  std::optional<double> useful;
  if (m == find_catalog_metric("gld_efficiency"))
    useful = useful_share(c, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", c.call.compulsory_read_bytes);
  else if (m == find_catalog_metric("gst_efficiency"))
    useful = useful_share(c, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", c.call.compulsory_write_bytes);
  if (value && useful) value = std::min(*value, *useful);
  return value;
}

std::string megabytes(double bytes) { return format_number("%.1f MB", bytes / 1e6); }
std::string gigabytes_per_second(double bytes_per_second) { return format_number("%.0f GB/s", bytes_per_second / 1e9); }
std::string milliseconds(double ns) { return format_number("%.3f ms", ns / 1e6); }

/// The runtime call that issued each copy, by correlation id.
std::map<std::uint32_t, const ApiCall*> issuing_calls(const Measurement& m) {
  std::map<std::uint32_t, const ApiCall*> by_correlation;
  for (const auto& a : m.api_calls) by_correlation[a.correlation] = &a;
  return by_correlation;
}

CallMeasure measure_call(const Measurement& m, const HarnessCall& call, const std::map<std::uint32_t, const ApiCall*>& issued_by) {
  CallMeasure c;
  c.call = call;
  for (const auto& r : m.ranges)
    if (r.path == call.range && r.end_ns && *r.end_ns >= r.start_ns) {
      c.wall_ns = static_cast<double>(*r.end_ns - r.start_ns);
      break;
    }
  std::set<std::pair<int, std::uint32_t>> streams;
  std::vector<const Kernel*> kernels;
  for (const auto& k : m.kernels)
    if (within(k.range, call.range)) {
      kernels.push_back(&k);
      c.kernel_ns += k.duration_ns().value_or(0);
      streams.insert({k.device, k.stream});
      c.kernel_names.insert(kernel_short_name(k.name));
    }
  c.kernels = static_cast<int>(kernels.size());
  c.counters = combined_counters(kernels);
  for (const auto& copy : m.copies)
    if (within(copy.range, call.range) && !copy.is_memset &&
        (copy.kind == CopyKind::HostToDevice || copy.kind == CopyKind::DeviceToHost)) {
      const auto bytes = static_cast<double>(copy.bytes);
      (copy.kind == CopyKind::DeviceToHost ? c.device_to_host_bytes : c.host_to_device_bytes) += bytes;
      (copy.kind == CopyKind::DeviceToHost ? c.device_to_host_ns : c.host_to_device_ns) +=
          static_cast<double>(copy.end_ns > copy.start_ns ? copy.end_ns - copy.start_ns : 0);
      if (copy.src == HostMemoryKind::Pageable || copy.dst == HostMemoryKind::Pageable) c.pageable_copy_bytes += bytes;
      ++c.host_copies;
      const auto api = issued_by.find(copy.correlation);
      if (api != issued_by.end() && api->second->name.find("Async") == std::string::npos) ++c.synchronous_copies;
      streams.insert({copy.device, copy.stream});
    }
  c.streams = static_cast<int>(streams.size());
  // Copies between host and GPU only: a device-to-device copy beside a kernel hides nothing.
  const report::StreamOverlap overlap = report::stream_overlap(m, call.range, {/*below=*/true, /*host_copies_only=*/true});
  if (overlap.copies) c.copy_overlap_pct = overlap.copy_overlap_pct();
  c.copy_beside_kernels_ns = static_cast<double>(overlap.hidden_copy_ns);
  c.both_directions_ns = static_cast<double>(overlap.both_directions_ns);
  c.max_concurrent_kernels = static_cast<int>(overlap.max_concurrent_kernels);
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

/// A host-code call: the input must reach the GPU and the output come back, at least once each,
/// and the work be the harness's kernel, no more of it than the reference ran for the same
/// words (`reference_kernel_ns`, for a timed call); otherwise the work was not done there, or
/// work was added to be seen beside the copies.
void check_host_call(const CallMeasure& c, const HostCodeRules& rules, std::optional<double> reference_kernel_ns,
                     CallAudit& audit) {
  const std::string& range = c.call.range;
  if (!rules.work_kernel.empty()) {
    for (const auto& name : c.kernel_names)
      if (name != rules.work_kernel) {
        audit.findings.push_back("call " + range + " ran the kernel " + name + ": the exercise's work is the harness's (" +
                                 rules.work_kernel + "), launched through its function, and nothing else");
        break;
      }
    if (reference_kernel_ns && c.kernel_ns > kExtraWorkShare * *reference_kernel_ns + kExtraWorkNs)
      audit.findings.push_back("call " + range + " ran " + milliseconds(c.kernel_ns) + " of " + rules.work_kernel +
                               " where the reference ran " + milliseconds(*reference_kernel_ns) +
                               " for the same words: work beyond the task's, which would pass for copies hidden behind "
                               "kernels");
  }
  if (c.host_to_device_bytes < c.call.compulsory_read_bytes)
    audit.findings.push_back("call " + range + " copied " + megabytes(c.host_to_device_bytes) + " to the GPU, less than its " +
                             megabytes(c.call.compulsory_read_bytes) + " of input: the work must be done on the GPU");
  if (c.device_to_host_bytes < c.call.compulsory_write_bytes)
    audit.findings.push_back("call " + range + " copied " + megabytes(c.device_to_host_bytes) + " back from the GPU, less than its " +
                             megabytes(c.call.compulsory_write_bytes) + " of output: the results must come from the GPU");
  for (const auto& [copied, needed, way, what] :
       {std::tuple{c.host_to_device_bytes, c.call.compulsory_read_bytes, "to the GPU", "input"},
        std::tuple{c.device_to_host_bytes, c.call.compulsory_write_bytes, "back from the GPU", "output"}})
    if (needed > 0 && copied > kExtraCopyShare * needed + kExtraCopyBytes)
      audit.findings.push_back("call " + range + " copied " + megabytes(copied) + " " + way + " where its " + what + " is " +
                               megabytes(needed) + ": copies beyond the task's, which would pass for copies hidden "
                               "behind kernels");
}

/// What the trace saw a host-code call do, for the student: feedback, not findings.
void observe_host_call(const CallMeasure& c, CallAudit& audit) {
  const std::string& range = c.call.range;
  const std::string copies = std::to_string(c.host_copies) + (c.host_copies == 1 ? " copy" : " copies");
  std::string what = "call " + range + " made " + copies + " between host and GPU (" + megabytes(c.host_copy_bytes()) +
                     ") on " + std::to_string(c.streams) + (c.streams == 1 ? " stream" : " streams");
  if (c.copy_overlap_pct) {
    what += "; kernels ran during " + format_number("%.1f %%", *c.copy_overlap_pct) + " of its copy time";
  }
  if (c.both_directions_ns > 0) what += "; uploads and downloads ran at the same time for " + milliseconds(c.both_directions_ns);
  if (c.wall_ns) what += "; it took " + milliseconds(*c.wall_ns);
  audit.observations.push_back(what);
  if (c.pageable_copy_bytes > 0)
    audit.observations.push_back("call " + range + " copied " + megabytes(c.pageable_copy_bytes) +
                                 " to or from pageable host memory: the driver stages such a copy through a page-locked "
                                 "buffer of its own, piece by piece, so it runs below the link's speed and overlaps "
                                 "nothing, whichever call (cudaMemcpyAsync too) issued it");
  if (c.synchronous_copies > 0)
    audit.observations.push_back("call " + range + " issued " + std::to_string(c.synchronous_copies) + " of its " + copies +
                                 " with a call that waits (cudaMemcpy rather than cudaMemcpyAsync): the host issues "
                                 "nothing else until such a copy ends, so nothing can overlap it");
}

/// What one call of the student's says about the measurement.
void check_student_call(const CallMeasure& c, bool timed, const CallMeasure* first_timed, const DeviceFacts* device,
                        const HostCodeRules& rules, std::optional<double> reference_kernel_ns, CallAudit& audit) {
  const bool host_code = rules.enabled;
  const std::string& range = c.call.range;
  if (c.kernels == 0) {
    audit.findings.push_back("call " + range + " ran no kernel: its results were made elsewhere (host code or copies)");
    return;
  }
  if (host_code) {
    check_host_call(c, rules, timed ? reference_kernel_ns : std::nullopt, audit);
    if (timed && first_timed == &c) observe_host_call(c, audit);
  } else if (c.host_copy_bytes() > 0) {
    audit.findings.push_back("call " + range + " copied " + megabytes(c.host_copy_bytes()) +
                             " between host and device: the work must be done by kernels on the GPU");
  }
  if (!timed) return;
  const double wall_ns = c.call.seconds * 1e9;
  if (!host_code && wall_ns - c.kernel_ns > std::max(kUnaccountedNs, c.kernel_ns))
    audit.findings.push_back("call " + range + " took " + milliseconds(wall_ns) +
                             " between device synchronisations, but its kernels only " + milliseconds(c.kernel_ns) +
                             ": work outside its kernels (host code, copies, or kernels launched elsewhere)");
  if (first_timed && first_timed != &c && c.kernel_ns < kCachedShare * first_timed->kernel_ns)
    audit.findings.push_back("call " + range + " took " + milliseconds(c.kernel_ns) + " against " +
                             milliseconds(first_timed->kernel_ns) + " for call " + first_timed->call.range +
                             " on fresh data of the same size: a result kept from an earlier call?");
  if (host_code) return;   // the kernel-time checks below do not hold for a pipeline (HostCodeRules)
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

bool within(const std::string& range, const std::string& call_range) { return nvtx_path_within(range, call_range); }

namespace {

/// The link's bandwidth in one direction, from the copies of that kind in `range` (bytes per
/// ns of copy time), if it copied any.
std::optional<double> link_bandwidth(const Measurement& m, const std::string& range, CopyKind kind) {
  double bytes = 0, ns = 0;
  for (const auto& c : m.copies)
    if (!range.empty() && within(c.range, range) && !c.is_memset && c.kind == kind && c.end_ns > c.start_ns) {
      bytes += static_cast<double>(c.bytes);
      ns += static_cast<double>(c.end_ns - c.start_ns);
    }
  return ns > 0 ? std::optional<double>(bytes / ns) : std::nullopt;
}

/// copy_hidden_pct of one call: what its schedule saved against the copies and kernels the task
/// needs run one after another, as a share of that copy time, and no more than the copy time
/// that ran beside a kernel (an upload beside a download saves time too, but hides nothing
/// behind kernels). Copies beyond the input and output, or kernels beyond the reference's work,
/// only lengthen the wall time: they hide nothing here, however much of them runs beside the rest.
std::optional<double> copy_hidden_pct(const CallMeasure& c, std::optional<double> reference_kernel_ns) {
  const auto needed_share = [](double needed, double copied) { return copied > 0 ? std::min(1.0, needed / copied) : 0.0; };
  const double copy_ns = c.host_to_device_ns * needed_share(c.call.compulsory_read_bytes, c.host_to_device_bytes) +
                         c.device_to_host_ns * needed_share(c.call.compulsory_write_bytes, c.device_to_host_bytes);
  if (!c.wall_ns || copy_ns <= 0) return std::nullopt;
  const double kernel_ns = reference_kernel_ns ? std::min(c.kernel_ns, *reference_kernel_ns) : c.kernel_ns;
  const double saved_ns = std::min(copy_ns + kernel_ns - *c.wall_ns, c.copy_beside_kernels_ns);
  return 100.0 * std::clamp(saved_ns / copy_ns, 0.0, 1.0);
}

/// link_pct of one call: its input and output at the link's bandwidth, over its wall time.
std::optional<double> link_pct(const CallMeasure& c, std::optional<double> up, std::optional<double> down) {
  if (!up || !down || !c.wall_ns || *c.wall_ns <= 0) return std::nullopt;
  return 100.0 * (c.call.compulsory_read_bytes / *up + c.call.compulsory_write_bytes / *down) / *c.wall_ns;
}

}  // namespace

CallAudit audit_calls(const Measurement& m, const HarnessResult& h, const std::string& measured_range,
                      const std::string& reference_range, const std::vector<Quantity>& quantities,
                      const HostCodeRules& host_code) {
  CallAudit audit;
  const auto issued_by = issuing_calls(m);
  for (const auto& call : h.calls) audit.calls.push_back(measure_call(m, call, issued_by));
  check_outside(m, h, audit);
  const CallMeasure* first_timed = nullptr;
  std::vector<const CallMeasure*> timed, reference;
  for (const auto& c : audit.calls)
    if (within(c.call.range, reference_range)) reference.push_back(&c);
  std::vector<double> reference_kernel_ns;
  for (const CallMeasure* c : reference) reference_kernel_ns.push_back(c->kernel_ns);
  const std::optional<double> reference_kernels = median(reference_kernel_ns);
  for (const auto& c : audit.calls) {
    if (within(c.call.range, reference_range)) continue;
    if (!host_code.link_range.empty() && within(c.call.range, host_code.link_range)) continue;   // the harness's own
    const bool is_timed = within(c.call.range, measured_range);
    if (is_timed) {
      timed.push_back(&c);
      if (!first_timed) first_timed = &c;
    }
    check_student_call(c, is_timed, first_timed, m.device(0), host_code, reference_kernels, audit);
  }
  for (const auto& f : h.flags) audit.findings.push_back(f.message);

  const auto median_over = [](const std::vector<const CallMeasure*>& calls, const Quantity& q) {
    std::vector<double> values;
    for (const CallMeasure* c : calls)
      if (const auto v = call_value(*c, q)) values.push_back(*v);
    return values.size() == calls.size() ? median(values) : std::nullopt;
  };
  const auto up = link_bandwidth(m, host_code.link_range, CopyKind::HostToDevice);
  const auto down = link_bandwidth(m, host_code.link_range, CopyKind::DeviceToHost);
  for (const auto& q : quantities) {
    std::optional<double> value;
    const QuantityId id = q.id();
    if (id == QuantityId::kSpeedPctOfReference || id == QuantityId::kWallSpeedPctOfReference) {
      const Quantity time = Quantity::named(id == QuantityId::kSpeedPctOfReference ? "time" : "wall_time");
      const auto mine = median_over(timed, time), theirs = median_over(reference, time);
      if (mine && theirs && *mine > 0) value = 100.0 * *theirs / *mine;
    } else if (id == QuantityId::kLinkPct || id == QuantityId::kCopyHiddenPct) {
      std::vector<double> values;
      for (const CallMeasure* c : timed)
        if (const auto v = id == QuantityId::kLinkPct ? link_pct(*c, up, down) : copy_hidden_pct(*c, reference_kernels))
          values.push_back(*v);
      if (values.size() == timed.size()) value = median(values);
    } else {
      value = median_over(timed, q);
    }
    if (value) audit.measured[q.name()] = *value;
  }
  return audit;
}

}  // namespace labbook::grading
