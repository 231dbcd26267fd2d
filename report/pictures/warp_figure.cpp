#include "warp_figure.h"

#include <algorithm>
#include <cctype>
#include <set>

#include "format.h"
#include "global_cost.h"

namespace labbook::report {

namespace {

// Picture units; the SVG scales to its container (a 390 px phone shows it at 0.6).
constexpr double kWarpWidth = 640, kWarpLeft = 52, kWarpRight = 14, kWarpPlot = kWarpWidth - kWarpLeft - kWarpRight;
constexpr double kTitleBand = 30, kPanelHeight = 190, kLegendLine = 17;
// Rows within a panel, from its top. Text sits only in the header, the lane labels above the
// lanes and the offsets below the bands: never between lanes and memory, where the links run.
constexpr double kHeaderY = 15, kSummaryY = 32, kLaneLabelY = 53, kLaneY = 58, kLaneHeight = 14, kMemoryY = 114,
                 kMemoryHeight = 20, kBandY = 140, kBandHeight = 12, kOffsetY = 172;
constexpr std::uint64_t kLine = 128, kSector = 32;
const char* const kWarpColours[] = {"#4c9f38", "#e8a33d", "#3b7dd8", "#d9534f", "#9b59b6", "#17a2b8"};

bool is_store(const warp::WarpAccess& a) { return a.op == warp::Operation::Store; }

/// The memory axis: only the 128-byte lines the warp touches or a transaction moves, side by
/// side, so a warp scattered over megabytes still fits; runs of adjacent lines are separated
/// by a narrow gap.
class MemoryAxis {
 public:
  struct Run {
    std::uint64_t begin, end;   // bytes, whole lines
    double x;
  };

  explicit MemoryAxis(std::set<std::uint64_t> lines) {
    if (lines.empty()) lines.insert(0);
    // A single untouched line between two drawn ones is drawn too: a gap would hide only 128 bytes.
    for (auto it = lines.begin(); std::next(it) != lines.end(); ++it)
      if (*std::next(it) == *it + 2) it = lines.insert(*it + 1).first;
    for (std::uint64_t l : lines) {
      if (runs_.empty() || runs_.back().end != l * kLine) runs_.push_back({l * kLine, l * kLine, 0});
      runs_.back().end = (l + 1) * kLine;
    }
    const double gaps = static_cast<double>(runs_.size() - 1);
    gap_ = gaps > 0 ? std::min(14.0, kWarpPlot / 4 / gaps) : 0;
    per_byte_ = (kWarpPlot - gap_ * gaps) / static_cast<double>(lines.size() * kLine);
    double x = kWarpLeft;
    for (auto& r : runs_) {
      r.x = x;
      x += static_cast<double>(r.end - r.begin) * per_byte_ + gap_;
    }
  }

  /// Where the byte at `address` starts; `end`: where the byte before `address` ends.
  double x(std::uint64_t address, bool end = false) const {
    for (const auto& r : runs_)
      if (end ? (address > r.begin && address <= r.end) : (address >= r.begin && address < r.end))
        return r.x + static_cast<double>(address - r.begin) * per_byte_;
    return kWarpLeft;
  }
  double per_byte() const { return per_byte_; }
  double gap() const { return gap_; }
  std::uint64_t origin() const { return runs_.front().begin; }
  const std::vector<Run>& runs() const { return runs_; }

