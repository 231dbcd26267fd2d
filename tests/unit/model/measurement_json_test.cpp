#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <string_view>

#include <nlohmann/json.hpp>

#include "labbook/model/error.h"
#include "labbook/model/measurement_json.h"
#include "measurement_samples.h"

using namespace labbook;
using namespace measurement_samples;

TEST(MeasurementJson, RoundTripKeepsEveryField) {
  const Measurement m = sample();
  const Measurement back = measurement_from_json(to_json(m), "mem");
  EXPECT_EQ(to_json(back), to_json(m));
  EXPECT_EQ(back.kernels.at(0).metrics.begin()->second, 80.0000257);
  EXPECT_FALSE(back.ranges.at(1).end_ns.has_value());
  EXPECT_EQ(back.ranges.at(1).payload, 4096.5);
  EXPECT_FALSE(back.ranges.at(0).payload.has_value());
  EXPECT_EQ(back.copies.at(0).kind, CopyKind::HostToDevice);
  EXPECT_DOUBLE_EQ(back.devices.at(0).peak_dram_bytes_per_second(), 3352.32e9);
}

TEST(MeasurementJson, WritesAtomicallyAndReadsBack) {
  const auto dir = std::filesystem::temp_directory_path() / "labbook-json-test";
  std::filesystem::remove_all(dir);
  const std::string path = (dir / "sub" / "m.json").string();
  write_measurement(sample(), path);
  EXPECT_EQ(to_json(read_measurement(path)), to_json(sample()));
  // The file holds the records as tables, a row per line: the kernel's and the copy's names
  // once in the list of strings, times counted from the earliest.
  std::ifstream in(path);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto file = nlohmann::json::parse(text);
  EXPECT_EQ(file["schema_version"], kMeasurementSchemaVersion);
  EXPECT_EQ(file["time_origin_ns"], 10u);
  EXPECT_EQ(file["kernels"]["rows"].size(), 1u);
  const Measurement s = sample();
  const std::size_t records = s.ranges.size() + s.kernels.size() + s.copies.size() + s.api_calls.size() + s.memory_events.size();
  std::size_t record_lines = 0;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) record_lines += line.rfind("  [", 0) == 0;   // a whole row
  EXPECT_EQ(record_lines, records);
  write_measurement(Measurement{}, path);
  EXPECT_EQ(to_json(read_measurement(path)), to_json(Measurement{})) << "no record at all";
  for (const auto& e : std::filesystem::directory_iterator(dir / "sub"))
    EXPECT_EQ(e.path().filename(), "m.json") << "a temporary file was left behind";
  std::filesystem::remove_all(dir);
}

TEST(MeasurementJson, RejectsMalformedFilesNamingTheField) {
  const nlohmann::json good = to_json(sample());
  auto j = good;
  j["schema_version"] = 99;
  expect_rejected(j, "/schema_version: this labbook reads versions 1 to " + std::to_string(kMeasurementSchemaVersion) + ", not 99");
  j = good;
  j.erase("kernels");
  expect_rejected(j, "/kernels: missing");
  j = good;
  j["kernels"][0]["grid"] = {1, 2};
  expect_rejected(j, "/kernels/0/grid: expected an array of 3 integers");
  j = good;
  j["kernels"][0]["metrics"]["x"] = "fast";
  expect_rejected(j, "/kernels/0/metrics/x: expected a number");
  j = good;
  j["ranges"][0]["end_ns"] = 50;
  expect_rejected(j, "/ranges/0/end_ns: ends before it starts");
  j = good;
  j["devices"][0]["sm_count"] = -1.5;
  expect_rejected(j, "/devices/0/sm_count: expected an integer");
  j = good;
  j["copies"][0]["bytes"] = -4;
  expect_rejected(j, "/copies/0/bytes: expected a non-negative integer");
  j = good;
  j["kernels"][0]["correlation"] = std::uint64_t{1} << 32;   // a uint32
  expect_rejected(j, "/kernels/0/correlation: out of range");
  j = good;
  j["kernels"][0]["device"] = -(std::int64_t{1} << 40);   // an int
  expect_rejected(j, "/kernels/0/device: out of range");
  j = good;
  j["kernels"][0]["launch"] = std::numeric_limits<std::uint64_t>::max();   // a uint64: fits
  EXPECT_EQ(measurement_from_json(j, "mem").kernels.at(0).launch, std::numeric_limits<std::uint64_t>::max());
}

