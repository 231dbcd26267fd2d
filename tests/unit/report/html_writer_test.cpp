// The sheet's HTML written from its blocks: badges, folds, folded sections, labelled cells,
// and names from a measurement that stay text.
#include <gtest/gtest.h>

#include "html_writer.h"
#include "markdown_writer.h"
#include "sheet.h"
#include "svg_checks.h"

using namespace labbook::report;

using labbook::test::count;

namespace {

}  // namespace

TEST(HtmlWriter, VerdictsAreBadgesOfTheirKindAndBoldTextStaysBold) {
  Sheet sheet;
  Table t{{"Claim", "Verdict"}, {}};
  t.rows.push_back({"a", Text{badge(Badge::kHolds, "holds here"), {": ratio 2.00"}}});
  t.rows.push_back({"b", Text{badge(Badge::kDoesNotHold, "does not hold here")}});
  t.rows.push_back({"c", Text{strong("bold, not a verdict")}});
  sheet.table(t);
  const std::string html = html_body(sheet);
  EXPECT_NE(html.find("<span class=\"badge badge-holds\">holds here</span>: ratio 2.00"), std::string::npos) << html;
  EXPECT_NE(html.find("<span class=\"badge badge-does-not-hold\">does not hold here</span>"), std::string::npos);
  EXPECT_NE(html.find("<strong>bold, not a verdict</strong>"), std::string::npos);
  EXPECT_NE(to_markdown(sheet).find("| ✅ **holds here**: ratio 2.00 |"), std::string::npos) << "the Markdown keeps the symbol";
}

TEST(HtmlWriter, EveryCellNamesItsColumnAndNamesStayText) {
  Sheet sheet;
  Table t;
  t.header = {Text{"Kernel"}, Text{strong("Time"), Span{" (µs)"}}};
  t.rows.push_back({Text{code("k<float*, 4>")}, Text{"1.0"}});
  t.rows.push_back({Text{"operator|<a href=x>"}, Text{authored("`code` and *emphasis*")}});
  sheet.table(t);
  const std::string html = html_body(sheet);
  EXPECT_NE(html.find("<td data-label=\"Kernel\"><code>k&lt;float*, 4&gt;</code></td>"), std::string::npos) << html;
  EXPECT_NE(html.find("<td data-label=\"Time (µs)\">1.0</td>"), std::string::npos) << html;
  EXPECT_NE(html.find("operator|&lt;a href=x&gt;"), std::string::npos) << "a name is never markup";
  EXPECT_NE(html.find("<code>code</code> and <em>emphasis</em>"), std::string::npos) << "authored text is Markdown";
  EXPECT_EQ(html.find("<p>"), std::string::npos) << "an authored cell is inline: " << html;
}

TEST(HtmlWriter, FoldedSectionsRunToTheNextSecondLevelHeading) {
  Sheet sheet;
  sheet.heading(2, "1. Misaligned reads");
  sheet.markdown("Open text.");
  sheet.folded_heading("How this was measured");
  sheet.heading(3, "GPU");
  sheet.markdown("Folded text.");
  sheet.folded_heading("References");
  sheet.markdown("Folded too.");
  const std::string html = html_body(sheet);
  EXPECT_NE(html.find("<h2>1. Misaligned reads</h2>"), std::string::npos) << "an ordinal stays a heading: " << html;
  EXPECT_NE(html.find("<details class=\"section\"><summary><h2>How this was measured</h2></summary>"), std::string::npos);
  EXPECT_EQ(count(html, "<details class=\"section\">"), 2u);
  EXPECT_EQ(count(html, "</details>"), 2u);
  EXPECT_LT(html.find("Open text."), html.find("<details")) << "what comes before stays open";
  EXPECT_LT(html.find("Folded text."), html.find("</details>")) << "a third-level heading does not end the fold";
  EXPECT_EQ(html.find(kFoldMark), std::string::npos) << "the mark becomes the fold";
}

TEST(HtmlWriter, AFoldHoldsItsBlocksAndTheMarkdownShowsThemUnderItsLine) {
  Sheet inside;
  inside.list({"first", "second"});
  inside.table({{"a"}, {{"1"}}});
  Sheet sheet;
  sheet.fold("The sources' claims here: 2", std::move(inside));
  sheet.markdown("After.");
  const std::string html = html_body(sheet);
  ASSERT_NE(html.find("<details class=\"folded\"><summary>The sources' claims here: 2</summary>"), std::string::npos) << html;
  EXPECT_LT(html.find("<li>second</li>"), html.find("</details>"));
  EXPECT_LT(html.find("</table>"), html.find("</details>"));
  EXPECT_GT(html.find("After."), html.find("</details>"));
  const std::string markdown = to_markdown(sheet);
  EXPECT_NE(markdown.find(std::string(kFoldMark) + " **The sources' claims here: 2**\n\n- first\n- second\n"), std::string::npos)
      << markdown;
}

TEST(HtmlWriter, ALongTableFoldsUnderItsLineAndNotesFoldWhenAsked) {
  Table sweep{{"offset", "GB/s"}, {{"0", "2000"}}};
  sweep.folded_under = "The sweep's table: 34 values of offset";
  Table explained{{"kernel"}, {{"CopyRow (note 3)"}}, {"The upper bound.", "The lower bound."}, 3};
  explained.fold_notes = true;
  Sheet sheet;
  sheet.table(sweep);
  sheet.table(explained);
  const std::string html = html_body(sheet);
  EXPECT_NE(html.find("<details class=\"folded\"><summary>The sweep's table: 34 values of offset</summary>\n<table>"),
            std::string::npos)
      << html;
  EXPECT_NE(html.find("<summary>Notes 3–4 on these rows</summary>\n<ol start=\"3\" class=\"notes\">"), std::string::npos) << html;
  EXPECT_EQ(count(html, "<details"), 2u) << "the second table itself stays open";
}

TEST(HtmlWriter, AProfileOfThousandsOfKernelsIsWrittenWhole) {
  Table t{{"Kernel", "Time"}, {}};
  for (int i = 0; i < 20000; ++i) t.rows.push_back({"kernel_" + std::to_string(i) + "_with_a_long_name", "1.0 µs"});
  Sheet sheet;
  sheet.table(t);
  const std::string html = html_body(sheet);
  EXPECT_EQ(count(html, "<td data-label=\"Time\">1.0 µs</td>"), 20000u);
}
