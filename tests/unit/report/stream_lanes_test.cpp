// A timeline's stream lanes named as the sheet names the streams ([[timeline]] `streams`), in
// the order the range first issued work to them; labbook's own names without the lab's; the
// names drawn inside the picture, and its boxes named inside when they are wide enough.
#include <gtest/gtest.h>

#include <regex>

#include "format.h"
#include "lab_data.h"
#include "lab_toml_fixture.h"
#include "sheet_builder.h"
#include "stream_lanes.h"
#include "timeline_svg.h"

using namespace labbook;
using namespace labbook::report;

namespace {

constexpr const char* kRange = "default_stream/legacy";

Kernel lane_kernel(const std::string& name, const std::string& range, std::uint32_t stream, std::uint32_t correlation,
              std::uint64_t start, std::uint64_t end) {
  Kernel k;
  k.name = name;
  k.range = range;
  k.stream = stream;
  k.correlation = correlation;
  k.start_ns = start;
  k.end_ns = end;
  return k;
}

Copy lane_copy(const std::string& range, CopyKind kind, std::uint32_t stream, std::uint32_t correlation, std::uint64_t start,
          std::uint64_t end) {
  Copy c;
  c.kind = kind;
  c.range = range;
  c.stream = stream;
  c.correlation = correlation;
  c.start_ns = start;
  c.end_ns = end;
  c.bytes = 1 << 20;
  return c;
}

/// Lab 8's default_stream/legacy as the trace shows it: a 10 ms spin on stream 66 (stream A),
/// a tiny kernel on the legacy default stream 7, a spin on stream 67 (stream B). The default
/// stream shows itself by the cudaMemcpy it ran before the range. Stream B's spin is issued
/// last but, in this made-up trace, starts first: lanes follow the program, not the clock.
Measurement legacy_default_stream() {
  Measurement m;
  m.api_calls = {{"cudaMemcpy", 1, 1, 0, 900}, {"cudaLaunchKernel", 1, 2, 1000, 1010},
                 {"cudaLaunchKernel", 1, 3, 1020, 1030}, {"cudaLaunchKernel", 1, 4, 1040, 1050}};
  m.copies = {lane_copy("warm_up", CopyKind::HostToDevice, 7, 1, 100, 900)};
  const std::string spin = "labbook::kernels::spinFor(long long, unsigned int*, unsigned int, unsigned int)";
  m.kernels = {lane_kernel(spin, kRange, 66, 2, 2000, 10002000),
               lane_kernel("labbook::kernels::spinCycles(long long, unsigned int*, unsigned int, unsigned int)", kRange, 7, 3,
                      10002000, 10004000),
               lane_kernel(spin, kRange, 67, 4, 1500, 10001500)};
  return m;
}

std::vector<std::string> names(const std::vector<StreamLane>& lanes) {
  std::vector<std::string> out;
  for (const auto& l : lanes) out.push_back(l.name);
  return out;
}

/// The lane names drawn in the picture, top to bottom.
std::vector<std::string> drawn_lane_names(const std::string& svg) {
  std::vector<std::string> out;
  const std::regex name("<text class=\"lane-name\" x=\"[0-9.]+\" y=\"[0-9.]+\">([^<]*)");
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), name); it != std::sregex_iterator(); ++it)
    out.push_back((*it)[1]);
  return out;
}

const std::vector<std::string> kSheetNames = {"stream A", "default stream", "stream B"};

}  // namespace

TEST(StreamLanes, TheLabsNamesGoToTheStreamsInTheOrderTheRangeFirstUsedThem) {
  const std::string range = kRange;
  const auto lanes = stream_lanes(legacy_default_stream(), &range, kSheetNames);
  ASSERT_EQ(lanes.size(), 3u);
  EXPECT_EQ(lanes[0].id.stream, 66u);
  EXPECT_EQ(lanes[1].id.stream, 7u);
  EXPECT_EQ(lanes[2].id.stream, 67u) << "issued last, though it started first";
  EXPECT_EQ(names(lanes), kSheetNames);
}

TEST(StreamLanes, WithoutTheLabsNamesStreamsAreNumberedAndTheDefaultStreamIsNamed) {
  const std::string range = kRange;
  EXPECT_EQ(names(stream_lanes(legacy_default_stream(), &range, {})),
            (std::vector<std::string>{"stream 1 (id 66)", "default stream", "stream 2 (id 67)"}));
  // Fewer names than streams: the rest get labbook's.
  EXPECT_EQ(names(stream_lanes(legacy_default_stream(), &range, {"stream A"})),
            (std::vector<std::string>{"stream A", "default stream", "stream 2 (id 67)"}));
}

TEST(StreamLanes, TheDefaultStreamIsCalledSoWhateverTheListSaysAtItsPlace) {
  const std::string range = kRange;
  EXPECT_EQ(names(stream_lanes(legacy_default_stream(), &range, {"stream A", "stream X", "stream B"})), kSheetNames);
}

