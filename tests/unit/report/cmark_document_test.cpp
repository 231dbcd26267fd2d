#include <gtest/gtest.h>

#include "cmark_document.h"
#include "markdown_tables.h"
#include "labbook/model/error.h"
#include "markdown_writer.h"

using namespace labbook::report;

namespace {
// Kernel names as programs written by others produce them: templates, pointers, operators,
// lambdas, anonymous namespaces, and characters that mean something in Markdown or HTML.
const std::vector<std::string> kHostileNames = {
    "void testKernel<unsigned char>(unsigned char*, int)",
    "void k<float, 4>(float*, int)",
    "void apply<Scale, float*>(Scale, float*, int)",
    "void combine<&operator|(Flags, Flags)>(Flags*, int)",
    "void (anonymous namespace)::hidden(int*)",
    "void main::{lambda(int)#1}::operator()(int) const",
    "k<a_b, _c_>(x) & y ~~z~~ [link](http://x) `tick` ``two`` www.x.org a@b.com \\back *star* **strong** <b>bold</b> &amp;",
    "# not a heading",
    "- not a list",
    "1. not a list either",
    "ends in a backquote `",
};
}  // namespace

TEST(CmarkDocument, TablesRoundTripThroughCmarkGfmIncludingPipes) {
  Sheet s;
  s.heading(1, "T");
  s.table({{"a", "b|c"}, {{"1 | 2", {strong("bold"), {" "}, code("code|x")}}, {"", "x"}}});
  const std::string md = to_markdown(s);
  EXPECT_NO_THROW(validate_markdown(s, md));
  const auto tables = parse_tables(md);
  ASSERT_EQ(tables.size(), 1u);
  EXPECT_EQ(tables[0].header.at(1), "b|c");
  EXPECT_EQ(tables[0].rows.at(0).at(0), "1 | 2");
  EXPECT_EQ(tables[0].rows.at(0).at(1), "bold code|x");
  const std::string html = markdown_to_html(md);
  EXPECT_NE(html.find("<strong>bold</strong> <code>code|x</code>"), std::string::npos) << html;
}

TEST(CmarkDocument, HostileKernelNamesRoundTripInCellsCodeAndLines) {
  Sheet s;
  Table t{{"Kernel", "As code"}, {}};
  std::vector<Text> lines, items;
  for (const auto& name : kHostileNames) {
    t.rows.push_back({name, {code(name)}});
    lines.push_back(name);
    items.push_back({code("id"), {": " + name}});
  }
  s.table(t);
  s.lines(lines);
  s.list(items);
  const std::string md = to_markdown(s);
  EXPECT_NO_THROW(validate_markdown(s, md)) << md;
  const auto tables = parse_tables(md);
  ASSERT_EQ(tables.size(), 1u) << md;
  for (std::size_t i = 0; i < kHostileNames.size(); ++i) {
    EXPECT_EQ(tables[0].rows.at(i).at(0), kHostileNames[i]);
    // A code span keeps its text but the parser trims one space of padding on each side.
    EXPECT_EQ(tables[0].rows.at(i).at(1), kHostileNames[i]);
  }
  // Outside tables: no raw HTML, no heading, no nested list, no link, no emphasis.
  const std::string html = markdown_to_html(md);
  EXPECT_EQ(html.find("raw HTML omitted"), std::string::npos) << html;
  EXPECT_EQ(html.find("<h1>"), std::string::npos);
  EXPECT_EQ(html.find("<ol>"), std::string::npos);
  EXPECT_EQ(html.find("<a href"), std::string::npos);
  EXPECT_EQ(html.find("<em>"), std::string::npos);
  EXPECT_EQ(html.find("<del>"), std::string::npos);
  EXPECT_NE(html.find("void testKernel&lt;unsigned char&gt;(unsigned char*, int)<br />"), std::string::npos) << html;
  EXPECT_NE(html.find("<li><code>id</code>: void combine&lt;&amp;operator|(Flags, Flags)&gt;(Flags*, int)</li>"),
            std::string::npos) << html;
  EXPECT_NE(html.find("# not a heading"), std::string::npos);
}

TEST(CmarkDocument, HeadingsBlanksCarriageReturnsAndEmptySpansStayText) {
  Sheet s;
  s.heading(1, "labbook profile: " + escape_inline("./a_<b>*c*[x](http://e)"));
  s.lines({"   # not a heading", "    not code", "x\r# not a heading either", {strong(""), code("")},
           {strong(" padded "), {"end"}}});
  s.table({{"a"}, {{"1\r| 2"}}});
  const std::string md = to_markdown(s);
  EXPECT_NO_THROW(validate_markdown(s, md)) << md;
  const std::string html = markdown_to_html(md);
  EXPECT_NE(html.find("<h1>labbook profile: ./a_&lt;b&gt;*c*[x](http://e)</h1>"), std::string::npos) << html;
  EXPECT_EQ(html.find("<h1>", html.find("</h1>")), std::string::npos) << html;
  EXPECT_EQ(html.find("<pre>"), std::string::npos) << html;
  EXPECT_EQ(html.find("<hr"), std::string::npos) << html;
  EXPECT_EQ(html.find("<em>"), std::string::npos) << html;
  EXPECT_NE(html.find("<strong>padded</strong> end"), std::string::npos) << html;
}

TEST(CmarkDocument, UnderscoresInsideWordsStayBare) {
  EXPECT_EQ(escape_inline("gld_efficiency"), "gld_efficiency");
  EXPECT_EQ(escape_inline("_Z3fooPf_"), "\\_Z3fooPf\\_");
}

TEST(CmarkDocument, ValidationCatchesATableThatDoesNotParse) {
  Sheet s;
  s.table({{"a", "b"}, {{"1", "2"}}});
  EXPECT_THROW(validate_markdown(s, "| a | b |\n| 1 | 2 |\n"), labbook::Error) << "no delimiter row: no table";
  EXPECT_THROW(validate_markdown(s, "| a | b |\n| --- | --- |\n| 1 | 3 |\n"), labbook::Error);
  EXPECT_THROW(validate_markdown(s, "| a | c |\n| --- | --- |\n| 1 | 2 |\n"), labbook::Error) << "header differs";
}

TEST(CmarkDocument, RendersHtmlTables) {
  const std::string html = markdown_to_html("| a |\n| --- |\n| 1 |\n");
  EXPECT_NE(html.find("<table>"), std::string::npos);
  EXPECT_NE(html.find("<td>1</td>"), std::string::npos);
}
