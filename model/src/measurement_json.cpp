#include "labbook/model/measurement_json.h"

#include <algorithm>
#include <charconv>
#include <functional>
#include <iterator>
#include <limits>
#include <optional>
#include <set>
#include <string_view>
#include <unordered_map>

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

json sass_json(const Kernel& k) {
  json sass = json::array();
  for (const auto& i : k.sass)
    sass.push_back({{"function", i.function}, {"pc_offset", i.pc_offset}, {"file", i.file}, {"line", i.line},
                    {"metrics", i.metrics}});
  return sass;
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
    j["sass"] = sass_json(k);
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

/// JSON text of `v`; bytes that are not UTF-8 (a program's NVTX name may hold any) become
/// U+FFFD rather than failing the whole file.
std::string text_of(const json& v, int indent = -1) { return v.dump(indent, ' ', false, json::error_handler_t::replace); }

/// The file's tables (schema version 5): each record a row of cells under named columns, one
/// row per line; strings kept once in "strings" and named by their index; times counted from
/// "time_origin_ns". A trace of 10^5 launches took 560 bytes a launch as objects, keys and
/// names repeated in every one, and reading it back cost more than the program.
/// The strings come before the tables, so the rows are gone through twice: first to number
/// the strings as the rows name them, then to write them, a megabyte at a time to the sink:
/// the tables of 10^5 launches are 14 MB, which a collector held twice over as one text.
class Tables {
 public:
  using Sink = std::function<void(std::string_view)>;
  Tables(std::uint64_t time_origin, const Sink& sink) : origin_(time_origin), sink_(sink) {}

  /// Writes `,\n "time_origin_ns": N,\n "strings": [...]`, the strings the rows named so
  /// far; the rows gone through from then on are written.
  void write_strings() {
    interning_ = false;
    out_ += ",\n \"time_origin_ns\": " + std::to_string(origin_) + ",\n \"strings\": [";
    for (std::size_t i = 0; i < strings_.size(); ++i) {
      out_ += i ? ",\n  " : "\n  ";
      out_ += text_of(json(strings_[i]));
    }
    out_ += strings_.empty() ? "]" : "\n ]";
  }

  /// Starts `"key": {"columns": [...], "strings": [...], "times": [...], "rows": [`: the
  /// columns, those of them whose cells index the file's strings, and those counted from
  /// time_origin_ns, so that a reader needs no list of its own.
  void begin(const char* key, std::initializer_list<const char*> columns, std::initializer_list<const char*> text) {
    if (interning_) return;
    out_ += ",\n \"";
    out_ += key;
    out_ += "\": {";
    names("columns", columns);
    names("strings", text);
    std::vector<const char*> times;
    for (const char* c : columns)
      if (std::string(c) == "start_ns" || std::string(c) == "end_ns") times.push_back(c);
    names("times", times);
    out_ += "\"rows\": [";
    rows_ = 0;
  }
  void row() {
    if (interning_) return;
    if (out_.size() > kChunkBytes) flush();
    out_ += rows_++ ? ",\n  [" : "\n  [";
  }
  void end_row() {
    if (!interning_) out_.back() = ']';   // the last cell's comma
  }
  void end() {
    if (!interning_) out_ += rows_ ? "\n ]}" : "]}";
  }

  template <typename Integer>
  void integer(Integer v) {
    if (interning_) return;
    char digits[24];
    out_.append(digits, std::to_chars(digits, digits + sizeof digits, v).ptr);
    out_ += ',';
  }
  void text(const std::string& s) {
    if (interning_) {
      if (index_.find(s) == index_.end()) {   // emplace would copy `s` first, on every cell
        index_.emplace(s, strings_.size());
        strings_.push_back(s);
      }
      return;
    }
    integer(index_.at(s));
  }
  void time(std::uint64_t ns) { integer(ns - origin_); }
  void time(const std::optional<std::uint64_t>& ns) { ns ? time(*ns) : null(); }
  void boolean(bool v) {
    if (!interning_) out_ += v ? "true," : "false,";
  }
  void null() {
    if (!interning_) out_ += "null,";
  }
  void dims(const int d[3]) {
    if (interning_) return;
    out_ += '[';
    for (int i = 0; i < 3; ++i) integer(d[i]);
    out_.back() = ']';
    out_ += ',';
  }
  template <typename Value>   // made JSON only when written
  void value(const Value& v) {
    if (interning_) return;
    out_ += text_of(json(v));
    out_ += ',';
  }
  template <typename Make>   // value(make()), made only when written
  void value_of(const Make& make) {
    if (!interning_) value(make());
  }
  /// Hands what is held to the sink.
  void flush() {
    sink_(out_);
    out_.clear();
  }

 private:
  static constexpr std::size_t kChunkBytes = std::size_t{1} << 20;

  template <typename Names>   // `"key": ["a","b"], `
  void names(const char* key, const Names& list) {
    out_ += '"';
    out_ += key;
    out_ += "\": [";
    for (const char* c : list) {
      out_ += '"';
      out_ += c;
      out_ += "\",";
    }
    if (out_.back() == ',') out_.pop_back();
    out_ += "], ";
  }

  std::uint64_t origin_;
  const Sink& sink_;
  bool interning_ = true;
  std::string out_;
  std::size_t rows_ = 0;
  std::unordered_map<std::string, std::size_t> index_;
  std::vector<std::string> strings_;
};

/// Goes through the measurement's tables, row by row, with `t`.
void record_tables(const Measurement& m, Tables& t) {
  t.begin("ranges", {"id", "name", "path", "thread", "depth", "process_wide", "start_ns", "end_ns", "payload"}, {"name", "path"});
  for (const auto& r : m.ranges) {
    t.row();
    t.integer(r.id), t.text(r.name), t.text(r.path), t.integer(r.thread), t.integer(r.depth);
    t.boolean(r.process_wide), t.time(r.start_ns), t.time(r.end_ns);
    r.payload ? t.value(*r.payload) : t.null();
    t.end_row();
  }
  t.end();
  t.begin("kernels", {"launch", "name", "mangled", "range", "thread", "device", "stream", "correlation", "grid",
                      "block", "registers_per_thread", "static_shared_bytes", "dynamic_shared_bytes",
                      "local_bytes_per_thread", "start_ns", "end_ns", "default_stream", "metrics", "sass",
                      "sass_launches"},
          {"name", "mangled", "range", "default_stream"});
  for (const auto& k : m.kernels) {
    t.row();
    t.integer(k.launch), t.text(k.name), t.text(k.mangled), t.text(k.range), t.integer(k.thread);
    t.integer(k.device), t.integer(k.stream), t.integer(k.correlation), t.dims(k.grid), t.dims(k.block);
    t.integer(k.registers_per_thread), t.integer(k.static_shared_bytes), t.integer(k.dynamic_shared_bytes);
    t.integer(k.local_bytes_per_thread), t.time(k.start_ns), t.time(k.end_ns);
    if (k.default_stream == DefaultStream::None) t.null();
    else t.text(k.default_stream == DefaultStream::Legacy ? "legacy" : "per_thread");
    t.value(k.metrics);
    k.sass.empty() ? t.null() : t.value_of([&k] { return sass_json(k); });
    !k.sass.empty() && k.sass_launches != 1 ? t.integer(k.sass_launches) : t.null();
    t.end_row();
  }
  t.end();
  t.begin("copies", {"kind", "memset", "src", "dst", "bytes", "start_ns", "end_ns", "device", "stream",
                     "correlation", "range"},
          {"kind", "src", "dst", "range"});
  for (const auto& c : m.copies) {
    t.row();
    t.text(to_string(c.kind)), t.boolean(c.is_memset), t.text(to_string(c.src)), t.text(to_string(c.dst));
    t.integer(c.bytes), t.time(c.start_ns), t.time(c.end_ns), t.integer(c.device), t.integer(c.stream);
    t.integer(c.correlation), t.text(c.range);
    t.end_row();
  }
  t.end();
  t.begin("api_calls", {"name", "thread", "correlation", "start_ns", "end_ns"}, {"name"});
  for (const auto& a : m.api_calls) {
    t.row();
    t.text(a.name), t.integer(a.thread), t.integer(a.correlation), t.time(a.start_ns), t.time(a.end_ns);
    t.end_row();
  }
  t.end();
  t.begin("memory_events", {"kind", "value", "address", "start_ns", "end_ns", "device"}, {"kind"});
  for (const auto& e : m.memory_events) {
    t.row();
    t.text(e.kind), t.integer(e.value), t.integer(e.address), t.time(e.start_ns), t.time(e.end_ns);
    t.integer(e.device);
    t.end_row();
  }
  t.end();
}

/// What reading a record needs besides its own fields.
struct RecordContext {
  int version = kMeasurementSchemaVersion;
  std::uint64_t time_origin = 0;   // a table's times count from it
};

/// A record's time: in a table, counted from time_origin_ns.
std::uint64_t time_at(const JsonReader& r, const char* key, const RecordContext& c) {
  const auto t = r.integer<std::uint64_t>(key);
  if (!r.in_table()) return t;
  if (t > std::numeric_limits<std::uint64_t>::max() - c.time_origin) r.fail(key, "out of range after time_origin_ns");
  return c.time_origin + t;
}

std::optional<std::uint64_t> optional_time_at(const JsonReader& r, const char* key, const RecordContext& c) {
  return r.has(key) ? std::optional<std::uint64_t>(time_at(r, key, c)) : std::nullopt;
}

Range range_from(const JsonReader& r, const RecordContext& c) {
  Range x;
  x.id = r.integer<std::uint64_t>("id");
  x.name = r.string("name");
  x.path = r.string("path");
  x.thread = r.integer<std::uint32_t>("thread");
  x.depth = r.integer<int>("depth");
  if (c.version >= 2) x.process_wide = r.boolean("process_wide");
  x.start_ns = time_at(r, "start_ns", c);
  x.end_ns = optional_time_at(r, "end_ns", c);
  if (x.end_ns && *x.end_ns < x.start_ns) r.fail("end_ns", "ends before it starts");
  x.payload = r.optional_number("payload");
  return x;
}

Kernel kernel_from(const JsonReader& k, const RecordContext& c) {
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
  x.start_ns = optional_time_at(k, "start_ns", c);
  x.end_ns = optional_time_at(k, "end_ns", c);
  if (x.start_ns.has_value() != x.end_ns.has_value())
    k.fail("end_ns", "start_ns and end_ns come together");
  x.metrics = k.number_map("metrics");
  if (k.has("default_stream")) {   // written only for a launch on a default stream
    const std::string which = k.string("default_stream");
    if (which == "legacy") x.default_stream = DefaultStream::Legacy;
    else if (which == "per_thread") x.default_stream = DefaultStream::PerThread;
    else k.fail("default_stream", "expected \"legacy\" or \"per_thread\", not \"" + which + "\"");
  }
  if (c.version >= 4 && k.has("sass"))   // written only for a kernel the source pass saw
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
  return x;
}

Copy copy_from(const JsonReader& r, const RecordContext& c) {
  Copy x;
  x.kind = copy_kind_from_string(r.string("kind"));
  x.is_memset = r.boolean("memset");
  x.src = host_memory_kind_from_string(r.string("src"));
  x.dst = host_memory_kind_from_string(r.string("dst"));
  x.bytes = r.integer<std::uint64_t>("bytes");
  x.start_ns = time_at(r, "start_ns", c);
  x.end_ns = time_at(r, "end_ns", c);
  x.device = r.integer<int>("device");
  x.stream = r.integer<std::uint32_t>("stream");
  x.correlation = r.integer<std::uint32_t>("correlation");
  x.range = r.string("range");
  return x;
}

ApiCall api_call_from(const JsonReader& a, const RecordContext& c) {
  ApiCall x;
  x.name = a.string("name");
  x.thread = a.integer<std::uint32_t>("thread");
  x.correlation = a.integer<std::uint32_t>("correlation");
  x.start_ns = time_at(a, "start_ns", c);
  x.end_ns = time_at(a, "end_ns", c);
  return x;
}

UnifiedMemoryEvent memory_event_from(const JsonReader& e, const RecordContext& c) {
  UnifiedMemoryEvent x;
  x.kind = e.string("kind");
  x.value = e.integer<std::uint64_t>("value");
  x.address = e.integer<std::uint64_t>("address");
  x.start_ns = time_at(e, "start_ns", c);
  x.end_ns = time_at(e, "end_ns", c);
  if (x.end_ns < x.start_ns) e.fail("end_ns", "ends before it starts");
  x.device = e.integer<int>("device");
  return x;
}

/// The record lists, by their key in the file.
constexpr const char* kRecordLists[] = {"ranges", "kernels", "copies", "api_calls", "memory_events"};

/// Adds the record `r` reads to list `key` (one of kRecordLists) of `m`.
void add_record(const std::string& key, const JsonReader& r, const RecordContext& c, Measurement& m) {
  if (key == "ranges") m.ranges.push_back(range_from(r, c));
  else if (key == "kernels") m.kernels.push_back(kernel_from(r, c));
  else if (key == "copies") m.copies.push_back(copy_from(r, c));
  else if (key == "api_calls") m.api_calls.push_back(api_call_from(r, c));
  else m.memory_events.push_back(memory_event_from(r, c));
}

}  // namespace

