#pragma once
#include <string>
#include <vector>

namespace labbook::cli {

/// Whether a CUDA GPU can be used here. Loads the driver library at run time, so labbook
/// itself starts on machines without one. `why` says what is missing when it returns false.
bool gpu_available(std::string& why);

/// The GPUs `labbook grade` runs on, one runner each (grading::runner_gpus() of
/// CUDA_VISIBLE_DEVICES and the driver's GPU count).
std::vector<std::string> visible_gpus();

}  // namespace labbook::cli
