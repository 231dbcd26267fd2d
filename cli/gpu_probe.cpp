#include "gpu_probe.h"

#include <dlfcn.h>

#include <cstdlib>
#include <filesystem>
#include <iterator>
#include <system_error>

#include "runner_gpus.h"

namespace labbook::cli {

bool gpu_available(std::string& why) {
  // The NVIDIA driver lists its GPUs here; reading a folder costs nothing, where cuInit in
  // this process would cost a tenth of a second before the program even starts.
  std::error_code error;
  if (std::filesystem::is_directory("/proc/driver/nvidia/gpus", error) &&
      !std::filesystem::is_empty("/proc/driver/nvidia/gpus", error) && !error)
    return true;
  void* driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!driver) {
    why = "no CUDA driver (libcuda.so.1 not found)";
    return false;
  }
  using InitFn = int (*)(unsigned);
  using CountFn = int (*)(int*);
  auto init = reinterpret_cast<InitFn>(dlsym(driver, "cuInit"));
  auto count_fn = reinterpret_cast<CountFn>(dlsym(driver, "cuDeviceGetCount"));
  int count = 0;
  const bool ok = init && count_fn && init(0) == 0 && count_fn(&count) == 0 && count > 0;
  if (!ok) why = "the CUDA driver reports no usable GPU";
  dlclose(driver);
  return ok;
}

std::vector<std::string> visible_gpus() {
  std::error_code error;
  std::size_t count = 0;
  if (std::filesystem::is_directory("/proc/driver/nvidia/gpus", error))
    count = static_cast<std::size_t>(std::distance(std::filesystem::directory_iterator("/proc/driver/nvidia/gpus", error),
                                                   std::filesystem::directory_iterator()));
  return grading::runner_gpus(std::getenv("CUDA_VISIBLE_DEVICES"), count);
}

}  // namespace labbook::cli
