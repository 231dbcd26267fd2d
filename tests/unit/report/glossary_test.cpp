// The glossary: its file's errors name file and line, and a sheet's HTML links the first use
// of each term, never inside links, code, headings or experiment names.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>

#include <unistd.h>

#include "glossary.h"
#include "labbook/model/error.h"
#include "svg_checks.h"

using namespace labbook::report;

using labbook::test::count;

namespace {

std::string write_temp(const std::string& text) {
  char name[] = "/tmp/glossary-test-XXXXXX";
  const int fd = mkstemp(name);
  if (fd >= 0) close(fd);
  std::ofstream(name) << text;
  return name;
}

std::string error_of(const std::string& toml) {
  const std::string path = write_temp(toml);
  try {
    load_glossary(path);
  } catch (const labbook::Error& e) {
    std::remove(path.c_str());
    return e.what();
  }
  std::remove(path.c_str());
  return "";
}

Glossary two_terms() {
  return {"g.toml",
          {{"bank", {"bank", "banks"}, "Shared memory is divided into 32 banks. More.", 1},
           {"bank conflict", {"bank conflict", "bank conflicts"}, "Two lanes on one bank.", 2},
           {"pinned memory", {"pinned memory", "pinned"}, "Page-locked `host` memory.", 3}}};
}

}  // namespace

TEST(Glossary, TheWorkbooksGlossaryLoads) {
  const Glossary g = load_glossary(std::string(LABBOOK_SOURCE_DIR) + "/labs/glossary.toml");
  EXPECT_GE(g.terms.size(), 20u);
  const Sheet sheet = build_glossary_sheet(g);
  EXPECT_EQ(sheet.data.at("terms").size(), g.terms.size());
}

TEST(Glossary, MistakesNameTheFileAndLine) {
  EXPECT_NE(error_of("[[term]]\nname = \"a\"\n").find(":1: [[term]]: missing 'text'"), std::string::npos)
      << error_of("[[term]]\nname = \"a\"\n");
  const std::string twice = error_of("[[term]]\nname = \"a\"\ntext = \"x\"\n\n[[term]]\nname = \"b\"\nalso = [\"A\"]\ntext = \"y\"\n");
  EXPECT_NE(twice.find(":7: [[term]]: 'also' 'A' is already a form of 'a'"), std::string::npos) << twice;
  const std::string unknown = error_of("[[term]]\nname = \"a\"\ntext = \"x\"\nsee = \"b\"\n");
  EXPECT_NE(unknown.find(":4:"), std::string::npos) << unknown;
  EXPECT_NE(unknown.find("see"), std::string::npos) << unknown;
  EXPECT_NE(error_of("").find("no [[term]]"), std::string::npos);
}

TEST(Glossary, LinksTheFirstUseOfEachTermOnly) {
  const std::string html = "<p>Banks serve words; a bank conflict serialises. Banks again, bank conflicts again.</p>\n";
  const std::string out = link_glossary_terms(html, two_terms());
  EXPECT_NE(out.find("<a class=\"term\" href=\"glossary.html#bank\" title=\"Shared memory is divided into 32 banks.\">Banks</a> serve"),
            std::string::npos) << out;
  EXPECT_NE(out.find("a <a class=\"term\" href=\"glossary.html#bank-conflict\""), std::string::npos)
      << "the longer form wins where both start: " << out;
  EXPECT_EQ(count(out, "class=\"term\""), 2u) << out;
}

TEST(Glossary, LeavesCodeLinksHeadingsAndNamesAlone) {
  const std::string html =
      "<h2>pinned memory</h2>\n<p><code>pinned</code> <a href=\"x.html\">pinned</a> copy/pinned/h2d "
      "pinned_alloc L2-pinned</p>\n<table><tr><th>pinned</th></tr><tr><td>pinned.</td></tr></table>\n";
  const std::string out = link_glossary_terms(html, two_terms());
  EXPECT_EQ(count(out, "class=\"term\""), 1u) << out;
  EXPECT_NE(out.find("<td><a class=\"term\" href=\"glossary.html#pinned-memory\" title=\"Page-locked host memory.\">pinned</a>.</td>"),
            std::string::npos) << "the first use outside code, links, headings, names and headers: " << out;
}
