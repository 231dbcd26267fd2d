// A profile's outputs (cli/profile_outputs.h): the two drawn from the trace alone, written
// while a trace-only run's program ends, are not written again after the exit; one of them
// that failed then is tried again and reported.
#include <sys/stat.h>

#include <filesystem>
#include <string>

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

TEST(ProfileOutputs, TheTraceAloneIsNotWrittenAgainAfterTheExit) {
  const Measurement m = traced(3);
  const test::TempDir early_dir("outputs-early"), after_dir("outputs-after");
  const std::string &early = early_dir.path(), &after = after_dir.path();
  const std::vector<OutputSeconds> written = write_trace_outputs(m, early);
  ASSERT_EQ(written.size(), 2u);
  EXPECT_EQ(written[0].what, "trace.json.gz");
  EXPECT_EQ(written[1].what, "timeline.svg");
  EXPECT_TRUE(written[0].early && written[1].early);
  EXPECT_FALSE(std::filesystem::exists(early + "/measurements.json"));
  // Each output is renamed into place: a file written again would have another inode.
  const ino_t trace = file_inode(early + "/trace.json.gz"), timeline = file_inode(early + "/timeline.svg");
  ASSERT_NE(trace, 0u);

  std::vector<OutputSeconds> seconds;
  EXPECT_EQ(write_profile_outputs(m, early, nullptr, &seconds, written), kProfileOutputs);
  EXPECT_EQ(file_inode(early + "/trace.json.gz"), trace);
  EXPECT_EQ(file_inode(early + "/timeline.svg"), timeline);
  ASSERT_EQ(seconds.size(), 4u);
  EXPECT_TRUE(seconds[0].early && seconds[1].early);
  EXPECT_FALSE(seconds[2].early || seconds[3].early);

  // The same files as those written after the exit, which adds the program's command, its
  // exit code and issues: the trace's outputs show none of them.
  Measurement exited = m;
  exited.program.command = {"./prog", "--size", "3"};
  exited.program.exit_code = 3;
  exited.issues.push_back({"metrics_skipped", "a signal ended the program"});
  EXPECT_EQ(write_profile_outputs(exited, after), kProfileOutputs);
  for (const char* file : {"trace.json.gz", "timeline.svg"})
    EXPECT_EQ(read_file(early + "/" + file), read_file(after + "/" + file)) << file;
}

TEST(ProfileOutputs, AnEarlyOutputThatFailedIsTriedAgainAndReported) {
  const Measurement m = traced(2);
  const test::TempDir failed("outputs-failed");
  const std::string& dir = failed.path();
  std::filesystem::create_directories(dir + "/trace.json.gz/blocker");
  const std::vector<OutputSeconds> written = write_trace_outputs(m, dir);
  ASSERT_EQ(written.size(), 1u);
  EXPECT_EQ(written[0].what, "timeline.svg");

  testing::internal::CaptureStderr();
  std::vector<OutputSeconds> seconds;
  EXPECT_EQ(write_profile_outputs(m, dir, nullptr, &seconds, written), kProfileOutputs - 1);
  const std::string said = testing::internal::GetCapturedStderr();
  EXPECT_NE(said.find("could not write trace.json.gz"), std::string::npos) << said;
  EXPECT_NE(read_file(dir + "/measurements.json").find("report_failed"), std::string::npos);
  ASSERT_EQ(seconds.size(), 4u);
  EXPECT_FALSE(seconds[0].early);
  EXPECT_TRUE(seconds[1].early);
}

}  // namespace
}  // namespace labbook::cli
