#pragma once
/// @file
/// Which GPU streams a timeline draws, in which order, under which names. CUPTI knows a
/// stream only by a number ("stream 66") that a student cannot map to the program; a lab
/// sheet speaks of "stream A" or "the default stream". The lanes come in the order the
/// program first issued work to each stream, and take the lab's names in that order.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "labbook/model/measurement.h"

namespace labbook::report {

/// A GPU stream as the trace knows it.
struct StreamId {
  int device = 0;
  std::uint32_t stream = 0;
  bool operator<(const StreamId& o) const { return device != o.device ? device < o.device : stream < o.stream; }
  bool operator==(const StreamId& o) const { return device == o.device && stream == o.stream; }
};

struct StreamLane {
  StreamId id;
  std::string name;
};

/// The name every default stream's lane gets, whatever the lab calls the others: the legacy
/// one's, and a thread's own (cudaStreamPerThread).
inline const char* const kDefaultStreamName = "default stream";
inline const char* const kPerThreadDefaultStreamName = "default (per-thread)";
/// The most characters of a lane's name a range's timeline shows; longer names are cut.
constexpr std::size_t kRangeLaneNameChars = 24;

/// True for a CUDA call that takes no stream and queues a copy or memset on the default stream
/// ("cudaMemcpy", "cudaMemset", "cuMemcpyHtoD", "cudaMemcpy_ptds"; not "cudaMemcpyAsync").
bool queues_on_default_stream(const std::string& api_name);

/// The streams of the timed kernels, copies and memsets attributed to `*range` (all of them
/// when `range` is null), in the order the program first issued work to them (CUPTI's
/// correlation ids count the calls in issue order; start times break ties). A stream that ran
/// anywhere in `m` a copy or memset of a call that takes no stream, or a kernel launched on
/// the legacy default stream, is named kDefaultStreamName; one a kernel launched on the
/// per-thread default stream ran on, kPerThreadDefaultStreamName. The i-th stream otherwise
/// takes `names[i]`, as the lab names its streams in order of first use (a default stream
/// counts); without one, "stream k (id N)": the k-th stream that is not a default stream, N
/// CUPTI's number. With several devices, names start with "GPU d ".
std::vector<StreamLane> stream_lanes(const Measurement& m, const std::string* range, const std::vector<std::string>& names);

}  // namespace labbook::report
