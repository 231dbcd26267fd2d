#include "trace_writer.h"

#include <algorithm>
#include <charconv>
#include <functional>
#include <string_view>
#include <unordered_map>

#include <nlohmann/json.hpp>

#include "gzip_pieces.h"
#include "labbook/model/atomic_file.h"
#include "labbook/model/side_by_side.h"

namespace labbook::report {

using nlohmann::json;

namespace {
constexpr int kHostPid = 1;                         // host threads: ranges and API calls
int device_pid(int device) { return 100 + device; }  // GPU work, one track per stream
constexpr int kUnifiedMemoryPid = 99;
constexpr std::uint64_t kProcessWideTid = 0;         // nvtxRangeStart/End ranges may overlap

/// Where the trace's text goes: `encode` makes a piece of it (on any thread, so that spans
/// are compressed side by side), `put` takes the pieces in order.
struct TraceOutput {
  std::function<DeflatedPiece(std::string_view)> encode;
  std::function<void(const DeflatedPiece&)> put;
};

/// The "traceEvents" array's text, one event per line, written field by field: a trace of
/// 10^5 launches holds four events a launch, and a JSON object built per event cost more than
/// the program. Times are in µs with the ns kept exactly (three decimals at most).
class EventWriter {
 public:
  /// `output` takes the text a megabyte at a time, so that a trace of 10^5 launches (60 MB)
  /// need not be held whole.
  EventWriter(std::uint64_t origin, const TraceOutput& output) : origin_(origin), output_(&output) {}
  EventWriter(EventWriter&&) = default;
  EventWriter(const EventWriter&) = delete;   // would point into the other's escaped names
  /// A writer of events that go after the first `events` of `before`'s, all held until
  /// encoded() (for writing spans side by side).
  static EventWriter after(const EventWriter& before, std::size_t events) {
    EventWriter held(before.origin_, *before.output_);
    held.holds_all_ = true;
    held.events_ = events;
    return held;
  }

  /// The events held, as a piece for the output.
  DeflatedPiece encoded() const { return output_->encode(text_); }
  /// Events another writer made after this one's (see above), as the next of this one's.
  void append(const DeflatedPiece& events, std::size_t count) {
    flush();
    output_->put(events);
    events_ += count;
  }
  std::size_t events() const { return events_; }
  std::uint64_t origin() const { return origin_; }

  /// Opens an event: `{"name": ..., "cat": ..., "ph": ..., "pid": ..., "tid": ...`.
  EventWriter& begin(const std::string& name, const char* category, const char* phase, int pid, std::uint64_t tid) {
    open_event();
    quoted(name, kEventName);
    return fields(category, phase, pid, tid);
  }
  /// The same for a name of this file's, which needs no escaping.
  EventWriter& begin_plain(const char* name, const char* category, const char* phase, int pid, std::uint64_t tid) {
    open_event();
    text_ += '"';
    text_ += name;
    text_ += '"';
    return fields(category, phase, pid, tid);
  }
  /// `"ts"` and `"dur"` of a complete event.
  EventWriter& span(std::uint64_t start, std::uint64_t end) {
    at(start);
    text_ += ",\"dur\":";
    microseconds(end - start);
    return *this;
  }
  EventWriter& at(std::uint64_t ns) {
    text_ += ",\"ts\":";
    microseconds(ns - origin_);
    return *this;
  }
  EventWriter& args() {
    text_ += ",\"args\":{";
    first_arg_ = true;
    return *this;
  }
  template <typename Integer>
  EventWriter& arg(const char* key, Integer v) {
    next_key(key);
    number(v);
    return *this;
  }
  EventWriter& arg(const char* key, const std::string& v) {
    next_key(key);
    quoted(v, kArgument);
    return *this;
  }
  EventWriter& arg(const char* key, const char* v) { return arg(key, std::string(v)); }
  EventWriter& arg(const char* key, bool v) {
    next_key(key);
    text_ += v ? "true" : "false";
    return *this;
  }
  EventWriter& arg(const char* key, const int (&d)[3]) {
    next_key(key);
    text_ += '[';
    for (int i = 0; i < 3; ++i) {
      if (i) text_ += ',';
      number(d[i]);
    }
    text_ += ']';
    return *this;
  }
  EventWriter& end_args() {
    text_ += '}';
    return *this;
  }
  /// Any other field, written as given (a JSON value).
  EventWriter& raw(const char* key, const char* json_value) {
    text_ += ",\"";
    text_ += key;
    text_ += "\":";
    text_ += json_value;
    return *this;
  }
  void end() {
    text_ += '}';
    if (!holds_all_ && text_.size() >= (1u << 20)) flush();
  }

