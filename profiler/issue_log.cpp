#include "issue_log.h"

#include <cstdio>

namespace labbook::profiler {

void IssueLog::add(const std::string& code, const std::string& message) {
  std::lock_guard<std::mutex> lock(mutex_);
  for (const auto& i : issues_)
    if (i.code == code && i.message == message) return;
  issues_.push_back({code, message});
  std::fprintf(stderr, "labbook collector: %s: %s\n", code.c_str(), message.c_str());
}

std::vector<Issue> IssueLog::snapshot() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return issues_;
}

}  // namespace labbook::profiler