void write_measurement_text(const Measurement& m, const std::function<void(std::string_view)>& sink) {
  json head_fields = head_json(m);
  head_fields["schema_version"] = kMeasurementSchemaVersion;   // the tables are this version's
  std::string head = text_of(head_fields, 1);   // "{\n ... \n}": the tables go before its "}"
  head.erase(head.rfind('}'));
  while (!head.empty() && head.back() == '\n') head.pop_back();
  sink(head);
  Tables t(earliest_time_ns(m), sink);
  record_tables(m, t);   // numbers the strings
  t.write_strings();
  record_tables(m, t);
  t.flush();
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

  // Version 5 writes the records as tables (record_tables above): strings by their index,
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
    root.each_record(key, strings, [&](const JsonReader& r) { add_record(key, r, context, m); });
  }
  if (v2) {
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

namespace {

/// Reads the rows of a file's record tables as the parser ends each one, and drops them from
/// the document, which then holds the rest only: the whole document of 10^5 launches took
/// more memory than the records it held. A table is read this way where the file gives what
/// its rows need before them (schema_version 5 or later, time_origin_ns, the strings, the
/// table's columns), as labbook writes it; otherwise its rows stay in the document.
class RowStream {
 public:
  explicit RowStream(std::string origin) : origin_(std::move(origin)) {}

  /// nlohmann::json's parser callback: false drops the element just parsed.
  bool on_event(int depth, json::parse_event_t event, json& parsed) {
    using E = json::parse_event_t;
    if (depth == 1) {
      if (event == E::key) {
        top_ = parsed.get<std::string>();
        // A member given twice: the document keeps the last, which rows read before would not.
        if (!members_.insert(top_).second) throw Error(origin_ + ": /" + top_ + " twice");
        in_table_ = ready_ = in_rows_ = false;
      } else if (event == E::value && top_ == "schema_version" && parsed.is_number_integer()) {
        version_ = parsed.get<int>();
      } else if (event == E::value && top_ == "time_origin_ns" && parsed.is_number_unsigned()) {
        time_origin_ = parsed.get<std::uint64_t>();
      } else if (event == E::array_end && top_ == "strings") {
        strings_ = all_strings(parsed);
      } else if (event == E::object_start && is_record_list(top_)) {
        in_table_ = true;
        table_.clear();
        table_read_ = false;
      }
      return true;
    }
    if (!in_table_) return true;
    if (depth == 2) {
      if (event == E::key) {
        member_ = parsed.get<std::string>();
        in_rows_ = false;
      } else if (event == E::array_end && member_ == "columns") {
        ready_ = read_columns(parsed) && version_ && *version_ >= 5 && time_origin_ && strings_;
        table_.strings = strings_ ? &*strings_ : nullptr;
      } else if (event == E::array_start && member_ == "rows") {
        in_rows_ = true;
      }
      return true;
    }
    if (depth != 3 || event != E::array_end || !in_rows_ || !ready_) return true;
    // A problem makes read_measurement read the whole document again, whose reader names the
    // file and the cell: a row read here needs neither, and making them cost every row.
    const JsonReader row(parsed, table_, std::string(), std::string());
    add_record(top_, row, RecordContext{*version_, *time_origin_}, records_);
    if (!table_read_) read_.insert(top_), table_read_ = true;
    ++rows_read_;
    return false;
  }

  std::size_t rows_read() const { return rows_read_; }

  /// Hands `m`, read from what the document kept, the records read here.
  void move_into(Measurement& m) {
    if (read_.count("ranges")) m.ranges = std::move(records_.ranges);
    if (read_.count("kernels")) m.kernels = std::move(records_.kernels);
    if (read_.count("copies")) m.copies = std::move(records_.copies);
    if (read_.count("api_calls")) m.api_calls = std::move(records_.api_calls);
    if (read_.count("memory_events")) m.memory_events = std::move(records_.memory_events);
  }

 private:
  static bool is_record_list(const std::string& key) {
    return std::any_of(std::begin(kRecordLists), std::end(kRecordLists), [&](const char* k) { return key == k; });
  }
  static std::optional<std::vector<std::string>> all_strings(const json& list) {
    std::vector<std::string> out;
    for (const json& v : list) {
      if (!v.is_string()) return std::nullopt;
      out.push_back(v.get<std::string>());
    }
    return out;
  }
  bool read_columns(const json& names) {
    const auto columns = all_strings(names);
    if (!columns) return false;
    for (const auto& name : *columns)
      if (!table_.add_column(name)) return false;
    return true;
  }

  std::string origin_;
  std::optional<int> version_;
  std::optional<std::uint64_t> time_origin_;
  std::optional<std::vector<std::string>> strings_;
  std::string top_, member_;   // the root's member being parsed; in a table, the table's
  bool in_table_ = false, in_rows_ = false, ready_ = false;
  JsonTable table_;
  bool table_read_ = false;   // a row of this table was read here
  Measurement records_;
  std::set<std::string> read_;   // the tables whose rows were read here
  std::set<std::string> members_;   // the root's members seen so far
  std::size_t rows_read_ = 0;
};

}  // namespace

Measurement read_measurement(const std::string& path, std::size_t* rows_read_while_parsing) {
  const std::string text = read_file(path);
  if (rows_read_while_parsing) *rows_read_while_parsing = 0;
  try {
    RowStream rows(path);
    const json rest = json::parse(text, [&rows](int depth, json::parse_event_t event, json& parsed) {
      return rows.on_event(depth, event, parsed);
    });
    Measurement m = measurement_from_json(rest, path);
    rows.move_into(m);
    if (rows_read_while_parsing) *rows_read_while_parsing = rows.rows_read();
    return m;
  } catch (const Error&) {
  } catch (const json::exception&) {
    // A problem anywhere: the whole document is read as before, so that the error names the
    // same field, found in the same order.
  }
  json j;
  try {
    j = json::parse(text);
  } catch (const json::parse_error& e) {
    throw Error(path + ": not valid JSON: " + e.what());
  }
  return measurement_from_json(j, path);
}

void write_measurement(const Measurement& m, const std::string& path) {
  AtomicFileWriter file(path);
  write_measurement_text(m, [&file](std::string_view piece) { file.write(piece); });
  file.commit();
}

}  // namespace labbook
