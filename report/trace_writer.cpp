#include "trace_writer.h"

#include <algorithm>
#include <limits>
#include <map>

#include <nlohmann/json.hpp>

#include "labbook/model/atomic_file.h"

namespace labbook::report {

using nlohmann::json;

namespace {
constexpr int kHostPid = 1;                         // host threads: ranges and API calls
int device_pid(int device) { return 100 + device; }  // GPU work, one track per stream
constexpr int kUnifiedMemoryPid = 99;
constexpr std::uint64_t kProcessWideTid = 0;         // nvtxRangeStart/End ranges may overlap

std::uint64_t earliest_timestamp(const Measurement& m) {
  std::uint64_t t = std::numeric_limits<std::uint64_t>::max();
  for (const auto& r : m.ranges) t = std::min(t, r.start_ns);
  for (const auto& k : m.kernels)
    if (k.start_ns) t = std::min(t, *k.start_ns);
  for (const auto& c : m.copies) t = std::min(t, c.start_ns);
  for (const auto& a : m.api_calls) t = std::min(t, a.start_ns);
  for (const auto& e : m.memory_events) t = std::min(t, e.start_ns);
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

/// One end of the arrow from an API call to the GPU work it started ("s" start, "f" finish).
/// The "traceEvents" array's text, one event per line.
class EventList {
 public:
  void push_back(const json& event) {
    text_ += text_.empty() ? "{\"traceEvents\": [\n" : ",\n";
    text_ += event.dump();
  }
  std::string finish() && {
    if (text_.empty()) text_ = "{\"traceEvents\": [";
    return std::move(text_) + "\n], \"displayTimeUnit\": \"ns\"}\n";
  }

 private:
  std::string text_;
};

json flow_event(const char* phase, std::uint32_t correlation, int pid, std::uint64_t tid, std::uint64_t at,
                std::uint64_t origin) {
  json e = {{"name", "launch"}, {"cat", "correlation"}, {"ph", phase}, {"id", correlation},
            {"pid", pid},       {"tid", tid},           {"ts", static_cast<double>(at - origin) / 1000.0}};
  if (phase[0] == 'f') e["bp"] = "e";
  return e;
}
}  // namespace

std::string chrome_trace(const Measurement& m) {
  const std::uint64_t origin = earliest_timestamp(m);
  EventList events;
  events.push_back(name_event("process_name", kHostPid, 0, "host"));
  for (const auto& d : m.devices)
    events.push_back(name_event("process_name", device_pid(d.ordinal), 0, "GPU " + std::to_string(d.ordinal) + ": " + d.name));

  std::uint64_t last_end = origin;
  for (const auto& k : m.kernels)
    if (k.end_ns) last_end = std::max(last_end, *k.end_ns);
  bool any_process_wide = false;
  for (const auto& r : m.ranges) {
    const std::uint64_t end = r.end_ns.value_or(std::max(last_end, r.start_ns));
    any_process_wide |= r.process_wide;
    events.push_back(complete_event(r.name, "nvtx", kHostPid, r.process_wide ? kProcessWideTid : r.thread,
                                    r.start_ns, end, origin,
                                    {{"path", r.path}, {"closed", r.end_ns.has_value()}, {"thread", r.thread}}));
  }
  if (any_process_wide) events.push_back(name_event("thread_name", kHostPid, kProcessWideTid, "NVTX start/end"));
  std::map<std::uint32_t, const ApiCall*> api_by_correlation;
  for (const auto& a : m.api_calls) {
    api_by_correlation[a.correlation] = &a;
    events.push_back(complete_event(a.name, "cuda_api", kHostPid, a.thread, a.start_ns, a.end_ns, origin,
                                    {{"correlation", a.correlation}}));
  }
  // Arrows from each API call to the kernel or copy it started.
  auto link = [&](std::uint32_t correlation, int device, std::uint32_t stream, std::uint64_t start) {
    const auto it = api_by_correlation.find(correlation);
    if (correlation == 0 || it == api_by_correlation.end()) return;
    events.push_back(flow_event("s", correlation, kHostPid, it->second->thread, it->second->start_ns, origin));
    events.push_back(flow_event("f", correlation, device_pid(device), stream, start, origin));
  };
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
    link(k.correlation, k.device, k.stream, *k.start_ns);
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
    link(c.correlation, c.device, c.stream, c.start_ns);
  }
  if (!m.memory_events.empty())
    events.push_back(name_event("process_name", kUnifiedMemoryPid, 0, "unified memory"));
  for (const auto& e : m.memory_events)
    events.push_back(complete_event(e.kind, "unified_memory", kUnifiedMemoryPid, 0, e.start_ns, e.end_ns, origin,
                                    {{"value", e.value}, {"address", e.address}, {"device", e.device}}));
  return std::move(events).finish();
}

void write_chrome_trace(const Measurement& m, const std::string& path) { write_file_atomically(path, chrome_trace(m)); }

}  // namespace labbook::report
