// The run's launches as the driver callbacks record them (launch_book.h), on made-up launch
// calls: numbered across take(), chosen by the launch filter, a graph run whole never chosen,
// and the issue for launches beside a stream capture.
#include <gtest/gtest.h>

#include "launch_book.h"

using namespace labbook;
using namespace labbook::profiler;

namespace {
const std::string kScale = "_Z5scalePf", kOther = "_Z5otherv", kCopy = "_Z4copyPfPKf";

// A kernel launch on thread 7, in NVTX range `range`, of a run that chooses launches for metrics.
LaunchCall kernel_call(std::uint32_t driver_correlation, std::size_t range = 0) {
  return LaunchCall{7, range, 0, 0, driver_correlation, DefaultStream::Legacy, false, true, false};
}

LaunchCall graph_call(std::uint32_t driver_correlation, bool beside_capture) {
  return LaunchCall{7, 0, 0, 11, driver_correlation, DefaultStream::None, true, true, beside_capture};
}

std::string book_path(std::size_t range) { return range ? "r" + std::to_string(range) : ""; }

std::vector<bool> selected(const std::vector<Launch>& launches) {
  std::vector<bool> s;
  for (const Launch& l : launches) s.push_back(l.selected);
  return s;
}
}  // namespace

TEST(LaunchBook, NumberingContinuesAfterTake) {
  LaunchBook book(LaunchFilterSpec{});
  EXPECT_EQ(book.record(kernel_call(1), {&kScale}, book_path, false).first, 0u);
  const RecordedLaunches two = book.record(kernel_call(2), {&kOther, &kScale}, book_path, false);
  EXPECT_EQ(two.first, 1u);
  EXPECT_EQ(two.count, 2u);
  const TakenLaunches first = book.take();
  ASSERT_EQ(first.launches.size(), 3u);
  EXPECT_EQ(first.launches[2].mangled, &kScale);
  EXPECT_EQ(first.launches[2].driver_correlation, 2u);
  EXPECT_EQ(book.launches_seen(), 3u);
  const RecordedLaunches later = book.record(kernel_call(3), {&kOther}, book_path, true);
  EXPECT_EQ(later.first, 3u) << "a launch in flight at the end: after those taken";
  ASSERT_EQ(later.launches.size(), 1u) << "copies asked for";
  EXPECT_EQ(later.launches[0].index, 3u);
  EXPECT_EQ(book.take().launches.size(), 1u);
}

// Skip and count are the filter's (launch_filter_test.cpp); the book hands it each kernel's
// demangled name, launch by launch, and says what it chose.
TEST(LaunchBook, TheFilterSeesEachKernelsDemangledName) {
  LaunchFilterSpec spec;
  spec.kernels = {"scale"};
  spec.skip = 1;
  LaunchBook book(spec);
  std::vector<bool> any;
  for (const std::string* k : {&kScale, &kOther, &kScale})
    any.push_back(book.record(kernel_call(1), {k}, book_path, false).any_selected);
  EXPECT_EQ(any, (std::vector<bool>{false, false, true}));
  EXPECT_EQ(selected(book.take().launches), any);
}

TEST(LaunchBook, TheFilterSeesTheLaunchsRangePath) {
  LaunchFilterSpec spec;
  spec.nvtx = {"r2"};
  LaunchBook book(spec);
  book.record(kernel_call(1, 1), {&kScale}, book_path, false);
  book.record(kernel_call(2, 2), {&kScale}, book_path, false);
  EXPECT_EQ(selected(book.take().launches), (std::vector<bool>{false, true}));
}

TEST(LaunchBook, AGraphRunWholeIsNeverChosen) {
  LaunchBook book(LaunchFilterSpec{});
  const RecordedLaunches alone = book.record(graph_call(5, false), {&kScale, &kOther}, book_path, false);
  EXPECT_FALSE(alone.any_selected);
  const RecordedLaunches beside = book.record(graph_call(6, true), {&kScale, &kOther}, book_path, false);
  EXPECT_FALSE(beside.any_selected);
  const std::vector<Launch> launches = book.take().launches;
  ASSERT_EQ(launches.size(), 4u);
  for (const Launch& l : launches) {
    EXPECT_FALSE(l.selected);
    EXPECT_EQ(l.beside_capture, l.driver_correlation == 6) << "marked only while a capture was open";
    EXPECT_EQ(l.runtime_correlation, 11u);
    EXPECT_EQ(l.default_stream, DefaultStream::None);
  }
}

TEST(LaunchBook, ALaunchBesideACaptureIsMarkedNotSelected) {
  LaunchFilterSpec spec;
  spec.kernels = {"scale"};
  LaunchBook book(spec);
  LaunchCall call = kernel_call(1);
  call.beside_capture = true;
  EXPECT_FALSE(book.record(call, {&kScale}, book_path, false).any_selected);
  book.record(call, {&kOther}, book_path, false);
  const std::vector<Launch> launches = book.take().launches;
  EXPECT_TRUE(launches[0].beside_capture) << "wanted, but a capture was open";
  EXPECT_FALSE(launches[1].beside_capture) << "not wanted: nothing lost";
}

TEST(LaunchBook, ATraceRunChoosesNothing) {
  LaunchBook book(LaunchFilterSpec{});
  LaunchCall call = kernel_call(1);
  call.choosing = false;
  EXPECT_FALSE(book.record(call, {&kScale, &kOther}, book_path, false).any_selected);
  EXPECT_EQ(selected(book.take().launches), (std::vector<bool>{false, false}));
}

TEST(LaunchBook, CopyRangesAreTakenAndCleared) {
  LaunchBook book(LaunchFilterSpec{});
  book.note_copy_range(40, 3);
  book.note_copy_range(41, 4);
  book.note_copy_range(40, 5);
  const TakenLaunches taken = book.take();
  EXPECT_EQ(taken.range_by_correlation, (std::unordered_map<std::uint32_t, std::size_t>{{40, 5}, {41, 4}}));
  EXPECT_TRUE(book.take().range_by_correlation.empty());
}

TEST(LaunchBook, OnlyCopiesMemsetsAndGraphLaunchesKeepTheirRange) {
  for (const char* call : {"cudaMemcpy", "cudaMemcpyAsync_ptsz", "cudaMemset2DAsync", "cudaGraphLaunch"})
    EXPECT_TRUE(may_make_copies(call)) << call;
  for (const char* call : {"cudaLaunchKernel", "cudaMalloc", "cudaStreamSynchronize", ""})
    EXPECT_FALSE(may_make_copies(call)) << call;
  EXPECT_FALSE(may_make_copies(nullptr));
}

TEST(LaunchBook, LaunchesBesideACaptureAreCountedAndNamedOnce) {
  EXPECT_EQ(launches_beside_capture({}), std::nullopt);
  std::vector<Launch> launches;
  for (const std::string* k : {&kScale, &kCopy, &kScale, &kOther})
    launches.push_back(Launch{launches.size(), k, 0, 7, 0, 0, 1, DefaultStream::None, false, k != &kOther});
  EXPECT_EQ(launches_beside_capture(launches),
            "3 launches of copy(float*, float const*), scale(float*) ran while another stream was being captured "
            "into a graph: CUPTI's profiler cannot start then without breaking that capture, so they have no metrics");
  launches.pop_back();
  for (Launch& l : launches) l.beside_capture = false;
  EXPECT_EQ(launches_beside_capture(launches), std::nullopt);
}
