// A source's claim decided on repeated measurements: a two-sided band (a "slightly" that a
// ratio of 547 does not meet), "inconclusive" when the repeats fall on both sides of what the
// claim needs, a "best of" that a close runner-up leaves undecided, and a [[check]] on a time
// that the noise decides. Each case failed with the median-only verdicts before.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "claim_verdict.h"
#include "format.h"
#include "lab_checks.h"
#include "lab_data.h"
#include "lab_toml_fixture.h"
#include "named_quantity.h"

using namespace labbook::report;

namespace {

const std::string kSlowSection = "[[section]]\ntitle = \"S\"\nexperiments = [\"slow\"]\nquantities = [\"time\"]\n";

/// A kernel launched `times_us.size()` times in `range`, each launch taking that many µs.
void add_launches(labbook::Measurement& m, const std::string& range, const std::vector<double>& times_us) {
  for (double t : times_us) {
    labbook::Kernel k;
    k.range = range;
    k.start_ns = 1000 * m.kernels.size() * 1000;
    k.end_ns = *k.start_ns + static_cast<std::uint64_t>(t * 1000);
    k.launch = m.kernels.size();
    m.kernels.push_back(k);
  }
}

Claim ratio_claim(double min_ratio, std::optional<double> max_ratio = std::nullopt) {
  Claim c;
  c.text = "slow is slower";
  c.quantity = named_quantity("time");
  c.numerator = "slow";
  c.denominator = "fast";
  c.min_ratio = min_ratio;
  c.max_ratio = max_ratio;
  return c;
}

Claim best_claim(const std::string& best, double tolerance = 0) {
  Claim c;
  c.text = "b256 is the fastest";
  c.quantity = named_quantity("time");
  c.best = best;
  c.candidates = {"b128", "b256", "b1024"};
  c.tolerance = tolerance;
  return c;
}

}  // namespace

TEST(ClaimVerdict, ASlightSlowdownIsABandAndARatioFarAboveItDoesNotHold) {
  labbook::Measurement m;
  add_launches(m, "slow", {547, 547, 547});
  add_launches(m, "fast", {1, 1, 1});
  EXPECT_EQ(judge_claim(ratio_claim(1.0), m, {}).verdict, Verdict::kHolds);   // one-sided: the old verdict
  const ClaimOutcome banded = judge_claim(ratio_claim(1.0, 1.2), m, {});
  EXPECT_EQ(banded.verdict, Verdict::kDoesNotHold);
  EXPECT_NE(banded.reason.find("ratio 547.00; the claim needs 1.00 to 1.20, by more than the 2 % by which runs drift"),
            std::string::npos)
      << banded.reason;
}

TEST(ClaimVerdict, ARatioWithinTheDriftOfAnEdgeDecidesNothing) {
  // Every repeat 1 % slower: the repeats agree, but two runs of one kernel differ by as much,
  // so "slower" neither holds nor fails, and "no slower" does not fail either.
  labbook::Measurement m;
  add_launches(m, "slow", {101.0, 101.1, 101.2, 101.0, 101.1});
  add_launches(m, "fast", {100.0, 100.1, 100.0, 100.1, 100.0});
  const ClaimOutcome slower = judge_claim(ratio_claim(1.0), m, {});
  EXPECT_EQ(slower.verdict, Verdict::kInconclusive) << slower.reason;
  EXPECT_NE(slower.reason.find("the claim needs ≥ 1.00, and the ratio lies within the 2 % by which runs drift of it"),
            std::string::npos)
      << slower.reason;
  EXPECT_EQ(judge_claim(ratio_claim(0, 1.0), m, {}).verdict, Verdict::kInconclusive);
  // 3 % slower clears the drift both ways.
  labbook::Measurement clear;
  add_launches(clear, "slow", {103.0, 103.1, 103.2, 103.0, 103.1});
  add_launches(clear, "fast", {100.0, 100.1, 100.0, 100.1, 100.0});
  EXPECT_EQ(judge_claim(ratio_claim(1.0), clear, {}).verdict, Verdict::kHolds);
  EXPECT_EQ(judge_claim(ratio_claim(0, 1.0), clear, {}).verdict, Verdict::kDoesNotHold);
  // An edge away from 1.0 has the same zone: 1.52 is within 2 % of 1.5, 1.54 is not.
  EXPECT_EQ(judge_with_drift(1.52, 1.53, {1.5, std::nullopt}, 0.02), Verdict::kInconclusive);
  EXPECT_EQ(judge_with_drift(1.54, 1.55, {1.5, std::nullopt}, 0.02), Verdict::kHolds);
  EXPECT_EQ(judge_with_drift(1.40, 1.46, {1.5, std::nullopt}, 0.02), Verdict::kDoesNotHold);
  // A claim's own smallest effect, for times the host takes: 5 % slower is within 20 %.
  labbook::Measurement host;
  add_launches(host, "slow", {105.0, 105.5, 104.5, 105.2, 105.1});
  add_launches(host, "fast", {100.0, 100.1, 100.0, 100.1, 100.0});
  EXPECT_EQ(judge_claim(ratio_claim(1.0), host, {}).verdict, Verdict::kHolds);
  Claim wide = ratio_claim(1.0);
  wide.min_effect = 0.2;
  EXPECT_EQ(judge_claim(wide, host, {}).verdict, Verdict::kInconclusive);
  EXPECT_NE(judge_claim(wide, host, {}).reason.find("within the 20 % by which runs drift"), std::string::npos);
  // A counter repeats exactly: no drift, its edge decides alone.
  Claim counter = ratio_claim(1.0);
  counter.quantity = named_quantity("gld_transactions");
  EXPECT_EQ(smallest_effect(counter), 0.0);
  // A band narrower than twice the drift holds on its own edges.
  EXPECT_EQ(judge_with_drift(1.0, 1.005, {0.99, 1.01}, 0.02), Verdict::kHolds);
}

