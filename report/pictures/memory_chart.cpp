#include "memory_chart.h"

#include <cmath>
#include <vector>

#include "format.h"

namespace labbook::report {

namespace {

constexpr double kWidth = 1280, kHeight = 620;
constexpr double kLineGap = 18;   // between lines of a label, at 14 px
constexpr std::size_t kTitleChars = 110;   // beyond this the drawn title is cut; <title> keeps it whole

/// One column of the picture: a box from x to x + w.
struct Column {
  double x, w;
  double centre() const { return x + w / 2; }
  double right() const { return x + w; }
};
constexpr Column kSm{20, 160}, kL1{460, 170}, kL2{860, 140}, kDram{1120, 140};
constexpr double kBoxTop = 90, kCacheBottom = 370, kSharedTop = 420, kSmBottom = 570;
// Arrow lanes, by height: global loads, global stores, local memory, shared memory.
constexpr double kLoadsY = 130, kStoresY = 240, kLocalY = 350, kSharedY = 450;

/// A line of a label: its text, and whether it says a value was not measured (drawn grey).
struct Line {
  std::string text;
  bool missing = false;
};

Line value_line(const std::optional<double>& v, const std::string& unit, const std::string& missing_text) {
  return v ? Line{format_value(*v, unit)} : Line{missing_text, true};
}

Line sectors_line(const std::optional<double>& sectors) {
  if (!sectors) return {"sectors not measured", true};
  return {sectors_with_bytes(*sectors)};
}

class Svg {
 public:
  void text(double x, double y, const std::string& s, const std::string& attributes = "") {
    out_ += "<text x=\"" + svg_number(x) + "\" y=\"" + svg_number(y) + "\" text-anchor=\"middle\"" +
            (attributes.empty() ? "" : " " + attributes) + ">" + escape_markup(s) + "</text>\n";
  }
  void line(double x, double y, const Line& l) {
    text(x, y, l.text, l.missing ? "fill=\"#6a6a6a\" font-style=\"italic\"" : "");
  }
  /// A heading above the arrow at height y, and `lines` below it.
  void lane_label(double x, double y, const std::string& heading, const std::vector<Line>& lines) {
    if (!heading.empty()) text(x, y - 9, heading, "font-weight=\"bold\"");
    for (std::size_t i = 0; i < lines.size(); ++i) line(x, y + 21 + kLineGap * static_cast<double>(i), lines[i]);
  }
  void arrow(double from, double to, double y) {
    out_ += "<line x1=\"" + svg_number(from + 4) + "\" y1=\"" + svg_number(y) + "\" x2=\"" + svg_number(to - 4) + "\" y2=\"" +
            svg_number(y) + "\" stroke=\"#3d6f9e\" stroke-width=\"3\" marker-end=\"url(#mc-head)\"/>\n";
  }
  void box(const Column& c, double top, double bottom, const std::string& name, const std::string& subtitle,
           const char* fill) {
    out_ += "<rect x=\"" + svg_number(c.x) + "\" y=\"" + svg_number(top) + "\" width=\"" + svg_number(c.w) + "\" height=\"" +
            svg_number(bottom - top) + "\" rx=\"8\" fill=\"" + fill + "\" stroke=\"#555\" stroke-width=\"1.5\"/>\n";
    text(c.centre(), top + 26, name, "font-size=\"17\" font-weight=\"bold\"");
    if (!subtitle.empty()) text(c.centre(), top + 46, subtitle, "font-size=\"12\" fill=\"#444\"");
  }
  /// A hit rate in a cache's box, between the reads' and the writes' arrows so that it
  /// reads as neither's label.
  void hit_rate(const Column& c, const std::string& what, const std::optional<double>& pct) {
    const double y = (kLoadsY + kStoresY) / 2 - 4;
    text(c.centre(), y, what, "font-size=\"12\" fill=\"#444\"");
    line(c.centre(), y + 22, value_line(pct, "%", "not measured"));
  }
  std::string& out() { return out_; }

