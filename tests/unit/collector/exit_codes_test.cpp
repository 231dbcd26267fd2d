#include <gtest/gtest.h>

#include "exit_codes.h"

using namespace labbook::cli;

TEST(ProfileExitCode, IsTheProgramsOwnWhateverLabbookManagedToWrite) {
  EXPECT_EQ(profile_exit_code(0, true), 0);
  EXPECT_EQ(profile_exit_code(3, true), 3);
  EXPECT_EQ(profile_exit_code(3, false), 3) << "a failing program's code wins over labbook's trouble";
  EXPECT_EQ(profile_exit_code(139, false), 139);
}

TEST(ProfileExitCode, SaysReportLostOnlyWhenTheProgramSucceededAndNothingWasWritten) {
  EXPECT_EQ(profile_exit_code(0, false), kExitReportLost);
  EXPECT_NE(kExitReportLost, kExitNoGpu);
  EXPECT_NE(kExitReportLost, kExitUsage);
}