 private:
  std::vector<Run> runs_;
  double per_byte_ = 1, gap_ = 0;
};

std::string count(long long n, const char* one, const char* many) {
  return with_thousands(n) + " " + (n == 1 ? one : many);
}

/// "32 lanes load 4 bytes each: 2 transactions, 256 bytes read for 128 requested (50.0 %)".
std::string summary(const warp::WarpAccess& a, const warp::GlobalCost& cost) {
  const long long lanes = std::count(a.active.begin(), a.active.end(), true);
  const std::string efficiency = format_number(" (%.1f %%)", cost.efficiency_pct());
  return count(lanes, "lane ", "lanes ") + (is_store(a) ? (lanes == 1 ? "stores " : "store ") : (lanes == 1 ? "loads " : "load ")) +
         count(a.width, "byte", "bytes") + (lanes == 1 ? "" : " each") + ": " +
         format_value(cost.transactions, "transactions") + ", " + count(static_cast<long long>(cost.bytes_moved), "byte", "bytes") +
         (is_store(a) ? " written for " : " read for ") + with_thousands(static_cast<long long>(cost.bytes_requested)) +
         (is_store(a) ? " stored" : " requested") + efficiency;
}

/// The architecture's rule for this access. Its description speaks of loads, so a store
/// gets the store rule from its numbers instead.
std::string rule(const warp::WarpAccess& a, const warp::Architecture& arch) {
  if (!is_store(a)) return arch.description;
  std::string s = "stores written in " + std::to_string(arch.store_unit_bytes) + "-byte segments, " +
                  (arch.store_segments_per_transaction > 1
                       ? "up to " + std::to_string(arch.store_segments_per_transaction) + " adjacent ones per transaction"
                       : "one per transaction");
  return arch.coalescing_lanes < warp::kWarpSize ? s + ", per half-warp" : s;
}

std::string svg_text(double x, double y, const std::string& content, const std::string& attributes = "") {
  return "<text x=\"" + svg_number(x) + "\" y=\"" + svg_number(y) + "\"" + (attributes.empty() ? "" : " " + attributes) + ">" +
         escape_markup(content) + "</text>\n";
}

std::string line(const char* cls, double x1, double y1, double x2, double y2, const std::string& style) {
  return "<line class=\"" + std::string(cls) + "\" x1=\"" + svg_number(x1) + "\" y1=\"" + svg_number(y1) + "\" x2=\"" +
         svg_number(x2) + "\" y2=\"" + svg_number(y2) + "\" " + style + "/>\n";
}

std::string rect(const char* cls, double x, double y, double w, double h, const std::string& style, const std::string& tip = "") {
  const std::string open = "<rect class=\"" + std::string(cls) + "\" x=\"" + svg_number(x) + "\" y=\"" + svg_number(y) +
                           "\" width=\"" + svg_number(w) + "\" height=\"" + svg_number(h) + "\" " + style;
  return tip.empty() ? open + "/>\n" : open + "><title>" + escape_markup(tip) + "</title></rect>\n";
}

/// Byte offsets under the 128-byte boundaries, as many as fit without overlapping: each run's
/// start first (where the axis jumps), then the others from left to right.
std::string offset_labels(const MemoryAxis& axis, double y) {
  std::vector<std::pair<std::uint64_t, double>> wanted;   // boundary, its x
  for (const auto& r : axis.runs()) wanted.emplace_back(r.begin, axis.x(r.begin));
  for (const auto& r : axis.runs())
    for (std::uint64_t b = r.begin + kLine; b <= r.end; b += kLine) wanted.emplace_back(b, axis.x(b, true));
  std::vector<std::pair<double, double>> taken;
  std::string out;
  for (const auto& [b, x] : wanted) {
    const std::string label = with_thousands(static_cast<long long>(b - axis.origin()));
    const double half = 3.3 * static_cast<double>(label.size()) + 2;
    if (x + half > kWarpWidth) continue;   // would be cut off at the right edge
    if (std::any_of(taken.begin(), taken.end(), [&](const auto& t) { return x + half > t.first && x - half < t.second; }))
      continue;
    taken.emplace_back(x - half, x + half);
    out += svg_text(x, y, label, "class=\"offset\" text-anchor=\"middle\" font-size=\"11\"");
  }
  return out;
}

std::string panel(const warp::WarpAccess& a, const WarpPanel& p, const MemoryAxis& axis, double top) {
  std::vector<warp::Transaction> transactions;
  const warp::GlobalCost cost = warp::global_cost(a, p.architecture, &transactions);
  std::string svg = "<g class=\"panel\">\n";
  svg += svg_text(4, top + kHeaderY, p.label + " — " + p.architecture.id + ": " + rule(a, p.architecture), "font-weight=\"bold\"");
  svg += svg_text(4, top + kSummaryY, summary(a, cost));

  // Lanes, numbered every 4 and the last; a link from each active lane to the middle of its bytes.
  const double lane_w = kWarpPlot / warp::kWarpSize;
  svg += svg_text(kWarpLeft - 6, top + kLaneY + 11, "lane", "text-anchor=\"end\" fill=\"#444\"");
  for (int l = 0; l < warp::kWarpSize; ++l) {
    const auto i = static_cast<std::size_t>(l);
    const double x = kWarpLeft + lane_w * l;
    if (l % 4 == 0 || l == warp::kWarpSize - 1)
      svg += svg_text(x + lane_w / 2, top + kLaneLabelY, std::to_string(l), "class=\"lane-label\" text-anchor=\"middle\" font-size=\"11\"");
    svg += rect("lane", x + 1, top + kLaneY, lane_w - 2, kLaneHeight, std::string("fill=\"") + (a.active[i] ? "#7aa6da" : "#e0e0e0") + "\"");
    if (a.active[i]) {
      const std::uint64_t at = a.address[i], end = at + static_cast<std::uint64_t>(a.width);
      svg += line("link", x + lane_w / 2, top + kLaneY + kLaneHeight, (axis.x(at) + axis.x(end, true)) / 2, top + kMemoryY,
                  "stroke=\"#999\" stroke-width=\"0.6\"");
    }
  }

  // Memory: each run of lines, its sector ticks light, the requested bytes blue.
  svg += svg_text(kWarpLeft - 6, top + kMemoryY + 14, "byte", "text-anchor=\"end\" fill=\"#444\"");
  for (const auto& r : axis.runs()) {
    svg += rect("memory", r.x, top + kMemoryY, static_cast<double>(r.end - r.begin) * axis.per_byte(), kMemoryHeight,
                "fill=\"white\" stroke=\"#c8c8c8\" stroke-width=\"0.8\"");
    for (std::uint64_t s = r.begin + kSector; s < r.end; s += kSector)
      if (s % kLine != 0)
        svg += line("sector", axis.x(s), top + kMemoryY, axis.x(s), top + kMemoryY + kMemoryHeight, "stroke=\"#c8c8c8\" stroke-width=\"0.8\"");
  }
  for (int l = 0; l < warp::kWarpSize; ++l) {
    const auto i = static_cast<std::size_t>(l);
    if (!a.active[i]) continue;
    const std::uint64_t at = a.address[i], end = at + static_cast<std::uint64_t>(a.width);
    svg += rect("requested", axis.x(at), top + kMemoryY + 4, std::max(axis.x(end, true) - axis.x(at), 0.5), kMemoryHeight - 8,
                "fill=\"#7aa6da\"");
  }
  // Transactions, one coloured band each.
  for (std::size_t t = 0; t < transactions.size(); ++t) {
    const auto& tr = transactions[t];
    const double x = axis.x(tr.address), w = axis.x(tr.address + tr.bytes, true) - x;
    svg += rect("transaction", x + 1, top + kBandY, std::max(w - 2, 1.0), kBandHeight, std::string("fill=\"") + kWarpColours[t % 6] + "\"",
                std::to_string(tr.bytes) + (is_store(a) ? " bytes written at +" : " bytes read at +") +
                    with_thousands(static_cast<long long>(tr.address - axis.origin())));
  }
  // The 128-byte boundaries, heavy and across memory and bands; a dotted gap where lines are left out.
  for (std::size_t k = 0; k < axis.runs().size(); ++k) {
    const auto& r = axis.runs()[k];
    for (std::uint64_t b = r.begin; b <= r.end; b += kLine) {
      const double x = b == r.end ? axis.x(b, true) : axis.x(b);
      svg += line("boundary", x, top + kMemoryY - 4, x, top + kBandY + kBandHeight + 4, "stroke=\"#222\" stroke-width=\"1.6\"");
    }
    if (k + 1 < axis.runs().size()) {
      const double x = axis.x(r.end, true);
      svg += line("gap", x + 2, top + kMemoryY + kMemoryHeight / 2, x + axis.gap() - 2, top + kMemoryY + kMemoryHeight / 2,
                  "stroke=\"#444\" stroke-width=\"1.5\" stroke-dasharray=\"1 2\"");
    }
  }
  svg += offset_labels(axis, top + kOffsetY);
  return svg + "</g>\n";
}

}  // namespace

std::string warp_figure_description(const warp::WarpAccess& a, const std::vector<WarpPanel>& panels, const std::string& title) {
  std::string out = title + ": one warp's " + (is_store(a) ? "store" : "load");
  for (std::size_t i = 0; i < panels.size(); ++i) {
    std::string label = panels[i].label;
    if (i == 0 && !label.empty()) label[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(label[0])));   // starts a sentence
    out += (i ? "; " : ". ") + label + " on " + panels[i].architecture.id + ": " + summary(a, warp::global_cost(a, panels[i].architecture));
  }
  return out + ".";
}

