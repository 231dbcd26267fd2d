#pragma once
/// @file
/// A CUDA driver without a GPU, for the graph replay tests: the part of the driver API that
/// profiler/graph_replay.cpp, graph_replay_updates.cpp, graph_node_copy.cpp and
/// graph_kernels.cpp call, and that a program uses to build, change and launch graphs, over a
/// model in host memory. Launching work only writes it into
/// a log (fake_driver::work()), so a test can compare what a program sends to the GPU with
/// labbook and without.
///
/// The model follows the driver's documentation where labbook depends on it: an executable
/// graph's nodes are named by the handles of the graph it was instantiated from (not those of
/// a graph it was updated from, unless accept_update_handles()), handles die with their
/// graph, cuGraphExecUpdate pairs nodes through their edges (sinks in creation order, then
/// dependencies in edge order) and keeps their enabled states, only kernel, memcpy and memset
/// nodes can be disabled, and a memset node keeps its shape. A child graph node holds a copy
/// of its graph, whose node handles name the child's nodes in an exec (as on the H100:
/// tools/probes/graph_node_standins.cu); this model does not update graphs with children.
/// Host functions run where the work is logged. The calls the collector follows
/// reach a subscriber at their entry and exit, as CUPTI's driver-API callbacks would, labbook's
/// own calls from inside a callback included.
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include <cuda.h>
#include <cupti.h>

namespace fake_driver {

/// Forgets every graph, exec, function and logged work.
void reset();

/// A kernel named `name` whose parameters have these sizes in bytes.
CUfunction kernel(const std::string& name, std::vector<std::size_t> parameter_sizes);

/// What was sent to the GPU since reset(), one line per kernel, memset or memcpy, in order:
/// "scale<<<4,256>>>(0x0010000000000000, 0x00040000) on stream 1" (arguments as hex
/// bytes, lowest address first).
const std::vector<std::string>& work();

/// How many lines of work() came from cuGraphLaunch (the rest from single launches).
std::size_t work_by_graph_launches();

/// Whether cuGraphNodeSetEnabled and the exec node setters also accept the handles of the
/// graph an exec was last updated from (the documentation names only the original graph's).
void accept_update_handles(bool accept);

/// An event of the program's: its records and waits appear in work() ("record event 1 on
/// stream 0", "wait on event 1 on stream 0"); labbook's own (cuEventCreate) do not.
CUevent event();

/// Adds `line` to work(): what a host function does, so a test sees where it ran.
void note(const std::string& line);

/// A node that only says what it is, of a type the fake driver has no call to add.
CUgraphNode add_node_of_type(CUgraph graph, const std::vector<CUgraphNode>& after, CUgraphNodeType type);

/// Makes cuGraphNodeSetEnabled fail (CUDA_ERROR_INVALID_VALUE) for `node`.
void fail_set_enabled(CUgraphNode node);

/// Puts `stream` in capture mode: cuStreamIsCapturing says so, and a graph launched into it
/// runs nothing now.
void capture(CUstream stream);

/// Receives the graph calls (instantiate, launch, the exec setters (kernel, memcpy, memset,
/// host, event record and wait, child graph, and the generic cuGraphExecNodeSetParams), cuGraphNodeSet/GetEnabled,
/// cuGraphExecUpdate, cuGraphDestroy, cuGraphExecDestroy) at their entry and exit.
using Callback = std::function<void(CUpti_CallbackId, const CUpti_CallbackData&)>;
void subscribe(Callback callback);

}  // namespace fake_driver
