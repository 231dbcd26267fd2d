#pragma once
/// @file
/// IssueLog: what the collector could not do, kept as data for the measurement file
/// (and echoed once to stderr so a user watching the terminal sees it too).
#include <mutex>
#include <string>
#include <vector>

#include "labbook/model/measurement.h"

namespace labbook::profiler {

class IssueLog {
 public:
  /// Records an issue; a second issue with the same code and message is dropped.
  void add(const std::string& code, const std::string& message);
  std::vector<Issue> snapshot() const;

 private:
  mutable std::mutex mutex_;
  std::vector<Issue> issues_;
};

}  // namespace labbook::profiler
