// forbid_escapes(): each test forks a child that installs the filter and makes RAW system calls
// (syscall(SYS_...), x86_64 numbers), so that no libc wrapper takes another path; the child
// reports through its exit code: 0 for success, the errno of a refusal, 128 + a killing signal.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <linux/io_uring.h>
#include <linux/sched.h>
#include <pthread.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>

#include "syscall_filter.h"

using labbook::lab::forbid_escapes;
namespace fs = std::filesystem;

namespace {

constexpr int kNotInstalled = 99;

/// Runs `body` in a forked child and returns its exit code, or 128 + the signal that killed it.
int in_child(const std::function<int()>& body) {
  const pid_t pid = fork();
  if (pid == 0) _exit(body());
  int status = 0;
  if (pid < 0 || waitpid(pid, &status, 0) != pid) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/// in_child, with the filter installed before `body` runs.
int filtered(const std::function<int()>& body) {
  return in_child([&] { return forbid_escapes().empty() ? body() : kNotInstalled; });
}

/// 0 when a system call succeeded, else its errno.
int outcome(long rc) { return rc >= 0 ? 0 : errno; }

std::string contents(const fs::path& path) {
  std::ifstream in(path);
  return {std::istreambuf_iterator<char>(in), {}};
}

}  // namespace

/// A fresh folder holding one file, "existing", that says "kept". Outside the anonymous
/// namespace, as the tests derive from it (GCC warns so in a unity batch).
class SyscallFilter : public ::testing::Test {
 protected:
  void SetUp() override {
    char name[] = "/tmp/syscall-filter-XXXXXX";
    ASSERT_NE(mkdtemp(name), nullptr);
    dir_ = name;
    std::ofstream(dir_ / "existing") << "kept";
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string at(const char* name) const { return (dir_ / name).string(); }
  fs::path dir_;
};

TEST(ForbidEscapes, ReturnsNothingWhenInstalled) {
  EXPECT_EQ(in_child([] { return forbid_escapes().empty() ? 0 : 1; }), 0);
}

TEST_F(SyscallFilter, RefusesOpeningForWritingAndCreatesNothing) {
  const std::string made = at("made");
  EXPECT_EQ(filtered([&] { return outcome(syscall(SYS_open, made.c_str(), O_WRONLY | O_CREAT, 0600)); }), EPERM);
  EXPECT_EQ(filtered([&] { return outcome(syscall(SYS_openat, AT_FDCWD, made.c_str(), O_WRONLY | O_CREAT, 0600)); }), EPERM);
  EXPECT_EQ(filtered([&] { return outcome(syscall(SYS_openat, AT_FDCWD, made.c_str(), O_RDONLY | O_CREAT, 0600)); }), EPERM);
  EXPECT_EQ(filtered([&] { return outcome(syscall(SYS_creat, made.c_str(), 0600)); }), EPERM);
  EXPECT_EQ(filtered([&] { return outcome(syscall(SYS_openat, AT_FDCWD, dir_.c_str(), O_TMPFILE | O_RDWR, 0600)); }), EPERM);
  EXPECT_FALSE(fs::exists(made));
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()), 1);
}

TEST_F(SyscallFilter, RefusesWritingFlagsOnAnExistingFileAndLeavesItAlone) {
  const std::string existing = at("existing");
  for (int flags : {O_WRONLY, O_RDONLY | O_TRUNC, O_RDWR | O_APPEND, O_RDWR | O_TRUNC})
    EXPECT_EQ(filtered([&] { return outcome(syscall(SYS_openat, AT_FDCWD, existing.c_str(), flags)); }), EPERM) << flags;
  EXPECT_EQ(contents(existing), "kept");
}

TEST_F(SyscallFilter, AllowsReadingAndReadWriteOpensOfExistingFiles) {
  const std::string existing = at("existing");
  EXPECT_EQ(filtered([&] { return outcome(syscall(SYS_openat, AT_FDCWD, existing.c_str(), O_RDONLY)); }), 0);
  EXPECT_EQ(filtered([&] { return outcome(syscall(SYS_open, existing.c_str(), O_RDWR | O_CLOEXEC)); }), 0)
      << "the CUDA driver opens /dev/nvidia* O_RDWR";
}

TEST_F(SyscallFilter, RefusesChangingTheFolder) {
  const std::string existing = at("existing"), other = at("other");
  EXPECT_EQ(filtered([&] { return outcome(syscall(SYS_rename, existing.c_str(), other.c_str())); }), EPERM);
  EXPECT_EQ(filtered([&] { return outcome(syscall(SYS_unlink, existing.c_str())); }), EPERM);
  EXPECT_EQ(filtered([&] { return outcome(syscall(SYS_link, existing.c_str(), other.c_str())); }), EPERM);
  EXPECT_EQ(filtered([&] { return outcome(syscall(SYS_symlink, existing.c_str(), other.c_str())); }), EPERM);
  EXPECT_EQ(filtered([&] { return outcome(syscall(SYS_mkdir, other.c_str(), 0700)); }), EPERM);
  EXPECT_EQ(filtered([&] { return outcome(syscall(SYS_mknod, other.c_str(), S_IFIFO | 0600, 0)); }), EPERM);
  EXPECT_EQ(contents(existing), "kept");
  EXPECT_FALSE(fs::exists(fs::symlink_status(other)));
}

