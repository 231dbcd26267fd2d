#include "labbook/model/measurement_json.h"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string_view>

#include <nlohmann/json.hpp>

#include "labbook/model/atomic_file.h"
#include "labbook/model/error.h"
#include "labbook/model/json_reader.h"
#include "measurement_records.h"
#include "measurement_tables.h"

namespace labbook {

using nlohmann::json;
using records::kRecordLists;
using records::RecordContext;

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

/// A run that carries only its profiled kernels numbers each within its tally: a kernel
/// without its number would be merged as another launch of its kernel.
void check_ordinals(const Measurement& m, const std::string& origin) {
  const auto tallied = launches_by_range_and_kernel(*m.launch_tally);
  for (std::size_t i = 0; i < m.kernels.size(); ++i) {
    const Kernel& k = m.kernels[i];
    const auto t = tallied.find({k.range, k.mangled});
    if (!k.ordinal || t == tallied.end() || *k.ordinal >= t->second)
      throw Error(origin + ": /kernels/" + std::to_string(i) + "/ordinal: " +
                  (k.ordinal ? "beyond the launch_tally's launches of its kernel in its range"
                             : "missing, where the file has a launch_tally"));
  }
}

}  // namespace

json sass_json(const Kernel& k) {
  json sass = json::array();
  for (const auto& i : k.sass)
    sass.push_back({{"function", i.function}, {"pc_offset", i.pc_offset}, {"file", i.file}, {"line", i.line},
                    {"metrics", i.metrics}});
  return sass;
}

json to_json(const ProgramRun& run) {
  json program = {{"command", run.command},
                  {"started_at", run.started_at},
                  {"mode", run.mode},
                  {"stop_reason", run.stop_reason},
                  {"collector_version", run.collector_version},
                  {"cupti_version", run.cupti_version}};
  put_optional(program, "exit_code", run.exit_code);
  if (!run.source_kernels.empty()) program["source_kernels"] = run.source_kernels;
  return program;
}

namespace {

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
    j["sass"] = sass_json(k);
    if (k.sass_launches != 1) j["sass_launches"] = k.sass_launches;
  }
  put_optional(j, "ordinal", k.ordinal);
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
  j["program"] = to_json(m.program);
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
  if (m.launch_tally) {
    j["launch_tally"] = json::array();
    for (const auto& t : *m.launch_tally)
      j["launch_tally"].push_back({{"range", t.range}, {"mangled", t.mangled}, {"launches", t.launches}});
  }
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

}  // namespace

std::string text_of(const json& v, int indent) { return v.dump(indent, ' ', false, json::error_handler_t::replace); }

void write_measurement_text(const Measurement& m, const std::function<void(std::string_view)>& sink,
                            MeasurementWriting writing) {
  write_measurement_text(m, MadeTables{}, sink, writing);
}

void write_measurement_text(const Measurement& m, const MadeTables& made,
                            const std::function<void(std::string_view)>& sink, MeasurementWriting writing) {
  json head_fields = head_json(m);
  head_fields["schema_version"] = kMeasurementSchemaVersion;   // the tables are this version's
  std::string head = text_of(head_fields, 1);   // "{\n ... \n}": the tables go before its "}"
  head.erase(head.rfind('}'));
  while (!head.empty() && head.back() == '\n') head.pop_back();
  sink(head);
  write_record_tables(m, made, sink, writing);
  sink("\n}\n");
}

std::string measurement_text(const Measurement& m) {
  std::string text;
  write_measurement_text(m, [&text](std::string_view piece) { text += piece; });
  return text;
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
  if (!j.is_object() || !j.contains("schema"))
    throw Error(origin + ": not a labbook measurement (it has no \"schema\" field): give a measurement.json that "
                         "labbook run or labbook profile wrote");
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

  // Version 5 writes the records as tables (measurement_tables.cpp): strings by their index,
  // times from time_origin_ns. Lists of objects (earlier versions, to_json) read as before.
  std::vector<std::string> strings;
  std::uint64_t time_origin = 0;
  bool tables = false;
  for (const char* key : kRecordLists) tables = tables || (j.contains(key) && j[key].is_object());
  if (tables && version < 5) root.fail("schema_version", "records as tables need version 5, not " + std::to_string(version));
  if (tables) {
    strings = root.strings("strings");
    time_origin = root.integer<std::uint64_t>("time_origin_ns");
  }
  const auto count = [&j](const char* key) -> std::size_t {   // to reserve: a Kernel is large to move
    if (!j.contains(key)) return 0;
    const json& v = j[key];
    if (v.is_array()) return v.size();
    return v.is_object() && v.contains("rows") && v["rows"].is_array() ? v["rows"].size() : 0;
  };
  m.ranges.reserve(count("ranges"));
  m.kernels.reserve(count("kernels"));
  m.copies.reserve(count("copies"));
  m.api_calls.reserve(count("api_calls"));
  m.memory_events.reserve(count("memory_events"));
  const RecordContext context{version, time_origin};
  for (const char* key : kRecordLists) {
    if (std::string(key) == "memory_events" && !v2) continue;   // added in version 2
    root.each_record(key, strings, [&](const JsonReader& r) { records::add_record(key, r, context, m); });
  }
  if (v2) {
    m.metric_scope = root.string("metric_scope");
    m.metric_passes = root.integer<int>("metric_passes");
  }
  if (version >= 3) {
    m.metric_replay = root.string("metric_replay");
    m.cache_control = root.string("cache_control");
  }
  if (version >= 6 && root.has("launch_tally")) {
    m.launch_tally.emplace();
    root.each("launch_tally", [&](const JsonReader& t) {
      m.launch_tally->push_back({t.string("range"), t.string("mangled"), t.integer<std::uint64_t>("launches")});
    });
    check_ordinals(m, origin);
  }
  m.metrics_requested = root.strings("metrics_requested");
  root.each("issues", [&](const JsonReader& i) {
    m.issues.push_back({i.string("code"), i.string("message")});
  });
  return m;
}

void write_measurement(const Measurement& m, const std::string& path, MeasurementWriting writing) {
  write_measurement(m, MadeTables{}, path, writing);
}

void write_measurement(const Measurement& m, const MadeTables& made, const std::string& path, MeasurementWriting writing) {
  AtomicFileWriter file(path);
  write_measurement_text(m, made, [&file](std::string_view piece) { file.write(piece); }, writing);
  file.commit();
}

}  // namespace labbook
