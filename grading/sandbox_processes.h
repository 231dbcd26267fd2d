#pragma once
/// @file
/// The sandbox's processes as /proc shows them from outside: how many tasks a uid or the
/// sandbox's pid namespace holds, the host memory its processes keep, and the end of whatever
/// is left of it. Sampled by run_sandboxed() every 50 ms.
#include <sys/types.h>

#include <cstdint>
#include <vector>

namespace labbook::grading {

/// Tasks (threads, as RLIMIT_NPROC counts them: zombies too, until reaped) whose real uid is
/// `uid`, machine-wide.
long tasks_of_uid(uid_t uid);

/// The sandbox's pid namespace (inode `ns`) as seen from here: its tasks as RLIMIT_NPROC
/// counts them (zombies included) but for `except` (bwrap's init inside, no part of the
/// command), and the processes still running. bwrap's init ends as an orphaned zombie when
/// bwrap exits, and stays one until the machine's init reaps it (in a container, perhaps a
/// shell that never does): it is not "left behind".
struct NamespaceTasks {
  std::vector<pid_t> running;
  long tasks = 0;
  std::uint64_t resident_bytes = 0;   ///< of the running processes: RssAnon + RssShmem
};
NamespaceTasks tasks_in_namespace(ino_t ns, pid_t except);

/// Ends whatever is left of the sandbox's pid namespace. bwrap's init dies with bwrap
/// (--die-with-parent) and takes the namespace with it, so this normally only waits out the
/// kernel's teardown; it kills by pid what it still finds, for up to two seconds.
void clear_namespace(ino_t ns, pid_t init);

}  // namespace labbook::grading
