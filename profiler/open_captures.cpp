#include "open_captures.h"

namespace labbook::profiler {

void OpenCaptures::began(Handle context, Handle stream) {
  std::lock_guard<std::mutex> lock(mutex_);
  open_[context].insert(stream);
}

void OpenCaptures::ended(Handle context, Handle stream) {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto streams = open_.find(context);
  if (streams == open_.end()) return;
  if (const auto it = streams->second.find(stream); it != streams->second.end()) streams->second.erase(it);
  if (streams->second.empty()) open_.erase(streams);
}

bool OpenCaptures::any() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return !open_.empty();
}

}  // namespace labbook::profiler
