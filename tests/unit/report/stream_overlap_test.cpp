// Overlap of a range's GPU work: the copy time hidden behind kernels, the kernels running at
// once, the range's timeline picture ([[timeline]]) and its lab data; and durations shorter
// than a microsecond (an event timer's tick) printed in nanoseconds.
#include <gtest/gtest.h>

#include <regex>

#include "format.h"
#include "lab_data.h"
#include "labbook/model/error.h"
#include "quantities.h"
#include "sheet_builder.h"
#include "stream_overlap.h"
#include "timeline_svg.h"
#include "lab_toml_fixture.h"
#include "named_quantity.h"
#include "svg_checks.h"

using namespace labbook;
using namespace labbook::report;

using labbook::test::count;

namespace {

Kernel overlap_kernel(const std::string& range, std::uint64_t start, std::uint64_t end, std::uint32_t stream) {
  Kernel k;
  k.name = "spin(int*)";
  k.range = range;
  k.start_ns = start;
  k.end_ns = end;
  k.stream = stream;
  return k;
}

Copy overlap_copy(const std::string& range, CopyKind kind, std::uint64_t start, std::uint64_t end, std::uint32_t stream,
          bool memset = false) {
  Copy c;
  c.kind = kind;
  c.src = HostMemoryKind::Pinned;
  c.dst = HostMemoryKind::Device;
  c.bytes = 1 << 20;
  c.range = range;
  c.start_ns = start;
  c.end_ns = end;
  c.stream = stream;
  c.is_memset = memset;
  return c;
}

/// Two streams, 000's pattern: stream 13 uploads while stream 14 computes, and so on.
///   stream 13: H2D [0, 100)   kernel [100, 300)   D2H [300, 400)
///   stream 14: H2D [100, 200) kernel [300, 500)   D2H [500, 600)
/// plus a memset and a kernel of another range, which must not count.
Measurement two_streams() {
  Measurement m;
  m.ranges.push_back({1, "two", "streams/two", 1, 0, 0, 700});
  m.ranges.push_back({2, "other", "other", 1, 0, 800, 2000});
  m.kernels = {overlap_kernel("streams/two", 100, 300, 13), overlap_kernel("streams/two", 300, 500, 14), overlap_kernel("other", 900, 1900, 15)};
  m.copies = {overlap_copy("streams/two", CopyKind::HostToDevice, 0, 100, 13), overlap_copy("streams/two", CopyKind::HostToDevice, 100, 200, 14),
              overlap_copy("streams/two", CopyKind::DeviceToHost, 300, 400, 13), overlap_copy("streams/two", CopyKind::DeviceToHost, 500, 600, 14),
              overlap_copy("streams/two", CopyKind::Unknown, 150, 650, 14, /*memset=*/true),
              overlap_copy("other", CopyKind::HostToDevice, 1000, 1100, 16)};
  return m;
}

/// Widths of the <rect class="kernel"> boxes, in order.
std::vector<double> kernel_widths(const std::string& svg) {
  std::vector<double> out;
  const std::regex box("<rect class=\"kernel\" x=\"[0-9.]+\" y=\"[0-9.]+\" width=\"([0-9.]+)\"");
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), box); it != std::sregex_iterator(); ++it)
    out.push_back(std::stod((*it)[1]));
  return out;
}

}  // namespace

TEST(StreamOverlap, CopiesRunningBesideAKernelOfTheRangeAreHidden) {
  const StreamOverlap o = stream_overlap(two_streams(), "streams/two");
  EXPECT_EQ(o.kernels, 2u);
  EXPECT_EQ(o.copies, 4u) << "memsets are not copies; other ranges' copies do not count";
  EXPECT_EQ(o.copy_ns, 400u);
  // The second upload runs under the first kernel, the first download under the second.
  EXPECT_EQ(o.hidden_copy_ns, 200u);
  EXPECT_DOUBLE_EQ(o.copy_overlap_pct(), 50.0);
  EXPECT_EQ(o.max_concurrent_kernels, 1u) << "one kernel ending as the next starts does not run beside it";
}

TEST(StreamOverlap, CopiesInBothDirectionsUnderOneKernelCountTwice) {
  Measurement m;
  m.kernels = {overlap_kernel("r", 0, 1000, 1)};
  m.copies = {overlap_copy("r", CopyKind::HostToDevice, 500, 1500, 2), overlap_copy("r", CopyKind::DeviceToHost, 500, 1500, 3)};
  const StreamOverlap o = stream_overlap(m, "r");
  EXPECT_EQ(o.copy_ns, 2000u);
  EXPECT_EQ(o.hidden_copy_ns, 1000u);
  EXPECT_DOUBLE_EQ(o.copy_overlap_pct(), 50.0);
  EXPECT_EQ(o.both_directions_ns, 1000u) << "the upload and the download ran together all along";
}

