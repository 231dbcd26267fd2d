#include "labbook/model/measurement.h"

#include <algorithm>
#include <array>
#include <limits>
#include <utility>

namespace labbook {

double DeviceFacts::peak_dram_bytes_per_second() const {
  return 2.0 * memory_clock_khz * 1000.0 * memory_bus_width_bits / 8.0;
}

std::optional<double> Kernel::duration_ns() const {
  if (!start_ns || !end_ns || *end_ns < *start_ns) return std::nullopt;
  return static_cast<double>(*end_ns - *start_ns);
}

std::string Kernel::range_or_name() const { return range.empty() ? kernel_short_name(name) : range; }

std::optional<std::uint64_t> earliest_time_ns(const Measurement& m) {
  std::optional<std::uint64_t> earliest;
  const auto see = [&](std::optional<std::uint64_t> t) { earliest = earlier_ns(earliest, t); };
  for (const auto& r : m.ranges) see(r.start_ns), see(r.end_ns);
  for (const auto& k : m.kernels) see(k.start_ns), see(k.end_ns);
  for (const auto& c : m.copies) see(c.start_ns), see(c.end_ns);
  for (const auto& a : m.api_calls) see(a.start_ns), see(a.end_ns);
  for (const auto& e : m.memory_events) see(e.start_ns), see(e.end_ns);
  return earliest;
}

std::vector<const Kernel*> sass_covered(const std::vector<Kernel>& kernels, const Kernel& with_sass) {
  std::vector<const Kernel*> covered;
  for (const auto& k : kernels)
    if (covered.size() < with_sass.sass_launches && k.launch >= with_sass.launch && k.mangled == with_sass.mangled &&
        k.device == with_sass.device)
      covered.push_back(&k);
  return covered;
}

bool nvtx_path_within(const std::string& path, const std::string& ancestor) {
  return path.compare(0, ancestor.size(), ancestor) == 0 && (path.size() == ancestor.size() || path[ancestor.size()] == '/');
}

std::string kernel_short_name(const std::string& demangled) {
  // The parameter list is the first '(' outside template brackets ("(anonymous namespace)"
  // is part of a name); a return type, which the demangler prints for function templates
  // ("void f<4>(int)"), ends at the last space outside brackets before it.
  int angle = 0;
  std::size_t name_start = 0;
  for (std::size_t i = 0; i < demangled.size(); ++i) {
    const char c = demangled[i];
    if (demangled.compare(i, 21, "(anonymous namespace)") == 0) i += 20;
    else if (c == '<') ++angle;
    else if (c == '>') --angle;
    else if (c == ' ' && angle == 0) name_start = i + 1;
    else if (c == '(' && angle == 0)
      return i > name_start ? demangled.substr(name_start, i - name_start) : demangled;
  }
  return demangled;
}

const DeviceFacts* Measurement::device(int ordinal) const {
  auto it = std::find_if(devices.begin(), devices.end(),
                         [&](const DeviceFacts& d) { return d.ordinal == ordinal; });
  return it == devices.end() ? nullptr : &*it;
}

bool Measurement::has_issue(const std::string& code) const {
  return std::any_of(issues.begin(), issues.end(), [&](const Issue& i) { return i.code == code; });
}

namespace {
constexpr std::array<std::pair<CopyKind, const char*>, 6> kCopyKinds{{
    {CopyKind::HostToDevice, "HtoD"}, {CopyKind::DeviceToHost, "DtoH"},
    {CopyKind::DeviceToDevice, "DtoD"}, {CopyKind::HostToHost, "HtoH"},
    {CopyKind::PeerToPeer, "PtoP"}, {CopyKind::Unknown, "unknown"}}};
constexpr std::array<std::pair<HostMemoryKind, const char*>, 6> kMemoryKinds{{
    {HostMemoryKind::Pageable, "pageable"}, {HostMemoryKind::Pinned, "pinned"},
    {HostMemoryKind::Device, "device"}, {HostMemoryKind::Managed, "managed"},
    {HostMemoryKind::Array, "array"}, {HostMemoryKind::Unknown, "unknown"}}};

template <typename Table, typename Enum>
const char* name_of(const Table& table, Enum value) {
  for (const auto& [v, n] : table)
    if (v == value) return n;
  return "unknown";
}
template <typename Table>
auto value_of(const Table& table, const std::string& name) {
  for (const auto& [v, n] : table)
    if (name == n) return v;
  return table.back().first;
}
}  // namespace

LaunchCounts launches_by_range_and_kernel(const std::vector<LaunchTally>& tally) {
  LaunchCounts out;
  for (const auto& t : tally) out[{t.range, t.mangled}] += t.launches;
  return out;
}

const char* to_string(CopyKind k) { return name_of(kCopyKinds, k); }
const char* to_string(HostMemoryKind k) { return name_of(kMemoryKinds, k); }
CopyKind copy_kind_from_string(const std::string& s) { return value_of(kCopyKinds, s); }
HostMemoryKind host_memory_kind_from_string(const std::string& s) { return value_of(kMemoryKinds, s); }

}  // namespace labbook
