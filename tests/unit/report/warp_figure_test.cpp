// The one-warp picture: then and now in one SVG, lane numbers and byte offsets on the axes,
// a boundary every 128 bytes, text clear of the links, a store worded as a store.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <regex>
#include <set>

#include "architecture.h"
#include "warp_access.h"
#include "warp_figure.h"

using namespace labbook::warp;
using labbook::report::WarpPanel;
using labbook::report::warp_figure_svg;

namespace {

WarpAccess figure_floats_from(std::uint64_t first_byte, Operation op = Operation::Load) { return strided(op, 4, first_byte, 4); }

std::vector<WarpPanel> then_and_now() { return {{"then", architecture("fermi_ca")}, {"now", architecture("sm_90")}}; }

/// An element of the picture: its attributes and, for <text>, what it says.
struct Element {
  std::map<std::string, std::string> attributes;
  std::string content;
  double number(const std::string& name) const { return std::stod(attributes.at(name)); }
};

std::vector<Element> elements(const std::string& svg, const std::string& tag, const std::string& cls = "") {
  static const std::regex attribute(R"re(([\w-]+)="([^"]*)")re");
  const std::regex element("<" + tag + R"re(\b([^>]*?)/?>(?:([^<]*)</)?)re");
  std::vector<Element> out;
  for (std::sregex_iterator it(svg.begin(), svg.end(), element), end; it != end; ++it) {
    Element e;
    const std::string attrs = (*it)[1];
    for (std::sregex_iterator a(attrs.begin(), attrs.end(), attribute); a != end; ++a) e.attributes[(*a)[1]] = (*a)[2];
    e.content = (*it)[2];
    if (cls.empty() || (e.attributes.count("class") && e.attributes.at("class") == cls)) out.push_back(e);
  }
  return out;
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

}  // namespace

TEST(WarpFigure, ThenAndNowInOnePictureWithOneBandPerTransaction) {
  const std::string svg = warp_figure_svg(figure_floats_from(44), then_and_now(), "readSegment/offset=11");
  EXPECT_EQ(elements(svg, "rect", "transaction").size(), 2u + 5u) << "two 128-byte lines on Fermi, five sectors now";
  EXPECT_EQ(elements(svg, "rect", "lane").size(), 64u);
  EXPECT_NE(svg.find("then — fermi_ca: Fermi"), std::string::npos);
  EXPECT_NE(svg.find("now — sm_90: Volta"), std::string::npos);
  EXPECT_LT(svg.find("then — fermi_ca"), svg.find("now — sm_90")) << "the source's GPU first";
  EXPECT_NE(svg.find("32 lanes load 4 bytes each: 2 transactions, 256 bytes read for 128 requested (50.0 %)"), std::string::npos);
  EXPECT_NE(svg.find("5 transactions, 160 bytes read for 128 requested (80.0 %)"), std::string::npos);
  // Drawn at its natural size (not stretched to a wide column), and a screen reader hears both panels.
  EXPECT_NE(svg.find("width=\"640.0\" height=\""), std::string::npos);
  EXPECT_NE(svg.find("viewBox=\"0 0 640.0 "), std::string::npos);
  const auto titles = elements(svg, "title");
  ASSERT_FALSE(titles.empty());
  EXPECT_EQ(svg.find("<title>"), svg.find('\n') + 1) << "the picture's own title comes first";
  EXPECT_NE(titles[0].content.find(". Then on fermi_ca: 32 lanes load"), std::string::npos) << titles[0].content;
  EXPECT_NE(titles[0].content.find("now on sm_90: 32 lanes load"), std::string::npos) << titles[0].content;
}

TEST(WarpFigure, AStoreIsWordedAsAStoreAndALoadAsALoad) {
  WarpAccess store = figure_floats_from(44, Operation::Store);
  for (int l = 24; l < kWarpSize; ++l) store.active[static_cast<std::size_t>(l)] = false;
  const std::string svg = lower(warp_figure_svg(store, then_and_now(), "writeSegment/offset=11"));
  EXPECT_NE(svg.find("24 lanes store 4 bytes each"), std::string::npos);
  EXPECT_NE(svg.find("bytes written for 96 stored"), std::string::npos);
  EXPECT_NE(svg.find("up to 4 adjacent ones per transaction"), std::string::npos) << "Fermi's store rule, not its load rule";
  EXPECT_EQ(svg.find("load"), std::string::npos) << "the architectures' load descriptions are not shown for a store";
  EXPECT_EQ(svg.find("read"), std::string::npos);
  const std::string load = lower(warp_figure_svg(figure_floats_from(44), then_and_now(), "readSegment/offset=11"));
  EXPECT_EQ(load.find("store"), std::string::npos);
  EXPECT_EQ(load.find("written"), std::string::npos);
}

TEST(WarpFigure, ABoundaryAtEvery128BytesOfTheDrawnRangeAndLighterSectorTicks) {
  // 16 bytes per lane from byte 0: 512 bytes, four lines, boundaries at 0, 128, ..., 512.
  const std::string svg = warp_figure_svg(strided(Operation::Load, 16, 0, 16), {{"now", architecture("sm_90")}}, "wide");
  const auto boundaries = elements(svg, "line", "boundary");
  ASSERT_EQ(boundaries.size(), 5u);
  const double step = boundaries[1].number("x1") - boundaries[0].number("x1");
  EXPECT_GT(step, 100) << "a line is a quarter of the plot";
  for (std::size_t i = 1; i < boundaries.size(); ++i)
    EXPECT_NEAR(boundaries[i].number("x1") - boundaries[i - 1].number("x1"), step, 0.11) << i;
  std::set<std::string> offsets;
  for (const auto& t : elements(svg, "text", "offset")) offsets.insert(t.content);
  EXPECT_EQ(offsets, (std::set<std::string>{"0", "128", "256", "384", "512"}));
  const auto sectors = elements(svg, "line", "sector");
  EXPECT_EQ(sectors.size(), 4u * 3u) << "three ticks inside each line";
  for (const auto& s : sectors) {
    EXPECT_LT(std::stod(s.attributes.at("stroke-width")), std::stod(boundaries[0].attributes.at("stroke-width")));
    EXPECT_NE(s.attributes.at("stroke"), boundaries[0].attributes.at("stroke"));
  }
  // Misaligned by 44 bytes: two lines, the offsets counted from the first line's start.
  const std::string misaligned = warp_figure_svg(figure_floats_from(44), then_and_now(), "offset=11");
  EXPECT_EQ(elements(misaligned, "line", "boundary").size(), 2u * 3u);
  offsets.clear();
  for (const auto& t : elements(misaligned, "text", "offset")) offsets.insert(t.content);
  EXPECT_EQ(offsets, (std::set<std::string>{"0", "128", "256"}));
}

TEST(WarpFigure, LanesNumberedEveryFourAndTheLast) {
  const std::string svg = warp_figure_svg(figure_floats_from(0), {{"now", architecture("sm_90")}}, "aligned");
  std::vector<std::string> labels;
  for (const auto& t : elements(svg, "text", "lane-label")) labels.push_back(t.content);
  EXPECT_EQ(labels, (std::vector<std::string>{"0", "4", "8", "12", "16", "20", "24", "28", "31"}));
}

TEST(WarpFigure, NoTextBetweenTheLanesAndMemoryWhereTheLinksRun) {
  for (const auto& access : {figure_floats_from(44), strided(Operation::Load, 4, 0, 4 << 20), figure_floats_from(0, Operation::Store)}) {
    const std::string svg = warp_figure_svg(access, then_and_now(), "a rather long experiment name/offset=11");
    const auto links = elements(svg, "line", "link");
    ASSERT_EQ(links.size(), 64u);
    double lanes_top = 1e9;
    for (const auto& lane : elements(svg, "rect", "lane")) lanes_top = std::min(lanes_top, lane.number("y"));
    const double picture_size = elements(svg, "svg").at(0).number("font-size");
    for (const auto& t : elements(svg, "text")) {
      const double size = t.attributes.count("font-size") ? t.number("font-size") : picture_size;
      const double top = t.number("y") - size, bottom = t.number("y") + 0.25 * size;   // ascent and descent
      for (const auto& l : links) {
        const double y1 = std::min(l.number("y1"), l.number("y2")), y2 = std::max(l.number("y1"), l.number("y2"));
        EXPECT_TRUE(bottom <= y1 || top >= y2) << "'" << t.content << "' at y " << t.number("y") << " crosses a link from " << y1
                                               << " to " << y2;
      }
      if (t.attributes.count("class") && t.attributes.at("class") == "caption") {
        EXPECT_LT(bottom, lanes_top) << "the caption has a band of its own";
      }
    }
  }
}

TEST(WarpFigure, AddressesFarApartKeepTheDrawnRangeToTheirLines) {
  // Lane l 4 MiB after lane l - 1: 32 lines far apart, drawn with a gap between each two.
  const std::string svg = warp_figure_svg(strided(Operation::Load, 4, 0, 4 << 20), then_and_now(), "scattered");
  EXPECT_LT(svg.size(), 100000u) << "not a sector for every 32 bytes between the lines";
  EXPECT_EQ(elements(svg, "line", "gap").size(), 2u * 31u);
  EXPECT_EQ(elements(svg, "line", "boundary").size(), 2u * 32u * 2u) << "each line's start and end";
  const auto offsets = elements(svg, "text", "offset");
  ASSERT_FALSE(offsets.empty());
  EXPECT_EQ(offsets[0].content, "0");
  for (const auto& o : offsets) {
    std::string digits = o.content;
    digits.erase(std::remove(digits.begin(), digits.end(), ','), digits.end());
    EXPECT_EQ(std::stoull(digits) % 128, 0u) << o.content << " is not a line boundary";
  }
  // Lane 31's link ends in the last line, at the right of the picture.
  const auto links = elements(svg, "line", "link");
  EXPECT_GT(links[31].number("x2"), 560);
}
