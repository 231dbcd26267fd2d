#include "labbook/model/measurement_json.h"

#include <nlohmann/json.hpp>

#include "labbook/model/atomic_file.h"
#include "labbook/model/error.h"
#include "labbook/model/json_reader.h"

namespace labbook {

using nlohmann::json;

namespace {

template <typename T>
void put_optional(json& j, const char* key, const std::optional<T>& v) {
  if (v) j[key] = *v;
}

json dims(const int d[3]) { return json::array({d[0], d[1], d[2]}); }

json to_json(const Range& r) {
  json j = {{"id", r.id},         {"name", r.name},   {"path", r.path},
            {"thread", r.thread}, {"depth", r.depth}, {"process_wide", r.process_wide},
            {"start_ns", r.start_ns}};
  put_optional(j, "end_ns", r.end_ns);
  put_optional(j, "payload", r.payload);
  return j;
}

json to_json(const Kernel& k) {
  json j = {{"launch", k.launch},
            {"name", k.name},
            {"mangled", k.mangled},
            {"range", k.range},
            {"thread", k.thread},
            {"device", k.device},
            {"stream", k.stream},
            {"correlation", k.correlation},
            {"grid", dims(k.grid)},
            {"block", dims(k.block)},
            {"registers_per_thread", k.registers_per_thread},
            {"static_shared_bytes", k.static_shared_bytes},
            {"dynamic_shared_bytes", k.dynamic_shared_bytes},
            {"local_bytes_per_thread", k.local_bytes_per_thread},
            {"metrics", k.metrics}};
  put_optional(j, "start_ns", k.start_ns);
  put_optional(j, "end_ns", k.end_ns);
  if (k.default_stream != DefaultStream::None)
    j["default_stream"] = k.default_stream == DefaultStream::Legacy ? "legacy" : "per_thread";
  if (!k.sass.empty()) {
    json sass = json::array();
    for (const auto& i : k.sass)
      sass.push_back({{"function", i.function}, {"pc_offset", i.pc_offset}, {"file", i.file}, {"line", i.line},
                      {"metrics", i.metrics}});
    j["sass"] = std::move(sass);
    if (k.sass_launches != 1) j["sass_launches"] = k.sass_launches;
  }
  return j;
}

json to_json(const Copy& c) {
  return {{"kind", to_string(c.kind)}, {"memset", c.is_memset},   {"src", to_string(c.src)},
          {"dst", to_string(c.dst)},   {"bytes", c.bytes},        {"start_ns", c.start_ns},
          {"end_ns", c.end_ns},        {"device", c.device},      {"stream", c.stream},
          {"correlation", c.correlation}, {"range", c.range}};
}

json to_json(const ApiCall& a) {
  return {{"name", a.name}, {"thread", a.thread}, {"correlation", a.correlation},
          {"start_ns", a.start_ns}, {"end_ns", a.end_ns}};
}

json to_json(const UnifiedMemoryEvent& e) {
  return {{"kind", e.kind},         {"value", e.value},   {"address", e.address},
          {"start_ns", e.start_ns}, {"end_ns", e.end_ns}, {"device", e.device}};
}

/// Everything but the per-record arrays.
json head_json(const Measurement& m) {
  json j;
  j["schema"] = "labbook.measurement";
  j["schema_version"] = m.schema_version;
  json program = {{"command", m.program.command},
                  {"started_at", m.program.started_at},
                  {"mode", m.program.mode},
                  {"stop_reason", m.program.stop_reason},
                  {"collector_version", m.program.collector_version},
                  {"cupti_version", m.program.cupti_version}};
  put_optional(program, "exit_code", m.program.exit_code);
  if (!m.program.source_kernels.empty()) program["source_kernels"] = m.program.source_kernels;
  j["program"] = std::move(program);
  j["devices"] = json::array();
  for (const auto& d : m.devices) {
    j["devices"].push_back({{"ordinal", d.ordinal},
                            {"name", d.name},
                            {"chip", d.chip},
                            {"compute_capability", {d.cc_major, d.cc_minor}},
                            {"sm_count", d.sm_count},
                            {"l2_bytes", d.l2_bytes},
                            {"global_memory_bytes", d.global_memory_bytes},
                            {"memory_bus_width_bits", d.memory_bus_width_bits},
                            {"memory_clock_khz", d.memory_clock_khz},
                            {"sm_clock_khz", d.sm_clock_khz},
                            {"driver_version", d.driver_version},
                            {"peak_dram_bytes_per_second", d.peak_dram_bytes_per_second()}});
  }
  j["metrics_requested"] = m.metrics_requested;
  j["metric_scope"] = m.metric_scope;
  j["metric_passes"] = m.metric_passes;
  j["metric_replay"] = m.metric_replay;
  j["cache_control"] = m.cache_control;
  j["issues"] = json::array();
  for (const auto& i : m.issues) j["issues"].push_back({{"code", i.code}, {"message", i.message}});
  return j;
}

template <typename Record>
json array_json(const std::vector<Record>& records) {
  json a = json::array();
  for (const auto& r : records) a.push_back(to_json(r));
  return a;
}

/// `"key": [` one record per line `]`, each record dumped as soon as it is made: a trace holds
/// tens of thousands, and one tree of them all cost more to build and free than to write.
template <typename Record>
void append_records(std::string& out, const char* key, const std::vector<Record>& records) {
  out += ",\n \"";
  out += key;
  out += "\": [";
  for (std::size_t i = 0; i < records.size(); ++i) {
    out += i ? ",\n  " : "\n  ";
    out += to_json(records[i]).dump();
  }
  out += records.empty() ? "]" : "\n ]";
}

}  // namespace

std::string measurement_text(const Measurement& m) {
  std::string head = head_json(m).dump(1);   // "{\n ... \n}": the records go before its "}"
  std::string out = head.substr(0, head.rfind('}'));
  while (!out.empty() && out.back() == '\n') out.pop_back();
  append_records(out, "ranges", m.ranges);
  append_records(out, "kernels", m.kernels);
  append_records(out, "copies", m.copies);
  append_records(out, "api_calls", m.api_calls);
  append_records(out, "memory_events", m.memory_events);
  return out + "\n}\n";
}

json to_json(const Measurement& m) {
  json j = head_json(m);
  j["ranges"] = array_json(m.ranges);
  j["kernels"] = array_json(m.kernels);
  j["copies"] = array_json(m.copies);
  j["api_calls"] = array_json(m.api_calls);
  j["memory_events"] = array_json(m.memory_events);
  return j;
}

Measurement measurement_from_json(const json& j, const std::string& origin) {
  JsonReader root(j, origin);
  Measurement m;
  // The sheet's own JSON (reports/lab4.json) sits beside the measurement: say which file to give.
  if (j.is_object() && !j.contains("schema") && j.contains("sections") && j.contains("lab"))
    throw Error(origin + ": a lab sheet's numbers, not a measurement: give the measurement it was rendered from (" +
                j["lab"].get<std::string>() + ".measurement.json beside it, or the lab's recorded/h100.json)");
  if (root.string("schema") != "labbook.measurement")
    root.fail("schema", "expected \"labbook.measurement\"");
  const int version = root.integer<int>("schema_version");
  if (version < 1 || version > kMeasurementSchemaVersion)
    root.fail("schema_version", "this labbook reads versions 1 to " +
                                    std::to_string(kMeasurementSchemaVersion) + ", not " +
                                    std::to_string(version));
  const bool v2 = version >= 2;   // fields added in version 2 are required from then on

  const JsonReader program = root.object("program");
  m.program.command = program.strings("command");
  m.program.exit_code = program.optional_integer<int>("exit_code");
  m.program.started_at = program.string("started_at");
  m.program.mode = program.string("mode");
  if (v2) m.program.stop_reason = program.string("stop_reason");
  m.program.collector_version = program.string("collector_version");
  m.program.cupti_version = program.integer<int>("cupti_version");
  if (program.has("source_kernels")) m.program.source_kernels = program.strings("source_kernels");

  root.each("devices", [&](const JsonReader& d) {
    DeviceFacts f;
    f.ordinal = d.integer<int>("ordinal");
    f.name = d.string("name");
    f.chip = d.string("chip");
    const auto cc = d.integers<int>("compute_capability", 2);
    f.cc_major = cc[0];
    f.cc_minor = cc[1];
    f.sm_count = d.integer<int>("sm_count");
    f.l2_bytes = d.integer<std::int64_t>("l2_bytes");
    f.global_memory_bytes = d.integer<std::int64_t>("global_memory_bytes");
    f.memory_bus_width_bits = d.integer<int>("memory_bus_width_bits");
    f.memory_clock_khz = d.integer<int>("memory_clock_khz");
    f.sm_clock_khz = d.integer<int>("sm_clock_khz");
    f.driver_version = d.integer<int>("driver_version");
    m.devices.push_back(f);
  });

  root.each("ranges", [&](const JsonReader& r) {
    Range x;
    x.id = r.integer<std::uint64_t>("id");
    x.name = r.string("name");
    x.path = r.string("path");
    x.thread = r.integer<std::uint32_t>("thread");
    x.depth = r.integer<int>("depth");
    if (v2) x.process_wide = r.boolean("process_wide");
    x.start_ns = r.integer<std::uint64_t>("start_ns");
    x.end_ns = r.optional_integer<std::uint64_t>("end_ns");
    if (x.end_ns && *x.end_ns < x.start_ns) r.fail("end_ns", "ends before it starts");
    x.payload = r.optional_number("payload");
    m.ranges.push_back(x);
  });

  root.each("kernels", [&](const JsonReader& k) {
    Kernel x;
    x.launch = k.integer<std::uint64_t>("launch");
    x.name = k.string("name");
    x.mangled = k.string("mangled");
    x.range = k.string("range");
    x.thread = k.integer<std::uint32_t>("thread");
    x.device = k.integer<int>("device");
    x.stream = k.integer<std::uint32_t>("stream");
    x.correlation = k.integer<std::uint32_t>("correlation");
    const auto grid = k.integers<int>("grid", 3), block = k.integers<int>("block", 3);
    for (int i = 0; i < 3; ++i) {
      x.grid[i] = grid[static_cast<std::size_t>(i)];
      x.block[i] = block[static_cast<std::size_t>(i)];
    }
    x.registers_per_thread = k.integer<int>("registers_per_thread");
    x.static_shared_bytes = k.integer<int>("static_shared_bytes");
    x.dynamic_shared_bytes = k.integer<int>("dynamic_shared_bytes");
    x.local_bytes_per_thread = k.integer<int>("local_bytes_per_thread");
    x.start_ns = k.optional_integer<std::uint64_t>("start_ns");
    x.end_ns = k.optional_integer<std::uint64_t>("end_ns");
    if (x.start_ns.has_value() != x.end_ns.has_value())
      k.fail("end_ns", "start_ns and end_ns come together");
    x.metrics = k.number_map("metrics");
    if (k.has("default_stream")) {   // written only for a launch on a default stream
      const std::string which = k.string("default_stream");
      if (which == "legacy") x.default_stream = DefaultStream::Legacy;
      else if (which == "per_thread") x.default_stream = DefaultStream::PerThread;
      else k.fail("default_stream", "expected \"legacy\" or \"per_thread\", not \"" + which + "\"");
    }
    if (version >= 4 && k.has("sass"))   // written only for a kernel the source pass saw
      k.each("sass", [&](const JsonReader& i) {
        SassInstruction s;
        s.function = i.string("function");
        s.pc_offset = i.integer<std::uint32_t>("pc_offset");
        s.file = i.string("file");
        s.line = i.integer<int>("line");
        if (s.line < 0) i.fail("line", "expected 0 (unknown) or a line number");
        s.metrics = i.number_map("metrics");
        x.sass.push_back(std::move(s));
      });
    if (k.has("sass_launches")) {   // counts summed over several launches; 1 when absent
      x.sass_launches = k.integer<std::uint64_t>("sass_launches");
      if (x.sass_launches == 0) k.fail("sass_launches", "expected 1 or more launches");
    }
    m.kernels.push_back(std::move(x));
  });

  root.each("copies", [&](const JsonReader& c) {
    Copy x;
    x.kind = copy_kind_from_string(c.string("kind"));
    x.is_memset = c.boolean("memset");
    x.src = host_memory_kind_from_string(c.string("src"));
    x.dst = host_memory_kind_from_string(c.string("dst"));
    x.bytes = c.integer<std::uint64_t>("bytes");
    x.start_ns = c.integer<std::uint64_t>("start_ns");
    x.end_ns = c.integer<std::uint64_t>("end_ns");
    x.device = c.integer<int>("device");
    x.stream = c.integer<std::uint32_t>("stream");
    x.correlation = c.integer<std::uint32_t>("correlation");
    x.range = c.string("range");
    m.copies.push_back(x);
  });

  root.each("api_calls", [&](const JsonReader& a) {
    ApiCall x;
    x.name = a.string("name");
    x.thread = a.integer<std::uint32_t>("thread");
    x.correlation = a.integer<std::uint32_t>("correlation");
    x.start_ns = a.integer<std::uint64_t>("start_ns");
    x.end_ns = a.integer<std::uint64_t>("end_ns");
    m.api_calls.push_back(x);
  });

  if (v2) {
    root.each("memory_events", [&](const JsonReader& e) {
      UnifiedMemoryEvent x;
      x.kind = e.string("kind");
      x.value = e.integer<std::uint64_t>("value");
      x.address = e.integer<std::uint64_t>("address");
      x.start_ns = e.integer<std::uint64_t>("start_ns");
      x.end_ns = e.integer<std::uint64_t>("end_ns");
      if (x.end_ns < x.start_ns) e.fail("end_ns", "ends before it starts");
      x.device = e.integer<int>("device");
      m.memory_events.push_back(x);
    });
    m.metric_scope = root.string("metric_scope");
    m.metric_passes = root.integer<int>("metric_passes");
  }
  if (version >= 3) {
    m.metric_replay = root.string("metric_replay");
    m.cache_control = root.string("cache_control");
  }
  m.metrics_requested = root.strings("metrics_requested");
  root.each("issues", [&](const JsonReader& i) {
    m.issues.push_back({i.string("code"), i.string("message")});
  });
  return m;
}

Measurement read_measurement(const std::string& path) {
  const std::string text = read_file(path);
  json j;
  try {
    j = json::parse(text);
  } catch (const json::parse_error& e) {
    throw Error(path + ": not valid JSON: " + e.what());
  }
  return measurement_from_json(j, path);
}

void write_measurement(const Measurement& m, const std::string& path) {
  write_file_atomically(path, measurement_text(m));
}

}  // namespace labbook
