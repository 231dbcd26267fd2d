#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "labbook/model/atomic_file.h"

#include "trace_writer.h"

using namespace labbook;

TEST(TraceWriter, WritesRangesKernelsCopiesAndApiCallsAsCompleteEvents) {
  Measurement m;
  DeviceFacts d;
  d.name = "GPU";
  m.devices.push_back(d);
  m.ranges.push_back({1, "offset=11", "readSegment/offset=11", 42, 1, 1000, 5000});
  Kernel k;
  k.name = "readSegment";
  k.range = "readSegment/offset=11";
  k.start_ns = 2000;
  k.end_ns = 4500;
  k.stream = 7;
  m.kernels.push_back(k);
  Copy c;
  c.kind = CopyKind::HostToDevice;
  c.src = HostMemoryKind::Pinned;
  c.bytes = 1024;
  c.start_ns = 1500;
  c.end_ns = 1600;
  m.copies.push_back(c);
  m.api_calls.push_back({"cudaLaunchKernel", 42, 3, 1900, 1950});

  const nlohmann::json trace = nlohmann::json::parse(report::chrome_trace(m));
  std::map<std::string, nlohmann::json> by_name;
  for (const auto& e : trace["traceEvents"])
    if (e["ph"] == "X") by_name[e["name"].get<std::string>()] = e;
  ASSERT_EQ(by_name.size(), 4u);
  EXPECT_DOUBLE_EQ(by_name["offset=11"]["ts"].get<double>(), 0.0) << "time starts at the first event";
  EXPECT_DOUBLE_EQ(by_name["offset=11"]["dur"].get<double>(), 4.0);
  EXPECT_DOUBLE_EQ(by_name["readSegment"]["ts"].get<double>(), 1.0);
  EXPECT_EQ(by_name["readSegment"]["tid"], 7);
  EXPECT_EQ(by_name["readSegment"]["args"]["range"], "readSegment/offset=11");
  EXPECT_EQ(by_name["memcpy HtoD"]["args"]["src"], "pinned");
  EXPECT_EQ(by_name["cudaLaunchKernel"]["pid"], by_name["offset=11"]["pid"]) << "host work on the host process";
  EXPECT_NE(by_name["readSegment"]["pid"], by_name["offset=11"]["pid"]);
}

TEST(TraceWriter, LinksApiCallsToGpuWorkAndKeepsStartEndRangesApart) {
  Measurement m;
  m.ranges.push_back({1, "push", "push", 42, 0, 0, 100});
  Range wide{2, "whole", "whole", 42, 0, 0, 200};
  wide.process_wide = true;
  m.ranges.push_back(wide);
  Kernel k;
  k.name = "k";
  k.correlation = 9;
  k.start_ns = 50;
  k.end_ns = 60;
  m.kernels.push_back(k);
  m.api_calls.push_back({"cudaLaunchKernel", 42, 9, 10, 20});
  m.memory_events.push_back({"htod", 4096, 0x1000, 70, 80, 0});
  const nlohmann::json trace = nlohmann::json::parse(report::chrome_trace(m));
  int flow_start = 0, flow_end = 0;
  std::map<std::string, nlohmann::json> by_name;
  for (const auto& e : trace["traceEvents"]) {
    if (e["ph"] == "s") {
      ++flow_start;
      EXPECT_EQ(e["id"], 9);
    }
    if (e["ph"] == "f") {
      ++flow_end;
      EXPECT_DOUBLE_EQ(e["ts"].get<double>(), 0.05) << "at the kernel's start, in µs";
    }
    if (e["ph"] == "X") by_name[e["name"].get<std::string>()] = e;
  }
  EXPECT_EQ(flow_start, 1);
  EXPECT_EQ(flow_end, 1);
  EXPECT_NE(by_name["whole"]["tid"], by_name["push"]["tid"]) << "start/end ranges may overlap push/pop ones";
  EXPECT_EQ(by_name["htod"]["cat"], "unified_memory");
  EXPECT_EQ(by_name["htod"]["args"]["value"], 4096);
}

