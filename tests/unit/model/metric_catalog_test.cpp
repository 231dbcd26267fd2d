#include <gtest/gtest.h>

#include <map>
#include <set>

#include "labbook/model/error.h"
#include "labbook/model/metric_catalog.h"
#include "labbook/model/quantity_labels.h"
#include "labbook/model/quantity.h"

using namespace labbook;

TEST(MetricCatalog, MapsTheSourcesNvprofNamesToPerfworks) {
  EXPECT_EQ(find_catalog_metric("gld_efficiency")->inputs.at(0),
            "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct");
  EXPECT_EQ(find_catalog_metric("gst_transactions")->inputs.at(0), "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum");
  EXPECT_EQ(find_catalog_metric("dram_read_bytes")->unit, "bytes");
}

TEST(MetricCatalog, TextureSectorsPerRequestDividesSectorsByRequests) {
  const CatalogMetric* m = find_catalog_metric("texture_sectors_per_request");
  ASSERT_NE(m, nullptr);
  EXPECT_DOUBLE_EQ(*m->evaluate({{"l1tex__t_sectors_pipe_tex_mem_texture.sum", 96},
                                 {"l1tex__t_requests_pipe_tex_mem_texture.sum", 32}}),
                   3.0);
  EXPECT_EQ(find_catalog_metric("l1tex__t_requests_pipe_tex_mem_texture.sum")->name, "texture_load_requests");
}

TEST(MetricCatalog, AcceptsModernNamesOfDirectEntries) {
  const CatalogMetric* m = find_catalog_metric("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->name, "gld_transactions");
}

TEST(MetricCatalog, EveryEntryHasUnitDescriptionAndUniqueName) {
  std::set<std::string> names;
  for (const auto& m : metric_catalog()) {
    EXPECT_FALSE(m.unit.empty()) << m.name;
    EXPECT_FALSE(m.description.empty()) << m.name;
    EXPECT_TRUE(names.insert(m.name).second) << "duplicate " << m.name;
    // Sums weigh every summed input, or none (all 1); CountWhere's last input is its condition.
    if (m.formula == MetricFormula::WeightedSum || m.formula == MetricFormula::CountWhere) {
      const std::size_t summed = m.inputs.size() - (m.formula == MetricFormula::CountWhere ? 1 : 0);
      EXPECT_TRUE(m.weights.empty() || m.weights.size() == summed) << m.name;
      EXPECT_GE(summed, 1u) << m.name;
      continue;
    }
    const std::size_t needed = m.formula == MetricFormula::Direct ? 1 : 2;
    EXPECT_EQ(m.inputs.size(), needed) << m.name;
    EXPECT_TRUE(m.weights.empty()) << m.name;
  }
}

TEST(MetricCatalog, EvaluatesDerivedMetrics) {
  const CatalogMetric* per_request = find_catalog_metric("gld_transactions_per_request");
  EXPECT_DOUBLE_EQ(*per_request->evaluate({{"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", 5242880},
                                           {"smsp__inst_executed_op_global_ld.sum", 1048576}}),
                   5.0);
  EXPECT_FALSE(per_request->evaluate({{"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", 1}}).has_value());
  EXPECT_FALSE(per_request->evaluate({{"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", 1},
                                      {"smsp__inst_executed_op_global_ld.sum", 0}}).has_value());
  const CatalogMetric* requested = find_catalog_metric("gld_requested_throughput");
  EXPECT_DOUBLE_EQ(*requested->evaluate({{"l1tex__t_bytes_pipe_lsu_mem_global_op_ld.sum.per_second", 1000},
                                         {"smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct", 80}}),
                   800.0);
  const CatalogMetric* l2_peak = find_catalog_metric("l2_peak_bandwidth");
  EXPECT_DOUBLE_EQ(*l2_peak->evaluate({{"lts__t_bytes.sum.peak_sustained", 4096},
                                       {"lts__cycles_elapsed.avg.per_second", 1.5e9}}),
                   6.144e12)
      << "bytes per cycle x cycles per second";
  EXPECT_EQ(l2_peak->formula_text(), "lts__t_bytes.sum.peak_sustained x lts__cycles_elapsed.avg.per_second");
}

TEST(MetricCatalog, FlopCountsWeighAMultiplyAddTwice) {
  // nvprof's flop_count_sp: adds + multiplies + 2 x multiply-adds, per thread with the predicate on.
  const CatalogMetric* sp = find_catalog_metric("flop_count_sp");
  ASSERT_NE(sp, nullptr);
  EXPECT_DOUBLE_EQ(*sp->evaluate({{"smsp__sass_thread_inst_executed_op_fadd_pred_on.sum", 3},
                                  {"smsp__sass_thread_inst_executed_op_fmul_pred_on.sum", 5},
                                  {"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum", 1000}}),
                   2008.0);
  EXPECT_FALSE(sp->evaluate({{"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum", 1000}}).has_value())
      << "a missing input is no zero";
  EXPECT_EQ(sp->formula_text(),
            "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum + smsp__sass_thread_inst_executed_op_fmul_pred_on.sum"
            " + 2 x smsp__sass_thread_inst_executed_op_ffma_pred_on.sum");
  const auto cupti = cupti_metrics_for({"flop_count_dp"});
  ASSERT_EQ(cupti.size(), 3u);
  EXPECT_EQ(cupti[2], "smsp__sass_thread_inst_executed_op_dfma_pred_on.sum");
}

TEST(MetricCatalog, ResolvesNamesToCuptiMetricsWithoutDuplicates) {
  const auto m = cupti_metrics_for({"gld_transactions", "gld_transactions_per_request", "gld_efficiency"});
  ASSERT_EQ(m.size(), 3u);
  EXPECT_EQ(m[0], "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum");
  EXPECT_EQ(m[1], "smsp__inst_executed_op_global_ld.sum");
}

TEST(MetricCatalog, UnknownNameIsAnErrorListingTheClosest) {
  try {
    cupti_metrics_for({"gld_eficiency"});
    FAIL() << "expected an error";
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("unknown metric 'gld_eficiency'"), std::string::npos) << what;
    EXPECT_NE(what.find("gld_efficiency"), std::string::npos) << what;
  }
}