 private:
  std::string out_;
};

std::vector<Line> global_lines(const GlobalTraffic& t) {
  std::vector<Line> lines = {value_line(t.requests, "requests", "requests not measured"), sectors_line(t.sectors)};
  if (t.requests && t.sectors && *t.requests > 0) lines.push_back({two_decimals(*t.sectors / *t.requests) + " sectors per request"});
  if (t.efficiency_pct && t.sectors && *t.sectors > 0) lines.push_back({"used: " + format_value(*t.efficiency_pct, "%") + " of the bytes"});
  return lines;
}

/// "loads: 1,024 instructions", "2,048 wavefronts", "bank conflicts: 0" (or "not measured"):
/// a line each, as counts of shared loads reach tens of millions.
std::vector<Line> shared_lines(const std::string& kind, const SharedTraffic& t) {
  if (!t.instructions && !t.wavefronts && !t.bank_conflicts) return {{kind + ": not measured", true}};
  const std::string conflicts = "bank conflicts: ";
  return {{kind + ": " + (t.instructions ? format_value(*t.instructions, "instructions") : "instructions not measured"),
           !t.instructions},
          value_line(t.wavefronts, "wavefronts", "wavefronts not measured"),
          t.bank_conflicts ? Line{conflicts + with_thousands(std::llround(*t.bank_conflicts))}
                           : Line{conflicts + "not measured", true}};
}

/// "loads 32.24" (the least is 1 for 4-byte words), or "loads not measured".
Line wavefronts_per_instruction(const std::string& kind, const SharedTraffic& t) {
  if (!t.instructions || !t.wavefronts || *t.instructions <= 0) return {kind + " not measured", true};
  return {kind + " " + two_decimals(*t.wavefronts / *t.instructions)};
}

Line local_line(const MemoryFlow& f) {
  if (!f.local_load_sectors && !f.local_store_sectors) return {"not measured", true};
  const auto part = [](const std::optional<double>& v) { return v ? format_value(*v, "sectors") : "not measured"; };
  return {"loads " + part(f.local_load_sectors) + ", stores " + part(f.local_store_sectors)};
}

}  // namespace

std::string memory_chart_svg(const MemoryFlow& f, const std::string& title) {
  Svg svg;
  std::string& out = svg.out();
  out = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"100%\" viewBox=\"0 0 " + svg_number(kWidth) + " " +
        svg_number(kHeight) + "\" role=\"img\" aria-labelledby=\"mc-title mc-desc\" font-family=\"sans-serif\" font-size=\"14\">\n"
        "<title id=\"mc-title\">" + escape_markup("Memory chart: " + title) + "</title>\n"
        "<desc id=\"mc-desc\">" + escape_markup(memory_flow_description(f)) + "</desc>\n"
        "<defs><marker id=\"mc-head\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"4\" markerHeight=\"4\" "
        "orient=\"auto\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"#3d6f9e\"/></marker></defs>\n"
        "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  out += "<text x=\"20\" y=\"30\" font-size=\"18\" font-weight=\"bold\">" + escape_markup(cut_text(title, kTitleChars)) + "</text>\n";
  if (const std::string caption = memory_flow_caption(f); !caption.empty())
    out += "<text class=\"caption\" x=\"20\" y=\"58\" fill=\"#222\">" + escape_markup(caption) + "</text>\n";

  svg.box(kSm, kBoxTop, kSmBottom, "Threads / SM", "warps issue requests", "#eef3f8");
  svg.box(kL1, kBoxTop, kCacheBottom, "L1 cache", "one per SM", "#f4f0e6");
  svg.box(kL1, kSharedTop, kSmBottom, "Shared memory", "on chip, beside L1", "#f4f0e6");
  svg.box(kL2, kBoxTop, kCacheBottom, "L2 cache", "shared by all SMs", "#f4f0e6");
  svg.box(kDram, kBoxTop, kCacheBottom, "DRAM", "device memory", "#ece8f4");
  svg.hit_rate(kL1, "hit rate of global loads", f.l1_hit_rate_pct);
  svg.text(kL1.centre(), kSharedTop + 76, "wavefronts per instruction", "font-size=\"12\" fill=\"#444\"");
  svg.line(kL1.centre(), kSharedTop + 98, wavefronts_per_instruction("loads", f.shared_loads));
  svg.line(kL1.centre(), kSharedTop + 118, wavefronts_per_instruction("stores", f.shared_stores));
  svg.hit_rate(kL2, "hit rate", f.l2_hit_rate_pct);

  // SM -> L1: global loads, global stores, local memory; SM -> shared memory.
  const double sm_l1 = (kSm.right() + kL1.x) / 2;
  for (double y : {kLoadsY, kStoresY, kLocalY}) svg.arrow(kSm.right(), kL1.x, y);
  svg.lane_label(sm_l1, kLoadsY, "Global loads", global_lines(f.global_loads));
  svg.lane_label(sm_l1, kStoresY, "Global stores", global_lines(f.global_stores));
  svg.lane_label(sm_l1, kLocalY, "Local memory", {local_line(f)});
  svg.arrow(kSm.right(), kL1.x, kSharedY);
  std::vector<Line> shared = shared_lines("loads", f.shared_loads);
  for (const auto& l : shared_lines("stores", f.shared_stores)) shared.push_back(l);
  svg.lane_label(sm_l1, kSharedY, "Shared accesses", shared);

  // L1 -> L2 and L2 -> DRAM: reads on the upper lane, writes on the lower.
  const double l1_l2 = (kL1.right() + kL2.x) / 2, l2_dram = (kL2.right() + kDram.x) / 2;
  for (double y : {kLoadsY, kStoresY}) {
    svg.arrow(kL1.right(), kL2.x, y);
    svg.arrow(kL2.right(), kDram.x, y);
  }
  svg.lane_label(l1_l2, kLoadsY, "Reads", {sectors_line(f.l2_read_sectors)});
  svg.lane_label(l1_l2, kStoresY, "Writes", {sectors_line(f.l2_write_sectors)});
  svg.lane_label(l2_dram, kLoadsY, "Read", {value_line(f.dram_read_bytes, "bytes", "not measured")});
  svg.lane_label(l2_dram, kStoresY, "Written", {value_line(f.dram_write_bytes, "bytes", "not measured")});

  svg.text(kWidth / 2, kHeight - 16,
           "Arrows point the way requests go; loaded data comes back along them. A sector is 32 bytes. "
           "Grey italics: the counter was not collected in this run.",
           "font-size=\"13\" fill=\"#444\"");
  return out + "</svg>\n";
}

}  // namespace labbook::report
