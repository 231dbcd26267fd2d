#include "nvtx_tracker.h"

namespace labbook::profiler {

void NvtxTracker::push(std::uint32_t thread, const std::string& name, std::uint64_t now_ns,
                       std::optional<double> payload) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto& stack = open_by_thread_[thread];
  Range r;
  r.id = ranges_.size() + 1;
  r.name = name;
  r.path = stack.empty() ? name : ranges_[stack.back()].path + "/" + name;
  r.thread = thread;
  r.depth = static_cast<int>(stack.size());
  r.start_ns = now_ns;
  r.payload = payload;
  stack.push_back(ranges_.size());
  ranges_.push_back(std::move(r));
}

bool NvtxTracker::pop(std::uint32_t thread, std::uint64_t now_ns) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = open_by_thread_.find(thread);
  if (it == open_by_thread_.end() || it->second.empty()) return false;
  ranges_[it->second.back()].end_ns = now_ns;
  it->second.pop_back();
  return true;
}

void NvtxTracker::start(std::uint64_t nvtx_id, std::uint32_t thread, const std::string& name,
                        std::uint64_t now_ns, std::optional<double> payload) {
  std::lock_guard<std::mutex> lock(mutex_);
  Range r;
  r.id = ranges_.size() + 1;
  r.name = r.path = name;
  r.thread = thread;
  r.process_wide = true;
  r.start_ns = now_ns;
  r.payload = payload;
  open_by_nvtx_id_[nvtx_id] = ranges_.size();
  ranges_.push_back(std::move(r));
}

bool NvtxTracker::end(std::uint64_t nvtx_id, std::uint64_t now_ns) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = open_by_nvtx_id_.find(nvtx_id);
  if (it == open_by_nvtx_id_.end()) return false;
  ranges_[it->second].end_ns = now_ns;
  open_by_nvtx_id_.erase(it);
  return true;
}

std::size_t NvtxTracker::current_range(std::uint32_t thread) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = open_by_thread_.find(thread);
  if (it == open_by_thread_.end() || it->second.empty()) return 0;
  return it->second.back() + 1;
}

std::string NvtxTracker::path_of(std::size_t range_id) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return range_id == 0 || range_id > ranges_.size() ? std::string() : ranges_[range_id - 1].path;
}

std::vector<Range> NvtxTracker::ranges() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return ranges_;
}

}  // namespace labbook::profiler
