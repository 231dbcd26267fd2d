// The HTML around a sheet: shared stylesheet, navigation, links between sibling pages and
// highlighted CUDA code, with nothing fetched from the network.
#include <gtest/gtest.h>

#include "cmark_document.h"
#include "html_page.h"
#include "markdown_writer.h"
#include "sheet.h"

using namespace labbook::report;

TEST(HtmlPage, LinksTheStylesheetAndMarksTheCurrentPage) {
  const Navigation nav{{{"index", "Index"}, {"lab3", "Lab 3"}, {"lab4", "Lab 4 <&>"}}, "lab3"};
  const std::string page = html_page("T <1>", "<p>x</p>\n", nav);
  EXPECT_NE(page.find("<title>T &lt;1&gt;</title>"), std::string::npos);
  EXPECT_NE(page.find("<link rel=\"stylesheet\" href=\"labbook.css\">"), std::string::npos);
  EXPECT_NE(page.find("<a href=\"lab3.html\" class=\"current\">Lab 3</a>"), std::string::npos);
  EXPECT_NE(page.find("<a href=\"lab4.html\">Lab 4 &lt;&amp;&gt;</a>"), std::string::npos);
  EXPECT_EQ(html_page("T", "<p>x</p>\n").find("<nav"), std::string::npos) << "no bar outside the workbook";
  EXPECT_EQ(page.find("http"), std::string::npos) << "nothing from the network";
  EXPECT_EQ(stylesheet().find("http"), std::string::npos);
  EXPECT_EQ(stylesheet().find("@import"), std::string::npos);
}

TEST(HtmlPage, EveryHeadingHasAnAnchorAndTheContentsListThem) {
  const std::string body = markdown_to_html(
      "# Lab 4\n\nintro\n\n## Results\n\n### Misaligned reads, L1 cached\n\n### The `__ldcg` path\n\n"
      "## Results\n\n#### Detail\n\n## Questions & answers\n");
  const std::string page = html_page("T", body);
  EXPECT_NE(page.find("<h2 id=\"results\">Results <a class=\"anchor\" href=\"#results\""), std::string::npos) << page;
  EXPECT_NE(page.find("<h2 id=\"results-2\">"), std::string::npos) << "a second heading of the same text";
  EXPECT_NE(page.find("<h3 id=\"misaligned-reads-l1-cached\">"), std::string::npos);
  EXPECT_NE(page.find("<h3 id=\"the-ldcg-path\">"), std::string::npos) << "markup is no part of the name";
  EXPECT_NE(page.find("<h4 id=\"detail\">"), std::string::npos);
  EXPECT_NE(page.find("<h2 id=\"questions-answers\">"), std::string::npos);
  // The contents: a menu right after the title (narrow screens) and a sidebar before the
  // page's main part (wide ones), h2s with their h3s nested; no h4.
  const std::size_t title = page.find("</h1>"), menu = page.find("<nav class=\"contents menu\"");
  ASSERT_NE(menu, std::string::npos);
  EXPECT_LT(title, menu);
  EXPECT_LT(menu, page.find("<p>intro</p>"));
  EXPECT_EQ(page.find("<details open>"), std::string::npos) << "closed on a phone until tapped";
  const std::size_t sidebar = page.find("<nav class=\"contents sidebar\"");
  ASSERT_NE(sidebar, std::string::npos);
  EXPECT_LT(sidebar, page.find("<main>"));
  EXPECT_LT(page.find("<main>"), page.find("<h1"));
  EXPECT_NE(page.find("<body class=\"with-contents\">"), std::string::npos);
  EXPECT_NE(page.find("<li><a href=\"#results\">Results</a><ol><li><a href=\"#misaligned-reads-l1-cached\">"),
            std::string::npos) << page;
  EXPECT_EQ(page.find("href=\"#detail\">Detail</a></li>"), std::string::npos) << "no h4 in the contents";
  // Every "#" link on the page names an id the page has.
  for (std::size_t at = page.find("href=\"#"); at != std::string::npos; at = page.find("href=\"#", at + 1)) {
    const std::string id = page.substr(at + 7, page.find('"', at + 7) - at - 7);
    EXPECT_NE(page.find("id=\"" + id + "\""), std::string::npos) << id;
  }
  const std::string short_page = html_page("T", markdown_to_html("# T\n\n## One\n"));
  EXPECT_EQ(short_page.find("nav class=\"contents"), std::string::npos) << "a short page has no contents box";
  EXPECT_EQ(short_page.find("<main>"), std::string::npos);
}

