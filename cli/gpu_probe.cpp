#include "gpu_probe.h"

#include <dlfcn.h>

#include <cstdlib>
#include <filesystem>
#include <iterator>
#include <set>
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

std::string gpu_architecture(std::string& why) {
  void* driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!driver) {
    why = "no CUDA driver (libcuda.so.1 not found)";
    return "";
  }
  using InitFn = int (*)(unsigned);
  using CountFn = int (*)(int*);
  using GetFn = int (*)(int*, int);
  using AttributeFn = int (*)(int*, int, int);
  auto init = reinterpret_cast<InitFn>(dlsym(driver, "cuInit"));
  auto count_fn = reinterpret_cast<CountFn>(dlsym(driver, "cuDeviceGetCount"));
  auto get = reinterpret_cast<GetFn>(dlsym(driver, "cuDeviceGet"));
  auto attribute = reinterpret_cast<AttributeFn>(dlsym(driver, "cuDeviceGetAttribute"));
  constexpr int kMajor = 75, kMinor = 76;   // CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_{MAJOR,MINOR}
  int count = 0;
  std::set<std::string> found;
  if (init && count_fn && get && attribute && init(0) == 0 && count_fn(&count) == 0)
    for (int i = 0; i < count; ++i) {
      int device = 0, major = 0, minor = 0;
      if (get(&device, i) == 0 && attribute(&major, kMajor, device) == 0 && attribute(&minor, kMinor, device) == 0)
        found.insert("sm_" + std::to_string(major) + std::to_string(minor));
    }
  dlclose(driver);
  if (found.size() == 1) return *found.begin();
  if (found.empty()) why = "the CUDA driver reports no usable GPU";
  else why = "its GPUs are of " + std::to_string(found.size()) + " architectures (" + *found.begin() + ", " +
             *std::next(found.begin()) + "): name one kind in CUDA_VISIBLE_DEVICES";
  return "";
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
