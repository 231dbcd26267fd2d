#include "sandbox.h"

#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

#include "labbook/model/error.h"
#include "sandbox_bwrap.h"
#include "sandbox_child.h"
#include "sandbox_processes.h"
#include "sandbox_text.h"

namespace labbook::grading {

namespace {

using Clock = std::chrono::steady_clock;
using End = SandboxResult::End;

/// Owns one file descriptor.
class Fd {
 public:
  explicit Fd(int fd = -1) : fd_(fd) {}
  Fd(Fd&& other) noexcept : fd_(other.release()) {}
  Fd& operator=(Fd&& other) noexcept {
    reset(other.release());
    return *this;
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() { reset(); }
  int get() const { return fd_; }
  int release() { return std::exchange(fd_, -1); }
  void reset(int fd = -1) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = fd;
  }

 private:
  int fd_;
};

struct Pipe {
  Fd read, write;
};

/// Close-on-exec on both ends, so a fork elsewhere in labbook never carries them off (a
/// stray write end would hold back the end of the output).
Pipe make_pipe() {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) throw Error(std::string("sandbox: pipe: ") + std::strerror(errno));
  return {Fd(fds[0]), Fd(fds[1])};
}

/// The number after `"key":` in `text` (bwrap's JSON status), if there.
std::optional<long long> json_number(const std::string& text, const std::string& key) {
  const std::string quoted = "\"" + key + "\":";
  const auto at = text.find(quoted);
  if (at == std::string::npos) return std::nullopt;
  const char* begin = text.c_str() + at + quoted.size();
  char* end = nullptr;
  const long long value = std::strtoll(begin, &end, 10);
  if (end == begin) return std::nullopt;
  return value;
}

/// Who the command runs as. Root: the owner of work_dir, which must not be root (see the
/// header). Not root: ourselves, since nothing else is possible without privilege.
Identity sandbox_identity(const SandboxRequest& r) {
  if (::geteuid() != 0) {
    if (::access(r.work_dir.c_str(), W_OK | X_OK) != 0)
      throw Error("sandbox: work_dir " + r.work_dir + " is not writable by labbook's user");
    return {false, ::getuid(), ::getgid()};
  }
  struct stat st{};
  ::stat(r.work_dir.c_str(), &st);
  if (st.st_uid == 0 || st.st_gid == 0)
    throw Error("sandbox: work_dir " + r.work_dir +
                " is owned by root; chown it to the unprivileged uid:gid the command should run as");
  if ((st.st_mode & S_IRWXU) != S_IRWXU) throw Error("sandbox: work_dir " + r.work_dir + " is not rwx for its owner");
  return {true, st.st_uid, st.st_gid};
}

/// One captured stream: kept up to the limit, counted beyond it.
struct Capture {
  Fd fd;
  std::string text;
  std::uint64_t total = 0;
  bool open() const { return fd.get() >= 0; }
};

/// Reads what `c` has ready (poll said so), up to a few MiB at a time: a record channel may
/// carry hundreds of MiB of outputs. Returns false once more than `limit` bytes came.
bool drain(Capture& c, std::uint64_t limit) {
  static thread_local std::vector<char> buffer(1 << 20);
  for (int reads = 0; reads < 16; ++reads) {
    const ssize_t n = ::read(c.fd.get(), buffer.data(), buffer.size());
    if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN)) {
      c.fd.reset();
      break;
    }
    if (n < 0) break;
    c.total += static_cast<std::uint64_t>(n);
    if (c.text.size() < limit)
      c.text.append(buffer.data(),
                    static_cast<std::size_t>(std::min<std::uint64_t>(static_cast<std::uint64_t>(n), limit - c.text.size())));
    if (c.total > limit || static_cast<std::size_t>(n) < buffer.size()) break;
  }
  return c.total <= limit;
}

std::vector<char*> c_strings(std::vector<std::string>& words) {
  std::vector<char*> pointers;
  for (auto& w : words) pointers.push_back(w.data());
  pointers.push_back(nullptr);
  return pointers;
}

}  // namespace

