#include <gtest/gtest.h>

#include <fstream>
#include <regex>

#include "activity_summary.h"
#include "markdown_tables.h"
#include "markdown_writer.h"
#include "profile_summary.h"
#include "timeline_svg.h"

using namespace labbook;
using namespace labbook::report;

namespace {

Kernel kernel(const std::string& name, const std::string& range, std::uint64_t start, std::uint64_t end,
              std::uint32_t stream = 7) {
  Kernel k;
  k.name = name;
  k.range = range;
  k.start_ns = start;
  k.end_ns = end;
  k.stream = stream;
  return k;
}

Copy copy(CopyKind kind, std::uint64_t start, std::uint64_t end, bool memset = false) {
  Copy c;
  c.kind = kind;
  c.is_memset = memset;
  c.src = HostMemoryKind::Pinned;
  c.bytes = 4096;
  c.start_ns = start;
  c.end_ns = end;
  return c;
}

/// Three launches of one kernel in one range, one outside NVTX, two copies, a memset.
Measurement synthetic() {
  Measurement m;
  m.program.command = {"./prog"};
  m.program.exit_code = 0;
  m.program.stop_reason = "exit";
  m.ranges.push_back({1, "naive", "transpose/naive", 42, 1, 0, 10000});
  m.kernels.push_back(kernel("transposeNaive(float*, float const*, int)", "transpose/naive", 1000, 3000));
  m.kernels.push_back(kernel("transposeNaive(float*, float const*, int)", "transpose/naive", 4000, 5000));
  m.kernels.push_back(kernel("transposeNaive(float*, float const*, int)", "transpose/naive", 6000, 9000));
  m.kernels.push_back(kernel("void copy<4>(float*)", "", 12000, 13000, 8));
  m.copies.push_back(copy(CopyKind::HostToDevice, 100, 600));
  m.copies.push_back(copy(CopyKind::DeviceToHost, 10000, 11500));
  m.copies.push_back(copy(CopyKind::Unknown, 11500, 11600, true));
  m.api_calls.push_back({"cudaLaunchKernel", 42, 5, 900, 950});
  m.api_calls.push_back({"cudaLaunchKernel", 42, 6, 3900, 3970});
  m.api_calls.push_back({"cudaMemcpy", 42, 7, 50, 650});
  for (int i = 0; i < 3; ++i) {
    m.kernels[static_cast<std::size_t>(i)].metrics = {{"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", 32.0 * (i + 1)},
                            {"smsp__inst_executed_op_global_st.sum", 1.0 * (i + 1)},
                            {"sm__inst_executed.sum", 10.0}};
  }
  m.metrics_requested = {"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", "smsp__inst_executed_op_global_st.sum",
                         "sm__inst_executed.sum"};
  return m;
}

}  // namespace

TEST(ActivitySummary, GpuActivitiesAreNvprofsTable) {
  const auto rows = gpu_activities(synthetic());
  ASSERT_EQ(rows.size(), 5u);
  EXPECT_EQ(rows[0].name, "transposeNaive(float*, float const*, int)") << "longest total first";
  EXPECT_EQ(rows[0].calls, 3u);
  EXPECT_EQ(rows[0].total_ns, 6000u);
  EXPECT_EQ(rows[0].min_ns, 1000u);
  EXPECT_EQ(rows[0].max_ns, 3000u);
  EXPECT_DOUBLE_EQ(rows[0].average_ns(), 2000.0);
  EXPECT_EQ(rows[1].name, "[CUDA memcpy DtoH]");
  EXPECT_EQ(rows[4].name, "[CUDA memset]");
  double share = 0;
  for (const auto& r : rows) share += r.share_pct;
  EXPECT_NEAR(share, 100.0, 1e-9);
  EXPECT_NEAR(rows[0].share_pct, 100.0 * 6000 / 9100, 1e-9);
}

TEST(ActivitySummary, ApiCallsGroupByName) {
  const auto rows = api_call_statistics(synthetic());
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].name, "cudaMemcpy");
  EXPECT_EQ(rows[1].calls, 2u);
  EXPECT_EQ(rows[1].min_ns, 50u);
  EXPECT_EQ(rows[1].max_ns, 70u);
}

TEST(ActivitySummary, NvprofDurationsKeepFiveSignificantDigits) {
  EXPECT_EQ(nvprof_duration(164.12e6), "164.12ms");   // 004_12112d3317679e06.txt prints these
  EXPECT_EQ(nvprof_duration(94.167e6), "94.167ms");
  EXPECT_EQ(nvprof_duration(4.7083e6), "4.7083ms");
  EXPECT_EQ(nvprof_duration(1.64119e9), "1.64119s");
  EXPECT_EQ(nvprof_duration(33664), "33.664us");
  EXPECT_EQ(nvprof_duration(580), "580.00ns");
}

