#pragma once
/// @file
/// The sandbox's forked child, from fork() to exec() of bwrap: its descriptors put in place,
/// signals reset, limits set and privileges dropped, with only async-signal-safe calls; a
/// step that fails is reported to the parent as (step, errno) on kReportFd.
#include <sys/resource.h>
#include <sys/types.h>

#include "sandbox.h"

namespace labbook::grading {

constexpr int kReportFd = 4;  ///< the child's exec-failure report, closed by a successful exec

/// Who the command runs as (sandbox.cpp decides).
struct Identity {
  bool drop = false;
  uid_t uid = 0;
  gid_t gid = 0;
};

struct Limit {
  int resource;
  rlim_t value;
};

/// Everything the child needs, made before fork(): between fork() and exec() only
/// async-signal-safe calls are allowed (labbook may have other threads holding malloc's lock).
struct ChildPlan {
  const char* bwrap = nullptr;
  char* const* argv = nullptr;
  char* const* envp = nullptr;
  int fds[5] = {-1, -1, -1, -1, -1};  ///< become 0 (stdin), 1, 2, kStatusFd, kReportFd
  int channels[kMaxChannels] = {-1, -1, -1, -1};  ///< become kFirstChannelFd, ...
  int channel_count = 0;
  Identity identity;
  Limit limits[4] = {};
  int limit_count = 0;
  rlim_t max_fd = 1024;
};

enum class ChildStep : int { Setpgid, Descriptors, Signals, Rlimit, Groups, Gid, Uid, Exec };

/// The name of a ChildStep the child reported, for the parent's message.
const char* step_name(int step);

/// Runs in the child: sets it up as `plan` says and execs bwrap; never returns.
[[noreturn]] void exec_bwrap(const ChildPlan& plan);

}  // namespace labbook::grading