TEST(TraceWriter, IsValidJsonOneEventPerLineWhateverTheNames) {
  Measurement m;
  Kernel k;
  k.name = "apply<\"quoted\",\n\tnewline\\>";
  k.start_ns = 10;
  k.end_ns = 20;
  m.kernels.push_back(k);
  const std::string text = report::chrome_trace(m);
  const nlohmann::json trace = nlohmann::json::parse(text);
  EXPECT_EQ(trace["displayTimeUnit"], "ns");
  std::size_t events = 0;
  bool found = false;
  for (const auto& e : trace["traceEvents"]) {
    ++events;
    found = found || e["name"] == k.name;
  }
  EXPECT_TRUE(found) << "the name comes back byte for byte";
  std::size_t lines = 0;
  for (char c : text) lines += c == '\n';
  EXPECT_EQ(lines, events + 2) << "the opening line, one line per event, the closing line";
}

TEST(TraceWriter, StreamsTheFileAndKeepsAnOldOneUntilTheNewIsWhole) {
  const auto dir = std::filesystem::temp_directory_path() / "labbook-trace-writer-test";
  std::filesystem::remove_all(dir);
  const std::string path = (dir / "trace.json").string();
  Measurement m;
  for (std::uint32_t i = 0; i < 20000; ++i) {   // a few megabytes: written in several pieces
    Kernel k;
    k.name = "k";
    k.launch = i;
    k.correlation = i + 1;
    k.start_ns = 1000ull * i;
    k.end_ns = 1000ull * i + 500;
    m.kernels.push_back(k);
    m.api_calls.push_back({"cudaLaunchKernel", 1, i + 1, 1000ull * i, 1000ull * i + 10});
  }
  report::write_chrome_trace(m, path);
  std::ifstream in(path);
  const std::string written((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_GT(written.size(), 2u << 20);
  EXPECT_EQ(written, report::chrome_trace(m)) << "the file is the text, piece by piece";
  {
    AtomicFileWriter abandoned(path);
    abandoned.write("{\"traceEvents\": [");
  }   // never committed: an error while writing
  std::ifstream again(path);
  EXPECT_EQ(std::string((std::istreambuf_iterator<char>(again)), std::istreambuf_iterator<char>()), written);
  for (const auto& e : std::filesystem::directory_iterator(dir))
    EXPECT_EQ(e.path().filename(), "trace.json") << "a temporary file was left behind";
  std::filesystem::remove_all(dir);
}

TEST(TraceWriter, ManyLaunchesKeepTheirOrderWhenWrittenInSpansSideBySide) {
  Measurement m;
  constexpr std::uint32_t kLaunches = 20000;   // several spans of 2048 launches, on any machine of 2 cores or more
  for (std::uint32_t i = 0; i < kLaunches; ++i) {
    Kernel k;
    k.name = "k" + std::to_string(i);
    k.launch = i;
    k.correlation = i + 1;
    k.start_ns = 1000ull * i + 20;
    k.end_ns = 1000ull * i + 500;
    m.kernels.push_back(k);
    m.api_calls.push_back({"call" + std::to_string(i), 1, i + 1, 1000ull * i, 1000ull * i + 10});
  }
  const std::string text = report::chrome_trace(m);
  const nlohmann::json events = nlohmann::json::parse(text)["traceEvents"];
  ASSERT_EQ(events.size(), 1 + 4 * std::size_t{kLaunches}) << "the host's name, then an API call, a kernel and its arrow's two ends a launch";
  for (std::uint32_t i = 0; i < kLaunches; ++i) {
    ASSERT_EQ(events[1 + i]["name"], "call" + std::to_string(i));
    const std::size_t kernel = 1 + kLaunches + 3 * std::size_t{i};
    ASSERT_EQ(events[kernel]["name"], "k" + std::to_string(i));
    ASSERT_EQ(events[kernel + 1]["ph"], "s");
    ASSERT_EQ(events[kernel + 1]["id"], i + 1);
    ASSERT_EQ(events[kernel + 2]["ph"], "f");
    ASSERT_EQ(events[kernel + 2]["ts"], events[kernel]["ts"]);
  }
  std::size_t lines = 0;
  for (char c : text) lines += c == '\n';
  EXPECT_EQ(lines, events.size() + 2) << "one event a line, spans joined without a line lost or doubled";
}
