#include "huge_pages.h"

#include <gnu/libc-version.h>
#include <sys/auxv.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string_view>

namespace labbook::cli {

namespace {

constexpr const char* kTunables = "GLIBC_TUNABLES";
constexpr const char* kHugePages = "glibc.malloc.hugetlb";
/// The user's GLIBC_TUNABLES, carried across the second start: labbook's pid, then "=" and the
/// value where it was set. The pid, which exec keeps, tells labbook's own from a stale copy.
constexpr const char* kUserTunables = "LABBOOK_USER_GLIBC_TUNABLES";

/// glibc 2.35 brought the tunable; an older one would ignore it.
bool glibc_has_huge_pages() {
  int major = 0, minor = 0;
  return std::sscanf(gnu_get_libc_version(), "%d.%d", &major, &minor) == 2 && (major > 2 || (major == 2 && minor >= 35));
}

/// "always [madvise] never": the bracketed word is the kernel's setting.
bool kernel_gives_huge_pages() {
  std::ifstream setting("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string line;
  return std::getline(setting, line) && line.find("[never]") == std::string::npos;
}

/// Where a second start would not help or would not be labbook: the loader run by hand (`ld.so
/// labbook`: /proc/self/exe is the loader) or a static build, both without an interpreter's
/// base; a setuid run, whose tunables glibc ignores; a preloaded library, valgrind's (which
/// would check only the first start) or a malloc of its own (which ignores the tunable).
bool start_once() {
  const char* preload = std::getenv("LD_PRELOAD");
  return ::getauxval(AT_BASE) == 0 || ::getauxval(AT_SECURE) != 0 || (preload && *preload);
}

}  // namespace

std::optional<std::string> tunables_with_huge_pages(const char* user_tunables) {
  const std::string_view user = user_tunables ? user_tunables : "";
  if (user.find(kHugePages) != std::string_view::npos) return std::nullopt;
  std::string tuned = std::string(kHugePages) + "=1";
  if (!user.empty()) tuned.append(":").append(user);
  return tuned;
}

bool restore_user_tunables() {
  const char* carried = std::getenv(kUserTunables);
  if (!carried) return false;
  const std::string_view value = carried;
  const std::string pid = std::to_string(::getpid());
  if (value.substr(0, pid.size()) != pid || (value.size() > pid.size() && value[pid.size()] != '=')) return false;
  if (value.size() > pid.size()) ::setenv(kTunables, carried + pid.size() + 1, 1);
  else ::unsetenv(kTunables);
  ::unsetenv(kUserTunables);
  return true;
}

void run_with_huge_pages(char** argv) {
  if (restore_user_tunables() || start_once()) return;
  if (!glibc_has_huge_pages() || !kernel_gives_huge_pages()) return;
  const char* user = std::getenv(kTunables);
  const std::optional<std::string> tuned = tunables_with_huge_pages(user);
  if (!tuned) return;
  ::setenv(kUserTunables, (std::to_string(::getpid()) + (user ? std::string("=") + user : "")).c_str(), 1);
  ::setenv(kTunables, tuned->c_str(), 1);
  ::execv("/proc/self/exe", argv);
  restore_user_tunables();   // no /proc (a sandbox), or the file gone: labbook runs on as it was
}

}  // namespace labbook::cli