  void finish() {
    if (!events_) text_ = "{\"traceEvents\": [";
    text_ += "\n], \"displayTimeUnit\": \"ns\"}\n";
    flush();
  }
  /// What is not yet given to the output.
  void flush() {
    if (text_.empty()) return;
    output_->put(output_->encode(text_));
    text_.clear();
  }

 private:
  template <typename Integer>
  void number(Integer v) {
    char digits[24];
    text_.append(digits, std::to_chars(digits, digits + sizeof digits, v).ptr);
  }
  void microseconds(std::uint64_t ns) {
    number(ns / 1000);
    if (const std::uint64_t rest = ns % 1000) {
      char decimals[4] = {static_cast<char>('0' + rest / 100), static_cast<char>('0' + rest / 10 % 10),
                          static_cast<char>('0' + rest % 10), 0};
      for (int i = 2; i > 0 && decimals[i] == '0'; --i) decimals[i] = 0;
      text_ += '.';
      text_ += decimals;
    }
  }
  void open_event() { text_ += events_++ ? ",\n{\"name\":" : "{\"traceEvents\": [\n{\"name\":"; }
  EventWriter& fields(const char* category, const char* phase, int pid, std::uint64_t tid) {
    if (category) {
      text_ += ",\"cat\":\"";
      text_ += category;
      text_ += '"';
    }
    text_ += ",\"ph\":\"";
    text_ += phase;
    text_ += "\",\"pid\":";
    number(pid);
    text_ += ",\"tid\":";
    number(tid);
    return *this;
  }
  /// Escaped once per distinct string. Most events repeat the names of the one before, so
  /// the last of each kind is kept apart: one comparison instead of a lookup.
  void quoted(const std::string& s, std::size_t kind) {
    LastQuoted& last = last_[kind];
    if (!last.escaped || s != last.source) {
      auto it = escaped_.find(s);
      if (it == escaped_.end())   // bytes that are not UTF-8 (an NVTX name may hold any) become U+FFFD
        it = escaped_.emplace(s, json(s).dump(-1, ' ', false, json::error_handler_t::replace)).first;
      last.source = s;
      last.escaped = &it->second;   // in escaped_'s node, which a move of this writer keeps
    }
    text_ += *last.escaped;
  }
  void next_key(const char* key) {
    if (!first_arg_) text_ += ',';
    first_arg_ = false;
    text_ += '"';
    text_ += key;
    text_ += "\":";
  }

