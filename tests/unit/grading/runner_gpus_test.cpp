// Which GPUs `labbook grade` runs on: one runner each.
#include "runner_gpus.h"

#include <gtest/gtest.h>

#include "labbook/model/error.h"

using labbook::grading::runner_gpus;
using Gpus = std::vector<std::string>;

TEST(RunnerGpus, EveryGpuOfTheDriverWhenNothingIsSet) {
  EXPECT_EQ(runner_gpus(nullptr, 4), (Gpus{"0", "1", "2", "3"}));
  EXPECT_EQ(runner_gpus(nullptr, 0), (Gpus{"0"})) << "one runner, whose runs say what is missing";
}

TEST(RunnerGpus, CudaVisibleDevicesWinsAsSlurmSetsIt) {
  EXPECT_EQ(runner_gpus("2,5", 8), (Gpus{"2", "5"}));
  EXPECT_EQ(runner_gpus(" GPU-1a2b , MIG-3c4d", 8), (Gpus{"GPU-1a2b", "MIG-3c4d"}));
}

TEST(RunnerGpus, ASetButEmptyListIsAnError) {
  EXPECT_THROW(runner_gpus("", 2), labbook::Error);
  EXPECT_THROW(runner_gpus(" , ", 2), labbook::Error);
}
