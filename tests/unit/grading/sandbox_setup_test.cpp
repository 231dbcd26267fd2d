// The sandbox's setup, with nothing run: requests refused before anything starts, the bwrap
// arguments a request becomes, and the sentence each ending is told in.
#include <signal.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "labbook/model/error.h"
#include "sandbox.h"
#include "temp_dir.h"

using namespace labbook::grading;
using End = SandboxResult::End;

using labbook::test::TempDir;

namespace {

TEST(SandboxRequests, BadOnesAreRefusedBeforeAnythingRuns) {
  SandboxRequest r;
  r.work_dir = "/tmp";
  EXPECT_THROW(run_sandboxed(r), labbook::Error) << "no command";
  r.command = {"true"};
  r.work_dir = "relative/dir";
  EXPECT_THROW(run_sandboxed(r), labbook::Error);
  r.work_dir = "/no/such/folder";
  EXPECT_THROW(run_sandboxed(r), labbook::Error);
  const TempDir work_dir("labbook-sandbox-request");
  const std::string& work = work_dir.path();
  r.work_dir = work;
  r.read_only = {"/no/such/build/tree"};
  EXPECT_THROW(run_sandboxed(r), labbook::Error);
  r.read_only = {};
  r.env = {{"BAD=NAME", "x"}};
  EXPECT_THROW(run_sandboxed(r), labbook::Error);
  r.env = {};
  r.limits.wall_seconds = 0;
  EXPECT_THROW(run_sandboxed(r), labbook::Error);
  r.limits.wall_seconds = 1;
  if (::geteuid() == 0) {
    EXPECT_THROW(run_sandboxed(r), labbook::Error) << "a root-owned work_dir would run the command as root";
  } else {
    r.work_dir = "/";
    EXPECT_THROW(run_sandboxed(r), labbook::Error) << "work_dir not writable";
  }
}

TEST(SandboxArguments, IsolateAndBindWhatWasAsked) {
  SandboxRequest r;
  r.command = {"./a.out", "--n", "3"};
  r.work_dir = "/grading/alice";
  r.read_only = {"/grading/alice/build", "/grading"};
  r.env = {{"PATH", "/usr/bin"}};
  const auto a = bwrap_arguments(r);
  const auto has = [&](std::vector<std::string> words) {
    return std::search(a.begin(), a.end(), words.begin(), words.end()) != a.end();
  };
  const auto at = [&](std::vector<std::string> words) {
    return std::search(a.begin(), a.end(), words.begin(), words.end()) - a.begin();
  };
  EXPECT_EQ(a.front(), "bwrap");
  for (const char* flag : {"--unshare-all", "--unshare-user", "--die-with-parent", "--new-session", "--clearenv"})
    EXPECT_TRUE(has({flag})) << flag;
  EXPECT_FALSE(has({"--share-net"}));
  EXPECT_TRUE(has({"--ro-bind", "/usr", "/usr"}));
  EXPECT_TRUE(has({"--proc", "/proc"}));
  EXPECT_TRUE(has({"--dev", "/dev"}));
  EXPECT_TRUE(has({"--tmpfs", "/tmp"}));
  EXPECT_TRUE(has({"--chdir", "/grading/alice"}));
  EXPECT_TRUE(has({"--setenv", "PATH", "/usr/bin"}));
  EXPECT_FALSE(has({"--ro-bind", "/sys", "/sys"})) << "no /sys without gpu";
  // Outer before inner, whatever the order asked: the writable folder between two read-only.
  EXPECT_LT(at({"--ro-bind", "/grading", "/grading"}), at({"--bind", "/grading/alice", "/grading/alice"}));
  EXPECT_LT(at({"--bind", "/grading/alice", "/grading/alice"}),
            at({"--ro-bind", "/grading/alice/build", "/grading/alice/build"}));
  EXPECT_LT(at({"--tmpfs", "/tmp"}), at({"--bind", "/grading/alice", "/grading/alice"}));
  EXPECT_TRUE(has({"--", "./a.out", "--n", "3"}));
  EXPECT_EQ(a.back(), "3");
  r.gpu = true;
  const auto g = bwrap_arguments(r);
  const std::vector<std::string> sys = {"--ro-bind", "/sys", "/sys"};
  EXPECT_NE(std::search(g.begin(), g.end(), sys.begin(), sys.end()), g.end()) << "gpu binds /sys";
}

TEST(SandboxResults, DescribeEachEndingInOneSentence) {
  SandboxResult r;
  r.end = End::TimedOut;
  r.seconds = 60.03;
  EXPECT_EQ(r.describe(), "stopped after 60 s (time limit)");
  r.end = End::Exited;
  r.exit_code = 0;
  r.seconds = 1.26;
  EXPECT_EQ(r.describe(), "exited normally after 1.3 s");
  r.exit_code = 2;
  EXPECT_EQ(r.describe(), "exited with code 2 after 1.3 s");
  r.end = End::Signalled;
  r.signal = SIGSEGV;
  EXPECT_EQ(r.describe(), "killed by SIGSEGV (invalid memory access) after 1.3 s");
  r.end = End::OutputFlood;
  r.out.assign(1 << 20, 'y');
  r.seconds = 0.04;
  EXPECT_EQ(r.describe(), "stopped after 0.04 s: more than 1 MiB of output (output limit)");
  r.end = End::TooMuchMemory;
  r.peak_resident_bytes = 10ull << 30;
  r.resident_limit_bytes = 8ull << 30;
  EXPECT_EQ(r.describe(), "stopped after 0.04 s: it held 10 GiB of host memory, page-locked memory included, over its "
                          "limit of 8 GiB (memory limit)");
  r.end = End::TooManyProcesses;
  r.seconds = 2;
  EXPECT_EQ(r.describe(), "stopped after 2 s (time limit) while at its process limit, as a fork bomb would be");
  r.end = End::FailedToStart;
  r.err = "bwrap: execvp ./a.out: No such file or directory\n";
  EXPECT_EQ(r.describe(), "could not be started: bwrap: execvp ./a.out: No such file or directory");
}

}  // namespace