TEST(StreamOverlap, BothDirectionsIsTheTimeAnUploadAndADownloadRanAtOnce) {
  Measurement m;
  // Two uploads back to back and a download across their seam, a device-to-device copy beside.
  m.copies = {overlap_copy("r", CopyKind::HostToDevice, 0, 100, 2), overlap_copy("r", CopyKind::HostToDevice, 100, 200, 2),
              overlap_copy("r", CopyKind::DeviceToHost, 150, 300, 3), overlap_copy("r", CopyKind::DeviceToDevice, 0, 300, 4)};
  EXPECT_EQ(stream_overlap(m, "r").both_directions_ns, 50u);
  // Below a call: its copies under "r/chunk" count with {below = true} only; device-to-device ones drop
  // with {host_copies_only = true}.
  m.copies.push_back(overlap_copy("r/chunk", CopyKind::DeviceToHost, 0, 10, 5));
  EXPECT_EQ(stream_overlap(m, "r").copies, 4u);
  EXPECT_EQ(stream_overlap(m, "r", {true, false}).copies, 5u);
  EXPECT_EQ(stream_overlap(m, "r", {true, true}).copies, 4u);
  EXPECT_EQ(stream_overlap(m, "r", {true, true}).both_directions_ns, 60u);
}

TEST(StreamOverlap, KernelsOverlappingEachOtherHideACopyOnce) {
  Measurement m;
  m.kernels = {overlap_kernel("r", 0, 600, 1), overlap_kernel("r", 400, 1000, 2), overlap_kernel("r", 500, 550, 3)};
  m.copies = {overlap_copy("r", CopyKind::HostToDevice, 900, 1100, 4)};
  const StreamOverlap o = stream_overlap(m, "r");
  EXPECT_EQ(o.hidden_copy_ns, 100u);
  EXPECT_EQ(o.max_concurrent_kernels, 3u);
}

TEST(StreamOverlap, QuantitiesSayWhyTheyAreMissing) {
  const Measurement m = two_streams();
  EXPECT_DOUBLE_EQ(*range_quantity(m, "streams/two", named_quantity("copy_overlap_pct")).value, 50.0);
  EXPECT_DOUBLE_EQ(*range_quantity(m, "streams/two", named_quantity("max_concurrent_kernels")).value, 1.0);
  EXPECT_DOUBLE_EQ(*range_quantity(m, "other", named_quantity("copy_overlap_pct")).value, 100.0);
  Measurement copies_only;
  copies_only.copies = {overlap_copy("c", CopyKind::HostToDevice, 0, 10, 1)};
  EXPECT_DOUBLE_EQ(*range_quantity(copies_only, "c", named_quantity("copy_overlap_pct")).value, 0.0);
  EXPECT_EQ(range_quantity(copies_only, "c", named_quantity("max_concurrent_kernels")).missing, "not measured: no kernel ran in range 'c'");
  Measurement kernels_only;
  kernels_only.kernels = {overlap_kernel("k", 0, 10, 1)};
  EXPECT_EQ(range_quantity(kernels_only, "k", named_quantity("copy_overlap_pct")).missing, "not measured: range 'k' holds no copy");
  EXPECT_EQ(named_quantity("copy_overlap_pct").unit(), "%");
  EXPECT_EQ(named_quantity("max_concurrent_kernels").unit(), "kernels");
  EXPECT_TRUE(labbook::Quantity::find("max_concurrent_kernels").has_value());
}

TEST(RangeTimeline, ShowsOnlyTheRangesWorkOneLanePerStream) {
  const Measurement m = two_streams();
  EXPECT_EQ(range_activity_span_ns(m, "streams/two"), 650u) << "from the first upload to the memset's end";
  EXPECT_EQ(range_activity_span_ns(m, "nothing"), 0u);
  const std::string svg = range_timeline_svg(m, "streams/two");
  EXPECT_EQ(count(svg, "<rect class=\"kernel\""), 2u);
  EXPECT_EQ(count(svg, "<rect class=\"memcpy\""), 4u);
  EXPECT_EQ(count(svg, "<rect class=\"memset\""), 1u);
  EXPECT_EQ(count(svg, "<rect class=\"nvtx\""), 0u) << "a range's picture holds its GPU work only";
  EXPECT_NE(svg.find(">stream 1 (id 13)</text>"), std::string::npos);
  EXPECT_NE(svg.find(">stream 2 (id 14)</text>"), std::string::npos);
  EXPECT_EQ(svg.find("id 15"), std::string::npos) << "another range's stream";
  // The first upload starts at the plot's left edge: right of the lane names' column.
  EXPECT_NE(svg.find("<rect class=\"memcpy\" x=\"129.7\""), std::string::npos) << svg;
}

