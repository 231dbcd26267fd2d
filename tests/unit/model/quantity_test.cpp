// A quantity's name is resolved once, into what the sheet, the checks and the audit dispatch on.
#include "labbook/model/quantity.h"

#include <algorithm>

#include <gtest/gtest.h>

#include "labbook/model/metric_catalog.h"

using labbook::Quantity;
using labbook::QuantityId;
using labbook::QuantityScope;

TEST(Quantity, ResolvesDerivedQuantitiesCatalogMetricsAndSharesOfPeak) {
  const auto time = Quantity::find("time");
  ASSERT_TRUE(time);
  EXPECT_EQ(time->id(), QuantityId::kTime);
  EXPECT_EQ(time->unit(), "ns");
  EXPECT_EQ(time->metric(), nullptr);

  const auto efficiency = Quantity::find("gld_efficiency");
  ASSERT_TRUE(efficiency);
  EXPECT_EQ(efficiency->id(), QuantityId::kMetric);
  EXPECT_EQ(efficiency->metric(), labbook::find_catalog_metric("gld_efficiency"));
  EXPECT_EQ(efficiency->label(), "Load efficiency");

  const auto share = Quantity::find("flop_rate_dp_pct_of_peak");
  ASSERT_TRUE(share);
  EXPECT_EQ(share->id(), QuantityId::kShareOfPeak);
  EXPECT_EQ(share->rate().id(), QuantityId::kFlopRateDp);
  EXPECT_EQ(share->unit(), "%");

  EXPECT_FALSE(Quantity::find("gld_efficency"));
  EXPECT_FALSE(Quantity::find("time_pct_of_peaks"));
  EXPECT_FALSE(Quantity::find("threads_pct_of_peak_pct_of_peak"));
}

TEST(Quantity, ScopeDecidesWhereANameMeansSomething) {
  // A harness call has no share of a lab's peak and no range payload; a range has no reference.
  EXPECT_TRUE(Quantity::find("speed_pct_of_reference", QuantityScope::kCall));
  EXPECT_FALSE(Quantity::find("speed_pct_of_reference", QuantityScope::kRange));
  EXPECT_FALSE(Quantity::find("flop_rate_sp_pct_of_peak", QuantityScope::kCall));
  EXPECT_FALSE(Quantity::find("payload_ns", QuantityScope::kCall));
  EXPECT_TRUE(Quantity::find("copy_overlap_pct", QuantityScope::kCall));
  EXPECT_TRUE(Quantity::find("dram_read_bytes", QuantityScope::kCall));
}

TEST(Quantity, TimedWhereTheValueRestsOnATime) {
  for (const char* timed : {"time", "host_bandwidth", "payload_pct", "copy_overlap_pct", "cycles_per_load", "sm_clock",
                            "elapsed_cycles", "dram_bandwidth", "flop_rate_sp_pct_of_peak", "link_pct"})
    EXPECT_TRUE(Quantity::named(timed).timed()) << timed;
  for (const char* counted : {"gld_transactions", "payload_bytes", "threads", "kernels_calls", "um_htod_bytes",
                              "synchronous_copies", "shared_load_transactions_per_request"})
    EXPECT_FALSE(Quantity::named(counted).timed()) << counted;
}

TEST(Quantity, EveryDerivedQuantityHasItsOwnIdAndAUnitOrADescription) {
  std::vector<QuantityId> seen;
  for (const auto& d : labbook::derived_quantities()) {
    EXPECT_EQ(std::count(seen.begin(), seen.end(), d.id), 0) << d.name << " shares its id";
    seen.push_back(d.id);
    EXPECT_NE(std::string(d.description), "") << d.name;
    EXPECT_EQ(Quantity::named(d.name).id(), d.id) << d.name;
  }
  EXPECT_THROW(Quantity::named("no_such_quantity"), std::logic_error);
}

TEST(Quantity, AnUnsetQuantityAnswersNothing) {
  const Quantity none;
  EXPECT_EQ(none.id(), QuantityId::kUnset);
  EXPECT_EQ(none.unit(), "");
  EXPECT_EQ(none.label(), "");
  EXPECT_FALSE(none.timed());
}
