// labbook's second start with huge pages: the tunables it runs with, and the user's
// environment put back for the programs it runs.
#include <unistd.h>

#include <cstdlib>
#include <string>

#include <gtest/gtest.h>

#include "huge_pages.h"

namespace labbook::cli {
namespace {

TEST(HugePages, GoBeforeTheUsersTunables) {
  EXPECT_EQ(tunables_with_huge_pages(nullptr), "glibc.malloc.hugetlb=1");
  EXPECT_EQ(tunables_with_huge_pages(""), "glibc.malloc.hugetlb=1");
  EXPECT_EQ(tunables_with_huge_pages("glibc.malloc.arena_max=2"), "glibc.malloc.hugetlb=1:glibc.malloc.arena_max=2");
}

TEST(HugePages, LeaveTheUsersOwnChoice) {
  EXPECT_EQ(tunables_with_huge_pages("glibc.malloc.hugetlb=0"), std::nullopt);
  EXPECT_EQ(tunables_with_huge_pages("glibc.malloc.arena_max=2:glibc.malloc.hugetlb=2"), std::nullopt);
}

/// GLIBC_TUNABLES and the carried value around one test, as they were before it.
class CarriedTunables : public ::testing::Test {
 protected:
  void SetUp() override {
    for (int i = 0; i < 2; ++i)
      if (const char* v = std::getenv(kNames[i])) saved_[i] = v;
  }
  void TearDown() override {
    for (int i = 0; i < 2; ++i)
      if (saved_[i]) ::setenv(kNames[i], saved_[i]->c_str(), 1);
      else ::unsetenv(kNames[i]);
  }
  static constexpr const char* kNames[2] = {"GLIBC_TUNABLES", "LABBOOK_USER_GLIBC_TUNABLES"};
  std::optional<std::string> saved_[2];
  /// The carried value of this process, as the first start writes it.
  static std::string carried(const std::string& after_pid) { return std::to_string(::getpid()) + after_pid; }
};

TEST_F(CarriedTunables, PutTheUsersValueBack) {
  ::setenv("GLIBC_TUNABLES", "glibc.malloc.hugetlb=1:glibc.malloc.arena_max=2", 1);
  ::setenv("LABBOOK_USER_GLIBC_TUNABLES", carried("=glibc.malloc.arena_max=2").c_str(), 1);
  EXPECT_TRUE(restore_user_tunables());
  ASSERT_NE(std::getenv("GLIBC_TUNABLES"), nullptr);
  EXPECT_STREQ(std::getenv("GLIBC_TUNABLES"), "glibc.malloc.arena_max=2");
  EXPECT_EQ(std::getenv("LABBOOK_USER_GLIBC_TUNABLES"), nullptr);
}

TEST_F(CarriedTunables, UnsetWhereTheUserHadNone) {
  ::setenv("GLIBC_TUNABLES", "glibc.malloc.hugetlb=1", 1);
  ::setenv("LABBOOK_USER_GLIBC_TUNABLES", carried("").c_str(), 1);
  EXPECT_TRUE(restore_user_tunables());
  EXPECT_EQ(std::getenv("GLIBC_TUNABLES"), nullptr);
  EXPECT_EQ(std::getenv("LABBOOK_USER_GLIBC_TUNABLES"), nullptr);
}

TEST_F(CarriedTunables, EmptyStaysEmpty) {
  ::setenv("GLIBC_TUNABLES", "glibc.malloc.hugetlb=1", 1);
  ::setenv("LABBOOK_USER_GLIBC_TUNABLES", carried("=").c_str(), 1);
  EXPECT_TRUE(restore_user_tunables());
  ASSERT_NE(std::getenv("GLIBC_TUNABLES"), nullptr);
  EXPECT_STREQ(std::getenv("GLIBC_TUNABLES"), "");
}

TEST_F(CarriedTunables, AnotherProcesssValueIsLeftAlone) {
  ::setenv("GLIBC_TUNABLES", "glibc.malloc.arena_max=2", 1);
  const std::string other = std::to_string(::getpid() + 1) + "=glibc.malloc.arena_max=4";
  for (const std::string& stale : {other, std::to_string(::getpid()) + "7", std::string("unset")}) {
    ::setenv("LABBOOK_USER_GLIBC_TUNABLES", stale.c_str(), 1);
    EXPECT_FALSE(restore_user_tunables()) << stale;
    EXPECT_STREQ(std::getenv("GLIBC_TUNABLES"), "glibc.malloc.arena_max=2") << stale;
    EXPECT_STREQ(std::getenv("LABBOOK_USER_GLIBC_TUNABLES"), stale.c_str());
  }
}

TEST_F(CarriedTunables, NothingToRestoreInAFirstStart) {
  ::setenv("GLIBC_TUNABLES", "glibc.malloc.arena_max=2", 1);
  ::unsetenv("LABBOOK_USER_GLIBC_TUNABLES");
  EXPECT_FALSE(restore_user_tunables());
  EXPECT_STREQ(std::getenv("GLIBC_TUNABLES"), "glibc.malloc.arena_max=2");
}

}  // namespace
}  // namespace labbook::cli