TEST(ClaimVerdict, TheMedianIntervalDropsOutliersOnlyWhereRepeatsAllowIt) {
  QuantityValue few{5.0, "", {1.0, 5.0, 6.0, 7.0, 50.0}};
  EXPECT_EQ(few.median_interval(), std::make_pair(1.0, 50.0)) << "5 repeats: the full range is the 94 % interval";
  QuantityValue many{10.5, "", {}};
  for (int i = 1; i <= 20; ++i) many.samples.push_back(i);
  EXPECT_EQ(many.median_interval(), std::make_pair(6.0, 15.0)) << "20 repeats: the 6th to the 15th, 95.9 %";
  many.samples.push_back(1000);   // 21: the 6th to the 16th
  EXPECT_EQ(many.median_interval(), std::make_pair(6.0, 16.0));
  // A first cold repeat on one side of 20 no longer spans the ratio down to 1.
  labbook::Measurement m;
  std::vector<double> pinned(20, 500.0), pageable(20, 1.0);
  pageable[0] = 450.0;
  add_launches(m, "slow", pinned);
  add_launches(m, "fast", pageable);
  EXPECT_EQ(judge_claim(ratio_claim(1.0), m, {}).verdict, Verdict::kHolds);
}

TEST(ClaimVerdict, RepeatsOnBothSidesOfTheThresholdAreInconclusive) {
  labbook::Measurement m;
  add_launches(m, "slow", {34.1, 33.0, 34.6, 34.2});
  add_launches(m, "fast", {33.5, 33.4, 34.0, 33.6});
  const ClaimOutcome o = judge_claim(ratio_claim(1.0), m, {});
  EXPECT_EQ(o.verdict, Verdict::kInconclusive);   // the median ratio, 1.02, alone says "holds"
  ASSERT_TRUE(o.ratio);
  EXPECT_GT(o.ratio->value, 1.0);
  EXPECT_LT(o.ratio->low, 1.0);
  EXPECT_NE(o.reason.find("some repeats meet it, others do not"), std::string::npos) << o.reason;
  EXPECT_NE(o.measured.find("over 4 repeats"), std::string::npos) << o.measured;
}

TEST(ClaimVerdict, ClearlySeparatedRepeatsDecideBothWays) {
  labbook::Measurement m;
  add_launches(m, "slow", {80.1, 80.4, 80.9});
  add_launches(m, "fast", {67.9, 68.0, 68.3});
  EXPECT_EQ(judge_claim(ratio_claim(1.1), m, {}).verdict, Verdict::kHolds);
  EXPECT_EQ(judge_claim(ratio_claim(2.0), m, {}).verdict, Verdict::kDoesNotHold);
  EXPECT_EQ(judge_claim(ratio_claim(0, 1.05), m, {}).verdict, Verdict::kDoesNotHold);   // "no slower"
}

