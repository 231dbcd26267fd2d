#include "timeline_svg.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <memory>
#include <set>
#include <variant>

#include "activity_summary.h"
#include "format.h"
#include "stream_lanes.h"

namespace labbook::report {

namespace {

/// Sizes of one picture, in SVG units. A range's picture is narrow with large text, so that it
/// stays readable when a phone shrinks it to 390 px; the whole run's picture is wide and dense.
struct TimelineStyle {
  double width, font, small_font, row, bar;
  std::size_t name_chars;   ///< the most characters of a lane's name shown
};
constexpr TimelineStyle kRangeStyle{560, 14, 12, 26, 20, kRangeLaneNameChars};
constexpr TimelineStyle kWholeStyle{1340, 11, 10, 16, 12, 40};
constexpr double kHeadingHeight = 24, kAxisHeight = 22, kPad = 6;
/// A lane with more boxes than this is drawn merged (merged_boxes): one box per run of events
/// closer than a pixel, whatever their kind, so that a program of 10^5 launches gives a picture of a few hundred
/// kilobytes that a browser shows, not tens of megabytes of boxes narrower than a pixel.
constexpr std::size_t kMostBoxesPerLane = 400;

/// What a box says: its tooltip, and the labels drawn inside it (the first that fits, longest
/// first).
struct Words {
  std::string tooltip;
  std::vector<std::string> labels;
};

/// What a box shows, which gives it its colour (the class of the picture's style).
enum class BoxKind : std::uint8_t { kNvtx, kApi, kKernel, kMemcpy, kMemset, kUvm, kMixed };

/// Each kind's class in the style, and what one and several of its events are called.
struct KindNames {
  const char *css_class, *one, *many;
};
constexpr KindNames kKindNames[] = {{"nvtx", "NVTX range", "NVTX ranges"}, {"api", "CUDA call", "CUDA calls"},
                                    {"kernel", "kernel", "kernels"},       {"memcpy", "copy", "copies"},
                                    {"memset", "memset", "memsets"},       {"uvm", "event", "events"},
                                    {"mixed", "event", "events"}};
static_assert(std::size(kKindNames) == static_cast<std::size_t>(BoxKind::kMixed) + 1, "a name for every kind");

const KindNames& names_of(BoxKind kind) { return kKindNames[static_cast<std::size_t>(kind)]; }

/// A box stands for one record of the measurement, put into words only if it is drawn (a lane
/// of 10^5 launches draws a few hundred merged boxes), or says its own (a merged run). Small,
/// since a lane holds one for each of its records before they are merged.
struct Box {
  std::uint64_t start, end;
  BoxKind kind;
  std::variant<const Range*, const ApiCall*, const Kernel*, const Copy*, const UnifiedMemoryEvent*,
               std::shared_ptr<const Words>> source;
};

struct Lane {
  std::string label;
  std::vector<Box> boxes;
};

/// `s` cut to what fits in `width` at `font` size.
std::string fitted(const std::string& s, double width, double font) {
  std::size_t chars = text_length(s);
  std::string out = s;
  while (chars > 1 && svg_text_width(out, font) > width) out = cut_text(s, --chars);
  return out;
}

/// "spinFor" for "labbook::kernels::spinFor(long long, unsigned int*)": what fits in a box.
std::string bare_kernel_name(const std::string& demangled) {
  const std::string name = kernel_short_name(demangled);
  const auto scope = name.rfind("::", name.find('<'));
  return scope == std::string::npos ? name : name.substr(scope + 2);
}

std::vector<std::string> copy_labels(const Copy& c) {
  if (c.is_memset) return {"memset"};
  switch (c.kind) {
    case CopyKind::HostToDevice: return {"H2D copy", "H2D"};
    case CopyKind::DeviceToHost: return {"D2H copy", "D2H"};
    case CopyKind::DeviceToDevice: return {"D2D copy", "D2D"};
    case CopyKind::PeerToPeer: return {"P2P copy", "P2P"};
    default: return {"copy"};
  }
}

/// One lane per GPU stream, in the order the program first used them (stream_lanes.h), with
/// its timed kernels, copies and memsets: all of them, or only those attributed to `*range`.
void append_stream_lanes(const Measurement& m, const std::string* range, const std::vector<std::string>& names,
                         std::vector<Lane>& lanes) {
  const std::size_t first_lane = lanes.size();
  std::vector<StreamId> ids;
  for (auto& s : stream_lanes(m, range, names)) {
    ids.push_back(s.id);
    lanes.push_back({std::move(s.name), {}});
  }
  auto lane_of = [&](int device, std::uint32_t stream) -> Lane& {
    const auto at = std::find(ids.begin(), ids.end(), StreamId{device, stream});
    return lanes[first_lane + static_cast<std::size_t>(at - ids.begin())];
  };
  const auto drawn = [range](const Kernel& k) { return k.start_ns && k.end_ns && (!range || k.range == *range); };
  const auto in_range = [range](const Copy& c) { return !range || c.range == *range; };
  // Counted first: a lane of 10^5 kernels is not grown and copied as it fills.
  std::vector<std::size_t> sizes(ids.size());
  const auto count = [&](int device, std::uint32_t stream) {
    ++sizes[static_cast<std::size_t>(&lane_of(device, stream) - &lanes[first_lane])];
  };
  for (const auto& k : m.kernels)
    if (drawn(k)) count(k.device, k.stream);
  for (const auto& c : m.copies)
    if (in_range(c)) count(c.device, c.stream);
  for (std::size_t i = 0; i < sizes.size(); ++i) lanes[first_lane + i].boxes.reserve(sizes[i]);
  for (const auto& k : m.kernels)
    if (drawn(k)) lane_of(k.device, k.stream).boxes.push_back({*k.start_ns, *k.end_ns, BoxKind::kKernel, &k});
  for (const auto& c : m.copies)
    if (in_range(c))
      lane_of(c.device, c.stream)
          .boxes.push_back({c.start_ns, c.end_ns, c.is_memset ? BoxKind::kMemset : BoxKind::kMemcpy, &c});
}

/// What `b` says, from its record.
Words words(const Box& b) {
  if (const auto* r = std::get_if<const Range*>(&b.source)) return {(*r)->path, {(*r)->name}};
  if (const auto* a = std::get_if<const ApiCall*>(&b.source)) return {(*a)->name, {(*a)->name}};
  if (const auto* k = std::get_if<const Kernel*>(&b.source))
    return {(*k)->name + " [" + (*k)->range_or_name() + "]", {bare_kernel_name((*k)->name)}};
  if (const auto* copy = std::get_if<const Copy*>(&b.source)) {
    const Copy& c = **copy;
    const std::string what = c.is_memset ? "memset" : std::string("memcpy ") + to_string(c.kind) + " " + to_string(c.src) +
                                                          " -> " + to_string(c.dst);
    return {what + ", " + std::to_string(c.bytes) + " bytes", copy_labels(c)};
  }
  if (const auto* e = std::get_if<const UnifiedMemoryEvent*>(&b.source))
    return {(*e)->kind + ", " + std::to_string((*e)->value), {}};
  return *std::get<std::shared_ptr<const Words>>(b.source);
}

/// Lanes in display order: host threads (NVTX by depth, API calls), process-wide NVTX
/// ranges, GPU streams, unified memory.
std::vector<Lane> build_lanes(const Measurement& m, std::uint64_t open_range_end) {
  std::vector<Lane> lanes;
  std::set<std::uint32_t> threads;
  for (const auto& r : m.ranges)
    if (!r.process_wide) threads.insert(r.thread);
  for (const auto& a : m.api_calls) threads.insert(a.thread);
  for (std::uint32_t t : threads) {
    int depth = -1;
    for (const auto& r : m.ranges)
      if (!r.process_wide && r.thread == t) depth = std::max(depth, r.depth);
    for (int d = 0; d <= depth; ++d) {
      Lane lane{"thread " + std::to_string(t) + " NVTX" + (d ? " depth " + std::to_string(d) : ""), {}};
      for (const auto& r : m.ranges)
        if (!r.process_wide && r.thread == t && r.depth == d)
          lane.boxes.push_back({r.start_ns, r.end_ns.value_or(open_range_end), BoxKind::kNvtx, &r});
      lanes.push_back(std::move(lane));
    }
    Lane api{"thread " + std::to_string(t) + " CUDA API", {}};
    api.boxes.reserve(static_cast<std::size_t>(
        std::count_if(m.api_calls.begin(), m.api_calls.end(), [t](const ApiCall& a) { return a.thread == t; })));
    for (const auto& a : m.api_calls)
      if (a.thread == t) api.boxes.push_back({a.start_ns, a.end_ns, BoxKind::kApi, &a});
    if (!api.boxes.empty()) lanes.push_back(std::move(api));
  }
  Lane process_wide{"NVTX start/end", {}};
  for (const auto& r : m.ranges)
    if (r.process_wide) process_wide.boxes.push_back({r.start_ns, r.end_ns.value_or(open_range_end), BoxKind::kNvtx, &r});
  if (!process_wide.boxes.empty()) lanes.push_back(std::move(process_wide));

  append_stream_lanes(m, nullptr, {}, lanes);

  Lane uvm{"unified memory", {}};
  for (const auto& e : m.memory_events)
    uvm.boxes.push_back({e.start_ns, e.end_ns, BoxKind::kUvm, &e});
  if (!uvm.boxes.empty()) lanes.push_back(std::move(uvm));
  return lanes;
}

/// "kernels" for a lane's boxes of `kind`, counted `n`.
std::string events_noun(BoxKind kind, std::size_t n) { return n == 1 ? names_of(kind).one : names_of(kind).many; }

/// `boxes` with every run of boxes that lie less than a pixel apart (`px_per_ns` pixels a
/// nanosecond) drawn as one box, its tooltip saying how many events of each kind it holds and
/// how much of its stretch they filled (their union: nested or overlapping events count once).
/// A run of one kind keeps that kind's colour; a mixed run (a stream's kernels and copies) is
/// grey.
std::vector<Box> merged_boxes(const std::vector<Box>& lane, double px_per_ns) {
  // Sorted by reference: a lane of 10^5 launches is not copied, only its runs' first boxes.
  std::vector<const Box*> boxes;
  boxes.reserve(lane.size());
  for (const Box& b : lane) boxes.push_back(&b);
  std::stable_sort(boxes.begin(), boxes.end(), [](const Box* a, const Box* b) { return a->start < b->start; });
  std::vector<Box> out;
  std::vector<std::pair<BoxKind, std::size_t>> kinds;   // events of each kind, in order of first use
  std::uint64_t busy = 0, covered_to = 0;
  const auto close = [&] {
    std::size_t count = 0;
    for (const auto& [kind, n] : kinds) count += n;
    if (count < 2) return;
    Box& b = out.back();
    std::string what = kinds.size() == 1 ? std::to_string(count) + " " + events_noun(kinds[0].first, count)
                                         : std::to_string(count) + " events";
    if (kinds.size() > 1) {
      b.kind = BoxKind::kMixed;
      std::string parts;
      for (const auto& [kind, n] : kinds) parts += (parts.empty() ? "" : ", ") + std::to_string(n) + " " + events_noun(kind, n);
      what += " (" + parts + ")";
    }
    const double share = 100.0 * static_cast<double>(busy) / static_cast<double>(std::max<std::uint64_t>(b.end - b.start, 1));
    const std::string tooltip = what + ", filling " + std::to_string(static_cast<int>(std::lround(share))) +
                                " % of this stretch (too many to draw one by one: trace.json.gz, opened in Perfetto, has each)";
    b.source = std::make_shared<const Words>(Words{tooltip, {kinds.size() == 1 ? what : std::to_string(count) + " events"}});
  };
  const auto count_kind = [&](BoxKind kind) {
    const auto at = std::find_if(kinds.begin(), kinds.end(), [&](const auto& k) { return k.first == kind; });
    if (at == kinds.end()) kinds.push_back({kind, 1});
    else ++at->second;
  };
  for (const Box* next : boxes) {
    const Box& b = *next;
    if (!out.empty() && static_cast<double>(b.start) - static_cast<double>(out.back().end) < 1.0 / px_per_ns) {
      out.back().end = std::max(out.back().end, b.end);
      if (b.end > covered_to) {
        busy += b.end - std::max(b.start, covered_to);
        covered_to = b.end;
      }
      count_kind(b.kind);
      continue;
    }
    close();
    kinds.clear();
    count_kind(b.kind);
    busy = b.end - b.start;
    covered_to = b.end;
    out.push_back(b);
  }
  close();
  return out;
}

/// A round tick step giving about eight ticks over `span_ns` (five in a narrow picture).
double tick_step(double span_ns, double ticks) {
  const double raw = span_ns / ticks;
  const double power = std::pow(10.0, std::floor(std::log10(std::max(raw, 1.0))));
  for (double f : {1.0, 2.0, 5.0})
    if (f * power >= raw) return f * power;
  return 10 * power;
}

/// A tick's label: `t` ns in the unit of the step, as few digits as it needs ("0 ms", "2.5 ms",
/// "400 µs").
std::string tick_label(double t, double step) {
  const auto [scale, unit] = step >= 1e6 ? std::pair{1e6, "ms"} : step >= 1e3 ? std::pair{1e3, "µs"} : std::pair{1.0, "ns"};
  return format_number("%g", t / scale) + " " + unit;
}

/// "stream A: 4 kernels, 8 copies": what a lane holds, for the picture's text alternative.
std::string lane_summary(const Lane& lane) {
  std::size_t kernels = 0, copies = 0, other = 0;
  for (const auto& b : lane.boxes) (b.kind == BoxKind::kKernel ? kernels : b.kind == BoxKind::kMemcpy ? copies : other)++;
  std::string out;
  const auto add = [&](std::size_t n, const char* one, const char* many) {
    if (n) out += (out.empty() ? "" : ", ") + std::to_string(n) + " " + (n == 1 ? one : many);
  };
  add(kernels, "kernel", "kernels");
  add(copies, "copy", "copies");
  add(other, "other event", "other events");
  return lane.label + ": " + (out.empty() ? "nothing" : out);
}

/// The lanes drawn over a time axis from `first` under `heading`; the plot's width stands for
/// `span` ns. `title` is the picture's text alternative.
std::string draw(const std::vector<Lane>& lanes, std::uint64_t first, double span, const std::string& heading,
                 const std::string& title, const TimelineStyle& s) {
  span = std::max(span, 1.0);
  // The name column fits the longest lane name, names cut to s.name_chars characters.
  std::vector<std::string> names;
  double label_width = 4 * s.font;
  for (const auto& l : lanes) {
    names.push_back(cut_text(l.label, s.name_chars));
    label_width = std::max(label_width, svg_text_width(names.back(), s.font));
  }
  const double plot_left = label_width + 2 * kPad, plot_width = s.width - plot_left - 2 * kPad;
  const double axis_top = kHeadingHeight + kAxisHeight, height = axis_top + s.row * static_cast<double>(lanes.size()) + kPad;
  const auto x = [&](std::uint64_t t) { return plot_left + plot_width * static_cast<double>(t - first) / span; };

  std::string svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + svg_number(s.width) + "\" height=\"" +
                    svg_number(height) + "\" viewBox=\"0 0 " + svg_number(s.width) + " " + svg_number(height) +
                    "\" font-family=\"sans-serif\" font-size=\"" + svg_number(s.font) + "\">\n<title>" +
                    escape_markup(title) + "</title>\n"
                    "<style>.nvtx{fill:#7aa6da}.api{fill:#b9b9b9}.kernel{fill:#4c9f38}.memcpy{fill:#e8a33d}"
                    ".memset{fill:#9b59b6}.uvm{fill:#d9534f}.mixed{fill:#8a8a8a}.lane{fill:#f3f3f3}text{fill:#222}"
                    "text.in{pointer-events:none}text.in-memset,text.in-uvm,text.in-mixed{fill:#fff}</style>\n"
                    "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
                    "<text x=\"" + svg_number(kPad) + "\" y=\"" + svg_number(kHeadingHeight - 7) +
                    "\" font-weight=\"bold\">" + escape_markup(fitted(heading, s.width - 2 * kPad, s.font)) +
                    "</text>\n";
  // Time axis: a label left of the last tick when it would run past the picture's edge.
  const double step = tick_step(span, s.width < 1000 ? 5 : 8);
  for (double t = 0; t <= span; t += step) {
    const double px = plot_left + plot_width * t / span;
    const std::string label = tick_label(t, step);
    const bool right_aligned = px + 2 + svg_text_width(label, s.small_font) > s.width;
    svg += "<line x1=\"" + svg_number(px) + "\" y1=\"" + svg_number(axis_top - 6) + "\" x2=\"" + svg_number(px) + "\" y2=\"" +
           svg_number(height - kPad) + "\" stroke=\"#ccc\"/>\n<text x=\"" + svg_number(right_aligned ? px - 2 : px + 2) +
           "\" y=\"" + svg_number(axis_top - 9) + "\" font-size=\"" + svg_number(s.small_font) + "\"" +
           (right_aligned ? " text-anchor=\"end\"" : "") + ">" + escape_markup(label) + "</text>\n";
  }
  for (std::size_t i = 0; i < lanes.size(); ++i) {
    const double y = axis_top + s.row * static_cast<double>(i);
    const double bar_top = y + (s.row - 2 - s.bar) / 2;
    const std::string& name = names[i];
    svg += "<g class=\"lane-row\"><rect class=\"lane\" x=\"0\" y=\"" + svg_number(y) + "\" width=\"" + svg_number(s.width) +
           "\" height=\"" + svg_number(s.row - 2) + "\"/>\n<text class=\"lane-name\" x=\"" + svg_number(kPad) + "\" y=\"" +
           svg_number(y + s.row / 2 + s.font * 0.35 - 1) + "\">" + escape_markup(name) +
           (name == lanes[i].label ? "" : "<title>" + escape_markup(lanes[i].label) + "</title>") + "</text>\n";
    const std::vector<Box> boxes = lanes[i].boxes.size() > kMostBoxesPerLane
                                       ? merged_boxes(lanes[i].boxes, plot_width / span)
                                       : lanes[i].boxes;
    for (const auto& b : boxes) {
      const double width = std::max(x(b.end) - x(b.start), 0.5);   // keep short events visible
      const Words said = words(b);
      const std::string css_class = names_of(b.kind).css_class;
      svg += "<rect class=\"" + css_class + "\" x=\"" + svg_number(x(b.start)) + "\" y=\"" + svg_number(bar_top) +
             "\" width=\"" + svg_number(width) + "\" height=\"" + svg_number(s.bar) + "\"><title>" +
             escape_markup(said.tooltip + " (" + nvprof_duration(static_cast<double>(b.end - b.start)) + ")") +
             "</title></rect>\n";
      // Named inside when a name fits; otherwise the tooltip names it.
      const auto fits = std::find_if(said.labels.begin(), said.labels.end(),
                                     [&](const std::string& l) { return svg_text_width(l, s.small_font) + 5 <= width; });
      if (fits != said.labels.end())
        svg += "<text class=\"in in-" + css_class + "\" x=\"" + svg_number(x(b.start) + 3) + "\" y=\"" +
               svg_number(bar_top + s.bar / 2 + s.small_font * 0.35) + "\" font-size=\"" + svg_number(s.small_font) + "\">" +
               escape_markup(*fits) + "</text>\n";
    }
    svg += "</g>\n";
  }
  return svg + "</svg>\n";
}

/// The first start and last end of the boxes in `lanes` ({0, 0} when there are none).
std::pair<std::uint64_t, std::uint64_t> extent(const std::vector<Lane>& lanes) {
  std::uint64_t first = std::numeric_limits<std::uint64_t>::max(), last = 0;
  for (const auto& lane : lanes)
    for (const auto& b : lane.boxes) {
      first = std::min(first, b.start);
      last = std::max(last, b.end);
    }
  if (first > last) first = last = 0;
  return {first, last};
}

}  // namespace

std::string timeline_svg(const Measurement& m) {
  std::uint64_t first = std::numeric_limits<std::uint64_t>::max(), last = 0;
  auto see = [&](std::uint64_t a, std::uint64_t b) {
    first = std::min(first, a);
    last = std::max(last, b);
  };
  for (const auto& r : m.ranges) see(r.start_ns, r.end_ns.value_or(r.start_ns));
  for (const auto& a : m.api_calls) see(a.start_ns, a.end_ns);
  for (const auto& k : m.kernels)
    if (k.start_ns && k.end_ns) see(*k.start_ns, *k.end_ns);
  for (const auto& c : m.copies) see(c.start_ns, c.end_ns);
  for (const auto& e : m.memory_events) see(e.start_ns, e.end_ns);
  if (first > last) first = last = 0;
  const std::vector<Lane> lanes = build_lanes(m, last);
  const std::string title = "Timeline of the whole run, one lane per host thread's NVTX ranges and CUDA calls and per GPU "
                            "stream's kernels and copies (" + std::to_string(lanes.size()) + " lanes)";
  return draw(lanes, first, static_cast<double>(last - first), "Timeline of the whole run", title, kWholeStyle);
}

std::uint64_t range_activity_span_ns(const Measurement& m, const std::string& range) {
  std::vector<Lane> lanes;
  append_stream_lanes(m, &range, {}, lanes);
  const auto [first, last] = extent(lanes);
  return last - first;
}

std::string range_timeline_svg(const Measurement& m, const std::string& range, std::uint64_t span_ns,
                               const std::vector<std::string>& stream_names) {
  std::vector<Lane> lanes;
  append_stream_lanes(m, &range, stream_names, lanes);
  const auto [first, last] = extent(lanes);
  std::string title = "Timeline of " + range + ", one lane per stream";
  for (std::size_t i = 0; i < lanes.size(); ++i) title += (i ? "; " : ": ") + lane_summary(lanes[i]);
  return draw(lanes, first, static_cast<double>(std::max(span_ns, last - first)), range, title, kRangeStyle);
}

}  // namespace labbook::report
