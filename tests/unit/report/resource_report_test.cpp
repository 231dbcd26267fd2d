// The compiler's resource report ([resources]), the latency quantities (cycles_per_load,
// cycles_per_instruction) and the catalog entries they rest on.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "lab_data.h"
#include "labbook/model/error.h"
#include "labbook/model/metric_catalog.h"
#include "quantities.h"
#include "resource_section.h"
#include "resource_usage.h"
#include "lab_toml_fixture.h"
#include "named_quantity.h"

using namespace labbook::report;

namespace {

// ptxas -v as CUDA 13 prints it, and a line in the older form of 004 (with cmem banks).
const char* kReport = R"(# main
ptxas info    : 4 bytes gmem
ptxas info    : Compiling entry function '_ZN7labbook7kernels11chaseSharedEjPj' for 'sm_90'
ptxas info    : Function properties for _ZN7labbook7kernels11chaseSharedEjPj
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 14 registers, used 1 barriers, 16384 bytes smem
ptxas info    : Compile time = 6.716 ms
ptxas info    : Compiling entry function '_Z7simpsonddPd' for 'sm_20'
ptxas info    : Function properties for _Z7simpsonddPd
200 bytes stack frame, 728 bytes spill stores, 576 bytes spill loads
ptxas info : Used 25 registers, 56 bytes cmem[0], 12 bytes cmem[16]
)";

labbook::Kernel kernel_with(std::map<std::string, double> metrics, std::uint64_t ns) {
  labbook::Kernel k;
  k.range = "chase";
  k.start_ns = 1000;
  k.end_ns = 1000 + ns;
  k.metrics = std::move(metrics);
  return k;
}

}  // namespace

TEST(ResourceReport, ParsesPtxasVerboseOutput) {
  const auto kernels = parse_ptxas_report(kReport);
  ASSERT_EQ(kernels.size(), 2u);
  EXPECT_EQ(kernels[0].function, "_ZN7labbook7kernels11chaseSharedEjPj");
  EXPECT_EQ(kernels[0].architecture, "sm_90");
  EXPECT_EQ(kernels[0].registers, 14);
  EXPECT_EQ(kernels[0].barriers, 1);
  EXPECT_EQ(kernels[0].shared_bytes, 16384);
  EXPECT_TRUE(kernels[0].constant_bytes.empty());
  EXPECT_EQ(kernels[1].registers, 25);
  EXPECT_EQ(kernels[1].stack_bytes, 200);
  EXPECT_EQ(kernels[1].spill_store_bytes, 728);
  EXPECT_EQ(kernels[1].spill_load_bytes, 576);
  EXPECT_EQ(kernels[1].constant_bytes.at(0), 56);
  EXPECT_EQ(kernels[1].constant_bytes.at(16), 12);
  EXPECT_TRUE(parse_ptxas_report("no report here\n").empty());
}

TEST(ResourceReport, SectionShowsRegistersPerBlockOfTheLaunch) {
  const auto folder = std::filesystem::temp_directory_path() / "labbook_resource_report_test";
  std::filesystem::create_directories(folder);
  std::ofstream(folder / "r.ptxas.txt") << kReport;
  ResourceReport report{"Resources", "", "r.ptxas.txt", "ptxas info : Used 25 registers", "004_x.txt, slide 1",
                        "Hochwanner", 32768, 1024};
  labbook::Measurement m;
  labbook::Kernel k;
  k.mangled = "_ZN7labbook7kernels11chaseSharedEjPj";
  k.block[0] = 256;
  k.block[1] = k.block[2] = 1;
  m.kernels.push_back(k);
  Sheet sheet;
  add_resource_section(sheet, report, folder.string(), m);
  const auto& data = sheet.data["resources"];
  ASSERT_EQ(data["kernels"].size(), 2u);
  EXPECT_EQ(data["kernels"][0]["registers_per_block"], 14 * 256);
  EXPECT_FALSE(data["kernels"][1].contains("registers_per_block"));   // never launched
  EXPECT_EQ(data["source_registers_per_thread_full_block"], 32);
  std::filesystem::remove_all(folder);

  Sheet missing;
  add_resource_section(missing, report, "/nonexistent", m);
  EXPECT_TRUE(missing.data["resources"]["kernels"].empty());
}

TEST(ResourceReport, LabDataReadsTheResourcesTable) {
  const std::string head = fixture::lab_toml_head(R"(["duration"])") + R"([[section]]
title = "S"
experiments = ["a"]
quantities = ["cycles_per_load", "cycles_per_instruction"]
)";
  const LabData lab = parse_lab_data(head + R"([resources]
title = "R"
file = "recorded/x.ptxas.txt"
source_example = "ptxas info : Used 25 registers"
citation = "004_12112d3317679e06.txt, slide 1"
source_registers_per_block = 32768
source_threads_per_block = 1024
)", "lab.toml");
  ASSERT_TRUE(lab.resources);
  EXPECT_EQ(lab.resources->file, "recorded/x.ptxas.txt");
  EXPECT_EQ(lab.resources->source_registers_per_block, 32768);
  EXPECT_FALSE(parse_lab_data(head, "lab.toml").resources);
  EXPECT_THROW(parse_lab_data(head + "[resources]\ntitle = \"R\"\nfile = \"f\"\nsource_example = \"x\"\ncitation = \"a slide\"\n",
                              "lab.toml"),
               labbook::Error);
}

TEST(LatencyQuantities, CyclesPerLoadAndPerInstruction) {
  labbook::Measurement m;
  // 1 ms at 2 GHz = 2e6 cycles over 1000 + 3000 + 0 loads, and over 8000 instructions.
  m.kernels.push_back(kernel_with({{"smsp__inst_executed_op_global_ld.sum", 1000},
                                   {"smsp__inst_executed_op_shared_ld.sum", 3000},
                                   {"smsp__inst_executed_op_local_ld.sum", 0},
                                   {"smsp__inst_executed.sum", 8000},
                                   {"gpc__cycles_elapsed.avg.per_second", 2e9}},
                                  1000000));
  EXPECT_DOUBLE_EQ(*range_quantity(m, "chase", named_quantity("cycles_per_load")).value, 500.0);
  EXPECT_DOUBLE_EQ(*range_quantity(m, "chase", named_quantity("cycles_per_instruction")).value, 250.0);
  EXPECT_EQ(named_quantity("cycles_per_load").unit(), "cycles");

  labbook::Measurement no_clock;
  no_clock.kernels.push_back(kernel_with({{"smsp__inst_executed_op_global_ld.sum", 1000}}, 1000000));
  EXPECT_FALSE(range_quantity(no_clock, "chase", named_quantity("cycles_per_load")).value);
  EXPECT_NE(labbook::find_catalog_metric("inst_executed_shared_loads"), nullptr);
  EXPECT_NE(labbook::find_catalog_metric("inst_executed_local_loads"), nullptr);
}