TEST(ClaimVerdict, BestOfWithARunnerUpWithinTheNoiseIsInconclusive) {
  labbook::Measurement m;
  add_launches(m, "b128", {68.2, 68.4, 68.3});
  add_launches(m, "b256", {67.6, 67.4, 67.9});
  add_launches(m, "b1024", {67.3, 67.5, 67.2});
  // The old verdict: b256 within 2 % of the best, so "holds". b1024 is faster, but the repeats overlap.
  const ClaimOutcome o = judge_claim(best_claim("b256", 0.02), m, {});
  EXPECT_EQ(o.verdict, Verdict::kInconclusive);
  EXPECT_NE(o.reason.find("the lowest is b1024"), std::string::npos) << o.reason;
  // The winner with a runner-up inside its noise does not hold either.
  EXPECT_EQ(judge_claim(best_claim("b1024"), m, {}).verdict, Verdict::kInconclusive);
}

TEST(ClaimVerdict, BestOfHoldsOnlyBeyondTheNoiseAndSaysWhatWasCompared) {
  labbook::Measurement m;
  add_launches(m, "b128", {90.0, 91.0});
  add_launches(m, "b256", {60.0, 61.0});
  add_launches(m, "b1024", {75.0, 76.0});
  const ClaimOutcome holds = judge_claim(best_claim("b256"), m, {});
  EXPECT_EQ(holds.verdict, Verdict::kHolds);
  EXPECT_NE(holds.reason.find("ahead of b1024"), std::string::npos) << holds.reason;
  Claim highest = best_claim("b256");
  highest.lowest = false;   // "b256 is the upper bound": the highest is b128, said in the claim's direction
  const ClaimOutcome wrong = judge_claim(highest, m, {});
  EXPECT_EQ(wrong.verdict, Verdict::kDoesNotHold);
  EXPECT_NE(wrong.reason.find("the highest is b128"), std::string::npos) << wrong.reason;
}

TEST(ClaimVerdict, MissingCandidatesCannotBeChecked) {
  labbook::Measurement m;
  add_launches(m, "b256", {60.0});
  EXPECT_EQ(judge_claim(best_claim("b256"), m, {}).verdict, Verdict::kCannotBeChecked);
  EXPECT_EQ(judge_claim(ratio_claim(1.0), m, {}).verdict, Verdict::kCannotBeChecked);
}

TEST(ClaimVerdict, BandsParseAndAreValidated) {
  const std::string head = fixture::lab_toml_head() + kSlowSection;
  const std::string claim =
      "[[claim]]\ntext = \"t\"\ncitation = \"c\"\nquantity = \"time\"\nnumerator = \"a\"\ndenominator = \"b\"\n";
  const LabData lab = parse_lab_data(head + claim + "min_ratio = 1.0\nmax_ratio = 1.2\n", "lab.toml");
  ASSERT_EQ(lab.claims.size(), 1u);
  EXPECT_EQ(lab.claims[0].max_ratio.value_or(0), 1.2);
  EXPECT_NE(fixture::lab_toml_error(head + claim + "min_ratio = 1.5\nmax_ratio = 1.2\n").find("'max_ratio' must be at least"),
            std::string::npos);
  EXPECT_NE(fixture::lab_toml_error(head + claim).find("needs 'min_ratio', 'max_ratio' or both"), std::string::npos);
  EXPECT_NE(fixture::lab_toml_error(head + claim + "min_ratio = 1.0\nmax_ration = 1.2\n").find("unknown key 'max_ration'"),
            std::string::npos);
  EXPECT_EQ(parse_lab_data(head + claim + "min_ratio = 1.0\nmin_effect = 0.2\n", "lab.toml").claims[0].min_effect, 0.2);
  EXPECT_NE(fixture::lab_toml_error(head + claim + "min_ratio = 1.0\nmin_effect = 20\n")
                .find("'min_effect' must be a share from 0 to below 1 (0.2 for 20 %)"),
            std::string::npos);
}

TEST(ClaimVerdict, AValueClaimBoundsOneExperimentInItsUnit) {
  labbook::Measurement m;
  add_launches(m, "slow", {101.0, 100.0, 99.0, 100.5, 100.2});   // µs
  Claim value = ratio_claim(0);
  value.numerator = value.denominator = "";
  value.experiment = "slow";
  value.at_least = 90'000;   // ns: 100 µs clears it by more than the drift
  const ClaimOutcome o = judge_claim(value, m, {});
  EXPECT_EQ(o.verdict, Verdict::kHolds) << o.reason;
  EXPECT_NE(o.reason.find("the claim needs ≥ 90.0 µs, by more than the 2 %"), std::string::npos) << o.reason;
  EXPECT_FALSE(o.ratio);
  value.at_least = 99'000;   // within the repeats and the drift
  EXPECT_EQ(judge_claim(value, m, {}).verdict, Verdict::kInconclusive);
  value.at_least = std::nullopt;
  value.at_most = 90'000;
  EXPECT_EQ(judge_claim(value, m, {}).verdict, Verdict::kDoesNotHold);
  value.experiment = "missing";
  EXPECT_EQ(judge_claim(value, m, {}).verdict, Verdict::kCannotBeChecked);

  const std::string head = fixture::lab_toml_head() + kSlowSection;
  const std::string claim = "[[claim]]\ntext = \"t\"\ncitation = \"c\"\nquantity = \"time\"\nexperiment = \"slow\"\n";
  EXPECT_EQ(parse_lab_data(head + claim + "at_least = 3.0\n", "lab.toml").claims[0].at_least, 3.0);
  EXPECT_NE(fixture::lab_toml_error(head + claim).find("needs 'at_least', 'at_most' or both"), std::string::npos);
  EXPECT_NE(fixture::lab_toml_error(head + claim + "at_least = 3.0\nat_most = 2.0\n").find("'at_most' must be at least"),
            std::string::npos);
}

