#include "measurement_watch.h"

#include <poll.h>
#include <sys/eventfd.h>
#include <sys/inotify.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <filesystem>
#include <utility>

#include "stopwatch.h"

namespace labbook::profiler {

namespace {

std::optional<struct stat> identity_of(const std::string& path) {
  struct stat s {};
  if (::stat(path.c_str(), &s) != 0) return std::nullopt;
  return s;
}

/// The same file: a rename into place makes a new inode, a rewrite a new size or time.
bool same_file(const struct stat& a, const struct stat& b) {
  return a.st_dev == b.st_dev && a.st_ino == b.st_ino && a.st_size == b.st_size &&
         a.st_mtim.tv_sec == b.st_mtim.tv_sec && a.st_mtim.tv_nsec == b.st_mtim.tv_nsec;
}

std::chrono::system_clock::time_point modified(const struct stat& s) {
  return std::chrono::system_clock::time_point(std::chrono::duration_cast<std::chrono::system_clock::duration>(
      std::chrono::seconds(s.st_mtim.tv_sec) + std::chrono::nanoseconds(s.st_mtim.tv_nsec)));
}

}  // namespace

MeasurementWatch::MeasurementWatch(std::string path, Reader read) : path_(std::move(path)), read_(std::move(read)) {
  inotify_ = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
  stop_ = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  std::string folder = std::filesystem::path(path_).parent_path().string();
  if (folder.empty()) folder = ".";
  if (inotify_ < 0 || stop_ < 0 || inotify_add_watch(inotify_, folder.c_str(), IN_MOVED_TO | IN_CLOSE_WRITE) < 0) return;
  thread_ = std::thread([this] { watch(); });
}

MeasurementWatch::~MeasurementWatch() {
  stop();
  if (inotify_ >= 0) ::close(inotify_);
  if (stop_ >= 0) ::close(stop_);
}

void MeasurementWatch::stop() {
  if (!thread_.joinable()) return;
  const std::uint64_t one = 1;
  (void)!::write(stop_, &one, sizeof one);
  thread_.join();
}

void MeasurementWatch::watch() {
  const std::string name = std::filesystem::path(path_).filename().string();
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
      if (event->len > 0 && name == event->name) return read_now();
      at += static_cast<ssize_t>(sizeof(inotify_event) + event->len);
    }
  }
}

void MeasurementWatch::read_now() {
  const std::optional<struct stat> before = identity_of(path_);
  if (!before) return;
  const auto started = std::chrono::steady_clock::now();
  try {
    Measurement m = read_(path_);
    const std::optional<struct stat> after = identity_of(path_);
    if (!after || !same_file(*before, *after)) return;   // replaced while read: read again after the exit
    read_early_ = EarlyRead{std::move(m), seconds_since(started), 0};
    identity_ = *before;
  } catch (const std::exception&) {
    // Whatever went wrong is said by the reading after the exit, which reads it again.
  }
}

std::optional<EarlyRead> MeasurementWatch::take() {
  const auto exited = std::chrono::system_clock::now();
  stop();
  if (!read_early_) return std::nullopt;
  const std::optional<struct stat> now = identity_of(path_);
  if (!now || !same_file(*now, identity_)) return std::nullopt;
  read_early_->written_to_exit_seconds =
      std::chrono::duration<double>(exited - modified(identity_)).count();
  return std::exchange(read_early_, std::nullopt);
}

}  // namespace labbook::profiler
