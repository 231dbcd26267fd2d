// The grading sandbox against planted misbehaviour: each test runs a small shell command that
// does what a careless or hostile submission would, and checks that it is contained and
// reported as what it is. Skipped where bubblewrap cannot create its namespaces.
#include <arpa/inet.h>
#include <dirent.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "labbook/model/error.h"
#include "sandbox.h"
#include "temp_dir.h"

using namespace labbook::grading;
using End = SandboxResult::End;

using labbook::test::make_temp_dir;
using labbook::test::TempDir;

namespace {

/// As root (CI) the sandbox runs as the owner of work_dir, as a grader would chown each
/// submission's folder to an unprivileged uid of its own: here one per test process (ctest
/// runs them in parallel), so that one test's fork bomb leaves the others' process limits
/// alone. It needs no passwd entry.
const uid_t kSandboxUid = 3000000 + static_cast<uid_t>(::getpid()) % 1000000;

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

/// Whether any process on the machine (this one aside) has `marker` in its command line:
/// what `pgrep -f` does.
bool process_with_marker_alive(const std::string& marker) {
  bool found = false;
  DIR* proc = ::opendir("/proc");
  while (const dirent* e = ::readdir(proc)) {
    if (e->d_name[0] < '0' || e->d_name[0] > '9' || std::atoi(e->d_name) == ::getpid()) continue;
    std::string cmdline = read_file(std::string("/proc/") + e->d_name + "/cmdline");
    std::replace(cmdline.begin(), cmdline.end(), '\0', ' ');
    if (cmdline.find(marker) != std::string::npos) found = true;
  }
  ::closedir(proc);
  return found;
}

class Sandbox : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why;
    if (!sandbox_available(why)) GTEST_SKIP() << "no sandbox here: " << why;
    work_ = make_temp_dir("labbook-sandbox-test");
    if (::geteuid() == 0) {
      ASSERT_EQ(::chown(work_.c_str(), kSandboxUid, kSandboxUid), 0);
    }
  }
  void TearDown() override {
    if (!work_.empty()) std::filesystem::remove_all(work_);
  }

  SandboxRequest request(std::vector<std::string> command) const {
    SandboxRequest r;
    r.command = std::move(command);
    r.work_dir = work_;
    r.env = {{"PATH", "/usr/bin:/bin"}};
    r.limits.wall_seconds = 10;
    return r;
  }
  SandboxResult sh(const std::string& script) const { return run_sandboxed(request({"sh", "-c", script})); }

  /// A word no other process has in its argv, to find this test's processes afterwards.
  static std::string marker(const std::string& what) {
    return "labbook-sandbox-" + what + "-" + std::to_string(::getpid());
  }

  std::string work_;
};

TEST_F(Sandbox, RunsACommandAndCapturesBothStreams) {
  const auto r = sh("echo hello; echo oops >&2");
  EXPECT_EQ(r.end, End::Exited) << r.describe() << "\n" << r.err;
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out, "hello\n");
  EXPECT_EQ(r.err, "oops\n");
  EXPECT_LT(r.seconds, 5);
  EXPECT_EQ(r.describe().rfind("exited normally after", 0), 0u) << r.describe();
}

TEST_F(Sandbox, ReportsANonZeroExitCode) {
  const auto r = sh("echo partial; exit 3");
  EXPECT_EQ(r.end, End::Exited);
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_EQ(r.out, "partial\n");
  EXPECT_NE(r.describe().find("exited with code 3"), std::string::npos) << r.describe();
}

TEST_F(Sandbox, ReportsACrashAsItsSignal) {
  const auto r = sh("kill -SEGV $$");
  EXPECT_EQ(r.end, End::Signalled) << r.describe();
  EXPECT_EQ(r.signal, SIGSEGV);
  EXPECT_NE(r.describe().find("SIGSEGV"), std::string::npos) << r.describe();
}

