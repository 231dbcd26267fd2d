// The lab sheets' bar chart: bars on one scale, missing values left out, text escaped.
#include <gtest/gtest.h>

#include "bar_chart.h"
#include "lab_data.h"
#include "labbook/model/error.h"
#include "lab_toml_fixture.h"

using namespace labbook::report;

TEST(BarChart, BarsShareOneScaleAndMissingValuesAreLeftOut) {
  const std::string svg = bar_chart_svg("Bandwidth <all>", {{"a", 50.0, 100.0}, {"b<&>", std::nullopt, 25.0}}, "%",
                                        "source (Tesla M2090)");
  EXPECT_NE(svg.find("<title>Bandwidth &lt;all&gt;</title>"), std::string::npos);
  EXPECT_NE(svg.find(">b&lt;&amp;&gt;</text>"), std::string::npos);
  EXPECT_NE(svg.find("width=\"520.0\""), std::string::npos) << "the largest value spans the plot";
  EXPECT_NE(svg.find("width=\"260.0\""), std::string::npos) << "half of it, half the width";
  EXPECT_NE(svg.find("width=\"130.0\""), std::string::npos);
  EXPECT_NE(svg.find(">100.00 %</text>"), std::string::npos);
  std::size_t bars = 0;
  for (std::size_t at = svg.find("height=\"10.0\" fill"); at != std::string::npos; at = svg.find("height=\"10.0\" fill", at + 1))
    ++bars;
  EXPECT_EQ(bars, 3u) << "b has no source bar";
}

TEST(BarChart, LabDataChartNamesAKnownQuantity) {
  const std::string lab = fixture::lab_toml_head(R"(["gld_efficiency"])") + R"([[section]]
title = "S"
experiments = ["a"]
quantities = ["time"]
[[chart]]
title = "C"
quantity = "effective_bandwith"
experiments = ["a"]
)";
  EXPECT_NE(fixture::lab_toml_error(lab).find("lab.toml:19: [[chart]]: 'quantity' names unknown quantity"),
            std::string::npos)
      << fixture::lab_toml_error(lab);
}
