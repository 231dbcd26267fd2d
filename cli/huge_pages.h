#pragma once
/// @file
/// labbook's own heap on transparent huge pages: reading a measurement of 10^5 launches and
/// writing its report spent about a fifth of its time in page faults. glibc takes the setting
/// (its glibc.malloc.hugetlb tunable) only from GLIBC_TUNABLES at a process's start, so
/// labbook starts itself again with it, then puts the user's environment back for every
/// program it runs.
#include <optional>
#include <string>

namespace labbook::cli {

/// The GLIBC_TUNABLES labbook runs with, given the user's (null: unset): the huge-page
/// tunable before the user's own; nothing where the user already set that tunable.
std::optional<std::string> tunables_with_huge_pages(const char* user_tunables);

/// In the process started again: the user's GLIBC_TUNABLES put back (or unset, as it was).
/// Returns false, changing nothing, in a process labbook did not start again (one whose
/// carried value holds another pid included).
bool restore_user_tunables();

/// First in main: starts labbook again with huge pages where that helps (glibc 2.35 or later,
/// transparent huge pages not "never", the user's tunables silent on them, glibc's malloc) and
/// can be done (labbook run as itself, not by the loader or valgrind); otherwise, and in the
/// process started again, returns.
void run_with_huge_pages(char** argv);

}  // namespace labbook::cli
