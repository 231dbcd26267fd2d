#pragma once
/// @file
/// A run's measurement read as soon as it is in place, while the program is still ending: at
/// 10^5 launches CUDA's and CUPTI's teardown after the collector's write took 0.14 s, as long
/// as reading the measurement.
#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <thread>

#include <sys/stat.h>

#include "labbook/model/measurement.h"

namespace labbook::profiler {

/// What was read while the program ended.
struct EarlyRead {
  Measurement measurement;
  double read_seconds = 0;           ///< how long reading took
  double written_to_exit_seconds = 0;   ///< from the file's last write to the program's exit
};

/// Watches one file from before the program starts (its folder must exist) until it has
/// exited, and reads the file, once, when it is renamed into place (the collector and the
/// grading sandbox's runner both write it so). Where the folder cannot be watched (inotify's
/// limits), nothing is read early.
class MeasurementWatch {
 public:
  using Reader = std::function<Measurement(const std::string&)>;
  /// Given what was read, on the watch's thread, once it is kept; what it adds to it, take()
  /// returns. take() waits for it.
  using Then = std::function<void(Measurement&)>;
  MeasurementWatch(std::string path, Reader read, Then then = {});
  ~MeasurementWatch();   ///< stops watching; waits for a read under way
  MeasurementWatch(const MeasurementWatch&) = delete;
  MeasurementWatch& operator=(const MeasurementWatch&) = delete;

  /// Once the program has exited: what was read while it ended, where the file on disk is
  /// still the one read (a later write, a fork's say, replaces it); otherwise nothing, and
  /// the caller reads the file itself. Stops watching.
  std::optional<EarlyRead> take();

 private:
  void watch();
  void read_now();
  void stop();

  std::string path_, name_;
  Reader read_;
  Then then_;
  int inotify_ = -1, stop_ = -1, held_ = -1;
  std::thread thread_;
  std::optional<EarlyRead> read_early_;
  struct stat identity_ {};    // of the file read, held open
};

}  // namespace labbook::profiler
