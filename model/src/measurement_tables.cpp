// The measurement file's record tables (schema version 5), written row by row to a sink.
#include "measurement_tables.h"

#include <array>
#include <charconv>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "labbook/model/side_by_side.h"

namespace labbook {

using nlohmann::json;

namespace {

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
  void begin(const char* key, const std::vector<const char*>& columns, std::initializer_list<const char*> text) {
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
    out_ += table_layout::kRows;
    rows_ = 0;
  }
  void row() {
    if (interning_) return;
    if (out_.size() > kChunkBytes) flush();
    out_ += rows_++ ? table_layout::kNextRow : table_layout::kFirstRow;
  }
  void end_row() {
    if (!interning_) out_.back() = ']';   // the last cell's comma
  }
  void end() {
    if (!interning_) out_ += rows_ ? table_layout::kEnd : "]}";
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
  /// Where rows are made as they are written (MadeTables): the row's record, one per span.
  Kernel made_kernel;
  ApiCall made_call;
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

/// Goes through the measurement's tables, row by row, with `t`; those `made` makes from it.
void record_tables(const Measurement& m, const MadeTables& made, Tables& t) {
  t.begin("ranges", {"id", "name", "path", "thread", "depth", "process_wide", "start_ns", "end_ns", "payload"}, {"name", "path"});
  for (const auto& r : m.ranges) {
    t.row();
    t.integer(r.id), t.text(r.name), t.text(r.path), t.integer(r.thread), t.integer(r.depth);
    t.boolean(r.process_wide), t.time(r.start_ns), t.time(r.end_ns);
    r.payload ? t.value(*r.payload) : t.null();
    t.end_row();
  }
  t.end();
  std::vector<const char*> kernel_columns = {
      "launch", "name", "mangled", "range", "thread", "device", "stream", "correlation", "grid", "block",
      "registers_per_thread", "static_shared_bytes", "dynamic_shared_bytes", "local_bytes_per_thread", "start_ns",
      "end_ns", "default_stream", "metrics", "sass", "sass_launches"};
  // Only a run that carries its profiled kernels alone numbers them: no column elsewhere.
  const bool ordinals = m.launch_tally.has_value();
  if (ordinals) kernel_columns.push_back("ordinal");
  t.begin("kernels", kernel_columns, {"name", "mangled", "range", "default_stream"});
  const MadeRows<Kernel>& made_kernels = made.kernels;
  t.rows(made_kernels.make ? made_kernels.count : m.kernels.size(), [&m, &made_kernels, ordinals](Tables& r, std::size_t i) {
    if (made_kernels.make) made_kernels.make(i, r.made_kernel);
    const Kernel& k = made_kernels.make ? r.made_kernel : m.kernels[i];
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
    if (ordinals) k.ordinal ? r.integer(*k.ordinal) : r.null();
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
  const MadeRows<ApiCall>& made_calls = made.api_calls;
  t.rows(made_calls.make ? made_calls.count : m.api_calls.size(), [&m, &made_calls](Tables& r, std::size_t i) {
    if (made_calls.make) made_calls.make(i, r.made_call);
    const ApiCall& a = made_calls.make ? r.made_call : m.api_calls[i];
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

void write_record_tables(const Measurement& m, const MadeTables& made,
                         const std::function<void(std::string_view)>& sink, MeasurementWriting writing) {
  const std::optional<std::uint64_t> origin =
      earlier_ns(earliest_time_ns(m), earlier_ns(made.kernels.earliest_ns, made.api_calls.earliest_ns));
  Tables t(origin.value_or(0), sink, writing);
  record_tables(m, made, t);   // numbers the strings
  t.write_strings();
  record_tables(m, made, t);
  t.flush();
}

}  // namespace labbook