TEST(MetricCatalog, MisshapenPerfworksNamesAreRejectedBeforeAnythingRuns) {
  EXPECT_EQ(perfworks_name_problem("dram__bytes_read.sum"), "");
  EXPECT_EQ(perfworks_name_problem("dram__bytes_read.sum.per_second"), "");
  EXPECT_EQ(perfworks_name_problem("lts__t_sector_hit_rate.pct"), "");
  EXPECT_EQ(perfworks_name_problem("foo__bar.sum"), "") << "well-formed; only the GPU can say it does not exist";
  EXPECT_NE(perfworks_name_problem("dram__bytes_read"), "") << "no rollup";
  EXPECT_NE(perfworks_name_problem("dram__bytes_read.summ"), "");
  EXPECT_NE(perfworks_name_problem("dram__bytes_read.sum."), "");
  EXPECT_NE(perfworks_name_problem("Dram__bytes_read.sum"), "");
  EXPECT_NE(perfworks_name_problem("__bytes.sum"), "");
  EXPECT_THROW(cupti_metrics_for({"dram__bytes_read.summ"}), labbook::Error);
  EXPECT_THROW(cupti_metrics_for({"gld_efficency"}), labbook::Error);
}

// A sheet's column reads "Load efficiency", never "gld_efficiency": every quantity has words.
TEST(QuantityLabels, EveryCatalogMetricAndDerivedQuantityHasALabel) {
  for (const auto& m : labbook::metric_catalog()) EXPECT_TRUE(labbook::has_reader_label(m.name)) << m.name;
  for (const auto& d : labbook::derived_quantities()) EXPECT_TRUE(labbook::has_reader_label(d.name)) << d.name;
  EXPECT_EQ(labbook::quantity_reader_label("gld_efficiency"), "Load efficiency");
  EXPECT_EQ(labbook::quantity_reader_label("flop_rate_sp_pct_of_peak"), "FP32 rate, share of peak");
  EXPECT_EQ(labbook::quantity_reader_label("no_such_thing"), "No such thing");
}

TEST(MetricCatalog, ConflictsAreACountOnlyWhereSharedMemoryWasUsed) {
  const CatalogMetric* loads = find_catalog_metric("shared_load_conflicts");
  ASSERT_NE(loads, nullptr);
  const std::string all = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum";
  const std::string stores = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum";
  const std::string async = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum";
  const std::string requests = "smsp__inst_executed_op_shared_ld.sum";
  const auto reads = [&](double total, double requests_made) {
    return loads->evaluate({{all, total}, {stores, 1000}, {async, 24}, {requests, requests_made}});
  };
  // More conflict-free requests leave the count as it is: a per-request ratio would fall.
  EXPECT_DOUBLE_EQ(*reads(16425410, 524288), 16424386.0);
  EXPECT_DOUBLE_EQ(*reads(16425410, 210239488), 16424386.0);
  EXPECT_FALSE(reads(1024, 0).has_value()) << "no shared load: nothing to grade";
  EXPECT_EQ(loads->formula_text(), all + " - " + stores + " - " + async + ", where " + requests + " > 0");
}

// Reads by atomics or cp.async count, so that no path to global memory goes unseen.
TEST(MetricCatalog, GlobalTrafficCountsEveryPath) {
  const CatalogMetric* writes = find_catalog_metric("global_write_sectors");
  ASSERT_NE(writes, nullptr);
  EXPECT_DOUBLE_EQ(*writes->evaluate({{"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", 100},
                                      {"l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum", 20},
                                      {"l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum", 3}}),
                   123.0);
  const CatalogMetric* instructions = find_catalog_metric("memory_instructions");
  ASSERT_NE(instructions, nullptr);
  std::map<std::string, double> counts;
  for (const auto& input : instructions->inputs) counts[input] = 1;
  EXPECT_DOUBLE_EQ(*instructions->evaluate(counts), static_cast<double>(instructions->inputs.size()));
  counts.erase("smsp__sass_inst_executed_op_shared.sum");
  EXPECT_FALSE(instructions->evaluate(counts).has_value()) << "a state space left out is no count";
}
