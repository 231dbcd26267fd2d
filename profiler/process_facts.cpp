#include "process_facts.h"

#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <fstream>

#include "labbook/model/error.h"

namespace labbook::profiler {

namespace {

// Forks so far: a forked child's one thread must read its own id again.
std::atomic<unsigned> g_forks{0};

}  // namespace

void write_all(int fd, std::string_view text) {
  const char* p = text.data();
  std::size_t left = text.size();
  while (left > 0) {
    const ssize_t n = ::write(fd, p, left);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0)
      throw Error("cannot write the measurement to descriptor " + std::to_string(fd) + ": " +
                  (n < 0 ? std::strerror(errno) : "nothing was written"));
    p += n;
    left -= static_cast<std::size_t>(n);
  }
}

std::uint32_t this_thread_id() {
  thread_local std::uint32_t id = 0;
  thread_local unsigned read_after_forks = 0;
  static const bool counting_forks = [] {
    return pthread_atfork(nullptr, nullptr, [] { g_forks.fetch_add(1, std::memory_order_relaxed); }) == 0;
  }();
  const unsigned forks = g_forks.load(std::memory_order_relaxed);
  if (id == 0 || !counting_forks || read_after_forks != forks) {
    id = static_cast<std::uint32_t>(::syscall(SYS_gettid));
    read_after_forks = forks;
  }
  return id;
}

std::string utc_now_iso8601() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::vector<std::string> own_command_line() {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  std::vector<std::string> args;
  std::string arg;
  while (std::getline(in, arg, '\0')) args.push_back(arg);
  return args;
}

}  // namespace labbook::profiler
