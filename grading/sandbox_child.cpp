#include "sandbox_child.h"

#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>

#include "sandbox_bwrap.h"

namespace labbook::grading {

namespace {
[[noreturn]] void child_fail(int report_fd, ChildStep step) {
  const int message[2] = {static_cast<int>(step), errno};
  const ssize_t ignored = ::write(report_fd, message, sizeof message);
  (void)ignored;
  ::_exit(127);
}

}  // namespace

const char* step_name(int step) {
  switch (static_cast<ChildStep>(step)) {
    case ChildStep::Setpgid: return "setpgid";
    case ChildStep::Descriptors: return "arranging descriptors";
    case ChildStep::Signals: return "resetting signals";
    case ChildStep::Rlimit: return "setrlimit";
    case ChildStep::Groups: return "setgroups";
    case ChildStep::Gid: return "setresgid";
    case ChildStep::Uid: return "setresuid";
    case ChildStep::Exec: return "exec bwrap";
  }
  return "?";
}

[[noreturn]] void exec_bwrap(const ChildPlan& plan) {
  int report = plan.fds[4];
  if (::setpgid(0, 0) != 0) child_fail(report, ChildStep::Setpgid);
  // Lift the five descriptors above 0..4 first, so that no dup2() below overwrites one not
  // yet moved, then put them in place and close everything else labbook had open (its
  // sockets and files are none of the sandbox's business).
  constexpr int kFirstLifted = 16;   // above every descriptor put in place below
  int lifted[5], lifted_channels[kMaxChannels];
  for (int i = 0; i < 5; ++i)
    if ((lifted[i] = ::fcntl(plan.fds[i], F_DUPFD_CLOEXEC, kFirstLifted)) < 0) child_fail(report, ChildStep::Descriptors);
  report = lifted[4];
  for (int i = 0; i < plan.channel_count; ++i)
    if ((lifted_channels[i] = ::fcntl(plan.channels[i], F_DUPFD_CLOEXEC, kFirstLifted)) < 0)
      child_fail(report, ChildStep::Descriptors);
  for (int i = 0; i < 4; ++i)
    if (::dup2(lifted[i], i) != i) child_fail(report, ChildStep::Descriptors);  // dup2 clears CLOEXEC
  if (::dup3(lifted[4], kReportFd, O_CLOEXEC) != kReportFd) child_fail(report, ChildStep::Descriptors);
  report = kReportFd;
  for (int i = 0; i < plan.channel_count; ++i)
    if (::dup2(lifted_channels[i], kFirstChannelFd + i) != kFirstChannelFd + i) child_fail(report, ChildStep::Descriptors);
  const int first_closed = kFirstChannelFd + plan.channel_count;
#ifdef SYS_close_range
  if (::syscall(SYS_close_range, first_closed, ~0U, 0) != 0)
#endif
    for (rlim_t fd = static_cast<rlim_t>(first_closed); fd < plan.max_fd; ++fd) ::close(static_cast<int>(fd));

  // Signal dispositions set to "ignore" and the signal mask survive exec: labbook's own
  // (SIGPIPE ignored, say) must not change how the student's program behaves.
  sigset_t none;
  sigemptyset(&none);
  if (::sigprocmask(SIG_SETMASK, &none, nullptr) != 0) child_fail(report, ChildStep::Signals);
  struct sigaction fallback{};
  fallback.sa_handler = SIG_DFL;
  for (int sig = 1; sig < NSIG; ++sig)
    if (sig != SIGKILL && sig != SIGSTOP) ::sigaction(sig, &fallback, nullptr);  // some numbers are invalid

  for (int i = 0; i < plan.limit_count; ++i) {
    const struct rlimit value{plan.limits[i].value, plan.limits[i].value};
    if (::setrlimit(plan.limits[i].resource, &value) != 0) child_fail(report, ChildStep::Rlimit);
  }
  if (plan.identity.drop) {
    if (::setgroups(0, nullptr) != 0) child_fail(report, ChildStep::Groups);
    const gid_t gid = plan.identity.gid;
    const uid_t uid = plan.identity.uid;
    if (::setresgid(gid, gid, gid) != 0) child_fail(report, ChildStep::Gid);
    if (::setresuid(uid, uid, uid) != 0) child_fail(report, ChildStep::Uid);
  }
  ::execve(plan.bwrap, plan.argv, plan.envp);
  child_fail(report, ChildStep::Exec);
}

}  // namespace labbook::grading