TEST(LabChecks, AnUnknownKeyOfACheckOrReferenceIsNamed) {
  const std::string head = fixture::lab_toml_head() + kSlowSection;
  EXPECT_NE(fixture::lab_toml_error(head + "[[check]]\nexperiments = \"slow\"\nquantity = \"time\"\nat_lest = 3\n")
                .find("[[check]]: unknown key 'at_lest'"),
            std::string::npos);
  EXPECT_NE(fixture::lab_toml_error(head + "[[reference]]\nexperiment = \"slow\"\nquantity = \"time\"\nvalue = 3\n"
                                           "unit = \"ns\"\ngpu = \"g\"\ncitation = \"003_x.txt\"\nnotes = \"n\"\n")
                .find("[[reference]]: unknown key 'notes'"),
            std::string::npos);
}

TEST(LabChecks, ATimeCheckOnBothSidesOfItsBoundIsInconclusiveNotFailed) {
  const LabData lab = parse_lab_data(fixture::lab_toml_head() + kSlowSection +
                                         "[[check]]\nexperiments = \"slow\"\nquantity = \"time\"\nat_least = 34000\n"
                                         "[[check]]\nexperiments = \"fast\"\nquantity = \"time\"\nat_least = 34000\n",
                                     "lab.toml");
  labbook::Measurement m;
  add_launches(m, "slow", {34.1, 33.0, 34.6});
  add_launches(m, "fast", {33.5, 33.4, 33.6});
  const auto outcomes = check_measurement(lab, m);
  ASSERT_GE(outcomes.size(), 2u);
  EXPECT_TRUE(outcomes[0].passed);
  EXPECT_TRUE(outcomes[0].inconclusive) << outcomes[0].text;
  EXPECT_FALSE(outcomes[1].passed) << outcomes[1].text;   // every repeat below the bound
  EXPECT_FALSE(outcomes[1].inconclusive);
}

TEST(ClaimVerdict, OneRunOfATimeEachSaysItsNoiseWasNotMeasured) {
  labbook::Measurement m;
  add_launches(m, "slow", {80.0});
  add_launches(m, "fast", {60.0});
  const ClaimOutcome ratio = judge_claim(ratio_claim(1.1), m, {});
  EXPECT_EQ(ratio.verdict, Verdict::kHolds);
  EXPECT_NE(ratio.reason.find("ratio 1.33 (one run each: the noise was not measured)"), std::string::npos) << ratio.reason;
  add_launches(m, "b128", {90.0});
  add_launches(m, "b256", {60.0});
  add_launches(m, "b1024", {75.0});
  const ClaimOutcome best = judge_claim(best_claim("b256"), m, {});
  EXPECT_EQ(best.verdict, Verdict::kHolds);
  EXPECT_NE(best.reason.find("ahead of b1024 (75.0 µs); one run each: the noise was not measured"), std::string::npos) << best.reason;
  EXPECT_EQ(best.reason.find("beyond the noise"), std::string::npos) << best.reason;
  const ClaimOutcome wrong = judge_claim(best_claim("b128"), m, {});
  EXPECT_EQ(wrong.verdict, Verdict::kDoesNotHold);
  EXPECT_NE(wrong.reason.find("one run each"), std::string::npos) << wrong.reason;
  // Within the tolerance, one run each: only the tolerance kept them apart, not any noise.
  labbook::Measurement close;
  add_launches(close, "b128", {90.0});
  add_launches(close, "b256", {60.0});
  add_launches(close, "b1024", {60.6});
  const ClaimOutcome tie = judge_claim(best_claim("b256", 0.02), close, {});
  EXPECT_EQ(tie.verdict, Verdict::kInconclusive);
  EXPECT_NE(tie.reason.find("within the claim's tolerance (2.00 %) of it; one run each"), std::string::npos) << tie.reason;
  EXPECT_EQ(tie.reason.find("run-to-run noise"), std::string::npos) << tie.reason;
  // Two runs on one side are repeats: the reason shows their spread instead.
  add_launches(m, "slow", {82.0});
  const ClaimOutcome repeated = judge_claim(ratio_claim(1.1), m, {});
  EXPECT_EQ(repeated.reason.find("one run each"), std::string::npos) << repeated.reason;
  EXPECT_NE(repeated.reason.find("with the repeats' noise"), std::string::npos) << repeated.reason;
}

