#pragma once
// forbid_escapes(): the seccomp filter an exercise harness installs before any student code
// runs, so that the student's host code, which runs in the harness's process, cannot create
// or change files, start processes, open sockets or reach into other processes, while the
// CUDA driver (device nodes, threads, ioctl, mmap, perf_event_open) keeps working.
// Needs libseccomp (Debian libseccomp-dev; link with -lseccomp).
//
// Install it after the CUDA driver is initialised (any first CUDA call, e.g. cudaFree(nullptr)):
// cuInit names its threads by opening /proc/self/task/N/comm with O_WRONLY|O_CREAT|O_TRUNC and,
// refused, crashes (driver 580, H100). Once initialised, the driver shrugs these refusals off:
// a second context, PTX JIT (whose cache write is refused), pinned, managed and registered
// memory, streams, events and graphs all worked under the filter.
//
// What stays possible, on purpose:
//   - reading, writing and mapping descriptors that are already open (stdout, stderr, pipes);
//   - open/openat with O_RDWR of files that exist. The CUDA driver opens /dev/nvidia* O_RDWR,
//     possibly after the filter is in place (a second context, created by a profiler), and the
//     sandbox makes the whole file system read-only except one folder whose files nobody reads
//     afterwards, so O_RDWR on a regular file gains nothing there (/proc/self/mem is the
//     process's own memory; another process's needs the ptrace access the kernel checks);
//   - threads (clone with CLONE_THREAD), signals to this process, ioctl (except terminal input
//     injection), perf_event_open, SysV IPC (the sandbox gives the process its own IPC namespace).
#include <seccomp.h>

#include <fcntl.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <memory>
#include <string>
#include <type_traits>

namespace labbook::lab {

namespace syscall_filter_detail {

using Filter = std::unique_ptr<std::remove_pointer_t<scmp_filter_ctx>, void (*)(scmp_filter_ctx)>;

/// Adds `action` for the system call `name` (under the comparisons, all of which must hold).
/// A name this libseccomp does not know is skipped; one that does not exist on this
/// architecture (open on arm64) gets a rule that never matches. Returns "" or why not.
inline std::string add(scmp_filter_ctx filter, std::uint32_t action, const char* name,
                       std::initializer_list<scmp_arg_cmp> comparisons = {}) {
  const int number = seccomp_syscall_resolve_name(name);
  if (number == __NR_SCMP_ERROR) return "";
  const int rc = seccomp_rule_add_array(filter, action, number, static_cast<unsigned>(comparisons.size()),
                                        comparisons.begin());
  return rc == 0 ? "" : std::string("seccomp_rule_add(") + name + "): " + std::strerror(-rc);
}

}  // namespace syscall_filter_detail

/// Installs, for every thread of the process (SCMP_FLTATR_CTL_TSYNC), a filter that leaves the
/// CUDA driver what it needs and returns EPERM for: creating, renaming, linking, unlinking files
/// and folders, opening files for writing (O_RDWR aside, see above), FIFOs and device nodes,
/// memfd_create, new processes (fork, vfork, clone without CLONE_THREAD, execve), sockets,
/// ptrace and other processes' memory, signals to other processes, io_uring, bpf, mount and
/// namespaces; ENOSYS for clone3 and openat2 (their arguments live in a struct the filter cannot
/// read; glibc then falls back to clone and openat). System calls of another ABI (int 0x80, x32)
/// kill the process. Call after the CUDA driver is initialised (see above).
/// Returns "" on success or why it could not be installed.
inline std::string forbid_escapes() {
  using syscall_filter_detail::add;
  syscall_filter_detail::Filter filter(seccomp_init(SCMP_ACT_ALLOW), seccomp_release);
  if (!filter) return "seccomp_init failed";
  scmp_filter_ctx f = filter.get();
  const std::uint32_t refuse = SCMP_ACT_ERRNO(EPERM);
  std::string why;
  const auto rule = [&](std::uint32_t action, const char* name, std::initializer_list<scmp_arg_cmp> cmp = {}) {
    if (why.empty()) why = add(f, action, name, cmp);
  };

  // Another ABI's numbers would skip every rule below: kill the whole process, not one thread.
  // (Best effort: without SECCOMP_RET_KILL_PROCESS the default, killing the thread, stays.)
  seccomp_attr_set(f, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS);
  if (int rc = seccomp_attr_set(f, SCMP_FLTATR_CTL_TSYNC, 1); rc != 0)
    return std::string("seccomp_attr_set(TSYNC): ") + std::strerror(-rc);

  // Opening for writing: one rule per flag, since a rule's comparisons must all hold. O_RDWR is
  // not among them (the driver's device nodes; see the top of this file). The flags are an int:
  // bits above 31 are ignored by the kernel and by these masks alike.
  const unsigned long tmpfile = O_TMPFILE & ~O_DIRECTORY;  // O_TMPFILE includes O_DIRECTORY
  for (unsigned long flag : {static_cast<unsigned long>(O_WRONLY), static_cast<unsigned long>(O_CREAT),
                             static_cast<unsigned long>(O_TRUNC), static_cast<unsigned long>(O_APPEND), tmpfile}) {
    rule(refuse, "open", {SCMP_A1(SCMP_CMP_MASKED_EQ, flag, flag)});
    rule(refuse, "openat", {SCMP_A2(SCMP_CMP_MASKED_EQ, flag, flag)});
  }
  rule(SCMP_ACT_ERRNO(ENOSYS), "openat2");  // its flags are in a struct; glibc falls back to openat

  // Changing the file system, and objects that outlive the process (POSIX queues, keyrings).
  for (const char* name :
       {"creat", "rename", "renameat", "renameat2", "link", "linkat", "symlink", "symlinkat", "unlink", "unlinkat",
        "mkdir", "mkdirat", "rmdir", "mknod", "mknodat", "truncate", "chmod", "fchmod", "fchmodat", "fchmodat2",
        "chown", "fchown", "lchown", "fchownat", "setxattr", "lsetxattr", "fsetxattr", "removexattr",
        "lremovexattr", "fremovexattr", "memfd_create", "name_to_handle_at", "open_by_handle_at", "mq_open",
        "add_key", "request_key", "keyctl"})
    rule(refuse, name);

  // New processes. A thread (CLONE_THREAD) shares this filter and cannot execve; any other clone
  // is a new process. Namespace flags are refused on threads too, as unshare is.
  for (const char* name : {"fork", "vfork", "execve", "execveat"}) rule(refuse, name);
  rule(refuse, "clone", {SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_THREAD, 0)});
  for (unsigned long ns : {CLONE_NEWNS, CLONE_NEWUSER, CLONE_NEWPID, CLONE_NEWNET, CLONE_NEWIPC, CLONE_NEWUTS,
                           CLONE_NEWCGROUP})
    rule(refuse, "clone", {SCMP_A0(SCMP_CMP_MASKED_EQ, ns, ns)});
  rule(SCMP_ACT_ERRNO(ENOSYS), "clone3");  // its flags are in a struct; glibc falls back to clone