TEST(HtmlPage, LinksToSiblingMarkdownPagesBecomeLinksToTheirHtml) {
  const std::string body = markdown_to_html("[lab 4](lab4.md), [part](lab5.md#results), [web](https://example.org/a.md)\n");
  const std::string page = html_page("T", body);
  EXPECT_NE(page.find("href=\"lab4.html\""), std::string::npos) << page;
  EXPECT_NE(page.find("href=\"lab5.html#results\""), std::string::npos) << page;
  EXPECT_NE(page.find("href=\"https://example.org/a.md\""), std::string::npos) << "other sites' links are left alone";
}

TEST(HtmlPage, CudaCodeBlocksAreHighlightedAndStayEscaped) {
  const std::string body = markdown_to_html(
      "```cuda\n__global__ void k(float* a) { // a < b\n  a[threadIdx.x] = 2.5f; const char* s = \"x<y\";\n}\n```\n");
  const std::string html = highlight_code_blocks(body);
  EXPECT_NE(html.find("<span class=\"tok-keyword\">__global__</span>"), std::string::npos) << html;
  EXPECT_NE(html.find("<span class=\"tok-keyword\">threadIdx</span>"), std::string::npos);
  EXPECT_NE(html.find("<span class=\"tok-comment\">// a &lt; b</span>"), std::string::npos) << html;
  EXPECT_NE(html.find("<span class=\"tok-number\">2.5f</span>"), std::string::npos) << html;
  EXPECT_NE(html.find("<span class=\"tok-string\">&quot;x&lt;y&quot;</span>"), std::string::npos) << html;
  EXPECT_EQ(html.find("<y"), std::string::npos) << "text stays escaped";
  const std::string plain = markdown_to_html("```\nfloat x;\n```\n");
  EXPECT_EQ(highlight_code_blocks(plain), plain) << "blocks without a C/C++/CUDA language are left alone";
}

TEST(HtmlPage, TableCellsMayWrapBetweenTheWordsOfANameAndNowhereElse) {
  const std::string body = markdown_to_html(
      "Text readSegment/offset=0 and gld_transactions_per_request stay whole outside tables.\n\n"
      "| Experiment | Quantity | Kernel | Sizes | Kept | Link |\n| --- | --- | --- | --- | --- | --- |\n"
      "| readSegment/offset=0 | gld_transactions_per_request | labbook::kernels::MatMulKernel&lt;float&gt; | "
      "cublas/float/m=1024,k=2048 | 2546.6 GB/s, 4,194,304 sectors (fermi_ca) | [x](a_b/c_d.html) |\n"
      "| readSegmentUncached | cudaMemcpyAsync | a_b | c | d | e |\n");
  const std::string page = html_page("T", body);
  for (const char* broken : {"readSegment/<wbr>offset=0", "gld_<wbr>transactions_<wbr>per_<wbr>request",
                             "labbook::<wbr>kernels::<wbr>MatMulKernel&lt;float&gt;", "cublas/<wbr>float/m=1024,<wbr>k=2048",
                             "read<wbr>Segment<wbr>Uncached"})
    EXPECT_NE(page.find(broken), std::string::npos) << broken << "\n" << page;
  for (const char* whole : {"2546.6 GB/s", "4,194,304 sectors (fermi_ca)", "href=\"a_b/c_d.html\"",
                            "Text readSegment/offset=0 and gld_transactions_per_request stay",
                            "cudaMemcpyAsync"})
    EXPECT_NE(page.find(whole), std::string::npos) << whole << "\n" << page;
  EXPECT_EQ(page.find("<wbr>", page.find("</table>")), std::string::npos) << "none after the table";
}

TEST(HtmlPage, ALongEntryOfTheContentsWrapsBetweenNamesAndItsHeadingStaysWhole) {
  const std::string body = markdown_to_html(
      "# Profile\n\n## GPU activities\n\n## Memory charts\n\n### readSegment/offset=0: labbook::kernels::readSegment\n");
  const std::string page = html_page("T", body);
  const std::string entry = "readSegment/<wbr>offset=0: labbook::<wbr>kernels::<wbr>readSegment</a>";
  const std::size_t sidebar = page.find("<nav class=\"contents sidebar\"");
  ASSERT_NE(sidebar, std::string::npos) << page;
  EXPECT_NE(page.find(entry, sidebar), std::string::npos) << page;
  EXPECT_NE(page.find("<nav class=\"contents menu\""), std::string::npos);
  EXPECT_NE(page.find(entry, page.find("<nav class=\"contents menu\"")), std::string::npos) << "the menu too";
  EXPECT_NE(page.find(">readSegment/offset=0: labbook::kernels::readSegment <a class=\"anchor\""), std::string::npos)
      << "the heading itself is left as written\n" << page;
}
