#include <gtest/gtest.h>

#include "open_captures.h"

using labbook::profiler::OpenCaptures;

namespace {
int handles[4];
const void* const kContextA = &handles[0];
const void* const kContextB = &handles[1];
const void* const kStream1 = &handles[2];
const void* const kStream2 = &handles[3];
}  // namespace

TEST(OpenCaptures, ACaptureIsOpenUntilItEnds) {
  OpenCaptures c;
  EXPECT_FALSE(c.any());
  c.began(kContextA, kStream1);
  EXPECT_TRUE(c.any());
  c.ended(kContextA, kStream1);
  EXPECT_FALSE(c.any());
}

TEST(OpenCaptures, TheSameStreamHandleInAnotherContextIsAnotherCapture) {
  OpenCaptures c;   // the legacy and per-thread default streams have one handle in every context
  c.began(kContextA, kStream1);
  c.ended(kContextB, kStream1);
  EXPECT_TRUE(c.any());
  c.began(kContextB, kStream1);
  c.ended(kContextA, kStream1);
  EXPECT_TRUE(c.any());
  c.ended(kContextB, kStream1);
  EXPECT_FALSE(c.any());
}

TEST(OpenCaptures, TwoStreamsCapturingKeepTheContextOpenUntilBothEnd) {
  OpenCaptures c;
  c.began(kContextA, kStream1);
  c.began(kContextA, kStream2);
  c.ended(kContextA, kStream1);
  EXPECT_TRUE(c.any());
  c.ended(kContextA, kStream2);
  EXPECT_FALSE(c.any());
}

TEST(OpenCaptures, TwoThreadsCapturingTheirPerThreadStreamShareAHandle) {
  OpenCaptures c;   // CU_STREAM_PER_THREAD names each thread's own stream
  c.began(kContextA, kStream1);
  c.began(kContextA, kStream1);
  c.ended(kContextA, kStream1);
  EXPECT_TRUE(c.any());
  c.ended(kContextA, kStream1);
  EXPECT_FALSE(c.any());
}

TEST(OpenCaptures, EndingAStreamThatWasNotCapturingChangesNothing) {
  OpenCaptures c;
  c.ended(kContextA, kStream1);   // the driver refused it; the program called it anyway
  c.began(kContextA, kStream1);
  c.ended(kContextA, kStream2);
  c.ended(kContextB, kStream1);
  EXPECT_TRUE(c.any());
}
