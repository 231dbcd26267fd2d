#include "trace_writer.h"

#include <algorithm>
#include <limits>

#include <nlohmann/json.hpp>

#include "labbook/model/atomic_file.h"

namespace labbook::report {

using nlohmann::json;

namespace {
constexpr int kHostPid = 1;                         // host threads: ranges and API calls
int device_pid(int device) { return 100 + device; }  // GPU work, one track per stream

std::uint64_t earliest_timestamp(const Measurement& m) {
  std::uint64_t t = std::numeric_limits<std::uint64_t>::max();
  for (const auto& r : m.ranges) t = std::min(t, r.start_ns);
  for (const auto& k : m.kernels)
    if (k.start_ns) t = std::min(t, *k.start_ns);
  for (const auto& c : m.copies) t = std::min(t, c.start_ns);
  for (const auto& a : m.api_calls) t = std::min(t, a.start_ns);
  return t == std::numeric_limits<std::uint64_t>::max() ? 0 : t;
}

json complete_event(const std::string& name, const char* category, int pid, std::uint64_t tid,
                    std::uint64_t start, std::uint64_t end, std::uint64_t origin, json args) {
  return {{"name", name},
          {"cat", category},
          {"ph", "X"},
          {"pid", pid},
          {"tid", tid},
          {"ts", static_cast<double>(start - origin) / 1000.0},
          {"dur", static_cast<double>(end - start) / 1000.0},
          {"args", std::move(args)}};
}

json name_event(const char* what, int pid, std::uint64_t tid, const std::string& name) {
  return {{"name", what}, {"ph", "M"}, {"pid", pid}, {"tid", tid}, {"args", {{"name", name}}}};
}
}  // namespace

json chrome_trace(const Measurement& m) {
  const std::uint64_t origin = earliest_timestamp(m);
  json events = json::array();
  events.push_back(name_event("process_name", kHostPid, 0, "host"));
  for (const auto& d : m.devices)
    events.push_back(name_event("process_name", device_pid(d.ordinal), 0, "GPU " + std::to_string(d.ordinal) + ": " + d.name));

  std::uint64_t last_end = origin;
  for (const auto& k : m.kernels)
    if (k.end_ns) last_end = std::max(last_end, *k.end_ns);
  for (const auto& r : m.ranges) {
    const std::uint64_t end = r.end_ns.value_or(std::max(last_end, r.start_ns));
    events.push_back(complete_event(r.name, "nvtx", kHostPid, r.thread, r.start_ns, end, origin,
                                    {{"path", r.path}, {"closed", r.end_ns.has_value()}}));
  }
  for (const auto& a : m.api_calls)
    events.push_back(complete_event(a.name, "cuda_api", kHostPid, a.thread, a.start_ns, a.end_ns, origin,
                                    {{"correlation", a.correlation}}));
  for (const auto& k : m.kernels) {
    if (!k.start_ns || !k.end_ns) continue;
    json args = {{"launch", k.launch},
                 {"range", k.range},
                 {"grid", {k.grid[0], k.grid[1], k.grid[2]}},
                 {"block", {k.block[0], k.block[1], k.block[2]}},
                 {"registers_per_thread", k.registers_per_thread},
                 {"correlation", k.correlation}};
    events.push_back(complete_event(k.name, "kernel", device_pid(k.device), k.stream, *k.start_ns, *k.end_ns,
                                    origin, std::move(args)));
  }
  for (const auto& c : m.copies) {
    const std::string name = c.is_memset ? "memset" : std::string("memcpy ") + to_string(c.kind);
    events.push_back(complete_event(name, c.is_memset ? "memset" : "memcpy", device_pid(c.device), c.stream,
                                    c.start_ns, c.end_ns, origin,
                                    {{"bytes", c.bytes},
                                     {"src", to_string(c.src)},
                                     {"dst", to_string(c.dst)},
                                     {"range", c.range},
                                     {"correlation", c.correlation}}));
  }
  return {{"traceEvents", events}, {"displayTimeUnit", "ns"}};
}

void write_chrome_trace(const Measurement& m, const std::string& path) {
  write_file_atomically(path, chrome_trace(m).dump() + "\n");
}

}  // namespace labbook::report