TEST(ActivitySummary, KernelsGroupByRangeAndUseTheirNameOutsideNvtx) {
  const auto groups = kernels_by_range(synthetic());
  ASSERT_EQ(groups.size(), 2u);
  EXPECT_EQ(groups[0].range, "transpose/naive");
  EXPECT_EQ(groups[0].kernel, "transposeNaive");
  EXPECT_EQ(groups[0].launches, 3u);
  EXPECT_DOUBLE_EQ(*groups[0].median_ns, 2000.0);
  EXPECT_EQ(groups[1].range, "copy<4>");
  EXPECT_EQ(groups[0].metrics.at("gst_transactions_per_request"), (std::vector<double>{32, 32, 32}));
}

TEST(ActivitySummary, ShowsCatalogMetricsItCanComputeThenUncoveredRawOnes) {
  const auto shown = shown_metrics(synthetic());
  EXPECT_NE(std::find(shown.begin(), shown.end(), "gst_transactions"), shown.end());
  EXPECT_NE(std::find(shown.begin(), shown.end(), "gst_transactions_per_request"), shown.end());
  EXPECT_EQ(std::find(shown.begin(), shown.end(), "gld_transactions"), shown.end()) << "not collected";
  EXPECT_EQ(shown.back(), "sm__inst_executed.sum") << "a raw Perfworks metric gets its own column";
}

TEST(ProfileSummary, MarkdownTablesParseBackThroughCmarkGfm) {
  const Sheet s = build_profile_summary(synthetic(), "timeline.svg");
  const std::string md = to_markdown(s);
  EXPECT_NO_THROW(validate_markdown(s, md));
  const auto tables = parse_tables(md);
  ASSERT_EQ(tables.size(), 3u);
  EXPECT_EQ(tables[0].header, (std::vector<std::string>{"Time(%)", "Time", "Calls", "Avg", "Min", "Max", "Name"}));
  EXPECT_EQ(tables[0].rows[0], (std::vector<std::string>{"65.93%", "6.0000us", "3", "2.0000us", "1.0000us",
                                                         "3.0000us", "transposeNaive(float*, float const*, int)"}));
  const auto& ranges = tables[2];
  EXPECT_EQ(ranges.rows[0][0], "transpose/naive");
  const auto column = std::find(ranges.header.begin(), ranges.header.end(), "gst_transactions");
  ASSERT_NE(column, ranges.header.end());
  EXPECT_EQ(ranges.rows[0][static_cast<std::size_t>(column - ranges.header.begin())],
            "64 sectors (32 sectors – 96 sectors)")
      << "mean, and the spread because launches differ";
  EXPECT_NE(md.find("![Timeline"), std::string::npos);
  EXPECT_NE(md.find("collection ended by: exit"), std::string::npos);
}

TEST(ProfileSummary, SaysWhenNothingWasTraced) {
  Measurement m;
  const std::string md = to_markdown(build_profile_summary(m, ""));
  EXPECT_NE(md.find("No kernel, copy or memset was traced."), std::string::npos);
  EXPECT_EQ(md.find("Timeline"), std::string::npos);
}

TEST(TimelineSvg, OneBoxPerEventInItsLaneAndInTimeOrder) {
  Measurement m = synthetic();
  m.memory_events.push_back({"gpu_page_fault", 3, 0, 2000, 2500, 0});
  const std::string svg = timeline_svg(m);
  auto count = [&](const std::string& cls) {
    const std::regex re("<rect class=\"" + cls + "\"");
    return std::distance(std::sregex_iterator(svg.begin(), svg.end(), re), std::sregex_iterator());
  };
  EXPECT_EQ(count("kernel"), 4);
  EXPECT_EQ(count("memcpy"), 2);
  EXPECT_EQ(count("memset"), 1);
  EXPECT_EQ(count("api"), 3);
  EXPECT_EQ(count("nvtx"), 1);
  EXPECT_EQ(count("uvm"), 1);
  // Streams by first use: the copies' stream 0, then the kernels' 7 and 8.
  EXPECT_NE(svg.find(">stream 2 (id 7)</text>"), std::string::npos);
  EXPECT_NE(svg.find(">stream 3 (id 8)</text>"), std::string::npos);
  EXPECT_NE(svg.find("transposeNaive(float*, float const*, int) [transpose/naive]"), std::string::npos);
  // Kernel boxes in launch order move right.
  std::vector<double> xs;
  const std::regex kernel_x("<rect class=\"kernel\" x=\"([0-9.]+)\"");
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), kernel_x); it != std::sregex_iterator(); ++it)
    xs.push_back(std::stod((*it)[1]));
  EXPECT_TRUE(std::is_sorted(xs.begin(), xs.end()));
  EXPECT_LT(xs.front(), xs.back());
}

