#include "timeline_svg.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <set>

#include "activity_summary.h"
#include "format.h"

namespace labbook::report {

namespace {

constexpr double kLabelWidth = 230, kPlotWidth = 1100, kRowHeight = 16, kAxisHeight = 28;


std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}

struct Box {
  std::uint64_t start, end;
  std::string css_class, tooltip;
};

struct Lane {
  std::string label;
  std::vector<Box> boxes;
};

/// One lane per GPU stream (in order of device and stream) with its timed kernels, copies
/// and memsets: all of them, or only those attributed to `*range`.
void append_stream_lanes(const Measurement& m, const std::string* range, std::vector<Lane>& lanes) {
  std::map<std::pair<int, std::uint32_t>, Lane> streams;
  auto stream_lane = [&](int device, std::uint32_t stream) -> Lane& {
    Lane& l = streams[{device, stream}];
    if (l.label.empty()) l.label = "GPU " + std::to_string(device) + " stream " + std::to_string(stream);
    return l;
  };
  for (const auto& k : m.kernels)
    if (k.start_ns && k.end_ns && (!range || k.range == *range))
      stream_lane(k.device, k.stream).boxes.push_back({*k.start_ns, *k.end_ns, "kernel", k.name + " [" + k.range_or_name() + "]"});
  for (const auto& c : m.copies) {
    if (range && c.range != *range) continue;
    const std::string what = c.is_memset ? "memset" : std::string("memcpy ") + to_string(c.kind) + " " + to_string(c.src) +
                                                          " -> " + to_string(c.dst);
    stream_lane(c.device, c.stream)
        .boxes.push_back({c.start_ns, c.end_ns, c.is_memset ? "memset" : "memcpy",
                          what + ", " + std::to_string(c.bytes) + " bytes"});
  }
  for (auto& [key, lane] : streams) lanes.push_back(std::move(lane));
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
          lane.boxes.push_back({r.start_ns, r.end_ns.value_or(open_range_end), "nvtx", r.path});
      lanes.push_back(std::move(lane));
    }
    Lane api{"thread " + std::to_string(t) + " CUDA API", {}};
    for (const auto& a : m.api_calls)
      if (a.thread == t) api.boxes.push_back({a.start_ns, a.end_ns, "api", a.name});
    if (!api.boxes.empty()) lanes.push_back(std::move(api));
  }
  Lane process_wide{"NVTX start/end", {}};
  for (const auto& r : m.ranges)
    if (r.process_wide) process_wide.boxes.push_back({r.start_ns, r.end_ns.value_or(open_range_end), "nvtx", r.path});
  if (!process_wide.boxes.empty()) lanes.push_back(std::move(process_wide));

  append_stream_lanes(m, nullptr, lanes);

  Lane uvm{"unified memory", {}};
  for (const auto& e : m.memory_events)
    uvm.boxes.push_back({e.start_ns, e.end_ns, "uvm", e.kind + ", " + std::to_string(e.value)});
  if (!uvm.boxes.empty()) lanes.push_back(std::move(uvm));
  return lanes;
}

/// A round tick step giving about eight ticks over `span_ns`.
double tick_step(double span_ns) {
  const double raw = span_ns / 8;
  const double power = std::pow(10.0, std::floor(std::log10(std::max(raw, 1.0))));
  for (double f : {1.0, 2.0, 5.0})
    if (f * power >= raw) return f * power;
  return 10 * power;
}

/// A tick's label: `t` ns in the unit of the step, as few digits as it needs ("0 ms", "2.5 ms",
/// "400 µs").
std::string tick_label(double t, double step) {
  const auto [scale, unit] = step >= 1e6 ? std::pair{1e6, "ms"} : step >= 1e3 ? std::pair{1e3, "µs"} : std::pair{1.0, "ns"};
  char text[32];
  std::snprintf(text, sizeof text, "%g %s", t / scale, unit);
  return text;
}

/// The lanes drawn over a time axis from `first`; the plot's width stands for `span` ns.
std::string draw(const std::vector<Lane>& lanes, std::uint64_t first, double span) {
  span = std::max(span, 1.0);
  const auto x = [&](std::uint64_t t) { return kLabelWidth + kPlotWidth * static_cast<double>(t - first) / span; };
  const double height = kAxisHeight + kRowHeight * static_cast<double>(lanes.size()) + 8;
  std::string svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + number(kLabelWidth + kPlotWidth + 10) +
                    "\" height=\"" + number(height) + "\" font-family=\"sans-serif\" font-size=\"11\">\n"
                    "<style>.nvtx{fill:#7aa6da}.api{fill:#b9b9b9}.kernel{fill:#4c9f38}.memcpy{fill:#e8a33d}"
                    ".memset{fill:#9b59b6}.uvm{fill:#d9534f}.lane{fill:#f7f7f7}text{fill:#222}</style>\n";
  // Time axis.
  const double step = tick_step(span);
  for (double t = 0; t <= span; t += step) {
    const double px = kLabelWidth + kPlotWidth * t / span;
    svg += "<line x1=\"" + number(px) + "\" y1=\"" + number(kAxisHeight - 6) + "\" x2=\"" + number(px) + "\" y2=\"" +
           number(height) + "\" stroke=\"#ddd\"/>\n<text x=\"" + number(px + 2) + "\" y=\"" +
           number(kAxisHeight - 10) + "\">" + escape_markup(tick_label(t, step)) + "</text>\n";
  }
  for (std::size_t i = 0; i < lanes.size(); ++i) {
    const double y = kAxisHeight + kRowHeight * static_cast<double>(i);
    svg += "<g class=\"lane-row\"><rect class=\"lane\" x=\"0\" y=\"" + number(y) + "\" width=\"" +
           number(kLabelWidth + kPlotWidth) + "\" height=\"" + number(kRowHeight - 2) + "\"/>\n<text x=\"4\" y=\"" +
           number(y + kRowHeight - 5) + "\">" + escape_markup(lanes[i].label) + "</text>\n";
    for (const auto& b : lanes[i].boxes) {
      const double width = std::max(x(b.end) - x(b.start), 0.5);   // keep short events visible
      svg += "<rect class=\"" + b.css_class + "\" x=\"" + number(x(b.start)) + "\" y=\"" + number(y + 1) +
             "\" width=\"" + number(width) + "\" height=\"" + number(kRowHeight - 4) + "\"><title>" +
             escape_markup(b.tooltip + " (" + nvprof_duration(static_cast<double>(b.end - b.start)) + ")") +
             "</title></rect>\n";
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
  return draw(build_lanes(m, last), first, static_cast<double>(last - first));
}

std::uint64_t range_activity_span_ns(const Measurement& m, const std::string& range) {
  std::vector<Lane> lanes;
  append_stream_lanes(m, &range, lanes);
  const auto [first, last] = extent(lanes);
  return last - first;
}

std::string range_timeline_svg(const Measurement& m, const std::string& range, std::uint64_t span_ns) {
  std::vector<Lane> lanes;
  append_stream_lanes(m, &range, lanes);
  const auto [first, last] = extent(lanes);
  return draw(lanes, first, static_cast<double>(std::max(span_ns, last - first)));
}

}  // namespace labbook::report