TEST(StreamLanes, AStreamTheTraceCannotTellIsNamedByTheLab) {
  // default_stream/per_thread: cudaStreamPerThread ran no cudaMemcpy, so only the lab knows it.
  Measurement m = legacy_default_stream();
  m.copies.clear();
  const std::string range = kRange;
  EXPECT_EQ(names(stream_lanes(m, &range, kSheetNames)), kSheetNames);
  EXPECT_EQ(names(stream_lanes(m, &range, {})),
            (std::vector<std::string>{"stream 1 (id 66)", "stream 2 (id 7)", "stream 3 (id 67)"}));
}

TEST(StreamLanes, AKernelLaunchedOnADefaultStreamNamesItsLane) {
  // default_stream/per_thread as the collector records it: the tiny kernel's launch named
  // cudaStreamPerThread, so the trace tells that lane from the legacy default stream.
  Measurement m = legacy_default_stream();
  m.copies.clear();
  m.kernels[1].default_stream = DefaultStream::PerThread;
  const std::string range = kRange;
  EXPECT_EQ(names(stream_lanes(m, &range, kSheetNames)),
            (std::vector<std::string>{"stream A", "default (per-thread)", "stream B"}))
      << "the trace's name wins over the lab's at that place";
  m.kernels[1].default_stream = DefaultStream::Legacy;
  EXPECT_EQ(names(stream_lanes(m, &range, {})),
            (std::vector<std::string>{"stream 1 (id 66)", "default stream", "stream 2 (id 67)"}))
      << "a kernel on stream 0 shows the legacy default stream without any copy";
  EXPECT_LE(std::string(kPerThreadDefaultStreamName).size(), kRangeLaneNameChars) << "a range's timeline shows it whole";
  // A program built with --default-stream per-thread: its cudaMemcpy is cudaMemcpy_ptds.
  m = legacy_default_stream();
  m.api_calls[0].name = "cudaMemcpy_ptds";
  EXPECT_EQ(names(stream_lanes(m, &range, {}))[1], "default (per-thread)");
}

TEST(StreamLanes, SeveralDevicesPrefixLabbooksNames) {
  Measurement m = legacy_default_stream();
  m.kernels[2].device = 1;
  const std::string range = kRange;
  EXPECT_EQ(names(stream_lanes(m, &range, {})),
            (std::vector<std::string>{"GPU 0 stream 1 (id 66)", "GPU 0 default stream", "GPU 1 stream 2 (id 67)"}));
  EXPECT_EQ(names(stream_lanes(m, &range, kSheetNames)),
            (std::vector<std::string>{"stream A", "GPU 0 default stream", "stream B"}))
      << "each device has a default stream: the lab's names stay as written";
}

TEST(StreamLanes, CallsWithoutAStreamQueueOnTheDefaultStream) {
  for (const char* call : {"cudaMemcpy", "cudaMemset", "cudaMemcpy2D", "cudaMemcpyToSymbol", "cuMemcpyHtoD", "cudaMemcpy_ptds"})
    EXPECT_TRUE(queues_on_default_stream(call)) << call;
  for (const char* call : {"cudaMemcpyAsync", "cudaMemsetAsync", "cuMemcpyHtoDAsync", "cudaLaunchKernel", "cudaMalloc"})
    EXPECT_FALSE(queues_on_default_stream(call)) << call;
}

TEST(TimelineLanes, TheSheetsNamesAreDrawnInsideThePictureInOrder) {
  const std::string svg = range_timeline_svg(legacy_default_stream(), kRange, 0, kSheetNames);
  EXPECT_EQ(drawn_lane_names(svg), kSheetNames);
  EXPECT_EQ(svg.find("id 66"), std::string::npos) << "the lab's names replace labbook's";
  // The text alternative says what the picture shows, lane by lane.
  EXPECT_NE(svg.find("<title>Timeline of default_stream/legacy, one lane per stream: stream A: 1 kernel; "
                     "default stream: 1 kernel; stream B: 1 kernel</title>"),
            std::string::npos)
      << svg;
  EXPECT_NE(svg.find("viewBox=\"0 0 560.0 "), std::string::npos) << "scales down to a phone's width";
}

TEST(TimelineLanes, WideBoxesAreNamedInsideNarrowOnesByTheirTooltipOnly) {
  Measurement m = legacy_default_stream();
  m.copies.push_back(lane_copy(kRange, CopyKind::HostToDevice, 66, 5, 10002000, 12002000));
  const std::string svg = range_timeline_svg(m, kRange, 0, kSheetNames);
  const std::regex inside("<text class=\"in in-(\\w+)\"[^>]*>([^<]*)</text>");
  std::vector<std::string> labels;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), inside); it != std::sregex_iterator(); ++it)
    labels.push_back((*it)[1].str() + ":" + (*it)[2].str());
  EXPECT_EQ(labels, (std::vector<std::string>{"kernel:spinFor", "memcpy:H2D copy", "kernel:spinFor"}))
      << "the 2 µs spinCycles is too narrow for its name";
  EXPECT_NE(svg.find("<title>labbook::kernels::spinCycles(long long, unsigned int*, unsigned int, unsigned int) "
                     "[default_stream/legacy]"),
            std::string::npos)
      << "its tooltip names it";
}

