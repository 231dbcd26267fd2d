// What the collector asks of its process (process_facts.h), asked of the test program: a
// measurement larger than a pipe's buffer written whole, a failed write named, the thread's id
// read again after a fork.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <regex>
#include <string>
#include <thread>

#include "labbook/model/error.h"
#include "process_facts.h"

using namespace labbook::profiler;

TEST(ProcessFacts, WriteAllDeliversMoreThanAPipeHolds) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  const int buffer = ::fcntl(fds[1], F_GETPIPE_SZ);
  std::string text(static_cast<std::size_t>(buffer > 0 ? buffer : 65536) * 4 + 17, '\0');
  for (std::size_t i = 0; i < text.size(); ++i) text[i] = static_cast<char>('a' + i % 26);
  std::string received;
  std::thread reader([&] {
    char chunk[4096];
    for (ssize_t n; (n = ::read(fds[0], chunk, sizeof chunk)) > 0;) received.append(chunk, static_cast<std::size_t>(n));
  });
  write_all(fds[1], text);
  ::close(fds[1]);
  reader.join();
  ::close(fds[0]);
  EXPECT_EQ(received.size(), text.size());
  EXPECT_TRUE(received == text) << "every byte, in order";
}

TEST(ProcessFacts, WriteAllToAClosedDescriptorNamesIt) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  ::close(fds[0]);
  ::close(fds[1]);   // nothing else opens a descriptor meanwhile: the test runs on one thread
  try {
    write_all(fds[1], "measurement");
    FAIL() << "a closed descriptor took the write";
  } catch (const labbook::Error& e) {
    EXPECT_NE(std::string(e.what()).find("descriptor " + std::to_string(fds[1]) + ":"), std::string::npos) << e.what();
  }
  EXPECT_NO_THROW(write_all(fds[1], "")) << "nothing to write: no write made";
}

TEST(ProcessFacts, OwnCommandLineStartsWithTheProgram) {
  const std::vector<std::string> args = own_command_line();
  ASSERT_FALSE(args.empty());
  ASSERT_FALSE(args[0].empty());
  EXPECT_NE(args[0].find("labbook_unit_tests"), std::string::npos) << args[0];
}

TEST(ProcessFacts, ThreadIdsDifferBetweenThreadsAndAfterAFork) {
  const std::uint32_t mine = this_thread_id();
  EXPECT_NE(mine, 0u);
  EXPECT_EQ(this_thread_id(), mine) << "read once, kept";
  std::uint32_t other = 0;
  std::thread([&] { other = this_thread_id(); }).join();
  EXPECT_NE(other, 0u);
  EXPECT_NE(other, mine);

  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    // The forked child's one thread: its id is its own pid, not the parent's kept id.
    const std::uint32_t id = this_thread_id();
    ::_exit(id != mine && id == static_cast<std::uint32_t>(::getpid()) ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << "the child read the parent's thread id";
  EXPECT_EQ(this_thread_id(), mine) << "the parent keeps its own";
}

TEST(ProcessFacts, UtcTimeIsIso8601) {
  const std::string now = utc_now_iso8601();
  EXPECT_TRUE(std::regex_match(now, std::regex(R"(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z)"))) << now;
}
