#include "row_pieces.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "labbook/model/measurement_json.h"
#include "measurement_samples.h"

using namespace labbook;
using namespace measurement_samples;
using nlohmann::json;

namespace {

/// What read_measurement makes of `text`, and what the whole document's reader makes of it.
void reads_as_its_whole_document(const std::string& text, const char* how) {
  const std::string path = testing::TempDir() + "/row-pieces.json";
  std::ofstream(path) << text;
  EXPECT_EQ(to_json(read_measurement(path)), to_json(measurement_from_json(json::parse(text), "mem"))) << how;
  std::remove(path.c_str());
}

}  // namespace

TEST(RowPieces, CutsTheTablesRowsIntoArraysOfWholeRows) {
  const std::string text = measurement_text(sample_with_launches(0));
  std::string cut_text = text;
  const auto cut = cut_rows(cut_text.data(), cut_text.size(), 8);
  ASSERT_TRUE(cut.has_value());
  const json whole = json::parse(text);
  json rest = json::parse(cut->rest);
  ASSERT_EQ(cut->tables.size(), 5u) << "every table that has rows";
  for (const RowPieces& table : cut->tables) {
    if (table.key == "kernels") {
      EXPECT_GT(table.pieces.size(), 2u) << "3 MB of rows";
    }
    json rows = json::array();
    for (std::string_view piece : table.pieces)
      for (const json& row : json::parse(piece)) rows.push_back(row);
    EXPECT_EQ(rows, whole[table.key]["rows"]) << table.key << ": every row, once, in order";
    EXPECT_EQ(rest[table.key]["rows"], json::array()) << table.key;
    rest[table.key]["rows"] = rows;
  }
  EXPECT_EQ(rest, whole) << "the rest is the document without those rows";
}

TEST(RowPieces, CutsNothingOutsideATopLevelTablesRows) {
  const std::string text = measurement_text(sample_with_launches(0));
  const auto uncut = [](std::string changed) {
    const std::string before = changed;
    const bool none = !cut_rows(changed.data(), changed.size(), 8);
    return none && changed == before;
  };
  std::string nested = text;   // the kernels' table inside another member, laid out as at the top
  nested.insert(nested.find("\n \"kernels\""), "\n \"wrapper\": {\"x\": 1,");
  nested.insert(nested.find("\n ]}", nested.find("\"wrapper\"")) + 4, "}");
  ASSERT_NO_THROW(json::parse(nested));
  EXPECT_TRUE(uncut(nested)) << "rows nested a level deeper";
  std::string renamed = text;
  renamed.replace(renamed.find("\"kernels\""), 9, "\"kernals\"");
  EXPECT_TRUE(uncut(renamed)) << "rows of a member that holds no records";
  std::string twice = text;
  twice.replace(twice.find("\"api_calls\""), 11, "\"kernels\"");
  EXPECT_TRUE(uncut(twice)) << "a table named twice";
  EXPECT_TRUE(uncut(measurement_text(sample()))) << "rows too few to be worth the threads";
}

TEST(RowPieces, RowsOverSeveralLinesAreReadAsTheirWholeDocumentReadsThem) {
  // Each kernel's grid and block on lines of their own, which start as rows do: a cut between
  // them leaves a piece with an unclosed row, which simdjson refuses, and read_measurement
  // then reads the whole document.
  std::string text = measurement_text(sample_with_launches(0));
  const std::size_t kernels = text.find("\n \"kernels\""), end = text.find("\n ]}", kernels);
  std::string broken = text.substr(0, kernels);
  for (std::size_t at = kernels; at < end;) {
    const std::size_t cell = std::min(text.find(",[", at), end);
    broken.append(text, at, cell - at);
    if (cell < end) broken += ",\n  [";
    at = cell < end ? cell + 2 : end;
  }
  broken.append(text, end);
  ASSERT_NO_THROW(json::parse(broken));
  ASSERT_GE(broken.size(), text.size() + 20000 * 2 * 3) << "every kernel's row broken twice";
  // However many pieces (a machine's cores), a cut whose pieces all parse holds every row.
  const json whole = json::parse(broken);
  bool some_refused = false;
  for (std::size_t pieces : {2, 3, 5, 8, 13}) {
    std::string cut_text = broken;
    const auto cut = cut_rows(cut_text.data(), cut_text.size(), pieces);
    ASSERT_TRUE(cut.has_value()) << "the layout inside a table's rows is not looked at";
    for (const RowPieces& table : cut->tables) {
      json rows = json::array();
      bool refused = false;
      for (std::string_view piece : table.pieces) {
        refused = !json::accept(piece);
        if (refused) break;
        for (const json& row : json::parse(piece)) rows.push_back(row);
      }
      some_refused |= refused;
      if (!refused) {
        EXPECT_EQ(rows, whole[table.key]["rows"]) << table.key << " in about " << pieces << " pieces";
      }
    }
  }
  EXPECT_TRUE(some_refused) << "a piece that ends inside a row is not JSON";
  reads_as_its_whole_document(broken, "rows over several lines");
}