  // Sockets; other processes (memory, descriptors, signals). Threads signal through tgkill with
  // this process's id (raise, pthread_kill); kill only to itself. No fork can change the id.
  for (const char* name : {"socket", "socketpair", "connect", "bind", "listen", "accept", "accept4", "ptrace",
                           "process_vm_readv", "process_vm_writev", "process_madvise", "pidfd_open",
                           "pidfd_getfd", "pidfd_send_signal", "kcmp", "tkill"})
    rule(refuse, name);
  const auto self = static_cast<scmp_datum_t>(getpid());
  for (const char* name : {"kill", "tgkill", "rt_sigqueueinfo", "rt_tgsigqueueinfo"})
    rule(refuse, name, {SCMP_A0(SCMP_CMP_NE, self)});

  // io_uring performs opens, connects and the like itself, out of the filter's sight.
  for (const char* name : {"io_uring_setup", "io_uring_enter", "io_uring_register"}) rule(refuse, name);

  // Typing into the terminal the grader was started from. The request is an unsigned int:
  // compare only the low 32 bits, or setting a high bit would slip past.
  for (unsigned long request : {TIOCSTI, TIOCLINUX})
    rule(refuse, "ioctl", {SCMP_A1(SCMP_CMP_MASKED_EQ, 0xFFFFFFFFul, request)});

  // The kernel itself: mounts, namespaces, modules, BPF programs, page-fault handlers.
  for (const char* name : {"bpf", "mount", "umount2", "pivot_root", "chroot", "setns", "unshare", "open_tree",
                           "move_mount", "fsopen", "fsconfig", "fsmount", "fspick", "mount_setattr", "kexec_load",
                           "kexec_file_load", "init_module", "finit_module", "delete_module", "userfaultfd",
                           "fanotify_init", "personality"})
    rule(refuse, name);

  if (!why.empty()) return why;
  if (int rc = seccomp_load(f); rc != 0) return std::string("seccomp_load: ") + std::strerror(-rc);
  return "";
}

}  // namespace labbook::lab
