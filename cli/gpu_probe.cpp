#include "gpu_probe.h"

#include <dlfcn.h>

#include <filesystem>
#include <utility>
#include <set>
#include <system_error>

namespace labbook::cli {

namespace {

/// The driver API, loaded at run time so that labbook starts on machines without a driver;
/// the few calls the probes make, initialised.
class Driver {
 public:
  Driver() : library_(dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL)) {
    if (!library_) return;
    init_ = reinterpret_cast<InitFn>(dlsym(library_, "cuInit"));
    count_ = reinterpret_cast<CountFn>(dlsym(library_, "cuDeviceGetCount"));
    get_ = reinterpret_cast<GetFn>(dlsym(library_, "cuDeviceGet"));
    attribute_ = reinterpret_cast<AttributeFn>(dlsym(library_, "cuDeviceGetAttribute"));
    ready_ = init_ && count_ && get_ && attribute_ && init_(0) == 0;
  }
  ~Driver() {
    if (library_) dlclose(library_);
  }
  Driver(const Driver&) = delete;
  Driver& operator=(const Driver&) = delete;

  /// Why the driver cannot be asked, or "".
  std::string problem() const {
    return !library_ ? "no CUDA driver (libcuda.so.1 not found)" : !ready_ ? "the CUDA driver does not start" : "";
  }
  int count() const {
    int n = 0;
    return ready_ && count_(&n) == 0 ? n : 0;
  }
  /// "sm_90" for GPU `ordinal`, "" when the driver does not say.
  std::string architecture(int ordinal) const {
    constexpr int kMajor = 75, kMinor = 76;   // CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_{MAJOR,MINOR}
    int device = 0, major = 0, minor = 0;
    if (!ready_ || get_(&device, ordinal) != 0 || attribute_(&major, kMajor, device) != 0 ||
        attribute_(&minor, kMinor, device) != 0)
      return "";
    return "sm_" + std::to_string(major) + std::to_string(minor);
  }

 private:
  using InitFn = int (*)(unsigned);
  using CountFn = int (*)(int*);
  using GetFn = int (*)(int*, int);
  using AttributeFn = int (*)(int*, int, int);
  void* library_ = nullptr;
  InitFn init_ = nullptr;
  CountFn count_ = nullptr;
  GetFn get_ = nullptr;
  AttributeFn attribute_ = nullptr;
  bool ready_ = false;
};

}  // namespace

bool gpu_available(std::string& why) {
  // The NVIDIA driver lists its GPUs here; reading a folder costs nothing, where cuInit in
  // this process would cost a tenth of a second before the program even starts.
  std::error_code error;
  if (std::filesystem::is_directory("/proc/driver/nvidia/gpus", error) &&
      !std::filesystem::is_empty("/proc/driver/nvidia/gpus", error) && !error)
    return true;
  const Driver driver;
  why = driver.problem();
  if (why.empty() && driver.count() == 0) why = "the CUDA driver reports no usable GPU";
  return why.empty();
}

std::string gpu_architecture(std::string& why) {
  const Driver driver;
  why = driver.problem();
  if (!why.empty()) return "";
  std::set<std::string> found;
  for (int i = 0; i < driver.count(); ++i)
    if (std::string arch = driver.architecture(i); !arch.empty()) found.insert(std::move(arch));
  if (found.size() == 1) return *found.begin();
  if (found.empty()) {
    why = "the CUDA driver reports no usable GPU";
    return "";
  }
  std::string kinds;
  for (const auto& arch : found) kinds += (kinds.empty() ? "" : ", ") + arch;
  why = "the GPUs here are of " + std::to_string(found.size()) + " architectures (" + kinds +
        "): name GPUs of one kind in CUDA_VISIBLE_DEVICES";
  return "";
}

}  // namespace labbook::cli