SandboxResult run_sandboxed(const SandboxRequest& request) {
  validate(request);
  const Identity identity = sandbox_identity(request);
  const SandboxLimits& limits = request.limits;
  SandboxResult result;

  const std::string bwrap = find_bwrap();
  if (bwrap.empty()) {
    result.err = "bwrap (bubblewrap) is not installed";
    return result;
  }
  std::vector<std::string> words = bwrap_arguments(request);
  std::vector<char*> argv = c_strings(words);
  char* envp[] = {nullptr};  // bwrap needs none; the command's comes from --setenv

  ChildPlan plan;
  plan.bwrap = bwrap.c_str();
  plan.argv = argv.data();
  plan.envp = envp;
  plan.identity = identity;
  struct rlimit current{};
  if (::getrlimit(RLIMIT_NOFILE, &current) == 0 && current.rlim_cur != RLIM_INFINITY)
    plan.max_fd = std::min<rlim_t>(current.rlim_cur, 1 << 20);
  // As root the limits may be anything; otherwise not above today's hard limits.
  auto limit = [&](int resource, rlim_t value) {
    struct rlimit now{};
    if (!identity.drop && ::geteuid() != 0 && ::getrlimit(resource, &now) == 0 && now.rlim_max != RLIM_INFINITY)
      value = std::min(value, now.rlim_max);
    plan.limits[plan.limit_count++] = {resource, value};
  };
  limit(RLIMIT_CORE, 0);
  limit(RLIMIT_FSIZE, static_cast<rlim_t>(limits.file_bytes));
  // RLIMIT_DATA, not RLIMIT_AS: the CUDA runtime reserves tens of GiB of address space
  // (PROT_NONE, for unified addressing) and fails under any useful RLIMIT_AS, while
  // RLIMIT_DATA counts only private writable mappings (heap, malloc, std::vector), so it
  // stops a host-side memory hog without touching CUDA's reservations or its device-file
  // mappings. It is per process; a whole-sandbox cap would take a cgroup.
  if (limits.memory_bytes > 0) limit(RLIMIT_DATA, static_cast<rlim_t>(limits.memory_bytes));
  // RLIMIT_NPROC counts every task of the uid on the machine (in all namespaces), not only
  // this sandbox's, and never applies to root: hence the unprivileged uid. The limit is set
  // relative to what the uid already runs, plus bwrap's two processes (outside and init
  // inside), so the command itself gets `processes` tasks. With a uid of its own per
  // submission (see the header) that is exact; with a shared one, concurrent runs share the
  // headroom each saw at its start.
  const long already = tasks_of_uid(identity.uid);
  limit(RLIMIT_NPROC, static_cast<rlim_t>(already) + static_cast<rlim_t>(limits.processes) + 2);

  Fd dev_null(::open("/dev/null", O_RDONLY | O_CLOEXEC));
  if (dev_null.get() < 0) throw Error(std::string("sandbox: /dev/null: ") + std::strerror(errno));
  Pipe out = make_pipe(), err = make_pipe(), status = make_pipe(), report = make_pipe();
  plan.fds[0] = dev_null.get();
  plan.fds[1] = out.write.get();
  plan.fds[2] = err.write.get();
  plan.fds[3] = status.write.get();
  plan.fds[4] = report.write.get();
  std::vector<Pipe> channels;
  for (int i = 0; i < request.channels; ++i) {
    channels.push_back(make_pipe());
    plan.channels[i] = channels.back().write.get();
    ::fcntl(plan.channels[i], F_SETPIPE_SZ, 1 << 20);   // fewer switches for large records; best effort
  }
  plan.channel_count = request.channels;

  const auto start = Clock::now();
  const pid_t pid = ::fork();
  if (pid < 0) {
    result.err = std::string("fork: ") + std::strerror(errno);
    return result;
  }
  if (pid == 0) exec_bwrap(plan);
  ::setpgid(pid, pid);  // also here, so that a kill right away already reaches the group
  dev_null.reset();
  out.write.reset();
  err.write.reset();
  status.write.reset();
  report.write.reset();
  for (Pipe& c : channels) c.write.reset();

  // The report pipe closes on exec; a message means bwrap never ran.
  int message[2] = {0, 0};
  ssize_t got;
  do got = ::read(report.read.get(), message, sizeof message);
  while (got < 0 && errno == EINTR);
  if (got == static_cast<ssize_t>(sizeof message)) {
    int ignored;
    while (::waitpid(pid, &ignored, 0) < 0 && errno == EINTR) {}
    result.err = std::string("could not start ") + bwrap + ": " + step_name(message[0]) + ": " + std::strerror(message[1]);
    result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    return result;
  }

  Capture captures[2] = {{std::move(out.read), {}, 0}, {std::move(err.read), {}, 0}};
  Capture json{std::move(status.read), {}, 0};
  std::vector<Capture> channel_captures;
  for (Pipe& c : channels) channel_captures.push_back({std::move(c.read), {}, 0});
  std::vector<Capture*> streams = {&captures[0], &captures[1], &json};
  for (Capture& c : channel_captures) streams.push_back(&c);
  for (Capture* c : streams) ::fcntl(c->fd.get(), F_SETFL, O_NONBLOCK);

  const auto deadline = start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(limits.wall_seconds));
  std::optional<End> stopped;
  auto stopped_at = start;
  bool reaped = false, status_known = false;
  int wait_status = 0;
  auto ended_at = start;
  ino_t ns = 0;
  pid_t ns_init = 0;
  long& peak_tasks = result.peak_tasks;
  result.resident_limit_bytes = limits.resident_bytes;

  auto next_sample = start;
  std::function<void(End)> stop;
  auto sample = [&] {
    next_sample = Clock::now() + std::chrono::milliseconds(50);
    if (ns == 0) return;
    const NamespaceTasks seen = tasks_in_namespace(ns, ns_init);
    peak_tasks = std::max(peak_tasks, seen.tasks);
    result.peak_resident_bytes = std::max(result.peak_resident_bytes, seen.resident_bytes);
    if (limits.resident_bytes > 0 && seen.resident_bytes > limits.resident_bytes) stop(End::TooMuchMemory);
  };
  stop = [&](End why) {
    if (stopped || reaped) return;
    if (why == End::TimedOut) sample();
    if (stopped) return;   // the sample found it over its memory first
    stopped = why;
    stopped_at = Clock::now();
    // bwrap leads its process group and is not reaped yet, so neither number can have been
    // reused. Its death takes the namespace with it (--die-with-parent on bwrap's init).
    ::kill(-pid, SIGKILL);
    ::kill(pid, SIGKILL);
  };

  for (;;) {
    if (!reaped) {
      const pid_t r = ::waitpid(pid, &wait_status, WNOHANG);
      if (r == pid || (r < 0 && errno == ECHILD)) {  // ECHILD: SIGCHLD ignored by labbook
        reaped = true;
        status_known = r == pid;
        ended_at = Clock::now();
      }
    }
    const bool pipes_open = std::any_of(streams.begin(), streams.end(), [](const Capture* c) { return c->open(); });
    if (reaped && !pipes_open) break;
    const auto now = Clock::now();
    // Once bwrap is gone, or was killed, the rest of the sandbox dies at once and the pipes
    // close. The graces only guard against a process stuck in the kernel (a GPU driver call,
    // say) holding them; clear_namespace() below deals with it.
    if (reaped && now - ended_at > std::chrono::seconds(2)) break;
    if (stopped && now - stopped_at > std::chrono::seconds(5)) break;
    if (!stopped && !reaped && now >= deadline) {
      stop(End::TimedOut);
      continue;
    }
    if (!stopped && !reaped && now >= next_sample) sample();

    pollfd fds[3 + kMaxChannels];
    Capture* owners[3 + kMaxChannels];
    nfds_t n = 0;
    for (Capture* c : streams)
      if (c->open()) {
        fds[n] = {c->fd.get(), POLLIN, 0};
        owners[n++] = c;
      }
    // Wake often enough to see the deadline, sample the process count, and notice bwrap's
    // exit, which may come just after its pipes closed.
    auto wait = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now).count() + 1;
    wait = std::min<long long>(wait, pipes_open ? 50 : 5);
    if (stopped) wait = std::min<long long>(wait, 20);
    if (::poll(fds, n, static_cast<int>(std::max<long long>(wait, 0))) < 0 && errno != EINTR) break;
    for (nfds_t i = 0; i < n; ++i) {
      if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      Capture& c = *owners[i];
      if (&c == &json) {
        drain(c, 4096);
        if (ns == 0) {
          ns = static_cast<ino_t>(json_number(c.text, "pid-namespace").value_or(0));
          ns_init = static_cast<pid_t>(json_number(c.text, "child-pid").value_or(0));
        }
      } else if (!drain(c, &c == &captures[0] || &c == &captures[1]
                                  ? limits.output_bytes
                                  : limits.channel_limit(static_cast<int>(&c - channel_captures.data()))) &&
                 !stopped) {
        stop(End::OutputFlood);
      }
    }
  }
  if (!reaped) {  // only after the grace above: make sure, then wait
    ::kill(pid, SIGKILL);
    while (::waitpid(pid, &wait_status, 0) < 0 && errno == EINTR) {}
    status_known = true;
    ended_at = Clock::now();
  }
  clear_namespace(ns, ns_init);

  result.out = std::move(captures[0].text);
  result.err = std::move(captures[1].text);
  for (Capture& c : channel_captures) result.channels.push_back(std::move(c.text));
  result.seconds = std::chrono::duration<double>(ended_at - start).count();
  const auto exit_code = json_number(json.text, "exit-code");
  if (stopped == End::TimedOut) {
    // A fork bomb shows as a run that used all its time after reaching its process limit:
    // the limit makes its forks fail, not end. The count is sampled every 50 ms or so by a
    // walk of /proc that can miss a few of a bomb's churning tasks, so "reached" means some
    // sample saw it within 10 % of the limit (exactly, under 10 tasks). A bomb that collapsed
    // between samples reads as TimedOut; one whose first process gave up at a failed fork
    // ends sooner, as Exited with the shell's "Cannot fork" on stderr.
    const long near_limit = limits.processes - limits.processes / 10;
    result.end = peak_tasks >= near_limit ? End::TooManyProcesses : End::TimedOut;
  } else if (stopped == End::OutputFlood || stopped == End::TooMuchMemory) {
    result.end = *stopped;
  } else if (status_known && WIFSIGNALED(wait_status)) {
    result.end = End::Signalled;  // bwrap itself was killed (by the OOM killer, say)
    result.signal = WTERMSIG(wait_status);
  } else if (!exit_code) {
    result.end = End::FailedToStart;  // bwrap said why on stderr
  } else if (*exit_code > 128 && *exit_code < 128 + NSIG) {
    result.end = End::Signalled;  // bwrap reports a signal N as 128+N, as a shell does
    result.signal = static_cast<int>(*exit_code - 128);
  } else {
    result.end = End::Exited;
    result.exit_code = static_cast<int>(*exit_code);
  }
  return result;
}

}  // namespace labbook::grading
