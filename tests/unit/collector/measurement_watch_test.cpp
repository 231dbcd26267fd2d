// A run's measurement read while the program ends (profiler/measurement_watch.h): the file is
// read once it is renamed into place, and taken only if it is still the file on disk when the
// program has exited.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>
#include <vector>

#include "labbook/model/measurement_json.h"
#include "measurement_watch.h"

using namespace labbook;
using namespace labbook::profiler;

namespace {

Measurement with_kernel(const std::string& name) {
  Measurement m;
  m.program.mode = "trace";
  Kernel k;
  k.name = name + "()";
  k.mangled = "_Z1" + name + "v";
  m.kernels.push_back(k);
  return m;
}

std::string fresh_folder(const std::string& name) {
  const std::string dir = testing::TempDir() + "/watch-" + name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

/// Reads as labbook does, counting the reads and noting that one happened.
struct CountingReader {
  std::atomic<int> reads{0};
  std::atomic<bool> thrown{false};
  MeasurementWatch::Reader reader() {
    return [this](const std::string& path) {
      ++reads;
      try {
        return read_measurement(path);
      } catch (...) {
        thrown = true;
        throw;
      }
    };
  }
};

/// Waits up to 5 s for `done`.
template <typename Done>
bool eventually(const Done& done) {
  for (int i = 0; i < 500 && !done(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  return done();
}

}  // namespace

TEST(MeasurementWatch, ReadsTheFileRenamedIntoPlaceWhileTheProgramRuns) {
  const std::string path = fresh_folder("renamed") + "/trace-run.json";
  CountingReader counting;
  MeasurementWatch watch(path, counting.reader());
  write_measurement(with_kernel("early"), path);   // a temporary file renamed into place
  ASSERT_TRUE(eventually([&] { return counting.reads > 0; })) << "read before the program exited";
  const auto taken = watch.take();
  ASSERT_TRUE(taken);
  ASSERT_EQ(taken->measurement.kernels.size(), 1u);
  EXPECT_EQ(taken->measurement.kernels[0].name, "early()");
  EXPECT_GE(taken->read_seconds, 0);
  EXPECT_GE(taken->written_to_exit_seconds, 0);
  EXPECT_EQ(counting.reads, 1);
}

TEST(MeasurementWatch, WhatItKeepsIsGivenOnBeforeItIsTakenWithWhatWasAdded) {
  const std::string path = fresh_folder("given") + "/trace-run.json";
  CountingReader counting;
  std::vector<std::string> given;   // written on the watch's thread, read after take()
  MeasurementWatch watch(path, counting.reader(), [&given](Measurement& m) {
    given.push_back(m.kernels.at(0).name);
    m.program.exit_code = 5;
  });
  write_measurement(with_kernel("early"), path);
  ASSERT_TRUE(eventually([&] { return counting.reads > 0; }));
  const std::optional<EarlyRead> taken = watch.take();
  ASSERT_TRUE(taken);
  EXPECT_EQ(given, std::vector<std::string>{"early()"});
  EXPECT_EQ(taken->measurement.program.exit_code, 5) << "what it added is taken";
}

TEST(MeasurementWatch, AFileWrittenInPlaceIsLeftToTheReadAfterTheExit) {
  // Only a rename says the file is whole; a file written in place may be read half written.
  const std::string path = fresh_folder("in-place") + "/metrics-run-1.json";
  CountingReader counting;
  MeasurementWatch watch(path, counting.reader());
  std::ofstream(path) << measurement_text(with_kernel("in_place"));
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_FALSE(watch.take());
  EXPECT_EQ(counting.reads, 0);
}

TEST(MeasurementWatch, AFileReplacedAfterItWasReadIsNotTaken) {
  // A forked child's collector writes too: the file on disk at the exit is the one that counts.
  const std::string path = fresh_folder("replaced") + "/trace-run.json";
  CountingReader counting;
  MeasurementWatch watch(path, counting.reader());
  write_measurement(with_kernel("first"), path);
  ASSERT_TRUE(eventually([&] { return counting.reads > 0; }));
  write_measurement(with_kernel("second"), path);
  EXPECT_FALSE(watch.take());
}

TEST(MeasurementWatch, AFileReplacedWhileItIsReadIsNotTakenNorGivenOn) {
  const std::string path = fresh_folder("racing") + "/trace-run.json";
  std::atomic<int> reads{0}, given{0};
  MeasurementWatch watch(
      path,
      [&](const std::string& p) {
        ++reads;
        Measurement m = read_measurement(p);
        write_measurement(with_kernel("later"), p);
        return m;
      },
      [&given](const Measurement&) { ++given; });
  write_measurement(with_kernel("first"), path);
  ASSERT_TRUE(eventually([&] { return reads > 0; }));
  EXPECT_FALSE(watch.take());
  EXPECT_EQ(given, 0);
}

TEST(MeasurementWatch, AFileThatCannotBeReadIsLeftToTheReadAfterTheExit) {
  const std::string path = fresh_folder("broken") + "/trace-run.json";
  CountingReader counting;
  MeasurementWatch watch(path, counting.reader());
  std::ofstream(path + ".partial") << "{ not a measurement";
  std::filesystem::rename(path + ".partial", path);
  ASSERT_TRUE(eventually([&] { return counting.thrown.load(); }));
  EXPECT_FALSE(watch.take());
}

TEST(MeasurementWatch, OtherFilesAndNoFileAreNotRead) {
  const std::string dir = fresh_folder("others");
  CountingReader counting;
  MeasurementWatch watch(dir + "/trace-run.json", counting.reader());
  write_measurement(with_kernel("other"), dir + "/metrics-run-1.json");
  std::ofstream(dir + "/trace-run.json.stdout") << "the program's output\n";
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_FALSE(watch.take());
  EXPECT_EQ(counting.reads, 0);
}

TEST(MeasurementWatch, AFolderThatCannotBeWatchedReadsNothingEarly) {
  CountingReader counting;
  MeasurementWatch watch(testing::TempDir() + "/watch-no-such-folder/trace-run.json", counting.reader());
  EXPECT_FALSE(watch.take());
  EXPECT_EQ(counting.reads, 0);
}