TEST(MeasurementJson, TablesReadByColumnNameAndRejectBadRowsNamingTheCell) {
  const nlohmann::json good = nlohmann::json::parse(measurement_text(sample()));
  EXPECT_EQ(to_json(measurement_from_json(good, "mem")), to_json(sample()));
  // Columns may come in any order: a reader finds them by name.
  auto j = good;
  auto& calls = j["api_calls"];
  calls["columns"] = {"end_ns", "start_ns", "correlation", "thread", "name"};
  for (auto& row : calls["rows"]) row = {row[4], row[3], row[2], row[1], row[0]};
  EXPECT_EQ(measurement_from_json(j, "mem").api_calls.at(0).end_ns, sample().api_calls.at(0).end_ns);
  j = good;
  j["kernels"]["rows"][0][8] = {1, 2};
  expect_rejected(j, "/kernels/rows/0/8 (grid): expected an array of 3 integers");
  j = good;
  j["kernels"]["rows"][0].erase(0);
  expect_rejected(j, "/kernels/rows/0: expected a row of 20 cells");
  j = good;
  j["kernels"]["rows"][0][1] = 1000;
  expect_rejected(j, "/kernels/rows/0/1 (name): no string 1000 in the list of strings");
  j = good;
  j["kernels"]["rows"][0][17]["x"] = "fast";
  expect_rejected(j, "/kernels/rows/0/17/x (metrics): expected a number");
  j = good;
  j["schema_version"] = 4;
  expect_rejected(j, "/schema_version: records as tables need version 5, not 4");
  j = good;
  j["api_calls"]["rows"][0][3] = std::numeric_limits<std::uint64_t>::max();
  expect_rejected(j, "/api_calls/rows/0/3 (start_ns): out of range after time_origin_ns");
  j = good;
  j["kernels"] = 5;
  expect_rejected(j, "/kernels: expected an array or a table");
  j = good;
  j["copies"]["columns"][4] = "size";
  expect_rejected(j, "/copies/rows/0/bytes: missing");
  j = good;
  j.erase("time_origin_ns");
  expect_rejected(j, "/time_origin_ns: missing");
}

// However a file orders its members, read_measurement reads what the whole document holds:
// its fast reader takes the tables' rows wherever they are, and leaves a file it does not take
// (records as lists of objects, a member given twice) to the whole document's reader.
TEST(MeasurementJson, AFileReadsAsItsWholeDocumentDoes) {
  Measurement m = sample();
  for (int i = 0; i < 3; ++i) m.kernels.push_back(m.kernels.at(0)), m.kernels.back().launch = 10 + i;
  m.kernels.back().correlation = std::numeric_limits<std::uint32_t>::max();
  m.kernels.back().metrics["x"] = -1.5e-300;
  const auto path = (std::filesystem::temp_directory_path() / "labbook-fast-read.json").string();
  const std::size_t rows =
      m.ranges.size() + m.kernels.size() + m.copies.size() + m.api_calls.size() + m.memory_events.size();
  const auto reads_back = [&](const std::string& text, std::size_t rows_fast, const char* how) {
    std::ofstream(path) << text;
    std::size_t fast = 99;
    EXPECT_EQ(to_json(read_measurement(path, &fast)).dump(), to_json(m).dump()) << how;
    EXPECT_EQ(to_json(read_measurement(path)), to_json(measurement_from_json(nlohmann::json::parse(text), "mem"))) << how;
    EXPECT_EQ(fast, rows_fast) << how;
  };
  reads_back(measurement_text(m), rows, "as labbook writes it");
  const nlohmann::json tables = nlohmann::json::parse(measurement_text(m));
  reads_back(in_file_order(tables), rows, "the same order, written by the test");
  reads_back(tables.dump(), rows, "members in alphabetical order: the tables before the strings");
  std::string text = in_file_order(tables);
  const auto columns = text.find("\"columns\"", text.find("\"kernels\""));
  const auto rows_at = text.find(",\"rows\"", columns);
  const auto rows_end = text.find("]]", rows_at) + 2;
  const std::string kernel_rows = text.substr(rows_at + 1, rows_end - rows_at - 1);
  text.erase(rows_at, rows_end - rows_at);
  text.insert(columns, kernel_rows + ",");
  reads_back(text, rows, "the kernels' rows before their columns");
  reads_back(to_json(m).dump(), 0, "records as lists of objects: read from the document");
  text = measurement_text(m);
  text.insert(text.find("\"ranges\""), "\"kernels\": 5,\n ");
  std::ofstream(path) << text;
  std::size_t fast = 99;
  EXPECT_EQ(to_json(read_measurement(path, &fast)).dump(), to_json(m).dump()) << "a member given twice: the last";
  EXPECT_EQ(fast, 0u) << "a member given twice: read from the document";
  std::remove(path.c_str());
}