TEST_F(Sandbox, AMissingProgramFailsToStart) {
  const auto r = run_sandboxed(request({"no-such-program-anywhere"}));
  EXPECT_EQ(r.end, End::FailedToStart);
  EXPECT_NE(r.err.find("no-such-program-anywhere"), std::string::npos) << r.err;
  EXPECT_NE(r.describe().find("could not be started"), std::string::npos) << r.describe();
}

TEST_F(Sandbox, StopsAnInfiniteLoopAtTheTimeLimit) {
  auto q = request({"sh", "-c", "while :; do :; done"});
  q.limits.wall_seconds = 1;
  const auto r = run_sandboxed(q);
  EXPECT_EQ(r.end, End::TimedOut) << r.describe();
  EXPECT_GE(r.seconds, 1.0);
  EXPECT_LT(r.seconds, 1.8);
  EXPECT_NE(r.describe().find("(time limit)"), std::string::npos) << r.describe();
  EXPECT_EQ(r.peak_tasks, 1);  // the shell, alone
}

TEST_F(Sandbox, StopsALoopThatClosedItsOutputAtTheTimeLimit) {
  auto q = request({"sh", "-c", "exec >&- 2>&-; while :; do :; done"});
  q.limits.wall_seconds = 1;
  const auto r = run_sandboxed(q);
  EXPECT_EQ(r.end, End::TimedOut) << r.describe();
  EXPECT_LT(r.seconds, 1.8);
}

TEST_F(Sandbox, StopsAFloodOfOutputAndKeepsItsBeginning) {
  auto q = request({"yes"});
  q.limits.output_bytes = 64 << 10;
  const auto r = run_sandboxed(q);
  EXPECT_EQ(r.end, End::OutputFlood) << r.describe();
  EXPECT_EQ(r.out.size(), 64u << 10);
  EXPECT_EQ(r.out.substr(0, 4), "y\ny\n");
  EXPECT_LT(r.seconds, 5);
  EXPECT_NE(r.describe().find("more than 64 KiB of output"), std::string::npos) << r.describe();
}

