// A kernel line by line (report/analysis/source_lines.h): SASS instructions summed to source lines,
// inlined code, instructions without line information, the order of the lines, the metrics
// a GPU did not report, and the explanations a student reads.
#include <gtest/gtest.h>

#include "source_lines.h"

using namespace labbook;
using namespace labbook::report;

namespace {

SassInstruction instruction(const std::string& function, std::uint32_t pc, const std::string& file, int line,
                            std::map<std::string, double> metrics) {
  return {function, pc, file, line, std::move(metrics)};
}

/// A misaligned read (5 sectors per request where 4 would do) and its aligned store, a
/// helper inlined into the kernel at the same line as the read, a bank-conflicted shared
/// load, and a spill without line information.
std::vector<SassInstruction> misaligned_kernel() {
  return {
      instruction("_Z4readPKfPf", 0x40, "/src/read.cu", 12,
                  {{"smsp__sass_inst_executed", 1000}, {"smsp__sass_sectors_mem_global", 5000},
                   {"smsp__sass_sectors_mem_global_ideal", 4000}}),
      // The same line inlined from another function: one line, two functions.
      instruction("_Z6helperPKf", 0x80, "/src/read.cu", 12, {{"smsp__sass_inst_executed", 1000}}),
      instruction("_Z4readPKfPf", 0x90, "/src/read.cu", 13,
                  {{"smsp__sass_inst_executed", 1000}, {"smsp__sass_sectors_mem_global", 4000},
                   {"smsp__sass_sectors_mem_global_ideal", 4000}}),
      instruction("_Z4readPKfPf", 0xa0, "/src/read.cu", 14,
                  {{"smsp__sass_inst_executed", 500}, {"smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared", 16000},
                   {"smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared_ideal", 500}}),
      instruction("_Z4readPKfPf", 0xb0, "/src/read.cu", 15, {{"smsp__sass_inst_executed", 2000}}),   // arithmetic
      instruction("_Z4readPKfPf", 0xc0, "", 0, {{"smsp__sass_inst_executed", 100}, {"smsp__sass_sectors_mem_local", 300}}),
  };
}

}  // namespace

TEST(SourceLines, SumsInstructionsToLinesAndKeepsOnlyLinesThatMoveMemory) {
  const SourceProfile p = source_profile(misaligned_kernel());
  EXPECT_TRUE(p.line_info);
  ASSERT_EQ(p.lines.size(), 4u) << "line 15 does only arithmetic";
  const SourceLine& read = p.lines[0];
  EXPECT_EQ(read.where(), "read.cu:12") << "most excess sectors first";
  EXPECT_EQ(read.instructions, 2000) << "the inlined helper's instruction counts on its line";
  EXPECT_EQ(read.global_requests, 1000) << "only instructions that moved sectors are requests";
  EXPECT_EQ(read.global_sectors / read.global_requests, 5.0);
  EXPECT_EQ(read.excess_sectors(), 1000);
  EXPECT_EQ((std::vector<std::uint32_t>{0x40, 0x80}), read.pc_offsets);
  EXPECT_EQ(p.excess_sectors, 1000);
  EXPECT_EQ(p.lines[1].where(), "read.cu:14") << "then most excess shared wavefronts";
  EXPECT_EQ(p.lines[2].where(), "_Z4readPKfPf+0xc0") << "then local sectors; no line information: function and offset";
  EXPECT_EQ(p.lines[3].where(), "read.cu:13") << "the aligned store costs what it must";
  EXPECT_EQ(p.lines[3].excess_sectors(), 0);
}

TEST(SourceLines, TwoKernelsAreTwoProfiles) {
  std::vector<SassInstruction> other = {instruction("_Z5writePf", 0x10, "/src/write.cu", 3,
                                                    {{"smsp__sass_inst_executed", 10}, {"smsp__sass_sectors_mem_global", 40},
                                                     {"smsp__sass_sectors_mem_global_ideal", 40}})};
  EXPECT_EQ(source_profile(other).lines.size(), 1u);
  EXPECT_EQ(source_profile(other).excess_sectors, 0);
  EXPECT_EQ(source_profile(misaligned_kernel()).excess_sectors, 1000) << "nothing of the other kernel";
}

TEST(SourceLines, IdealSectorsFromLoadsAndStoresWhereTheGpuSplitsThem) {
  const SourceProfile p = source_profile({instruction(
      "_Z1kPf", 0x10, "/k.cu", 7,
      {{"smsp__sass_inst_executed", 10}, {"smsp__sass_sectors_mem_global", 80},
       {"smsp__sass_sectors_mem_global_op_ld_ideal", 30}, {"smsp__sass_sectors_mem_global_op_st_ideal", 10}})});
  ASSERT_EQ(p.lines.size(), 1u);
  EXPECT_EQ(p.lines[0].global_ideal_sectors, 40);
  EXPECT_EQ(std::count(p.missing.begin(), p.missing.end(), "smsp__sass_sectors_mem_global_ideal"), 0)
      << "the ideal was there, split";
  EXPECT_EQ(std::count(p.missing.begin(), p.missing.end(), "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared"), 1);
}

