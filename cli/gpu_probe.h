#pragma once
#include <string>

namespace labbook::cli {

/// Whether a CUDA GPU can be used here. Loads the driver library at run time, so labbook
/// itself starts on machines without one. `why` says what is missing when it returns false.
bool gpu_available(std::string& why);

/// nvcc's -arch for the GPUs this process sees ("sm_90"), so that student code is built for
/// the GPU that runs it; "" with `why` when there is none, or GPUs of two architectures.
std::string gpu_architecture(std::string& why);

}  // namespace labbook::cli