std::string warp_figure_svg(const warp::WarpAccess& a, const std::vector<WarpPanel>& panels, const std::string& title) {
  // One memory axis for every panel: the lines any of them touches or moves.
  std::set<std::uint64_t> lines;
  for (int l = 0; l < warp::kWarpSize; ++l)
    if (a.active[static_cast<std::size_t>(l)]) {
      const std::uint64_t at = a.address[static_cast<std::size_t>(l)];
      for (std::uint64_t line = at / kLine; line <= (at + static_cast<std::uint64_t>(std::max(a.width, 1)) - 1) / kLine; ++line)
        lines.insert(line);
    }
  for (const auto& p : panels) {
    std::vector<warp::Transaction> transactions;
    warp::global_cost(a, p.architecture, &transactions);
    for (const auto& t : transactions)
      for (std::uint64_t line = t.address / kLine; line <= (t.address + std::max<std::uint64_t>(t.bytes, 1) - 1) / kLine; ++line)
        lines.insert(line);
  }
  const MemoryAxis axis(lines);
  const bool gaps = axis.runs().size() > 1;

  const double legend_top = kTitleBand + kPanelHeight * static_cast<double>(panels.size());
  const double height = legend_top + 2 * kLegendLine + 8;
  // Drawn at its natural size, so that a wide page does not blow its 12 px text up to the column's width.
  const std::string size = "width=\"" + svg_number(kWarpWidth) + "\" height=\"" + svg_number(height) + "\"";
  std::string svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" " + size + " viewBox=\"0 0 " + svg_number(kWarpWidth) + " " +
                    svg_number(height) + "\" role=\"img\" font-family=\"sans-serif\" font-size=\"12\">\n<title>" +
                    escape_markup(warp_figure_description(a, panels, title)) + "</title>\n" +
                    "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  svg += svg_text(4, 20, title + ": one warp's " + (is_store(a) ? "store" : "load"), "class=\"caption\" font-size=\"14\" font-weight=\"bold\"");
  for (std::size_t i = 0; i < panels.size(); ++i) {
    const double top = kTitleBand + kPanelHeight * static_cast<double>(i);
    if (i) svg += line("divider", 0, top - 4, kWarpWidth, top - 4, "stroke=\"#ddd\"");
    svg += panel(a, panels[i], axis, top);
  }
  const std::string verb = is_store(a) ? "store" : "load";
  svg += svg_text(4, legend_top + 12,
              "Blue: the bytes the lanes " + verb + ". Byte offsets from the first line drawn; heavy lines: 128-byte lines;",
              "class=\"legend\" fill=\"#444\"");
  svg += svg_text(4, legend_top + 12 + kLegendLine,
              std::string("light ticks: 32-byte sectors. Coloured: one band per transaction, the bytes it ") +
                  (is_store(a) ? "writes" : "reads") + (gaps ? ". Dots: lines not drawn." : "."),
              "class=\"legend\" fill=\"#444\"");
  return svg + "</svg>\n";
}

}  // namespace labbook::report
