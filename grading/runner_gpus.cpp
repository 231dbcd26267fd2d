#include "runner_gpus.h"

#include <algorithm>
#include <sstream>

#include "labbook/model/error.h"

namespace labbook::grading {

std::vector<std::string> runner_gpus(const char* cuda_visible_devices, std::size_t driver_gpus) {
  std::vector<std::string> gpus;
  if (cuda_visible_devices) {
    std::istringstream list(cuda_visible_devices);
    for (std::string entry; std::getline(list, entry, ',');) {
      const auto first = entry.find_first_not_of(" \t"), last = entry.find_last_not_of(" \t");
      if (first != std::string::npos) gpus.push_back(entry.substr(first, last - first + 1));
    }
    if (gpus.empty()) throw Error("CUDA_VISIBLE_DEVICES is set but names no GPU: nothing to grade on");
    return gpus;
  }
  for (std::size_t i = 0; i < std::max<std::size_t>(driver_gpus, 1); ++i) gpus.push_back(std::to_string(i));
  return gpus;
}

}  // namespace labbook::grading
