// An installed labbook (`cmake --install`, the .deb) finds its files relative to its own
// executable, so the prefix can be chosen at install time, packaged or moved; the relative
// paths come from GNUInstallDirs (cli/CMakeLists.txt). The executable the build made uses the
// build and source trees instead, so that `make lab4` needs no install. Which of the two this
// is, the executable's own path tells, not which files exist: the two layouts never mix.
#include "install_layout.h"

#include <filesystem>
#include <system_error>

namespace labbook::cli {

namespace fs = std::filesystem;

namespace {

/// This executable, "" when the kernel will not say (the build's paths are used then).
fs::path this_executable() {
  std::error_code ec;
  fs::path p = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::path() : p;
}

}  // namespace

const InstallLayout& install_layout() {
  static const InstallLayout layout = [] {
    const fs::path exe = this_executable();
    std::error_code ec;
    if (exe.empty() || fs::equivalent(exe, LABBOOK_BUILD_EXECUTABLE, ec) || fs::equivalent(exe, LABBOOK_BUILD_GRADER, ec))
      return InstallLayout{LABBOOK_BUILD_EXECUTABLE, LABBOOK_BUILD_GRADER, LABBOOK_BUILD_COLLECTOR,
                           LABBOOK_BUILD_LAB_PROGRAMS, LABBOOK_SOURCE_DIR};
    // Both executables are installed side by side.
    const fs::path bin = exe.parent_path();
    const auto at = [&bin](const char* relative) { return (bin / relative).lexically_normal().string(); };
    return InstallLayout{at("labbook"), at("labbook-grade"), at(LABBOOK_INSTALLED_COLLECTOR),
                         at(LABBOOK_INSTALLED_LAB_PROGRAMS), at(LABBOOK_INSTALLED_DATA)};
  }();
  return layout;
}

}  // namespace labbook::cli
