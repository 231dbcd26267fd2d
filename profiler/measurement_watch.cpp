#include "measurement_watch.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/inotify.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <filesystem>
#include <system_error>
#include <utility>

#include "stopwatch.h"

namespace labbook::profiler {

namespace {

/// The same file: its inode, which no later file can take while the watch holds it open, and
/// its size and time, which a rewrite in place would most likely change.
bool same_file(const struct stat& a, const struct stat& b) {
  return a.st_dev == b.st_dev && a.st_ino == b.st_ino && a.st_size == b.st_size &&
         a.st_mtim.tv_sec == b.st_mtim.tv_sec && a.st_mtim.tv_nsec == b.st_mtim.tv_nsec;
}

std::chrono::system_clock::time_point modified(const struct stat& s) {
  return std::chrono::system_clock::time_point(std::chrono::duration_cast<std::chrono::system_clock::duration>(
      std::chrono::seconds(s.st_mtim.tv_sec) + std::chrono::nanoseconds(s.st_mtim.tv_nsec)));
}

}  // namespace

MeasurementWatch::MeasurementWatch(std::string path, Reader read, Then then)
    : path_(std::move(path)),
      name_(std::filesystem::path(path_).filename().string()),
      read_(std::move(read)),
      then_(std::move(then)) {
  inotify_ = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
  stop_ = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  std::string folder = std::filesystem::path(path_).parent_path().string();
  if (folder.empty()) folder = ".";
  if (inotify_ < 0 || stop_ < 0 || inotify_add_watch(inotify_, folder.c_str(), IN_MOVED_TO) < 0) return;
  try {
    thread_ = std::thread([this] { watch(); });
  } catch (const std::system_error&) {
    // No thread to spare: the measurement is read after the exit.
  }
}

MeasurementWatch::~MeasurementWatch() {
  stop();
  for (int fd : {inotify_, stop_, held_})
    if (fd >= 0) ::close(fd);
}

void MeasurementWatch::stop() {
  if (!thread_.joinable()) return;
  const std::uint64_t one = 1;
  (void)!::write(stop_, &one, sizeof one);
  thread_.join();
}

void MeasurementWatch::watch() {
  alignas(inotify_event) char events[4096];
  while (true) {
    pollfd ready[2] = {{inotify_, POLLIN, 0}, {stop_, POLLIN, 0}};
    if (::poll(ready, 2, -1) < 0) {
      if (errno == EINTR) continue;
      return;
    }
    if (ready[1].revents) return;
    const ssize_t size = ::read(inotify_, events, sizeof events);
    if (size <= 0) continue;
    for (ssize_t at = 0; at < size;) {
      const auto* event = reinterpret_cast<const inotify_event*>(events + at);
      if (event->len > 0 && name_ == event->name) return read_now();
      at += static_cast<ssize_t>(sizeof(inotify_event) + event->len);
    }
  }
}

void MeasurementWatch::read_now() {
  // Held open while the watch lives, so that no later file can be given its inode.
  held_ = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
  if (held_ < 0 || ::fstat(held_, &identity_) != 0) return;
  const auto started = std::chrono::steady_clock::now();
  try {
    Measurement m = read_(path_);
    struct stat now {};
    if (::stat(path_.c_str(), &now) != 0 || !same_file(now, identity_)) return;   // replaced while read
    read_early_ = EarlyRead{std::move(m), seconds_since(started), 0};
    if (then_) then_(read_early_->measurement);
  } catch (...) {
    // Whatever went wrong is said by the reading after the exit, which reads it again.
  }
}

std::optional<EarlyRead> MeasurementWatch::take() {
  const auto exited = std::chrono::system_clock::now();
  stop();
  struct stat now {};
  if (!read_early_ || ::stat(path_.c_str(), &now) != 0 || !same_file(now, identity_)) return std::nullopt;
  read_early_->written_to_exit_seconds =
      std::chrono::duration<double>(exited - modified(identity_)).count();
  return std::exchange(read_early_, std::nullopt);
}

}  // namespace labbook::profiler