TEST(TimelineSvg, TooManyEventsInALaneAreDrawnMergedWithTheirCount) {
  // 10^5 steps of 10 us, each a launch call, a 2 us kernel and a 1 us copy on the kernel's
  // stream: a box per event would be a picture of tens of megabytes, boxes a hundredth of a
  // pixel wide.
  Measurement m;
  constexpr int kSteps = 100000;
  for (int i = 0; i < kSteps; ++i) {
    const std::uint64_t t = 10000ull * i;
    m.kernels.push_back(kernel("step(float*)", "", t + 1000, t + 3000));
    Copy c = copy(CopyKind::DeviceToHost, t + 4000, t + 5000);
    c.stream = 7;
    m.copies.push_back(c);
    m.api_calls.push_back({"cudaLaunchKernel", 1, static_cast<std::uint32_t>(i), t, t + 500});
  }
  const std::string svg = timeline_svg(m);
  EXPECT_LT(svg.size(), 500u * 1000) << "a picture a browser shows";
  // Runs closer than a pixel merge, kernels and copies together: about one box per pixel
  // column, each saying what it holds and how busy (the union of its events) it was.
  const std::regex mixed("<rect class=\"mixed\"[^>]*><title>([0-9]+) events \\(([0-9]+) kernels, ([0-9]+) copies\\), filling ([0-9]+) %");
  long kernels = 0, copies = 0;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), mixed); it != std::sregex_iterator(); ++it) {
    kernels += std::stol((*it)[2]);
    copies += std::stol((*it)[3]);
    EXPECT_EQ(std::stol((*it)[1]), std::stol((*it)[2]) + std::stol((*it)[3]));
    EXPECT_NEAR(std::stod((*it)[4]), 30, 1) << "3 us busy in every 10 us";
  }
  EXPECT_EQ(kernels, kSteps);
  EXPECT_EQ(copies, kSteps);
  // A lane of one kind keeps its colour: the launch calls.
  EXPECT_NE(svg.find("<rect class=\"api\""), std::string::npos);
  EXPECT_NE(svg.find(" CUDA calls, filling 5 % of this stretch"), std::string::npos);
  // A lane of few events keeps one box each (TimelineSvg.OneBoxPerEventInItsLaneAndInTimeOrder).
}

TEST(TimelineSvg, EscapesNamesForXml) {
  Measurement m;
  m.kernels.push_back(kernel("f<a&b>(int)", "", 0, 10));
  const std::string svg = timeline_svg(m);
  EXPECT_NE(svg.find("f&lt;a&amp;b&gt;(int)"), std::string::npos);
  EXPECT_EQ(svg.find("f<a&b>"), std::string::npos);
}

TEST(ProfileSummary, LinesThatMoveMemoryFromTheSourcePass) {
  // A source file for the line texts, and two launches of a kernel whose line 2 reads
  // misaligned (5 sectors per request where 4 would do).
  const std::string file = testing::TempDir() + "/strided_read.cu";
  {
    std::ofstream out(file);
    out << "__global__ void k(const float* in, float* out) {\n"
           "  out[threadIdx.x] = in[threadIdx.x + 11];\n"
           "}\n";
  }
  Measurement m = synthetic();
  for (std::size_t launch : {0u, 1u})
    m.kernels[launch].sass = {
        {"_Z14transposeNaivePfPKfi", 0x40, file, 2,
         {{"smsp__sass_inst_executed", 100}, {"smsp__sass_sectors_mem_global", 500}, {"smsp__sass_sectors_mem_global_ideal", 400}}},
        {"_Z14transposeNaivePfPKfi", 0x50, file, 2,
         {{"smsp__sass_inst_executed", 100}, {"smsp__sass_sectors_mem_global", 400}, {"smsp__sass_sectors_mem_global_ideal", 400}}}};
  const Sheet s = build_profile_summary(m, "");
  const std::string md = to_markdown(s);
  EXPECT_NO_THROW(validate_markdown(s, md));
  EXPECT_NE(md.find("## Lines that move memory"), std::string::npos) << md;
  EXPECT_NE(md.find("### transpose/naive: transposeNaive"), std::string::npos) << "the launches of one range and kernel together";
  const auto tables = parse_tables(md);
  const auto lines = std::find_if(tables.begin(), tables.end(), [](const auto& t) { return t.header.at(0) == "Line"; });
  ASSERT_NE(lines, tables.end());
  ASSERT_EQ(lines->rows.size(), 1u) << "both instructions are line 2";
  EXPECT_EQ(lines->rows[0][0], "strided_read.cu:2 (note 1)");
  EXPECT_EQ(lines->rows[0][1], "out[threadIdx.x] = in[threadIdx.x + 11];") << "the line's own text";
  EXPECT_EQ(lines->rows[0][2], "400") << "two instructions, two launches";
  EXPECT_EQ(lines->rows[0][3], "4.50 (ideal 4.00)");
  EXPECT_EQ(lines->rows[0][4], "200 (100.00 %)");
  EXPECT_NE(md.find("strided_read.cu:2: Each request here moves 4.50 sectors where 4.00 would carry the same bytes"),
            std::string::npos) << md;
  EXPECT_NE(md.find("This GPU reported no `smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared`"), std::string::npos);
  EXPECT_EQ(s.data["source_lines"][0]["lines"][0]["sectors"], 1800);
  EXPECT_EQ(to_markdown(build_profile_summary(synthetic(), "")).find("Lines that move memory"), std::string::npos)
      << "nothing without a source pass";
}
