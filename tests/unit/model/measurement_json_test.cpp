#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <string_view>

#include <unistd.h>

#include <nlohmann/json.hpp>

#include "labbook/model/error.h"
#include "labbook/model/measurement_json.h"

using namespace labbook;

namespace {
Measurement sample() {
  Measurement m;
  m.program.command = {"./lab4", "--repeat", "1"};
  m.program.exit_code = 0;
  m.program.started_at = "2026-11-22T10:00:00Z";
  m.program.mode = "trace+metrics";
  m.program.collector_version = "0.1.0";
  m.program.cupti_version = 130001;
  DeviceFacts d;
  d.name = "NVIDIA H100 80GB HBM3";
  d.chip = "GH100";
  d.cc_major = 9;
  d.sm_count = 132;
  d.l2_bytes = 52428800;
  d.memory_bus_width_bits = 5120;
  d.memory_clock_khz = 2619000;
  d.sm_clock_khz = 1980000;
  d.driver_version = 13000;
  m.devices.push_back(d);
  m.ranges.push_back({1, "offset=11", "readSegment/offset=11", 42, 1, 100, 900});
  m.ranges.push_back({2, "open", "open", 42, 0, 950, std::nullopt});
  m.ranges.back().payload = 4096.5;
  Kernel k;
  k.launch = 0;
  k.name = "readSegment(float const*, float const*, float*, unsigned int, unsigned int)";
  k.mangled = "_Z11readSegmentPKfS0_Pfjj";
  k.range = "readSegment/offset=11";
  k.grid[0] = 32768;
  k.block[0] = 512;
  k.start_ns = 200;
  k.end_ns = 800;
  k.metrics = {{"smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct", 80.0000257}};
  m.kernels.push_back(k);
  Copy c;
  c.kind = CopyKind::HostToDevice;
  c.src = HostMemoryKind::Pageable;
  c.dst = HostMemoryKind::Device;
  c.bytes = 64 << 20;
  c.start_ns = 10;
  c.end_ns = 90;
  m.copies.push_back(c);
  m.api_calls.push_back({"cudaLaunchKernel", 42, 5, 150, 160});
  m.memory_events.push_back({"htod", 65536, 0x7f0000000000, 300, 310, 0});
  m.program.stop_reason = "signal SIGSEGV";
  m.metric_scope = "NVTX ranges 'readSegment/*'";
  m.metric_passes = 2;
  m.metric_replay = "application";
  m.cache_control = "all";
  m.metrics_requested = {"smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct"};
  m.issues.push_back({"ranges_dropped", "2 kernel ranges did not fit"});
  return m;
}

/// A table's text with its columns, strings and times before its rows, as labbook writes it.
std::string table_in_file_order(const nlohmann::json& table) {
  std::string out = "{";
  for (const char* key : {"columns", "strings", "times"})
    if (table.contains(key)) out += nlohmann::json(key).dump() + ":" + table[key].dump() + ",";
  for (const auto& [key, value] : table.items())
    if (key != "columns" && key != "strings" && key != "times" && key != "rows")
      out += nlohmann::json(key).dump() + ":" + value.dump() + ",";
  if (table.contains("rows")) out += "\"rows\":" + table["rows"].dump() + ",";
  out.back() = '}';
  return out;
}

/// `j`'s text with its members in the order labbook writes them (the head, then
/// time_origin_ns and the strings, then the tables), not nlohmann's alphabetical one: the
/// order in which read_measurement reads rows as it parses them.
std::string in_file_order(const nlohmann::json& j) {
  const std::vector<std::string> last = {"time_origin_ns", "strings", "ranges", "kernels", "copies", "api_calls", "memory_events"};
  std::string out = "{";
  const auto put = [&](const std::string& key, const nlohmann::json& value) {
    out += nlohmann::json(key).dump() + ":";
    out += value.is_object() && value.contains("rows") ? table_in_file_order(value) : value.dump();
    out += ",";
  };
  for (const auto& [key, value] : j.items())
    if (std::find(last.begin(), last.end(), key) == last.end()) put(key, value);
  for (const std::string& key : last)
    if (j.contains(key)) put(key, j[key]);
  out.back() = '}';
  return out;
}

/// `j` is rejected naming `needle`, from memory and as a file, its members in labbook's order
/// (read_measurement reads table rows as it parses them, and must fail as the whole document does).
void expect_rejected(nlohmann::json j, const std::string& needle) {
  try {
    measurement_from_json(j, "bad.json");
    ADD_FAILURE() << "accepted a document that should fail with " << needle;
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    EXPECT_EQ(std::string(e.what()).rfind("bad.json: ", 0), 0u) << e.what();
  }
  // One file per process: ctest runs the tests that call this at the same time.
  const auto path =
      (std::filesystem::temp_directory_path() / ("labbook-rejected-" + std::to_string(::getpid()) + ".json")).string();
  std::ofstream(path) << in_file_order(j);
  try {
    read_measurement(path);
    ADD_FAILURE() << "accepted a file that should fail with " << needle;
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    EXPECT_EQ(std::string(e.what()).rfind(path + ": ", 0), 0u) << e.what();
  }
  std::remove(path.c_str());
}
}  // namespace

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
  Measurement m = sample();
  const Kernel model = m.kernels.front();
  for (std::uint64_t i = 0; i < 20000; ++i) {   // about 3 MB of rows
    Kernel k = model;
    k.launch = 100 + i;
    k.range = "round=" + std::to_string(i / 1000);   // strings first named deep in the table
    if (i % 7 == 0) k.metrics["dram__bytes_read.sum"] = static_cast<double>(i);
    m.kernels.push_back(k);
    m.api_calls.push_back({i % 3 ? "cudaLaunchKernel" : "call " + std::to_string(i / 500), 1, static_cast<std::uint32_t>(i), 10 * i, 10 * i + 5});
  }
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

