#include <gtest/gtest.h>

#include "cmark_document.h"
#include "labbook/model/error.h"
#include "markdown_writer.h"

using namespace labbook::report;

TEST(CmarkDocument, TablesRoundTripThroughCmarkGfmIncludingPipes) {
  Sheet s;
  s.heading(1, "T");
  s.table({{"a", "b|c"}, {{"1 | 2", "**bold** `code`"}, {"", "x"}}});
  const std::string md = to_markdown(s);
  EXPECT_NO_THROW(validate_markdown(s, md));
  const auto tables = parse_tables(md);
  ASSERT_EQ(tables.size(), 1u);
  EXPECT_EQ(tables[0].header.at(1), "b|c");
  EXPECT_EQ(tables[0].rows.at(0).at(0), "1 | 2");
  EXPECT_EQ(tables[0].rows.at(0).at(1), "bold code");
}

TEST(CmarkDocument, ValidationCatchesATableThatDoesNotParse) {
  Sheet s;
  s.table({{"a", "b"}, {{"1", "2"}}});
  EXPECT_THROW(validate_markdown(s, "| a | b |\n| 1 | 2 |\n"), labbook::Error) << "no delimiter row: no table";
  EXPECT_THROW(validate_markdown(s, "| a | b |\n| --- | --- |\n| 1 | 3 |\n"), labbook::Error);
}

TEST(CmarkDocument, RendersHtmlTables) {
  const std::string html = markdown_to_html("| a |\n| --- |\n| 1 |\n");
  EXPECT_NE(html.find("<table>"), std::string::npos);
  EXPECT_NE(html.find("<td>1</td>"), std::string::npos);
}