TEST(RangeTimeline, ALongerCommonSpanDrawsTheSameWorkNarrower) {
  const Measurement m = two_streams();
  const auto own = kernel_widths(range_timeline_svg(m, "streams/two"));
  const auto shared = kernel_widths(range_timeline_svg(m, "streams/two", 1300));
  ASSERT_EQ(own.size(), 2u);
  ASSERT_EQ(shared.size(), 2u);
  EXPECT_NEAR(shared[0], own[0] / 2, 0.1);   // svg_number keeps one decimal
  // A span shorter than the range's own is ignored: the work always fits.
  EXPECT_EQ(kernel_widths(range_timeline_svg(m, "streams/two", 10)), own);
}

TEST(RangeTimeline, AxisTicksAreRoundNumbersInTheStepsUnit) {
  const Measurement m = two_streams();
  const std::string own = range_timeline_svg(m, "streams/two");   // 1000 ns: a tick every 200 ns
  EXPECT_NE(own.find(">0 ns</text>"), std::string::npos) << own;
  EXPECT_NE(own.find(">200 ns</text>"), std::string::npos) << own;
  const std::string long_span = range_timeline_svg(m, "streams/two", 5000000);   // 5 ms: every 1 ms
  EXPECT_NE(long_span.find(">0 ms</text>"), std::string::npos) << long_span;
  EXPECT_NE(long_span.find(">5 ms</text>"), std::string::npos) << long_span;
  EXPECT_EQ(long_span.find("ns</text>"), std::string::npos) << long_span;
}

TEST(RangeTimeline, LabDataListsItsRangesAmongTheExperiments) {
  const std::string lab = fixture::lab_toml_head() + R"(

[[section]]
title = "S"
experiments = ["streams/two"]
quantities = ["copy_overlap_pct", "max_concurrent_kernels"]

[[timeline]]
title = "Two streams"
text = "Copies beside kernels."
experiments = ["streams/two", "other"]
)";
  const LabData data = parse_lab_data(lab, "lab.toml");
  ASSERT_EQ(data.timelines.size(), 1u);
  EXPECT_EQ(data.timelines[0].title, "Two streams");
  EXPECT_EQ(data.experiments(), (std::vector<std::string>{"streams/two", "other"}));
  try {
    parse_lab_data(lab + "\n[[timeline]]\ntitle = \"t\"\nexperiments = []\n", "lab.toml");
    ADD_FAILURE() << "an empty [[timeline]] must be refused";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("[[timeline]]: 'experiments' is empty"), std::string::npos) << e.what();
  }

  const Sheet sheet = build_sheet(data, two_streams(), {});
  ASSERT_EQ(sheet.figures.size(), 2u);
  EXPECT_EQ(sheet.figures[0].file, "labX.timeline-1-1.svg");
  EXPECT_EQ(sheet.figures[1].file, "labX.timeline-1-2.svg");
  // One scale: "other" spans 1000 ns, longer than the two-stream range's 650 ns.
  EXPECT_EQ(kernel_widths(sheet.figures[0].svg), kernel_widths(range_timeline_svg(two_streams(), "streams/two", 1000)));
  // Shown as an image and linked to itself: an <img> shows no tooltips, the SVG opened alone does.
  bool linked = false;
  for_each_block(sheet.blocks, [&](const Block& b) {
    linked = linked || b.text.find("[![Timeline of streams/two](labX.timeline-1-1.svg)](labX.timeline-1-1.svg)") !=
                           std::string::npos;
  });
  EXPECT_TRUE(linked);
  EXPECT_EQ(sheet.data["timelines"][0]["experiments"][1]["span_ns"], 1000);
}

TEST(Format, DurationsBelowAMicrosecondKeepTheirNanoseconds) {
  EXPECT_EQ(format_value(32, "ns"), "32.0 ns");
  EXPECT_EQ(format_value(999.5, "ns"), "999.5 ns");
  EXPECT_EQ(format_value(1500, "ns"), "1.5 µs");
  EXPECT_EQ(format_value(0, "ns"), "0.0 µs");
  EXPECT_EQ(format_value(2.5e6, "ns"), "2.500 ms");
}

TEST(Format, BytesBelowAMebibyteReadInKibibytes) {
  EXPECT_EQ(format_value(4096, "bytes"), "4.0 KiB") << "a managed variable's page, not 0.0 MiB";
  EXPECT_EQ(format_value(0, "bytes"), "0.0 MiB");
  EXPECT_EQ(format_value(1024.0 * 1024.0, "bytes"), "1.0 MiB");
  EXPECT_EQ(format_value(3.5 * 1024 * 1024 * 1024, "bytes"), "3584.0 MiB");
}
