#include "labbook/model/measurement_json.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <functional>
#include <optional>
#include <string_view>
#include <unordered_map>

#include <nlohmann/json.hpp>

#include "labbook/model/atomic_file.h"
#include "labbook/model/error.h"
#include "labbook/model/json_reader.h"
#include "labbook/model/side_by_side.h"
#include "measurement_records.h"

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
  Tables(std::uint64_t time_origin, const Sink& sink, MeasurementWriting writing)
      : origin_(time_origin), sink_(sink), side_by_side_(writing == MeasurementWriting::SideBySide) {}
  /// A writer of `parent`'s rows from row `first` on, into `sink`, naming the strings `parent`
  /// numbered (for writing a table's rows in spans side by side).
  Tables(const Tables& parent, const Sink& sink, std::size_t first)
      : origin_(parent.origin_), sink_(sink), interning_(false), rows_(first), numbered_(&parent.index_) {}

  /// `write(t, i)` for each row i below `count` of the table begun last, where t is this
  /// writer or, for the rows of a large table, one of a span of them written side by side
  /// (10^5 launches' rows were the slowest output of the report step), in order.
  template <typename Write>
  void rows(std::size_t count, const Write& write) {
    constexpr std::size_t kRowsPerSpan = 4096;
    if (interning_ || !side_by_side_ || side_by_side_width() == 1 || count < 2 * kRowsPerSpan) {
      for (std::size_t i = 0; i < count; ++i) write(*this, i);
      return;
    }
    const std::size_t first = rows_;
    in_ordered_spans<std::string>(
        count, kRowsPerSpan,
        [&](std::string& text, std::size_t from, std::size_t to) {
          const Sink to_text = [&text](std::string_view piece) { text += piece; };
          Tables span(*this, to_text, first + from);
          for (std::size_t i = from; i < to; ++i) write(span, i);
          if (text.empty()) text.swap(span.out_);   // its rows were not yet flushed: no copy
          else span.flush();
        },
        [&](const std::string& text) {
          flush();
          sink_(text);
        });
    rows_ = first + count;
  }

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
    const char* end = std::to_chars(digits, digits + sizeof digits, v).ptr;
    out_.append(digits, static_cast<std::size_t>(end - digits));   // (first, last) took a slower path
    out_ += ',';
  }
  void text(const std::string& s) {
    const std::size_t* at = index_of(s);
    if (!interning_) return integer(at ? *at : numbered_->at(s));
    if (!at) {
      index_.emplace(s, strings_.size());
      strings_.push_back(s);
    }
  }
  void time(std::uint64_t ns) { integer(ns - origin_); }
  void time(const std::optional<std::uint64_t>& ns) { ns ? time(*ns) : null(); }
  void boolean(bool v) {
    if (!interning_) out_ += v ? "true," : "false,";
  }
  void null() {
    if (!interning_) out_ += "null,";
  }
  void empty_object() {
    if (!interning_) out_ += "{},";
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
  bool side_by_side_ = false;
  bool interning_ = true;
  std::string out_;
  std::size_t rows_ = 0;
  std::unordered_map<std::string, std::size_t> index_;
  const std::unordered_map<std::string, std::size_t>* numbered_ = &index_;   // a span's: its parent's
  std::vector<std::string> strings_;

  /// The index of `s`, if numbered; the last few strings found are compared first: rows of one
  /// kernel repeat its names, and comparing them costs less than hashing them.
  const std::size_t* index_of(const std::string& s) {
    for (const auto& [known, index] : recent_)
      if (known && *known == s) return &index;
    const auto it = numbered_->find(s);
    if (it == numbered_->end()) return nullptr;
    auto& slot = recent_[next_recent_];
    next_recent_ = (next_recent_ + 1) % recent_.size();
    slot = {&it->first, it->second};
    return &slot.second;
  }
  std::array<std::pair<const std::string*, std::size_t>, 8> recent_{};
  std::size_t next_recent_ = 0;
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
  t.rows(m.kernels.size(), [&m](Tables& r, std::size_t i) {
    const Kernel& k = m.kernels[i];
    r.row();
    r.integer(k.launch), r.text(k.name), r.text(k.mangled), r.text(k.range), r.integer(k.thread);
    r.integer(k.device), r.integer(k.stream), r.integer(k.correlation), r.dims(k.grid), r.dims(k.block);
    r.integer(k.registers_per_thread), r.integer(k.static_shared_bytes), r.integer(k.dynamic_shared_bytes);
    r.integer(k.local_bytes_per_thread), r.time(k.start_ns), r.time(k.end_ns);
    if (k.default_stream == DefaultStream::None) r.null();
    else r.text(k.default_stream == DefaultStream::Legacy ? "legacy" : "per_thread");
    k.metrics.empty() ? r.empty_object() : r.value(k.metrics);
    k.sass.empty() ? r.null() : r.value_of([&k] { return sass_json(k); });
    !k.sass.empty() && k.sass_launches != 1 ? r.integer(k.sass_launches) : r.null();
    r.end_row();
  });
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
  t.rows(m.api_calls.size(), [&m](Tables& r, std::size_t i) {
    const ApiCall& a = m.api_calls[i];
    r.row();
    r.text(a.name), r.integer(a.thread), r.integer(a.correlation), r.time(a.start_ns), r.time(a.end_ns);
    r.end_row();
  });
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

}  // namespace

void write_measurement_text(const Measurement& m, const std::function<void(std::string_view)>& sink,
                            MeasurementWriting writing) {
  json head_fields = head_json(m);
  head_fields["schema_version"] = kMeasurementSchemaVersion;   // the tables are this version's
  std::string head = text_of(head_fields, 1);   // "{\n ... \n}": the tables go before its "}"
  head.erase(head.rfind('}'));
  while (!head.empty() && head.back() == '\n') head.pop_back();
  sink(head);
  Tables t(earliest_time_ns(m), sink, writing);
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
  m.metrics_requested = root.strings("metrics_requested");
  root.each("issues", [&](const JsonReader& i) {
    m.issues.push_back({i.string("code"), i.string("message")});
  });
  return m;
}

void write_measurement(const Measurement& m, const std::string& path, MeasurementWriting writing) {
  AtomicFileWriter file(path);
  write_measurement_text(m, [&file](std::string_view piece) { file.write(piece); }, writing);
  file.commit();
}

}  // namespace labbook
