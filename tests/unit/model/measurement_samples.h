#pragma once
// A measurement with one record of every kind, and the checks the measurement file's tests
// share: its text in labbook's member order, and a document rejected from memory and as a file.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <unistd.h>

#include <nlohmann/json.hpp>

#include "labbook/model/error.h"
#include "labbook/model/measurement_json.h"

namespace measurement_samples {

using namespace labbook;

inline Measurement sample() {
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

/// sample() and 20,000 launches more, about 3 MB of rows: ranges first named deep in the table,
/// a metric on every 7th kernel, API calls of several names, their times from `first_ns` on.
inline Measurement sample_with_launches(std::uint64_t first_ns) {
  Measurement m = sample();
  const Kernel model = m.kernels.front();
  for (std::uint64_t i = 0; i < 20000; ++i) {
    Kernel k = model;
    k.launch = 100 + i;
    k.range = "round=" + std::to_string(i / 1000);
    if (i % 7 == 0) k.metrics["dram__bytes_read.sum"] = static_cast<double>(i);
    m.kernels.push_back(k);
    m.api_calls.push_back({i % 3 ? "cudaLaunchKernel" : "call " + std::to_string(i / 500), 1,
                           static_cast<std::uint32_t>(i), first_ns + 10 * i, first_ns + 10 * i + 5});
  }
  return m;
}

/// A table's text with its columns, strings and times before its rows, as labbook writes it.
inline std::string table_in_file_order(const nlohmann::json& table) {
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
inline std::string in_file_order(const nlohmann::json& j) {
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
inline void expect_rejected(nlohmann::json j, const std::string& needle) {
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

}  // namespace measurement_samples
