#include "huge_pages.h"

#include <gnu/libc-version.h>
#include <sys/auxv.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string_view>

namespace labbook::cli {

namespace {

constexpr const char* kTunables = "GLIBC_TUNABLES";
constexpr const char* kHugePages = "glibc.malloc.hugetlb";
/// The user's GLIBC_TUNABLES, carried across the second start: "=" and the value, or "unset".
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

}  // namespace

std::optional<std::string> tunables_with_huge_pages(const char* user_tunables) {
  const std::string_view user = user_tunables ? user_tunables : "";
  if (user.find(kHugePages) != std::string_view::npos) return std::nullopt;
  // glibc takes the last value of a tunable: the user's own follow labbook's.
  std::string tuned = std::string(kHugePages) + "=1";
  if (!user.empty()) tuned.append(":").append(user);
  return tuned;
}

bool restore_user_tunables() {
  const char* carried = std::getenv(kUserTunables);
  if (!carried) return false;
  if (carried[0] == '=') ::setenv(kTunables, carried + 1, 1);
  else ::unsetenv(kTunables);
  ::unsetenv(kUserTunables);
  return true;
}

void run_with_huge_pages(char** argv) {
  if (restore_user_tunables()) return;
  // No interpreter's base: the loader itself was run (`ld.so labbook`), and is what
  // /proc/self/exe names.
  if (::getauxval(AT_BASE) == 0) return;
  if (!glibc_has_huge_pages() || !kernel_gives_huge_pages()) return;
  const char* user = std::getenv(kTunables);
  const std::optional<std::string> tuned = tunables_with_huge_pages(user);
  if (!tuned) return;
  ::setenv(kUserTunables, user ? (std::string("=") + user).c_str() : "unset", 1);
  ::setenv(kTunables, tuned->c_str(), 1);
  // The link's target, not the link: under valgrind the link itself is valgrind's tool.
  std::error_code unknown;
  const std::string self = std::filesystem::read_symlink("/proc/self/exe", unknown).string();
  if (!unknown) ::execv(self.c_str(), argv);
  restore_user_tunables();   // no /proc (a sandbox), or the file gone: labbook runs on as it was
}

}  // namespace labbook::cli