TEST(ForbidEscapes, RefusesMemfd) {
  EXPECT_EQ(filtered([] { return outcome(syscall(SYS_memfd_create, "x", 0)); }), EPERM);
}

TEST(ForbidEscapes, RefusesNewProcesses) {
  EXPECT_EQ(filtered([] {
              const long pid = syscall(SYS_clone, SIGCHLD, 0, 0, 0, 0);
              if (pid == 0) _exit(0);
              return outcome(pid);
            }),
            EPERM);
  EXPECT_EQ(filtered([] {
              const long pid = syscall(SYS_vfork);
              if (pid == 0) _exit(0);
              return outcome(pid);
            }),
            EPERM);
  EXPECT_EQ(filtered([] {
              clone_args args{};
              args.exit_signal = SIGCHLD;
              const long pid = syscall(SYS_clone3, &args, sizeof args);
              if (pid == 0) _exit(0);
              return outcome(pid);
            }),
            ENOSYS);
  EXPECT_EQ(filtered([] {
              char* argv[] = {const_cast<char*>("/bin/true"), nullptr};
              char* envp[] = {nullptr};
              return outcome(syscall(SYS_execve, "/bin/true", argv, envp));
            }),
            EPERM);
}

TEST(ForbidEscapes, AllowsThreads) {
  EXPECT_EQ(filtered([] {
              pthread_t thread;
              static int ran = 0;
              if (pthread_create(&thread, nullptr, [](void*) -> void* { ran = 1; return nullptr; }, nullptr) != 0) return 1;
              return pthread_join(thread, nullptr) == 0 && ran == 1 ? 0 : 2;
            }),
            0);
}

TEST(ForbidEscapes, AllowsSignalsToItselfOnly) {
  const pid_t parent = getpid();
  EXPECT_EQ(filtered([&] { return outcome(syscall(SYS_kill, parent, 0)); }), EPERM);
  EXPECT_EQ(filtered([] { return outcome(syscall(SYS_kill, getpid(), 0)); }), 0);
  EXPECT_EQ(filtered([] { return outcome(syscall(SYS_tgkill, getpid(), syscall(SYS_gettid), 0)); }), 0);
}

TEST(ForbidEscapes, RefusesSocketsPtraceAndIoUring) {
  EXPECT_EQ(filtered([] { return outcome(syscall(SYS_socket, AF_UNIX, SOCK_STREAM, 0)); }), EPERM);
  EXPECT_EQ(filtered([] { return outcome(syscall(SYS_ptrace, PTRACE_TRACEME, 0, 0, 0)); }), EPERM);
  EXPECT_EQ(filtered([] {
              io_uring_params params{};
              return outcome(syscall(SYS_io_uring_setup, 8, &params));
            }),
            EPERM);
}

TEST(ForbidEscapes, RefusesTerminalInputEvenWithAHighBitSet) {
  EXPECT_EQ(filtered([] { return outcome(syscall(SYS_ioctl, -1, TIOCSTI, "x")); }), EPERM);
  EXPECT_EQ(filtered([] { return outcome(syscall(SYS_ioctl, -1, (1ul << 32) | TIOCSTI, "x")); }), EPERM);
}

TEST(ForbidEscapes, KillsX32Numbers) {
  // x32 numbers carry bit 30; without the filter this kernel answers ENOSYS or runs them.
  EXPECT_EQ(filtered([] { return outcome(syscall(0x40000000 | SYS_socket, AF_UNIX, SOCK_STREAM, 0)); }), 128 + SIGSYS);
}

TEST(ForbidEscapes, KillsI386Calls) {
  const auto i386_getpid = [] {
    long rc = 20;  // getpid in the i386 table
    asm volatile("int $0x80" : "+a"(rc) : : "memory");
    return rc > 0 ? 0 : 1;
  };
  if (in_child(i386_getpid) != 0) GTEST_SKIP() << "this kernel runs no i386 system calls";
  EXPECT_EQ(filtered(i386_getpid), 128 + SIGSYS);
}

TEST(ForbidEscapes, AllowsWritingToAnInheritedPipe) {
  int pipe_fds[2];
  ASSERT_EQ(pipe(pipe_fds), 0);
  EXPECT_EQ(filtered([&] { return syscall(SYS_write, pipe_fds[1], "bytes", 5) == 5 ? 0 : errno; }), 0);
  close(pipe_fds[1]);
  char got[8] = {};
  EXPECT_EQ(read(pipe_fds[0], got, sizeof got), 5);
  EXPECT_STREQ(got, "bytes");
  close(pipe_fds[0]);
}