TEST(SourceLines, WithoutLineInformationEveryInstructionIsItsOwnRow) {
  const SourceProfile p = source_profile(
      {instruction("_Z1kPf", 0x10, "", 0, {{"smsp__sass_inst_executed", 1}, {"smsp__sass_sectors_mem_global", 4}}),
       instruction("_Z1kPf", 0x20, "", 0, {{"smsp__sass_inst_executed", 1}, {"smsp__sass_sectors_mem_global", 4}})});
  EXPECT_FALSE(p.line_info);
  ASSERT_EQ(p.lines.size(), 2u);
  EXPECT_EQ(p.lines[1].where(), "_Z1kPf+0x20");
  EXPECT_TRUE(source_profile({}).missing.empty()) << "no instructions, nothing to say missing";
}

TEST(SourceLines, ExplanationsSayWhatTheNumbersMean) {
  const SourceProfile p = source_profile(misaligned_kernel());
  const std::string read = source_line_explanation(p.lines[0], p.excess_sectors);
  EXPECT_NE(read.find("Each request here moves 5.00 sectors where 4.00 would carry the same bytes"), std::string::npos) << read;
  EXPECT_NE(read.find("100.00 % of the kernel's excess sectors"), std::string::npos) << read;
  const std::string shared = source_line_explanation(p.lines[1], p.excess_sectors);
  EXPECT_NE(shared.find("32.00 wavefronts per request where 1.00 would do: a 32-way bank conflict"), std::string::npos) << shared;
  EXPECT_NE(source_line_explanation(p.lines[2], p.excess_sectors).find("Local memory: 300 sectors"), std::string::npos);
  EXPECT_EQ(source_line_explanation(p.lines[3], p.excess_sectors), "") << "nothing to explain";
}

TEST(SourceLines, LoadsAndStoresOfOneLineApartWhereTheGpuCountsThem) {
  // c[i] = a[k] + b[k] at offset 11: the load misaligned (5 sectors per request), the store not.
  const SourceProfile p = source_profile(
      {instruction("_Z1kPKfPf", 0x40, "/k.cu", 4,
                   {{"smsp__sass_inst_executed", 100}, {"smsp__sass_inst_executed_op_global_ld", 100},
                    {"smsp__sass_sectors_mem_global", 500}, {"smsp__sass_sectors_mem_global_ideal", 400}}),
       instruction("_Z1kPKfPf", 0x60, "/k.cu", 4,
                   {{"smsp__sass_inst_executed", 100}, {"smsp__sass_inst_executed_op_global_st", 100},
                    {"smsp__sass_sectors_mem_global", 400}, {"smsp__sass_sectors_mem_global_ideal", 400}})});
  ASSERT_EQ(p.lines.size(), 1u);
  EXPECT_EQ(p.lines[0].loads.sectors / p.lines[0].loads.requests, 5.0);
  EXPECT_EQ(p.lines[0].stores.sectors / p.lines[0].stores.requests, 4.0);
  EXPECT_EQ(p.lines[0].global_sectors / p.lines[0].global_requests, 4.5) << "the line's average";
  const std::string why = source_line_explanation(p.lines[0], p.excess_sectors);
  EXPECT_NE(why.find("Each load request here moves 5.00 sectors where 4.00 would carry the same bytes"), std::string::npos) << why;
}

TEST(SourceLines, AnInstructionNamedTwiceIsOneInstruction) {
  // An instruction's counts may come as several records (one per metric, as CUPTI gives them,
  // or one per launch of the kernel): they are one instruction's, summed.
  const SourceProfile p = source_profile(
      {instruction("_Z1kPKfPf", 0x40, "/k.cu", 4, {{"smsp__sass_inst_executed", 100}}),
       instruction("_Z1kPKfPf", 0x40, "/k.cu", 4, {{"smsp__sass_sectors_mem_global", 500}}),
       instruction("_Z1kPKfPf", 0x40, "/k.cu", 4, {{"smsp__sass_sectors_mem_global_ideal", 400}}),
       instruction("_Z1kPKfPf", 0x40, "/k.cu", 4, {{"smsp__sass_inst_executed_op_global_ld", 100}})});
  ASSERT_EQ(p.lines.size(), 1u);
  EXPECT_EQ(p.lines[0].global_requests, 100) << "the executions of the instruction that moved the sectors";
  EXPECT_EQ(p.lines[0].loads.sectors / p.lines[0].loads.requests, 5.0);
  EXPECT_EQ(p.lines[0].excess_sectors(), 100);
}