  std::uint64_t origin_;
  const TraceOutput* output_;
  bool holds_all_ = false;
  std::string text_;
  std::size_t events_ = 0;
  bool first_arg_ = true;
  std::unordered_map<std::string, std::string> escaped_;
  enum : std::size_t { kEventName, kArgument };
  struct LastQuoted {
    std::string source;
    const std::string* escaped = nullptr;
  } last_[2];
};

void name_event(EventWriter& events, const char* what, int pid, std::uint64_t tid, const std::string& name) {
  events.begin_plain(what, nullptr, "M", pid, tid).args().arg("name", name).end_args().end();
}

/// One end of the arrow from an API call to the GPU work it started ("s" start, "f" finish).
void flow_event(EventWriter& events, const char* phase, std::uint32_t correlation, int pid, std::uint64_t tid,
                std::uint64_t at) {
  events.begin_plain("launch", "correlation", phase, pid, tid).raw("id", std::to_string(correlation).c_str());
  events.at(at);
  if (phase[0] == 'f') events.raw("bp", "\"e\"");
  events.end();
}

/// `write(writer, i)` for each i below `count`, the events of many items written in spans side
/// by side (10^5 launches' events took as long as reading their measurement), into `events`
/// in order.
template <typename Write>
void write_in_spans(EventWriter& events, std::size_t count, Write write) {
  constexpr std::size_t kItemsPerSpan = 2048;   // about a megabyte of events
  if (count < 2 * kItemsPerSpan || side_by_side_width() == 1 || events.events() == 0) {
    for (std::size_t i = 0; i < count; ++i) write(events, i);
    return;
  }
  struct Span {
    DeflatedPiece piece;
    std::size_t events = 0;
  };
  const std::size_t before = events.events();   // read once: spans are handed on as others are made
  in_ordered_spans<Span>(
      count, kItemsPerSpan,
      [&](Span& span, std::size_t from, std::size_t to) {
        EventWriter own = EventWriter::after(events, before);
        for (std::size_t i = from; i < to; ++i) write(own, i);
        span.piece = own.encoded();
        span.events = own.events() - before;
      },
      [&](const Span& span) { events.append(span.piece, span.events); });
}

void write_events(const Measurement& m, EventWriter& events) {
  name_event(events, "process_name", kHostPid, 0, "host");
  for (const auto& d : m.devices)
    name_event(events, "process_name", device_pid(d.ordinal), 0, "GPU " + std::to_string(d.ordinal) + ": " + d.name);

  std::uint64_t last_end = events.origin();
  for (const auto& k : m.kernels)
    if (k.end_ns) last_end = std::max(last_end, *k.end_ns);
  bool any_process_wide = false;
  for (const auto& r : m.ranges) {
    const std::uint64_t end = r.end_ns.value_or(std::max(last_end, r.start_ns));
    any_process_wide |= r.process_wide;
    events.begin(r.name, "nvtx", "X", kHostPid, r.process_wide ? kProcessWideTid : r.thread)
        .span(r.start_ns, end)
        .args()
        .arg("path", r.path)
        .arg("closed", r.end_ns.has_value())
        .arg("thread", r.thread)
        .end_args()
        .end();
  }
  if (any_process_wide) name_event(events, "thread_name", kHostPid, kProcessWideTid, "NVTX start/end");
  std::unordered_map<std::uint32_t, const ApiCall*> api_by_correlation;
  api_by_correlation.reserve(m.api_calls.size());
  for (const auto& a : m.api_calls) api_by_correlation[a.correlation] = &a;
  // Arrows from each API call to the kernel or copy it started.
  auto link = [&](EventWriter& out, std::uint32_t correlation, int device, std::uint32_t stream, std::uint64_t start) {
    const auto it = api_by_correlation.find(correlation);
    if (correlation == 0 || it == api_by_correlation.end()) return;
    flow_event(out, "s", correlation, kHostPid, it->second->thread, it->second->start_ns);
    flow_event(out, "f", correlation, device_pid(device), stream, start);
  };
  // The API calls and then the kernels, in one run of spans: no span waits for the calls' last.
  const std::size_t calls = m.api_calls.size();
  write_in_spans(events, calls + m.kernels.size(), [&](EventWriter& out, std::size_t i) {
    if (i < calls) {
      const ApiCall& a = m.api_calls[i];
      out.begin(a.name, "cuda_api", "X", kHostPid, a.thread)
          .span(a.start_ns, a.end_ns)
          .args()
          .arg("correlation", a.correlation)
          .end_args()
          .end();
      return;
    }
    const Kernel& k = m.kernels[i - calls];
    if (!k.start_ns || !k.end_ns) return;
    out.begin(k.name, "kernel", "X", device_pid(k.device), k.stream)
        .span(*k.start_ns, *k.end_ns)
        .args()
        .arg("launch", k.launch)
        .arg("range", k.range)
        .arg("grid", k.grid)
        .arg("block", k.block)
        .arg("registers_per_thread", k.registers_per_thread)
        .arg("correlation", k.correlation)
        .end_args()
        .end();
    link(out, k.correlation, k.device, k.stream, *k.start_ns);
  });
  for (const auto& c : m.copies) {
    const std::string name = c.is_memset ? "memset" : std::string("memcpy ") + to_string(c.kind);
    events.begin(name, c.is_memset ? "memset" : "memcpy", "X", device_pid(c.device), c.stream)
        .span(c.start_ns, c.end_ns)
        .args()
        .arg("bytes", c.bytes)
        .arg("src", to_string(c.src))
        .arg("dst", to_string(c.dst))
        .arg("range", c.range)
        .arg("correlation", c.correlation)
        .end_args()
        .end();
    link(events, c.correlation, c.device, c.stream, c.start_ns);
  }
  if (!m.memory_events.empty()) name_event(events, "process_name", kUnifiedMemoryPid, 0, "unified memory");
  for (const auto& e : m.memory_events)
    events.begin(e.kind, "unified_memory", "X", kUnifiedMemoryPid, 0)
        .span(e.start_ns, e.end_ns)
        .args()
        .arg("value", e.value)
        .arg("address", e.address)
        .arg("device", e.device)
        .end_args()
        .end();
  events.finish();
}

DeflatedPiece as_is(std::string_view text) { return {std::string(text), 0, text.size()}; }

void write_trace_to(const Measurement& m, const TraceOutput& output) {
  EventWriter events(earliest_time_ns(m).value_or(0), output);
  write_events(m, events);
}
}  // namespace

std::string chrome_trace(const Measurement& m) {
  std::string text;
  write_trace_to(m, {as_is, [&text](const DeflatedPiece& piece) { text += piece.bytes; }});
  return text;
}

void write_chrome_trace(const Measurement& m, const std::string& path) {
  if (path.size() > 3 && path.compare(path.size() - 3, 3, ".gz") == 0) {
    GzipFileWriter file(path);
    write_trace_to(m, {deflate_piece, [&file](const DeflatedPiece& piece) { file.write(piece); }});
    file.commit();
    return;
  }
  AtomicFileWriter file(path);
  write_trace_to(m, {as_is, [&file](const DeflatedPiece& piece) { file.write(piece.bytes); }});
  file.commit();
}

}  // namespace labbook::report