TEST_F(Sandbox, RecordChannelsComeBackInOrderAndNothingElseIsOpen) {
  auto q = request({"sh", "-c", "echo first >&5; echo second >&6; echo more >&5; ls /proc/self/fd"});
  q.channels = 2;
  const auto r = run_sandboxed(q);
  ASSERT_EQ(r.end, End::Exited) << r.describe() << "\n" << r.err;
  ASSERT_EQ(r.channels.size(), 2u);
  EXPECT_EQ(r.channels[0], "first\nmore\n");
  EXPECT_EQ(r.channels[1], "second\n");
  // 0-2, the two channels, and the descriptor ls reads /proc/self/fd through: none of
  // labbook's own, and no third channel.
  EXPECT_EQ(r.out.find("7\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("5\n"), std::string::npos) << r.out;
}

TEST_F(Sandbox, StopsAFloodOfRecords) {
  auto q = request({"sh", "-c", "yes >&5"});
  q.channels = 1;
  q.limits.channel_bytes = {64 << 10};
  const auto r = run_sandboxed(q);
  EXPECT_EQ(r.end, End::OutputFlood) << r.describe();
  EXPECT_EQ(r.channels.at(0).size(), 64u << 10);
}

TEST_F(Sandbox, ARunWithoutChannelsHasNone) {
  const auto r = sh("echo hi >&5");
  EXPECT_EQ(r.end, End::Exited) << r.describe();
  EXPECT_NE(r.exit_code, 0);   // descriptor 5 is not open
  EXPECT_TRUE(r.channels.empty());
}

bool have_bash() { return ::access("/usr/bin/bash", X_OK) == 0 || ::access("/bin/bash", X_OK) == 0; }

TEST_F(Sandbox, StopsAForkBombAndLeavesNoProcessBehind) {
  if (!have_bash()) GTEST_SKIP() << "no bash";
  const std::string tag = marker("forkbomb");
  // The classic bomb, in bash, which retries a failed fork and so holds the bomb at the
  // limit; `exec sleep` keeps the first process alive without a fork of its own, since the
  // sandbox ends when its first process does.
  auto q = request({"bash", "-c", "bomb() { bomb | bomb & }; bomb; exec sleep 100", tag});
  // Four seconds: samples 50 ms apart see it at the limit even where the sandbox is slow to
  // start (one CI run with two saw it below 90 % of the limit, and called it a plain timeout).
  q.limits.wall_seconds = 4;  // processes: the default 64
  const auto r = run_sandboxed(q);
  EXPECT_GE(r.seconds, 4.0);
  EXPECT_LT(r.seconds, 5.0);
  EXPECT_FALSE(process_with_marker_alive(tag));
  // Where the machine refuses forks first (a container's process limit, a busy CI host), bash
  // complains while the sandbox holds fewer tasks than its own limit: that run is a plain
  // timeout, which is what happened. Everywhere else the bomb is seen at its limit.
  const long limit = q.limits.processes, near_limit = limit - limit / 10;   // as the sandbox judges it
  const bool refused_below_the_limit =
      r.end == End::TimedOut && r.peak_tasks < near_limit && r.err.find("fork: retry") != std::string::npos;
  if (refused_below_the_limit) {
    std::cerr << "note: forks were refused at " << r.peak_tasks << " tasks, below the sandbox's limit of " << limit << "\n";
    return;
  }
  EXPECT_EQ(r.end, End::TooManyProcesses) << r.describe() << "; at most " << r.peak_tasks << " tasks seen\n"
                                          << r.err.substr(0, 300);
  EXPECT_NE(r.describe().find("process limit"), std::string::npos) << r.describe();
}

TEST_F(Sandbox, AForkLoopThatGivesUpEndsWithTheShellsComplaint) {
  const std::string tag = marker("forkloop");
  // dash gives up at the first failed fork: the run ends by itself, its children with it.
  auto q = request({"sh", "-c", "while :; do sh -c 'sleep 100; :' " + tag + " & done"});
  q.limits.wall_seconds = 5;
  q.limits.processes = 16;
  const auto r = run_sandboxed(q);
  EXPECT_EQ(r.end, End::Exited) << r.describe();
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("fork"), std::string::npos) << r.err;
  EXPECT_LT(r.seconds, 4);
  EXPECT_FALSE(process_with_marker_alive(tag));
}

TEST_F(Sandbox, EndsBackgroundProcessesWhenTheCommandEnds) {
  const std::string tag = marker("background");
  // One child keeps stdout open, one let go of it: neither outlives the command.
  const auto r = run_sandboxed(request(
      {"sh", "-c", "(while :; do sleep 1; done) & (exec >/dev/null 2>&1; while :; do sleep 1; done) & echo started", tag}));
  EXPECT_EQ(r.end, End::Exited) << r.describe();
  EXPECT_EQ(r.out, "started\n");
  EXPECT_LT(r.seconds, 2);
  EXPECT_FALSE(process_with_marker_alive(tag));
}

TEST_F(Sandbox, CannotReadTheInstructorsFiles) {
  // World-readable on the host, so only the sandbox stands between the command and it.
  const TempDir instructor("labbook-instructor");
  const std::string& secret_dir = instructor.path();
  ::chmod(secret_dir.c_str(), 0755);
  const std::string secret = secret_dir + "/answers.txt";
  std::ofstream(secret) << "INSTRUCTOR-SECRET\n";
  ::chmod(secret.c_str(), 0644);
  const char* home = std::getenv("HOME");
  for (const std::string& path : {secret, secret_dir, std::string(home && *home ? home : "/root"),
                                  std::string("/root"), std::string("/home"), std::string("/etc/shadow")}) {
    const auto r = run_sandboxed(request({"sh", "-c", "cat \"$1\" || ls -a \"$1\"", "sh", path}));
    EXPECT_EQ(r.end, End::Exited) << path;
    EXPECT_NE(r.exit_code, 0) << path << " is visible: " << r.out;
    EXPECT_EQ(r.out.find("INSTRUCTOR-SECRET"), std::string::npos);
  }
  const auto listing = sh("ls -a /");
  for (const char* hidden : {"root", "home", "work", "opt", "srv", "var", "sys"})
    EXPECT_EQ(("\n" + listing.out).find(std::string("\n") + hidden + "\n"), std::string::npos)
        << "/" << hidden << " is visible:\n" << listing.out;
}

TEST_F(Sandbox, HasNoNetworkNotEvenTheHostsLoopback) {
  if (!have_bash()) GTEST_SKIP() << "no bash";
  const int listener = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  ASSERT_GE(listener, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(::bind(listener, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
  ASSERT_EQ(::listen(listener, 4), 0);
  socklen_t length = sizeof address;
  ::getsockname(listener, reinterpret_cast<sockaddr*>(&address), &length);
  const std::string port = std::to_string(ntohs(address.sin_port));
  const std::string connect = "exec 3<>/dev/tcp/127.0.0.1/" + port + " && echo connected";

  const auto r = run_sandboxed(request({"bash", "-c", connect}));
  EXPECT_EQ(r.end, End::Exited);
  EXPECT_NE(r.exit_code, 0);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(::accept(listener, nullptr, nullptr), -1) << "the sandbox reached the host's loopback";
  EXPECT_TRUE(errno == EAGAIN || errno == EWOULDBLOCK);
  // The same command outside the sandbox does connect: the check above can fail.
  EXPECT_EQ(std::system(("bash -c '" + connect + "' >/dev/null").c_str()), 0);
  ::close(listener);
}

TEST_F(Sandbox, WritesOnlyIntoWorkDirAndItsPrivateTmp) {
  const std::string probe = marker("write-probe");
  const auto r = sh("touch /tmp/" + probe + "; echo tmp=$?; echo made > out.txt; echo work=$?; "
                    "touch /usr/" + probe + " 2>/dev/null; echo usr=$?; touch /" + probe + " 2>/dev/null; echo root=$?");
  EXPECT_EQ(r.out, "tmp=0\nwork=0\nusr=1\nroot=1\n") << r.err;
  EXPECT_FALSE(std::filesystem::exists("/tmp/" + probe)) << "the sandbox's /tmp is the host's";
  EXPECT_EQ(read_file(work_ + "/out.txt"), "made\n");
}

TEST_F(Sandbox, ReadOnlyPathsCanBeReadNotWritten) {
  const TempDir build_tree("labbook-build-tree");
  const std::string& tree = build_tree.path();
  ::chmod(tree.c_str(), 0755);
  std::ofstream(tree + "/kernel.ptx") << "ptx\n";
  ::chmod((tree + "/kernel.ptx").c_str(), 0666);  // writable on the host: the bind alone forbids it
  auto q = request({"sh", "-c", "cat \"$1\"/kernel.ptx; echo x >> \"$1\"/kernel.ptx; echo append=$?", "sh", tree});
  q.read_only = {tree};
  const auto r = run_sandboxed(q);
  EXPECT_EQ(r.out, "ptx\nappend=2\n") << r.err;
  EXPECT_EQ(read_file(tree + "/kernel.ptx"), "ptx\n");
}

TEST_F(Sandbox, EnvironmentIsOnlyWhatWasGiven) {
  ::setenv("LABBOOK_INSTRUCTOR_TOKEN", "do-not-leak", 1);
  auto q = request({"env"});
  q.env.emplace_back("LABBOOK_GIVEN", "yes");
  const auto r = run_sandboxed(q);
  ::unsetenv("LABBOOK_INSTRUCTOR_TOKEN");
  std::vector<std::string> lines;
  std::istringstream in(r.out);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  std::sort(lines.begin(), lines.end());
  // PWD is bubblewrap's own addition: the working directory, nothing of the host's.
  const std::vector<std::string> expected = {"LABBOOK_GIVEN=yes", "PATH=/usr/bin:/bin", "PWD=" + work_};
  EXPECT_EQ(lines, expected) << r.out;
}

TEST_F(Sandbox, SetsItsResourceLimits) {
  auto q = request({"sh", "-c", "ulimit -c; ulimit -d; ulimit -f"});
  q.limits.memory_bytes = 256ull << 20;
  q.limits.file_bytes = 1 << 20;
  const auto r = run_sandboxed(q);
  EXPECT_EQ(r.out, "0\n262144\n2048\n") << "core, data in KiB, file size in 512-byte blocks";
}

TEST_F(Sandbox, StopsAFileThatGrowsPastTheFileLimit) {
  auto q = request({"sh", "-c", "exec head -c 2097152 /dev/zero > big"});
  q.limits.file_bytes = 1 << 20;
  const auto r = run_sandboxed(q);
  EXPECT_EQ(r.end, End::Signalled) << r.describe();
  EXPECT_EQ(r.signal, SIGXFSZ);
  EXPECT_EQ(std::filesystem::file_size(work_ + "/big"), 1u << 20);
}

TEST_F(Sandbox, StopsAMemoryHog) {
  // 64 MiB of data limit; the shell tries to hold 128 MiB in a variable.
  auto q = request({"sh", "-c", "x=$(head -c 134217728 /dev/zero | tr '\\0' x); echo survived"});
  q.limits.memory_bytes = 64ull << 20;
  const auto r = run_sandboxed(q);
  EXPECT_EQ(r.out, "") << r.describe();
  EXPECT_FALSE(r.end == End::Exited && r.exit_code == 0) << r.describe();
}

TEST_F(Sandbox, StopsSharedMemoryTheDataLimitDoesNotSee) {
  // Page-locked host memory (cudaMallocHost) is a shared mapping: RLIMIT_DATA lets it through.
  // This program holds 256 MiB the same way, under a 64 MiB data limit and 128 MiB resident.
  if (::access("/usr/bin/cc", X_OK) != 0) GTEST_SKIP() << "no C compiler";
  std::ofstream(work_ + "/hold.c") << "#include <string.h>\n#include <sys/mman.h>\n#include <unistd.h>\n"
                                      "int main(void) { size_t n = 256u << 20;\n"
                                      "  char* p = mmap(0, n, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);\n"
                                      "  if (p == MAP_FAILED) return 3; memset(p, 1, n); sleep(5); return 0; }\n";
  if (::geteuid() == 0) {
    ASSERT_EQ(::chown((work_ + "/hold.c").c_str(), kSandboxUid, kSandboxUid), 0);
  }
  auto q = request({"sh", "-c", "cc -O0 -o hold hold.c && exec ./hold"});
  q.limits.memory_bytes = 64ull << 20;
  q.limits.resident_bytes = 128ull << 20;
  const auto r = run_sandboxed(q);
  EXPECT_EQ(r.end, End::TooMuchMemory) << r.describe() << r.err;
  EXPECT_GT(r.peak_resident_bytes, 128ull << 20);
  EXPECT_LT(r.seconds, 4) << "stopped when seen, not at the end";
  EXPECT_NE(r.describe().find("of host memory, page-locked memory included, over its limit of 128 MiB (memory limit)"),
            std::string::npos) << r.describe();
}

TEST_F(Sandbox, BuildsAndRunsACProgram) {
  if (::access("/usr/bin/cc", X_OK) != 0) GTEST_SKIP() << "no C compiler";
  std::ofstream(work_ + "/hello.c") << "#include <stdio.h>\nint main(void) { puts(\"built inside\"); return 0; }\n";
  if (::geteuid() == 0) {
    ASSERT_EQ(::chown((work_ + "/hello.c").c_str(), kSandboxUid, kSandboxUid), 0);
  }
  const auto r = sh("cc -O0 -o hello hello.c && ./hello");
  EXPECT_EQ(r.end, End::Exited) << r.err;
  EXPECT_EQ(r.out, "built inside\n") << r.err;
}

}  // namespace