TEST(ClaimVerdict, OneCountOfACounterIsExactNotOneRun) {
  labbook::Measurement m;
  for (const char* range : {"conflicted", "padded"}) {
    labbook::Kernel k;
    k.range = range;
    k.launch = m.kernels.size();
    k.metrics["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"] = range == std::string("conflicted") ? 32 : 1;
    k.metrics["smsp__inst_executed_op_shared_ld.sum"] = 1;
    m.kernels.push_back(k);
  }
  Claim counter;
  counter.quantity = named_quantity("shared_load_transactions_per_request");
  counter.numerator = "conflicted";
  counter.denominator = "padded";
  counter.min_ratio = 16;
  const ClaimOutcome o = judge_claim(counter, m, {});
  EXPECT_EQ(o.verdict, Verdict::kHolds) << o.reason << o.measured;
  EXPECT_EQ(o.reason.find("one run each"), std::string::npos) << o.reason;
  for (const char* name : {"time", "payload_pct", "copy_overlap_pct", "effective_bandwidth_pct_of_peak", "sm_clock",
                           "range_time", "host_bandwidth", "cycles_per_load", "kernels_time_pct"})
    EXPECT_TRUE(named_quantity(name).timed()) << name;
  for (const char* name : {"gld_transactions", "shared_load_transactions_per_request", "payload_bytes"})
    EXPECT_FALSE(named_quantity(name).timed()) << name;
}

TEST(ClaimVerdict, ARatioFarBelowOneKeepsTwoSignificantDigits) {
  EXPECT_EQ(format_ratio(1.234), "1.23");
  EXPECT_EQ(format_ratio(0.05), "0.05");
  EXPECT_EQ(format_ratio(0.00067), "0.00067");
  EXPECT_EQ(format_ratio(0.0049), "0.0049");
  EXPECT_EQ(format_ratio(0), "0.00");
  EXPECT_EQ(format_ratio(0.0067), "0.0067");
  EXPECT_EQ(format_ratio(-0.00067), "-0.00067");
  EXPECT_EQ(format_ratio(1e-300), "0.000000000000");   // capped at 12 decimals
  EXPECT_EQ(format_ratio(std::nan("")), "nan");
  labbook::Measurement m;
  add_launches(m, "slow", {6.7});
  add_launches(m, "fast", {10006.0});
  EXPECT_NE(judge_claim(ratio_claim(0.5), m, {}).reason.find("ratio 0.00067"), std::string::npos);
}

TEST(LabChecks, AnExperimentIsOneRangeOrOneRangePerRunEachWithItsNumber) {
  const LabData lab = parse_lab_data(fixture::lab_toml_head() +
                                         "[[section]]\ntitle = \"S\"\nexperiments = [\"work\", \"call\"]\n"
                                         "quantities = [\"payload_ns\"]\n",
                                     "lab.toml");
  auto range = [](const std::string& path, std::optional<double> payload) {
    labbook::Range r;
    r.path = r.name = path;
    r.start_ns = 1;
    r.end_ns = 2;
    r.payload = payload;
    return r;
  };
  auto problems = [&](const labbook::Measurement& m) {
    std::string out;
    for (const auto& o : check_measurement(lab, m))
      if (!o.passed && o.text.find("in the timeline") != std::string::npos) out += o.text + "\n";
    return out;
  };
  labbook::Measurement m;
  m.ranges = {range("work", std::nullopt), range("call", 1e3), range("call", 2e3), range("call", 1.5e3)};
  EXPECT_EQ(problems(m), "");   // three runs of "call", each with its number: its repeats
  m.ranges.push_back(range("work", std::nullopt));
  EXPECT_EQ(problems(m), "range work appears 2 times in the timeline, not every time with a payload\n");
  m.ranges = {range("work", std::nullopt)};
  EXPECT_EQ(problems(m), "range call appears 0 times in the timeline\n");
}
