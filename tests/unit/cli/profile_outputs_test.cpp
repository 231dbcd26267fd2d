// A profile's outputs (cli/profile_outputs.h), written while a trace-only run's program ends:
// after the exit, only those the exit changed are written again, and one that failed early
// is tried again and reported.
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "labbook/model/atomic_file.h"
#include "profile_outputs.h"
#include "temp_dir.h"

namespace labbook::cli {
namespace {

Measurement traced(int kernels) {
  Measurement m;
  m.program.mode = "trace";
  for (int i = 0; i < kernels; ++i) {
    Kernel k;
    k.launch = static_cast<std::uint64_t>(i);
    k.name = "k()";
    k.mangled = "_Z1kv";
    k.start_ns = 1000 + 100 * static_cast<std::uint64_t>(i);
    k.end_ns = *k.start_ns + 50;
    m.kernels.push_back(k);
  }
  return m;
}

ino_t file_inode(const std::string& path) {
  struct stat s {};
  return ::stat(path.c_str(), &s) == 0 ? s.st_ino : 0;
}

std::vector<std::string> whats(const std::vector<OutputSeconds>& outputs) {
  std::vector<std::string> names;
  for (const auto& o : outputs) names.push_back(o.what);
  return names;
}

const std::vector<std::string> kAllFour = {"trace.json.gz", "timeline.svg", "summary.md/html/json", "measurements.json"};

/// A measurement as the program's exit leaves it: its command, and the exit code given.
Measurement ended(int kernels, int exit_code) {
  Measurement m = traced(kernels);
  m.program.command = {"./prog", "--size", "3"};
  m.program.exit_code = exit_code;
  return m;
}

TEST(ProfileOutputs, WhatTheExitDidNotChangeIsNotWrittenAgain) {
  const Measurement m = ended(3, 0);
  const test::TempDir dir("outputs-kept");
  const EarlyOutputs early = write_outputs_early(m, dir.path());
  EXPECT_EQ(whats(early.written), kAllFour);
  // Until the exit, no file in the folder shows an exit code.
  const std::string staged = early_folder(dir.path());
  EXPECT_FALSE(std::filesystem::exists(dir.path() + "/summary.md"));
  EXPECT_FALSE(std::filesystem::exists(dir.path() + "/measurements.json"));
  // Each output is renamed into place: a file written again would have another inode.
  std::vector<ino_t> inodes;
  for (const char* file : {"trace.json.gz", "timeline.svg"}) inodes.push_back(file_inode(dir.path() + "/" + file));
  for (const char* file : {"summary.json", "measurements.json"}) inodes.push_back(file_inode(staged + "/" + file));
  ASSERT_EQ(std::count(inodes.begin(), inodes.end(), 0u), 0);

  std::size_t pictures = early.pictures + 7;   // the summary written early gives its count
  std::vector<OutputSeconds> seconds;
  EXPECT_EQ(write_profile_outputs(m, dir.path(), &pictures, &seconds, early), kProfileOutputs);
  std::vector<ino_t> after;
  for (const char* file : {"trace.json.gz", "timeline.svg", "summary.json", "measurements.json"})
    after.push_back(file_inode(dir.path() + "/" + file));
  EXPECT_EQ(after, inodes);
  EXPECT_FALSE(std::filesystem::exists(staged));
  EXPECT_TRUE(std::filesystem::exists(dir.path() + "/labbook.css"));
  EXPECT_EQ(pictures, early.pictures);
  ASSERT_EQ(whats(seconds), kAllFour);
  for (const auto& s : seconds) EXPECT_TRUE(s.early) << s.what;
}

TEST(ProfileOutputs, AnotherExitCodeWritesTheSummaryAndTheMeasurementAgain) {
  const test::TempDir early_dir("outputs-early"), after_dir("outputs-after");
  const std::string &early_out = early_dir.path(), &after_out = after_dir.path();
  const EarlyOutputs early = write_outputs_early(ended(3, 0), early_out);
  const std::string staged = early_folder(early_out);
  const ino_t trace = file_inode(early_out + "/trace.json.gz"), timeline = file_inode(early_out + "/timeline.svg");
  // (Not by inode: the file system may give the new file the inode of the one removed.)
  const std::string measurement = read_file(staged + "/measurements.json");
  ASSERT_FALSE(measurement.empty());

  Measurement failed = ended(3, 3);
  std::vector<OutputSeconds> seconds;
  EXPECT_EQ(write_profile_outputs(failed, early_out, nullptr, &seconds, early), kProfileOutputs);
  EXPECT_EQ(file_inode(early_out + "/trace.json.gz"), trace);
  EXPECT_EQ(file_inode(early_out + "/timeline.svg"), timeline);
  EXPECT_FALSE(std::filesystem::exists(staged)) << "what it held is not left behind";
  ASSERT_EQ(whats(seconds), kAllFour);
  EXPECT_TRUE(seconds[0].early && seconds[1].early);
  EXPECT_FALSE(seconds[2].early || seconds[3].early);

  // Each file as if written after the exit alone.
  EXPECT_EQ(write_profile_outputs(failed, after_out), kProfileOutputs);
  for (const char* file : {"trace.json.gz", "timeline.svg", "summary.md", "summary.json", "measurements.json"})
    EXPECT_EQ(read_file(early_out + "/" + file), read_file(after_out + "/" + file)) << file;
  EXPECT_NE(read_file(early_out + "/measurements.json"), measurement) << "written again: the exit code changed it";
}

// Whatever the file holds of the run, a change to it after the exit writes the two again.
TEST(ProfileOutputs, AnyFactOfTheRunChangedAfterTheExitWritesTheSummaryAgain) {
  const std::vector<std::pair<const char*, void (*)(ProgramRun&)>> changes = {
      {"command", [](ProgramRun& r) { r.command.push_back("--more"); }},
      {"started_at", [](ProgramRun& r) { r.started_at = "2026-12-05T06:00:00Z"; }},
      {"mode", [](ProgramRun& r) { r.mode = "trace+metrics"; }},
      {"stop_reason", [](ProgramRun& r) { r.stop_reason = "signal SIGSEGV"; }},
      {"collector_version", [](ProgramRun& r) { r.collector_version = "0.2.0"; }},
      {"cupti_version", [](ProgramRun& r) { r.cupti_version = 130001; }},
      {"source_kernels", [](ProgramRun& r) { r.source_kernels = {"_Z1kv"}; }},
  };
  for (const auto& [field, change] : changes) {
    const test::TempDir dir("outputs-fact");
    const EarlyOutputs early = write_outputs_early(ended(2, 0), dir.path());
    Measurement changed = ended(2, 0);
    change(changed.program);
    std::vector<OutputSeconds> seconds;
    EXPECT_EQ(write_profile_outputs(changed, dir.path(), nullptr, &seconds, early), kProfileOutputs) << field;
    ASSERT_EQ(whats(seconds), kAllFour);
    EXPECT_FALSE(seconds[2].early || seconds[3].early) << field;
  }
}

TEST(ProfileOutputs, AnIssueAddedAfterTheExitWritesTheSummaryAgain) {
  const test::TempDir dir("outputs-issue");
  const EarlyOutputs early = write_outputs_early(ended(3, 0), dir.path());
  Measurement noted = ended(3, 0);
  noted.issues.push_back({"metrics_skipped", "a signal ended the program"});
  EXPECT_EQ(write_profile_outputs(noted, dir.path(), nullptr, nullptr, early), kProfileOutputs);
  EXPECT_NE(read_file(dir.path() + "/summary.md").find("a signal ended the program"), std::string::npos);
  EXPECT_NE(read_file(dir.path() + "/measurements.json").find("metrics_skipped"), std::string::npos);
}

TEST(ProfileOutputs, OutputsHeldApartThatAreGoneAreWrittenAgain) {
  const Measurement m = ended(2, 0);
  const test::TempDir dir("outputs-gone");
  const EarlyOutputs early = write_outputs_early(m, dir.path());
  ASSERT_TRUE(std::filesystem::remove_all(early_folder(dir.path())) > 0);
  std::vector<OutputSeconds> seconds;
  EXPECT_EQ(write_profile_outputs(m, dir.path(), nullptr, &seconds, early), kProfileOutputs);
  EXPECT_TRUE(std::filesystem::exists(dir.path() + "/summary.md"));
  EXPECT_TRUE(std::filesystem::exists(dir.path() + "/measurements.json"));
  ASSERT_EQ(whats(seconds), kAllFour);
  EXPECT_FALSE(seconds[2].early || seconds[3].early);
}

TEST(ProfileOutputs, DiscardedEarlyOutputsLeaveNothingBehind) {
  const test::TempDir dir("outputs-discarded");
  const EarlyOutputs early = write_outputs_early(ended(2, 0), dir.path());
  ASSERT_TRUE(std::filesystem::exists(dir.path() + "/trace.json.gz"));
  discard_early_outputs(early, dir.path());
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
}

TEST(ProfileOutputs, AnEarlyOutputThatFailedIsTriedAgainAndReported) {
  const Measurement m = ended(2, 0);
  const test::TempDir failed("outputs-failed");
  const std::string& dir = failed.path();
  std::filesystem::create_directories(dir + "/trace.json.gz/blocker");
  const EarlyOutputs early = write_outputs_early(m, dir);
  EXPECT_EQ(whats(early.written), std::vector<std::string>(kAllFour.begin() + 1, kAllFour.end()));

  testing::internal::CaptureStderr();
  std::vector<OutputSeconds> seconds;
  EXPECT_EQ(write_profile_outputs(m, dir, nullptr, &seconds, early), kProfileOutputs - 1);
  const std::string said = testing::internal::GetCapturedStderr();
  EXPECT_NE(said.find("could not write trace.json.gz"), std::string::npos) << said;
  // Written again to say so, though written early.
  EXPECT_NE(read_file(dir + "/measurements.json").find("report_failed"), std::string::npos);
  EXPECT_NE(read_file(dir + "/summary.md").find("could not write trace.json.gz"), std::string::npos);
  ASSERT_EQ(seconds.size(), 4u);
  EXPECT_FALSE(seconds[0].early);
  EXPECT_TRUE(seconds[1].early);
  EXPECT_FALSE(seconds[2].early || seconds[3].early);
}

}  // namespace
}  // namespace labbook::cli
