#pragma once
#include <string>

namespace labbook::cli {

/// Whether a CUDA GPU can be used here. Loads the driver library at run time, so labbook
/// itself starts on machines without one. `why` says what is missing when it returns false.
bool gpu_available(std::string& why);

}  // namespace labbook::cli
