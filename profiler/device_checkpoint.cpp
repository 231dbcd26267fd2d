#include "device_checkpoint.h"

#include <dlfcn.h>

#include <cupti.h>
#include <cupti_checkpoint.h>

#include "context_sync.h"
#include "cupti_status.h"
#include "driver_status.h"
#include "stopwatch.h"

namespace labbook::profiler {

namespace {

using NV::Cupti::Checkpoint::CUpti_Checkpoint;
using CheckpointCall = CUptiResult (*)(CUpti_Checkpoint*);

/// `file` in the folder libcupti was loaded from, where CUDA installs libcheckpoint.
std::string next_to_cupti(const std::string& file) {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&cuptiSubscribe), &info) == 0 || !info.dli_fname) return file;
  const std::string cupti = info.dli_fname;
  const auto slash = cupti.rfind('/');
  return slash == std::string::npos ? file : cupti.substr(0, slash + 1) + file;
}

/// libcheckpoint's three calls, looked up once; all null when it cannot be loaded.
struct CheckpointLibrary {
  CheckpointCall save = nullptr, restore = nullptr, free = nullptr;
  std::string problem;

  CheckpointLibrary() {
    void* library = dlopen("libcheckpoint.so", RTLD_NOW | RTLD_LOCAL);
    if (!library) library = dlopen(next_to_cupti("libcheckpoint.so").c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!library) {
      const char* why = dlerror();
      problem = std::string("CUPTI's checkpoint library could not be loaded (") + (why ? why : "libcheckpoint.so") +
                "): it ships with CUPTI, next to libcupti";
      return;
    }
    save = reinterpret_cast<CheckpointCall>(dlsym(library, "cuptiCheckpointSave"));
    restore = reinterpret_cast<CheckpointCall>(dlsym(library, "cuptiCheckpointRestore"));
    free = reinterpret_cast<CheckpointCall>(dlsym(library, "cuptiCheckpointFree"));
    if (!save || !restore || !free) problem = "libcheckpoint.so lacks cuptiCheckpointSave/Restore/Free";
  }
};

const CheckpointLibrary& library() {
  static const CheckpointLibrary loaded;
  return loaded;
}

}  // namespace

struct DeviceCheckpoint::Handle {
  CUpti_Checkpoint checkpoint{};
};

DeviceCheckpoint::DeviceCheckpoint(CUcontext ctx) : handle_(std::make_unique<Handle>()) {
  handle_->checkpoint.structSize = CUpti_Checkpoint_STRUCT_SIZE;
  handle_->checkpoint.ctx = ctx;
  handle_->checkpoint.allowOverwrite = 1;   // one checkpoint per context, saved again at each kernel
}

DeviceCheckpoint::~DeviceCheckpoint() {
  if (saved_ && library().free) library().free(&handle_->checkpoint);
}

std::string DeviceCheckpoint::save() {
  if (!library().problem.empty()) return library().problem;
  const ScopeSeconds timed(seconds_);
  // Work the program queued on other streams must be done before its memory is copied.
  if (CUresult r = synchronize_context(handle_->checkpoint.ctx); r != CUDA_SUCCESS)
    return describe_driver_call("waiting for the context's work (cuCtxPushCurrent, cuCtxSynchronize)", r);
  const CUptiResult s = library().save(&handle_->checkpoint);
  if (s != CUPTI_SUCCESS) return describe_call("cuptiCheckpointSave", s);
  saved_ = true;
  return "";
}

std::string DeviceCheckpoint::restore() {
  if (!saved_) return "nothing saved to restore";
  const ScopeSeconds timed(seconds_);
  const CUptiResult s = library().restore(&handle_->checkpoint);
  return s == CUPTI_SUCCESS ? "" : describe_call("cuptiCheckpointRestore", s);
}

}  // namespace labbook::profiler
