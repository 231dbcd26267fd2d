#pragma once
/// @file
/// The program's calls that change, query or destroy an executable graph, read from CUPTI's
/// driver-API callback data and passed on to GraphReplay, so that in a metrics run the copies
/// labbook launches follow the program (graph_replay.h). The collector subscribes to these
/// calls in every run (an exec's kernel names follow updates, graph_follower.h) and gives a
/// graph back where the copy cannot follow.
#include <string>
#include <vector>

#include <cupti.h>

#include "graph_replay.h"

namespace labbook::profiler {

/// The driver calls to follow.
const std::vector<CUpti_CallbackId>& graph_exec_calls();
bool is_graph_exec_call(CUpti_CallbackId cbid);

/// True unless the call returned an error (a call without a result counts as succeeded).
bool api_succeeded(const CUpti_CallbackData& d);

/// What following one call left to do: give `exec` back when `problem` is not empty.
struct GraphExecChange {
  CUgraphExec exec = nullptr;
  std::string problem;
};

/// Follows one callback of a graph_exec_calls() call in `replay`: forgets destroyed execs and
/// graphs at the call's entry; copies changed parameters and enabled states, refreshes after
/// cuGraphExecUpdate, and answers cuGraphNodeGetEnabled with the program's own state at its
/// exit, when it succeeded.
GraphExecChange follow_graph_exec_call(GraphReplay& replay, CUpti_CallbackId cbid, const CUpti_CallbackData& d);

}  // namespace labbook::profiler