TEST(MeasurementJson, ReadsVersion1FilesWithoutTheFieldsVersion2Added) {
  auto j = to_json(sample());
  j["schema_version"] = 1;
  j["program"].erase("stop_reason");
  j.erase("memory_events");
  j.erase("metric_scope");
  j.erase("metric_passes");
  for (auto& r : j["ranges"]) r.erase("process_wide");
  const Measurement m = measurement_from_json(j, "old.json");
  EXPECT_EQ(m.program.stop_reason, "");
  EXPECT_TRUE(m.memory_events.empty());
  EXPECT_EQ(m.metric_passes, 0);
  EXPECT_EQ(m.kernels.size(), 1u);
  // The same file claiming version 2 lacks required fields.
  j["schema_version"] = 2;
  expect_rejected(j, "/program/stop_reason: missing");
}

TEST(MeasurementJson, Version3RecordsReplayAndCacheControl) {
  auto j = to_json(sample());
  EXPECT_EQ(measurement_from_json(j, "new.json").cache_control, "all");
  EXPECT_EQ(measurement_from_json(j, "new.json").metric_replay, "application");
  j.erase("cache_control");
  expect_rejected(j, "/cache_control: missing");
  j["schema_version"] = 2;   // version 2 files had neither: kernel replay, no cache control
  j.erase("metric_replay");
  const Measurement m = measurement_from_json(j, "v2.json");
  EXPECT_EQ(m.cache_control, "");
  EXPECT_EQ(m.metric_replay, "");
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

TEST(MeasurementJson, Version4CarriesAKernelsSassInstructions) {
  Measurement m = sample();
  m.kernels[0].sass = {{"_Z11readSegmentPKfS0_Pfjj", 0x1a0, "/src/lab4.cu", 42,
                        {{"smsp__sass_inst_executed", 1048576}, {"smsp__sass_sectors_mem_global", 5242880}}},
                       {"_Z11readSegmentPKfS0_Pfjj", 0x1b0, "", 0, {{"smsp__sass_inst_executed", 1048576}}}};
  const Measurement back = measurement_from_json(nlohmann::json::parse(measurement_text(m)), "v4.json");
  ASSERT_EQ(back.kernels[0].sass.size(), 2u);
  EXPECT_EQ(back.kernels[0].sass[0].pc_offset, 0x1a0u);
  EXPECT_EQ(back.kernels[0].sass[0].file, "/src/lab4.cu");
  EXPECT_EQ(back.kernels[0].sass[0].line, 42);
  EXPECT_EQ(back.kernels[0].sass[0].metrics.at("smsp__sass_sectors_mem_global"), 5242880);
  EXPECT_EQ(back.kernels[0].sass[1].line, 0) << "no line information";

  EXPECT_EQ(back.kernels[0].sass_launches, 1u) << "a launch's own counts unless said otherwise";

  auto j = to_json(m);
  EXPECT_FALSE(j["kernels"][0].contains("sass_launches")) << "written only for sums over several launches";
  m.kernels[0].sass_launches = 3;
  EXPECT_EQ(measurement_from_json(to_json(m), "sums.json").kernels[0].sass_launches, 3u);
  j["kernels"][0]["sass_launches"] = 0;
  expect_rejected(j, "/kernels/0/sass_launches: expected 1 or more launches");
  j["kernels"][0].erase("sass_launches");
  EXPECT_FALSE(to_json(sample())["kernels"][0].contains("sass")) << "written only for kernels the source pass saw";
  j["kernels"][0]["sass"][0]["line"] = -1;
  expect_rejected(j, "/kernels/0/sass/0/line: expected 0 (unknown) or a line number");
  // A version 3 file has no sass: its kernels read with none, whatever the file holds.
  j["schema_version"] = 3;
  EXPECT_TRUE(measurement_from_json(j, "v3.json").kernels[0].sass.empty());
}

// A metrics run after a trace run carries its profiled kernels alone, each with its ordinal,
// and the tally of every launch: both readers give them back, and a run that carries every
// launch writes neither (no column of nulls in 10^5 rows).
TEST(MeasurementJson, Version6CarriesATallyAndTheProfiledKernelsOrdinals) {
  Measurement m = sample();
  m.kernels.at(0).ordinal = 41;
  m.launch_tally = std::vector<LaunchTally>{{"outer/inner", "_Z1kv", 100000}, {"", "_Z1jv", 3}};
  const auto path = (std::filesystem::temp_directory_path() / "labbook-tally.json").string();
  write_measurement(m, path);
  std::size_t fast = 0;
  const Measurement back = read_measurement(path, &fast);
  EXPECT_GT(fast, 0u) << "the tables' reader took it";
  EXPECT_EQ(back.kernels.at(0).ordinal, std::optional<std::uint64_t>(41));
  ASSERT_TRUE(back.launch_tally.has_value());
  ASSERT_EQ(back.launch_tally->size(), 2u);
  EXPECT_EQ(back.launch_tally->at(0).range, "outer/inner");
  EXPECT_EQ(back.launch_tally->at(0).mangled, "_Z1kv");
  EXPECT_EQ(back.launch_tally->at(0).launches, 100000u);
  EXPECT_EQ(to_json(back), to_json(m));
  EXPECT_EQ(to_json(measurement_from_json(to_json(m), "mem")), to_json(m)) << "records as lists of objects";

  const auto every_launch = nlohmann::json::parse(measurement_text(sample()));
  const auto& columns = every_launch["kernels"]["columns"];
  EXPECT_EQ(std::find(columns.begin(), columns.end(), "ordinal"), columns.end());
  EXPECT_FALSE(every_launch.contains("launch_tally"));
  EXPECT_FALSE(measurement_from_json(every_launch, "mem").launch_tally.has_value());
  std::remove(path.c_str());
}