// A bad cell makes the fast reader give the file to the whole document's reader, which names
// the cell as it always has.
TEST(MeasurementJson, ABadRowIsNamedByTheWholeDocumentsReader) {
  Measurement m = sample();
  const auto path = (std::filesystem::temp_directory_path() / "labbook-fast-read-bad.json").string();
  nlohmann::json j = nlohmann::json::parse(measurement_text(m));
  j["kernels"]["rows"][0][8] = nlohmann::json::array({1, 2});   // grid
  std::ofstream(path) << j.dump();
  try {
    read_measurement(path);
    ADD_FAILURE() << "a grid of two integers was read";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), path + ": /kernels/rows/0/8 (grid): expected an array of 3 integers");
  }
  j["kernels"]["rows"][0][8] = nlohmann::json::array({1, 2, 3.0});
  std::ofstream(path) << j.dump();
  EXPECT_THROW(read_measurement(path), Error) << "3.0 is no integer";
  std::remove(path.c_str());
}

TEST(MeasurementJson, NamesThatAreNotUtf8AreWrittenWithReplacementCharacters) {
  Measurement m = sample();
  m.ranges.at(0).name = "bad \xff byte";   // an NVTX name is whatever bytes the program gave
  const Measurement back = measurement_from_json(nlohmann::json::parse(measurement_text(m)), "mem");
  EXPECT_EQ(back.ranges.at(0).name, "bad \xef\xbf\xbd byte");
}

TEST(MeasurementJson, ALaunchTakesUnder150BytesAsATableRow) {
  Measurement m;
  for (std::uint32_t i = 0; i < 1000; ++i) {
    Kernel k;
    k.launch = i;
    k.name = "readOffset(float const*, float const*, float*, int, int)";
    k.mangled = "_Z10readOffsetPKfS0_Pfii";
    k.range = "offsets/round=" + std::to_string(i / 100);
    k.thread = 2573;
    k.stream = 7;
    k.correlation = 1000 + 2 * i;
    k.grid[0] = 4096, k.grid[1] = k.grid[2] = 1;
    k.block[0] = 256, k.block[1] = k.block[2] = 1;
    k.registers_per_thread = 16;
    k.start_ns = 1795754338223050421ull + 5000ull * i;
    k.end_ns = *k.start_ns + 3400;
    m.kernels.push_back(k);
    m.api_calls.push_back({"cudaLaunchKernel", 2573, k.correlation, *k.start_ns - 3000, *k.start_ns - 1000});
  }
  const std::size_t bytes = measurement_text(m).size() - measurement_text(Measurement{}).size();
  EXPECT_LT(bytes / 1000, 150u) << "a launch and its API call";
}