TEST(TimelineLanes, TextStaysInsideThePicture) {
  const std::string svg = range_timeline_svg(legacy_default_stream(), kRange, 0, {"a lane name far longer than any column could hold"});
  const auto drawn = drawn_lane_names(svg);
  ASSERT_FALSE(drawn.empty());
  EXPECT_EQ(drawn[0], "a lane name far longer …") << "cut to " << kRangeLaneNameChars << " characters";
  EXPECT_NE(svg.find("<title>a lane name far longer than any column could hold</title>"), std::string::npos);
  // The last tick ("10 ms" at the right edge) is written leftwards from it.
  const std::regex last_tick("<text x=\"([0-9.]+)\" y=\"[0-9.]+\" font-size=\"12.0\" text-anchor=\"end\">10 ms</text>");
  std::smatch tick;
  ASSERT_TRUE(std::regex_search(svg, tick, last_tick)) << svg;
  EXPECT_LE(std::stod(tick[1]), 560.0);
}

TEST(TimelineLanes, TheWholeRunsPictureUsesLabbooksNames) {
  const std::string svg = timeline_svg(legacy_default_stream());
  EXPECT_NE(svg.find(">default stream</text>"), std::string::npos) << svg;
  EXPECT_NE(svg.find(">stream 1 (id 66)</text>"), std::string::npos);
  EXPECT_NE(svg.find(">stream 2 (id 67)</text>"), std::string::npos);
  EXPECT_NE(svg.find("<title>Timeline of the whole run"), std::string::npos);
}

TEST(TimelineLanes, LabDataNamesTheLanesAndTheSheetDrawsThem) {
  const std::string lab = fixture::lab_toml_head() + R"(
[[section]]
title = "S"
experiments = ["default_stream/legacy"]
quantities = ["max_concurrent_kernels"]

[[timeline]]
title = "The default stream"
experiments = ["default_stream/legacy"]
streams = ["stream A", "default stream", "stream B"]
)";
  const LabData data = parse_lab_data(lab, "lab.toml");
  ASSERT_EQ(data.timelines.size(), 1u);
  EXPECT_EQ(data.timelines[0].streams, kSheetNames);
  const Sheet sheet = build_sheet(data, legacy_default_stream(), {});
  ASSERT_EQ(sheet.figures.size(), 1u);
  EXPECT_EQ(drawn_lane_names(sheet.figures[0].svg), kSheetNames);
}

TEST(TimelineLanes, BadLaneNamesAreRefusedNamingTheFileAndKey) {
  const std::string head = fixture::lab_toml_head() + R"(
[[section]]
title = "S"
experiments = ["r"]
quantities = ["max_concurrent_kernels"]

[[timeline]]
title = "T"
experiments = ["r"]
)";
  const auto error = [&](const std::string& line) { return fixture::lab_toml_error(head + line + "\n"); };
  EXPECT_EQ(error("streams = [\"stream A\"]"), "");
  const std::pair<std::string, std::string> bad[] = {
      {"streams = \"stream A\"", "'streams' must be an array of strings"},
      {"streams = [1]", "'streams' must hold only strings"},
      {"streams = [\"stream A\", \" \"]", "'streams' holds an empty name"},
      {"streams = [\"stream A\", \"stream A\"]", "'streams' names 'stream A' twice"},
      {"streams = [\"the streams' very own default one\"]", "'streams' name 'the streams' very own default one' is longer than 24"},
      {"streams = [\"the default stream\"]", "'streams' names a default stream 'the default stream': call it 'default stream'"},
      {"stream = [\"stream A\"]", "unknown key 'stream'"},
  };
  for (const auto& [line, why] : bad) {
    const std::string e = error(line);
    EXPECT_EQ(e.rfind("lab.toml:", 0), 0u) << line << ": " << e;
    EXPECT_NE(e.find("[[timeline]]"), std::string::npos) << line << ": " << e;
    EXPECT_NE(e.find(why), std::string::npos) << line << ": " << e;
  }
}

TEST(TimelineLanes, TextIsMeasuredInCharactersAndCutSafely) {
  EXPECT_EQ(text_length("400 µs"), 6u);
  EXPECT_EQ(cut_text("stream A", 8), "stream A");
  EXPECT_EQ(cut_text("µµµµ", 3), "µµ…") << "never a half character";
  EXPECT_LT(svg_text_width("iii", 12), svg_text_width("MMM", 12));
  EXPECT_DOUBLE_EQ(svg_text_width("H2D", 10), 2 * svg_text_width("H2D", 5));
}
