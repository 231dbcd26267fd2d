#include "stream_lanes.h"

#include <algorithm>
#include <map>
#include <unordered_map>

namespace labbook::report {

namespace {

bool starts_with(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

/// Default streams and which: those that ran a copy or memset issued by a call that takes no
/// stream (the legacy one), and those a kernel launch named by handle. The trace has no flag
/// for them (CUPTI numbers the default streams like any other).
std::map<StreamId, DefaultStream> default_streams(const Measurement& m) {
  std::unordered_map<std::uint32_t, const std::string*> call_names;
  for (const auto& a : m.api_calls) call_names[a.correlation] = &a.name;
  std::map<StreamId, DefaultStream> out;
  for (const auto& c : m.copies) {
    const auto call = call_names.find(c.correlation);
    if (c.correlation && call != call_names.end() && queues_on_default_stream(*call->second)) {
      // A call ending in _ptds is the per-thread variant (nvcc --default-stream per-thread).
      const bool per_thread = call->second->size() > 5 && call->second->compare(call->second->size() - 5, 5, "_ptds") == 0;
      out.emplace(StreamId{c.device, c.stream}, per_thread ? DefaultStream::PerThread : DefaultStream::Legacy);
    }
  }
  // The handle a launch named is exact: it decides over what a copy suggested.
  for (const auto& k : m.kernels)
    if (k.default_stream != DefaultStream::None) out[StreamId{k.device, k.stream}] = k.default_stream;
  return out;
}

}  // namespace

bool queues_on_default_stream(const std::string& api_name) {
  const bool copy_or_set = starts_with(api_name, "cudaMemcpy") || starts_with(api_name, "cudaMemset") ||
                           starts_with(api_name, "cuMemcpy") || starts_with(api_name, "cuMemset");
  return copy_or_set && api_name.find("Async") == std::string::npos;
}

std::vector<StreamLane> stream_lanes(const Measurement& m, const std::string* range, const std::vector<std::string>& names) {
  // First use of each stream: (correlation, start), the smallest wins.
  std::map<StreamId, std::pair<std::uint32_t, std::uint64_t>> first;
  auto see = [&](int device, std::uint32_t stream, std::uint32_t correlation, std::uint64_t start) {
    const auto [it, fresh] = first.try_emplace(StreamId{device, stream}, correlation, start);
    if (!fresh) it->second = std::min(it->second, std::pair{correlation, start});
  };
  for (const auto& k : m.kernels)
    if (k.start_ns && k.end_ns && (!range || k.range == *range)) see(k.device, k.stream, k.correlation, *k.start_ns);
  for (const auto& c : m.copies)
    if (!range || c.range == *range) see(c.device, c.stream, c.correlation, c.start_ns);

  std::vector<StreamId> order;
  for (const auto& [id, when] : first) order.push_back(id);
  std::stable_sort(order.begin(), order.end(), [&](const StreamId& a, const StreamId& b) { return first.at(a) < first.at(b); });

  const std::map<StreamId, DefaultStream> defaults = default_streams(m);
  const bool several_devices =
      std::any_of(order.begin(), order.end(), [&](const StreamId& s) { return s.device != order.front().device; });
  std::vector<StreamLane> lanes;
  int others = 0;   // streams so far that are not a default stream
  for (std::size_t i = 0; i < order.size(); ++i) {
    const StreamId& id = order[i];
    const auto which = defaults.find(id);
    const bool is_default = which != defaults.end();
    if (!is_default) ++others;
    std::string name;
    if (is_default) name = which->second == DefaultStream::PerThread ? kPerThreadDefaultStreamName : kDefaultStreamName;
    else if (i < names.size()) name = names[i];
    else name = "stream " + std::to_string(others) + " (id " + std::to_string(id.stream) + ")";
    const bool labbooks_name = is_default || i >= names.size();
    if (several_devices && labbooks_name) name = "GPU " + std::to_string(id.device) + " " + name;
    lanes.push_back({id, std::move(name)});
  }
  return lanes;
}

}  // namespace labbook::report
