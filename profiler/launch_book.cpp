#include "launch_book.h"

#include <set>
#include <string_view>

#include "labbook/model/text.h"

namespace labbook::profiler {

RecordedLaunches LaunchBook::record(const LaunchCall& call, const std::vector<const std::string*>& kernels,
                                    const RangePaths& path_of, bool copy_launches) {
  RecordedLaunches recorded;
  std::lock_guard<std::mutex> lock(mutex_);
  recorded.first = launches_seen_ + launches_.size();
  recorded.count = kernels.size();
  for (const std::string* mangled : kernels) {
    Launch l{launches_seen_ + launches_.size(), mangled, call.range, call.thread, call.device, call.runtime_correlation,
             call.driver_correlation, call.default_stream, false, false};
    // A graph that runs whole gets no metrics (the collector's on_launch), so its kernels take
    // no place in the filter's --launch-skip/--launch-count window; the kernels of a graph
    // labbook launches node by node come here one by one and do. A trace run chooses nothing.
    const bool wanted = !call.graph && call.choosing && filter_.select(path_of(call.range), demangled_name(*mangled));
    l.selected = wanted && !call.beside_capture;
    l.beside_capture = call.beside_capture && (wanted || call.graph);
    recorded.any_selected = recorded.any_selected || l.selected;
    if (copy_launches) recorded.launches.push_back(l);
    launches_.push_back(std::move(l));
  }
  return recorded;
}

void LaunchBook::note_copy_range(std::uint32_t correlation, std::size_t range) {
  std::lock_guard<std::mutex> lock(mutex_);
  range_by_correlation_[correlation] = range;
}

TakenLaunches LaunchBook::take() {
  TakenLaunches taken;
  // Moved, not copied (at 10^5 launches 10 MB at the collector's peak): launches recorded
  // after this, by callbacks still in flight, are numbered after these.
  std::lock_guard<std::mutex> lock(mutex_);
  taken.launches = std::move(launches_);
  taken.range_by_correlation = std::move(range_by_correlation_);
  launches_.clear();
  range_by_correlation_.clear();
  launches_seen_ = taken.launches.size();
  return taken;
}

std::size_t LaunchBook::launches_seen() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return launches_seen_;
}

// A kernel's demangled name, demangled once (the launch filter matches every launch's);
// mutex_ held.
const std::string& LaunchBook::demangled_name(const std::string& mangled) {
  auto it = demangled_names_.find(mangled);
  if (it == demangled_names_.end()) it = demangled_names_.emplace(mangled, demangled(mangled)).first;
  return it->second;
}

bool may_make_copies(const char* function) {
  if (!function) return false;
  const std::string_view name(function);
  for (const char* family : {"Memcpy", "Memset", "GraphLaunch"})
    if (name.find(family) != std::string_view::npos) return true;
  return false;
}

std::optional<std::string> launches_beside_capture(const std::vector<Launch>& launches) {
  std::size_t count = 0;
  std::set<std::string> kernels;
  for (const auto& l : launches)
    if (l.beside_capture) {
      ++count;
      kernels.insert(demangled(*l.mangled));
    }
  if (count == 0) return std::nullopt;
  return std::to_string(count) + " launches of " +
         join(std::vector<std::string>(kernels.begin(), kernels.end()), ", ") +
         " ran while another stream was being captured into a graph: CUPTI's profiler cannot start then "
         "without breaking that capture, so they have no metrics";
}

}  // namespace labbook::profiler