TEST(MeasurementJson, LargeTablesAreWrittenAPieceAtATimeAndReadBack) {
  const Measurement m = sample_with_launches(0);
  std::vector<std::size_t> pieces;
  std::string text;
  write_measurement_text(m, [&](std::string_view piece) {
    pieces.push_back(piece.size());
    text += piece;
  });
  EXPECT_GT(pieces.size(), 3u);
  EXPECT_LT(*std::max_element(pieces.begin(), pieces.end()), std::size_t{1100000}) << "a megabyte and a row at most";
  EXPECT_EQ(text, measurement_text(m));
  std::string side_by_side;
  write_measurement_text(m, [&](std::string_view piece) { side_by_side += piece; }, MeasurementWriting::SideBySide);
  EXPECT_TRUE(side_by_side == text) << "rows made in spans side by side make the same text";
  const std::string path = testing::TempDir() + "/pieces.json";
  write_measurement(m, path);
  std::size_t rows_read_fast = 0;
  const Measurement back = read_measurement(path, &rows_read_fast);
  ASSERT_EQ(back.kernels.size(), m.kernels.size());
  EXPECT_EQ(rows_read_fast, m.kernels.size() + m.ranges.size() + m.copies.size() + m.api_calls.size() +
                                m.memory_events.size())
      << "every row read by the fast reader, in spans side by side where the machine has several cores";
  EXPECT_EQ(back.kernels.back().range, "round=19");
  EXPECT_EQ(measurement_text(back), text);
  // A bad cell in the table's last span is found there, and named by the whole document's reader.
  nlohmann::json j = nlohmann::json::parse(text);
  j["kernels"]["rows"][19990][0] = "not a launch";
  std::ofstream(path) << j.dump();
  try {
    read_measurement(path, &rows_read_fast);
    ADD_FAILURE() << "a launch given as a string was read";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), path + ": /kernels/rows/19990/0 (launch): expected an integer");
  }
  EXPECT_EQ(rows_read_fast, 0u);
  std::remove(path.c_str());
}

// The collector's kernels and API calls are made as their rows are written (MadeTables), in
// spans side by side: each span must make its own, and their earliest time must set the origin.
TEST(MeasurementJson, RecordsMadeAsTheirRowsAreWrittenGiveTheSameText) {
  Measurement m = sample_with_launches(1000);
  // Each made table's earliest time is the origin in turn; then a copy's, which is 0 (CUPTI
  // gives 0 where it could not time a copy).
  for (const int first : {0, 1, 2}) {
    const bool calls_first = first == 1;
    m.kernels.front().start_ns = calls_first ? 2 : 1;
    m.api_calls.front().start_ns = calls_first ? 1 : 2;
    if (first == 2) m.copies.front().start_ns = m.copies.front().end_ns = 0;
    Measurement held_elsewhere = m;
    held_elsewhere.kernels.clear();
    held_elsewhere.api_calls.clear();
    const MadeTables made{{m.kernels.size(), [&m](std::size_t i, Kernel& into) { into = m.kernels[i]; }, calls_first ? 2 : 1},
                          {m.api_calls.size(), [&m](std::size_t i, ApiCall& into) { into = m.api_calls[i]; }, calls_first ? 1 : 2}};
    for (MeasurementWriting writing : {MeasurementWriting::OneThread, MeasurementWriting::SideBySide}) {
      std::string text;
      write_measurement_text(held_elsewhere, made, [&](std::string_view piece) { text += piece; }, writing);
      EXPECT_TRUE(text == measurement_text(m)) << "writing " << static_cast<int>(writing) << ", earliest " << first;
    }
  }
}

TEST(MeasurementJson, RejectsUnifiedMemoryEventsThatEndBeforeTheyStart) {
  auto j = to_json(sample());
  j["memory_events"][0]["end_ns"] = 1;
  expect_rejected(j, "/memory_events/0/end_ns: ends before it starts");
}

TEST(MeasurementJson, ReportsInvalidJsonWithTheFileName) {
  const auto path = (std::filesystem::temp_directory_path() / "labbook-broken.json").string();
  std::ofstream(path) << "{\"schema\": ";
  try {
    read_measurement(path);
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(path + ": not valid JSON"), std::string::npos) << e.what();
  }
  std::remove(path.c_str());
}

TEST(MeasurementJson, AKernelOnADefaultStreamSaysWhichOne) {
  Measurement m = sample();
  m.kernels[0].default_stream = DefaultStream::PerThread;
  auto j = to_json(m);
  EXPECT_EQ(j["kernels"][0]["default_stream"], "per_thread");
  EXPECT_EQ(measurement_from_json(j, "mem").kernels[0].default_stream, DefaultStream::PerThread);
  EXPECT_FALSE(to_json(sample())["kernels"][0].contains("default_stream")) << "written only for a default stream";
  EXPECT_EQ(measurement_from_json(to_json(sample()), "mem").kernels[0].default_stream, DefaultStream::None);
  j["kernels"][0]["default_stream"] = "mine";
  expect_rejected(j, "/kernels/0/default_stream: expected \"legacy\" or \"per_thread\", not \"mine\"");
}
