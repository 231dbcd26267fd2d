#pragma once
// The readers of a measurement's records, one per record kind, written once for any reader of
// JSON with JsonReader's interface: JsonReader over a parsed nlohmann document
// (measurement_from_json) and the fast reader of measurement_read.cpp. Private to the model.
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>

#include "labbook/model/measurement.h"

namespace labbook::records {

/// What reading a record needs besides its own fields.
struct RecordContext {
  int version = kMeasurementSchemaVersion;
  std::uint64_t time_origin = 0;   // a table's times count from it
};

/// A record's time: in a table, counted from time_origin_ns.
template <typename Reader>
std::uint64_t time_at(const Reader& r, const char* key, const RecordContext& c) {
  const auto t = r.template integer<std::uint64_t>(key);
  if (!r.in_table()) return t;
  if (t > std::numeric_limits<std::uint64_t>::max() - c.time_origin) r.fail(key, "out of range after time_origin_ns");
  return c.time_origin + t;
}

template <typename Reader>
std::optional<std::uint64_t> optional_time_at(const Reader& r, const char* key, const RecordContext& c) {
  return r.has(key) ? std::optional<std::uint64_t>(time_at(r, key, c)) : std::nullopt;
}

template <typename Reader>
Range range_from(const Reader& r, const RecordContext& c) {
  Range x;
  x.id = r.template integer<std::uint64_t>("id");
  x.name = r.string("name");
  x.path = r.string("path");
  x.thread = r.template integer<std::uint32_t>("thread");
  x.depth = r.template integer<int>("depth");
  if (c.version >= 2) x.process_wide = r.boolean("process_wide");
  x.start_ns = time_at(r, "start_ns", c);
  x.end_ns = optional_time_at(r, "end_ns", c);
  if (x.end_ns && *x.end_ns < x.start_ns) r.fail("end_ns", "ends before it starts");
  x.payload = r.optional_number("payload");
  return x;
}

template <typename Reader>
Kernel kernel_from(const Reader& k, const RecordContext& c) {
  Kernel x;
  x.launch = k.template integer<std::uint64_t>("launch");
  x.name = k.string("name");
  x.mangled = k.string("mangled");
  x.range = k.string("range");
  x.thread = k.template integer<std::uint32_t>("thread");
  x.device = k.template integer<int>("device");
  x.stream = k.template integer<std::uint32_t>("stream");
  x.correlation = k.template integer<std::uint32_t>("correlation");
  const auto grid = k.template integers<int>("grid", 3), block = k.template integers<int>("block", 3);
  for (int i = 0; i < 3; ++i) {
    x.grid[i] = grid[static_cast<std::size_t>(i)];
    x.block[i] = block[static_cast<std::size_t>(i)];
  }
  x.registers_per_thread = k.template integer<int>("registers_per_thread");
  x.static_shared_bytes = k.template integer<int>("static_shared_bytes");
  x.dynamic_shared_bytes = k.template integer<int>("dynamic_shared_bytes");
  x.local_bytes_per_thread = k.template integer<int>("local_bytes_per_thread");
  x.start_ns = optional_time_at(k, "start_ns", c);
  x.end_ns = optional_time_at(k, "end_ns", c);
  if (x.start_ns.has_value() != x.end_ns.has_value())
    k.fail("end_ns", "start_ns and end_ns come together");
  if (k.has("default_stream")) {   // written only for a launch on a default stream
    const std::string which = k.string("default_stream");
    if (which == "legacy") x.default_stream = DefaultStream::Legacy;
    else if (which == "per_thread") x.default_stream = DefaultStream::PerThread;
    else k.fail("default_stream", "expected \"legacy\" or \"per_thread\", not \"" + which + "\"");
  }
  x.metrics = k.number_map("metrics");   // the fields in the order of a table's columns: found first time
  if (c.version >= 4 && k.has("sass"))   // written only for a kernel the source pass saw
    k.each("sass", [&](const auto& i) {
      SassInstruction s;
      s.function = i.string("function");
      s.pc_offset = i.template integer<std::uint32_t>("pc_offset");
      s.file = i.string("file");
      s.line = i.template integer<int>("line");
      if (s.line < 0) i.fail("line", "expected 0 (unknown) or a line number");
      s.metrics = i.number_map("metrics");
      x.sass.push_back(std::move(s));
    });
  if (k.has("sass_launches")) {   // counts summed over several launches; 1 when absent
    x.sass_launches = k.template integer<std::uint64_t>("sass_launches");
    if (x.sass_launches == 0) k.fail("sass_launches", "expected 1 or more launches");
  }
  if (c.version >= 6 && k.has("ordinal")) x.ordinal = k.template integer<std::uint64_t>("ordinal");
  return x;
}

template <typename Reader>
Copy copy_from(const Reader& r, const RecordContext& c) {
  Copy x;
  x.kind = copy_kind_from_string(r.string("kind"));
  x.is_memset = r.boolean("memset");
  x.src = host_memory_kind_from_string(r.string("src"));
  x.dst = host_memory_kind_from_string(r.string("dst"));
  x.bytes = r.template integer<std::uint64_t>("bytes");
  x.start_ns = time_at(r, "start_ns", c);
  x.end_ns = time_at(r, "end_ns", c);
  x.device = r.template integer<int>("device");
  x.stream = r.template integer<std::uint32_t>("stream");
  x.correlation = r.template integer<std::uint32_t>("correlation");
  x.range = r.string("range");
  return x;
}

template <typename Reader>
ApiCall api_call_from(const Reader& a, const RecordContext& c) {
  ApiCall x;
  x.name = a.string("name");
  x.thread = a.template integer<std::uint32_t>("thread");
  x.correlation = a.template integer<std::uint32_t>("correlation");
  x.start_ns = time_at(a, "start_ns", c);
  x.end_ns = time_at(a, "end_ns", c);
  return x;
}

template <typename Reader>
UnifiedMemoryEvent memory_event_from(const Reader& e, const RecordContext& c) {
  UnifiedMemoryEvent x;
  x.kind = e.string("kind");
  x.value = e.template integer<std::uint64_t>("value");
  x.address = e.template integer<std::uint64_t>("address");
  x.start_ns = time_at(e, "start_ns", c);
  x.end_ns = time_at(e, "end_ns", c);
  if (x.end_ns < x.start_ns) e.fail("end_ns", "ends before it starts");
  x.device = e.template integer<int>("device");
  return x;
}

/// The record lists, by their key in the file.
constexpr const char* kRecordLists[] = {"ranges", "kernels", "copies", "api_calls", "memory_events"};

inline bool is_record_list(std::string_view key) {
  for (const char* k : kRecordLists)
    if (key == k) return true;
  return false;
}

/// Calls `f(list, read)` with list `key` (one of kRecordLists) of `m` and the function that
/// reads one of its records: `read(reader, context)`.
template <typename Reader, typename F>
void with_record_list(const std::string& key, Measurement& m, F&& f) {
  if (key == "ranges") f(m.ranges, [](const Reader& r, const RecordContext& c) { return range_from(r, c); });
  else if (key == "kernels") f(m.kernels, [](const Reader& r, const RecordContext& c) { return kernel_from(r, c); });
  else if (key == "copies") f(m.copies, [](const Reader& r, const RecordContext& c) { return copy_from(r, c); });
  else if (key == "api_calls") f(m.api_calls, [](const Reader& r, const RecordContext& c) { return api_call_from(r, c); });
  else f(m.memory_events, [](const Reader& r, const RecordContext& c) { return memory_event_from(r, c); });
}

/// Adds the record `r` reads to list `key` (one of kRecordLists) of `m`.
template <typename Reader>
void add_record(const std::string& key, const Reader& r, const RecordContext& c, Measurement& m) {
  with_record_list<Reader>(key, m, [&](auto& list, auto read) { list.push_back(read(r, c)); });
}

}  // namespace labbook::records
