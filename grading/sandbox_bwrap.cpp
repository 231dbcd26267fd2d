#include "sandbox_bwrap.h"

#include <glob.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <optional>

#include "labbook/model/error.h"
#include "sandbox_text.h"

namespace labbook::grading {

namespace {

/// Top-level folders of the host system, shown read-only. On a merged-/usr system (Debian 12)
/// they are links into /usr and are recreated as links; /usr itself is bound whole, so
/// /usr/local/cuda and the compilers come with it.
constexpr const char* kSystemFolders[] = {"/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"};

/// Only what a dynamic binary, a shell, gcc and nvcc read from /etc, not the whole of it: the
/// instructor's configuration (a grading token in some file under /etc) stays out of sight.
/// /etc/alternatives holds /usr/bin/cc's link target; hosts and nsswitch.conf let name
/// lookups fail cleanly rather than strangely.
constexpr const char* kEtcFiles[] = {"/etc/ld.so.cache",   "/etc/ld.so.conf", "/etc/ld.so.conf.d",
                                     "/etc/alternatives",  "/etc/passwd",     "/etc/group",
                                     "/etc/nsswitch.conf", "/etc/hosts",      "/etc/localtime"};

constexpr uid_t kNobody = 65534;  ///< the traditional nobody/nogroup, for the availability probe

bool has_nul(const std::string& s) { return s.find('\0') != std::string::npos; }

}  // namespace

std::string find_bwrap() {
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "";
  std::size_t begin = 0;
  while (begin <= dirs.size()) {
    const auto end = std::min(dirs.find(':', begin), dirs.size());
    const std::string dir = dirs.substr(begin, end - begin);
    if (!dir.empty() && dir[0] == '/' && ::access((dir + "/bwrap").c_str(), X_OK) == 0) return dir + "/bwrap";
    begin = end + 1;
  }
  return ::access("/usr/bin/bwrap", X_OK) == 0 ? "/usr/bin/bwrap" : "";
}

void validate(const SandboxRequest& r) {
  if (r.command.empty() || r.command[0].empty()) throw Error("sandbox: no command to run");
  if (r.channels < 0 || r.channels > kMaxChannels)
    throw Error("sandbox: " + std::to_string(r.channels) + " record channels asked for; at most " + std::to_string(kMaxChannels));
  for (const auto& word : r.command)
    if (has_nul(word)) throw Error("sandbox: a command word holds a NUL byte");
  struct stat st{};
  if (r.work_dir.empty() || r.work_dir[0] != '/') throw Error("sandbox: work_dir '" + r.work_dir + "' is not absolute");
  if (::stat(r.work_dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
    throw Error("sandbox: work_dir " + r.work_dir + " is not a folder");
  for (const auto& path : r.read_only) {
    if (path.empty() || path[0] != '/') throw Error("sandbox: read-only path '" + path + "' is not absolute");
    if (::stat(path.c_str(), &st) != 0) throw Error("sandbox: read-only path " + path + " does not exist");
  }
  for (const auto& [name, value] : r.env)
    if (name.empty() || name.find('=') != std::string::npos || has_nul(name) || has_nul(value))
      throw Error("sandbox: bad environment variable name '" + name + "'");
  const auto& l = r.limits;
  if (!(l.wall_seconds > 0) || !std::isfinite(l.wall_seconds)) throw Error("sandbox: wall_seconds must be > 0");
  if (l.output_bytes == 0 || l.file_bytes == 0 || l.processes <= 0)
    throw Error("sandbox: output_bytes, file_bytes and processes must be > 0");
}

std::vector<std::string> bwrap_arguments(const SandboxRequest& r) {
  std::vector<std::string> a = {
      "bwrap",
      // New user, pid, net, ipc, uts (and cgroup) namespaces; no --share-net, so the only
      // network is an unconfigured loopback of the sandbox's own.
      "--unshare-all", "--unshare-user", "--disable-userns",
      // The sandbox dies with labbook (and with the thread that started it), and the command
      // gets a session of its own: no terminal to push keystrokes into (TIOCSTI).
      "--die-with-parent", "--new-session", "--hostname", "labbook-sandbox",
      "--ro-bind", "/usr", "/usr"};
  auto add = [&](std::initializer_list<std::string> words) { a.insert(a.end(), words); };
  for (const char* folder : kSystemFolders) {
    struct stat st{};
    if (::lstat(folder, &st) != 0) continue;
    if (S_ISLNK(st.st_mode)) {
      char target[4096];
      const ssize_t n = ::readlink(folder, target, sizeof target - 1);
      if (n > 0) add({"--symlink", std::string(target, static_cast<std::size_t>(n)), folder});
    } else if (S_ISDIR(st.st_mode)) {
      add({"--ro-bind", folder, folder});
    }
  }
  for (const char* file : kEtcFiles) add({"--ro-bind-try", file, file});
  add({"--proc", "/proc", "--dev", "/dev"});
  if (r.gpu) {
    // The driver's device nodes (nvidia0.., nvidiactl, nvidia-uvm, nvidia-caps/) read-write,
    // as CUDA opens them; /sys read-only for the PCI and NUMA topology it reads.
    glob_t found{};
    if (::glob("/dev/nvidia*", 0, nullptr, &found) == 0)
      for (std::size_t i = 0; i < found.gl_pathc; ++i) add({"--dev-bind", found.gl_pathv[i], found.gl_pathv[i]});
    ::globfree(&found);
    add({"--ro-bind", "/sys", "/sys"});
  }
  // Private, size-capped /tmp and /dev/shm: they live in memory.
  const std::string size = std::to_string(r.limits.file_bytes);
  add({"--size", size, "--tmpfs", "/dev/shm", "--size", size, "--tmpfs", "/tmp"});
  // Parents before children, so a read-only tree inside work_dir (or work_dir inside a
  // read-only tree) is not hidden by the mount of the other.
  std::vector<std::pair<std::string, bool>> binds;
  for (const auto& path : r.read_only) binds.emplace_back(path, false);
  binds.emplace_back(r.work_dir, true);
  std::stable_sort(binds.begin(), binds.end(),
                   [](const auto& x, const auto& y) { return x.first.size() < y.first.size(); });
  for (const auto& [path, writable] : binds) add({writable ? "--bind" : "--ro-bind", path, path});
  // The sandbox's root, where bwrap made the mount points, becomes read-only too.
  add({"--remount-ro", "/", "--chdir", r.work_dir, "--clearenv"});
  for (const auto& [name, value] : r.env) add({"--setenv", name, value});
  // bwrap writes {"exit-code": N} there only once the command was exec'd: its absence tells a
  // sandbox that failed to start from a command that exited 1.
  add({"--json-status-fd", std::to_string(kStatusFd), "--"});
  a.insert(a.end(), r.command.begin(), r.command.end());
  return a;
}

bool sandbox_available(std::string& why) {
  static std::mutex mutex;
  static std::optional<std::string> problem;  // "" once the probe passed
  std::lock_guard<std::mutex> lock(mutex);
  if (!problem) {
    problem = "";
    char folder[] = "/tmp/labbook-sandbox-probe-XXXXXX";
    if (find_bwrap().empty()) {
      problem = "bwrap (bubblewrap) is not installed";
    } else if (!::mkdtemp(folder)) {
      problem = std::string("cannot make a folder in /tmp: ") + std::strerror(errno);
    } else {
      if (::geteuid() == 0 && ::chown(folder, kNobody, kNobody) != 0)
        problem = std::string("cannot chown a folder in /tmp: ") + std::strerror(errno);
      if (problem->empty()) {
        SandboxRequest probe;
        probe.command = {"sh", "-c", "exit 0"};
        probe.work_dir = folder;
        probe.env = {{"PATH", "/usr/bin:/bin"}};
        probe.limits.wall_seconds = 20;
        try {
          const SandboxResult r = run_sandboxed(probe);
          if (r.end != SandboxResult::End::Exited || r.exit_code != 0)
            problem = "bwrap cannot create its sandbox here: " + (r.err.empty() ? r.describe() : last_line(r.err));
        } catch (const Error& e) {
          problem = e.what();
        }
      }
      ::rmdir(folder);
    }
  }
  why = *problem;
  return problem->empty();
}

}  // namespace labbook::grading
