#pragma once
/// @file
/// The one way `labbook grade` builds and runs student code: under bubblewrap, in fresh
/// user/pid/net/ipc/uts namespaces, with a read-only system, no network, no view of the
/// instructor's files, a clean environment and limits on time, output, processes, file size
/// and memory. Whatever the command does (loops, floods, fork bombs, crashes) comes back as a
/// SandboxResult; nothing of the sandbox outlives run_sandboxed().
///
/// Who runs the command: when labbook runs as root (CI), the sandbox runs as the uid and gid
/// that own `work_dir`, never as root. The caller makes that so when it prepares the folder
/// (`chown UID:GID work_dir`, before any student code ran, so the chown is of its own files),
/// ideally with a uid of its own per submission graded at the same time (nothing else of that
/// uid then counts against the process limit). A root-owned `work_dir` is refused: running
/// student code as root would make RLIMIT_NPROC, the fork-bomb guard, void. That uid must
/// also be able to reach work_dir and the read_only paths (not under a 0700 /root), since
/// bubblewrap binds them as it. When labbook is not root the sandbox runs as labbook's own
/// user.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace labbook::grading {

/// The descriptor of the command's first record channel (below it: stdin, stdout, stderr and
/// two of bubblewrap's own).
constexpr int kFirstChannelFd = 5;
/// The most record channels one run may have.
constexpr int kMaxChannels = 4;

struct SandboxLimits {
  /// The whole run, bubblewrap's start included; then every process of the sandbox is killed.
  double wall_seconds = 60;
  /// stdout and stderr each; one byte more and the run is stopped (End::OutputFlood).
  std::uint64_t output_bytes = 1 << 20;
  /// Tasks at once inside the sandbox (RLIMIT_NPROC, so threads count too: a CUDA program
  /// has a few, an OpenMP one as many as the machine has cores).
  int processes = 64;
  /// Private writable memory of each process (RLIMIT_DATA: heap and malloc'd buffers); 0 for
  /// no limit. Not the address space: CUDA reserves tens of GiB of it and would fail.
  std::uint64_t memory_bytes = 8ull << 30;
  /// Host memory the whole sandbox holds: its processes' private and shared resident pages
  /// (RssAnon + RssShmem), which take in page-locked memory from cudaMallocHost or
  /// cudaHostAlloc that RLIMIT_DATA does not see. Sampled every 50 ms or so; past it the run
  /// is stopped (End::TooMuchMemory). 0 for no limit.
  std::uint64_t resident_bytes = 8ull << 30;
  /// Any one file written (RLIMIT_FSIZE: the writer gets SIGXFSZ), and the size of each of
  /// the private /tmp and /dev/shm, which live in memory. nvcc's temporaries fit easily.
  std::uint64_t file_bytes = 256ull << 20;
  /// Record channel i (SandboxRequest::channels) may carry channel_bytes[i] bytes, one
  /// beyond 1 MiB where the list is shorter; one byte more and the run is stopped
  /// (End::OutputFlood).
  std::vector<std::uint64_t> channel_bytes;
  std::uint64_t channel_limit(int channel) const {
    return static_cast<std::size_t>(channel) < channel_bytes.size() ? channel_bytes[channel] : 1u << 20;
  }
};

struct SandboxRequest {
  /// argv run inside; argv[0] is looked up in the PATH given in `env`.
  std::vector<std::string> command;
  /// Absolute host folder: the only writable place, bound at the same path, the cwd. Owned by
  /// the uid the command runs as (see the file comment).
  std::string work_dir;
  /// More absolute host paths bound read-only at the same path (a build tree). /usr, and so
  /// /usr/local/cuda, is always there; each of these must exist.
  std::vector<std::string> read_only;
  /// Binds /dev/nvidia* (device nodes, read-write) and /sys (read-only) so CUDA works.
  bool gpu = false;
  /// Pipes the command writes records to, as descriptors kFirstChannelFd, kFirstChannelFd + 1,
  /// ...: labbook reads them while the command runs (SandboxResult::channels), so what comes
  /// through them never sits in a file that the command could rewrite later.
  int channels = 0;
  /// The whole environment: nothing is inherited. bubblewrap adds PWD (= work_dir).
  std::vector<std::pair<std::string, std::string>> env;
  SandboxLimits limits;
};

struct SandboxResult {
  enum class End {
    Exited,            ///< the command exited by itself: exit_code
    Signalled,         ///< the command died of `signal` (SIGXFSZ: a file over file_bytes)
    TimedOut,          ///< stopped at wall_seconds
    OutputFlood,       ///< stopped: stdout or stderr passed output_bytes, or a channel channel_bytes
    TooMuchMemory,     ///< stopped: its processes held more than resident_bytes of host memory
    TooManyProcesses,  ///< stopped at wall_seconds, having been at (within 10 % of) its process
                       ///< limit: a fork bomb. Sampled every 50 ms, so a bomb that collapsed at
                       ///< once (dash dies at a failed fork) reads as TimedOut, or as Exited with
                       ///< "Cannot fork" on stderr when its first process gave up.
    FailedToStart      ///< the sandbox or the command could not be started: `err` says why
  };
  End end = End::FailedToStart;
  int exit_code = -1;  ///< for Exited
  int signal = 0;      ///< for Signalled
  std::string out, err;  ///< captured, each cut at limits.output_bytes
  std::vector<std::string> channels;   ///< what came through each record channel, in order
  double seconds = 0;    ///< wall time of the whole run
  std::uint64_t peak_resident_bytes = 0;   ///< the most host memory a sample saw the sandbox hold
  std::uint64_t resident_limit_bytes = 0;  ///< the limit it was held to (limits.resident_bytes)
  long peak_tasks = 0;   ///< the most tasks (threads, zombies too) a sample saw in the sandbox, bwrap's init aside

  /// One sentence for the student's feedback, e.g. "stopped after 60 s (time limit)".
  std::string describe() const;
};

/// Runs the request under bubblewrap and waits for it. Never throws for what the command
/// does; throws labbook::Error only for a bad request (empty command, relative or missing
/// paths, a bad variable name, a root-owned work_dir when labbook is root, limits <= 0).
/// Thread-safe: runs may go on at once from several threads.
///
/// Signals: bubblewrap reports a command killed by signal N as exit status 128+N, as a shell
/// does, so an exit status of 129 to 192 is reported as Signalled (a command that calls
/// exit(139) itself reads as SIGSEGV).
SandboxResult run_sandboxed(const SandboxRequest& request);

/// Whether sandboxed runs work here: bwrap on the PATH (or in /usr/bin) and able to create
/// its namespaces, tried once with a trivial command and remembered. `why` says what failed.
bool sandbox_available(std::string& why);

/// bubblewrap's arguments for `request` (argv[0] "bwrap" included), for logs and tests.
/// Reads the host only to see which of /bin, /lib... are links and which /dev/nvidia* exist.
std::vector<std::string> bwrap_arguments(const SandboxRequest& request);

}  // namespace labbook::grading
