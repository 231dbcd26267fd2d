#include "device_facts.h"

#include <cuda.h>
#include <cupti_target.h>

namespace labbook::profiler {

DeviceFacts read_device_facts(int ordinal, IssueLog& issues) {
  DeviceFacts f;
  f.ordinal = ordinal;
  CUdevice dev = 0;
  if (cuDeviceGet(&dev, ordinal) != CUDA_SUCCESS) {
    issues.add("device_facts", "cannot read device " + std::to_string(ordinal));
    return f;
  }
  char name[256] = {};
  cuDeviceGetName(name, sizeof name, dev);
  f.name = name;
  auto attr = [&](CUdevice_attribute a) {
    int v = 0;
    cuDeviceGetAttribute(&v, a, dev);
    return v;
  };
  f.cc_major = attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
  f.cc_minor = attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
  f.sm_count = attr(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
  f.l2_bytes = attr(CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE);
  f.memory_bus_width_bits = attr(CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH);
  f.memory_clock_khz = attr(CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE);
  f.sm_clock_khz = attr(CU_DEVICE_ATTRIBUTE_CLOCK_RATE);
  std::size_t bytes = 0;
  cuDeviceTotalMem(&bytes, dev);
  f.global_memory_bytes = static_cast<std::int64_t>(bytes);
  cuDriverGetVersion(&f.driver_version);

  CUpti_Device_GetChipName_Params chip{};
  chip.structSize = CUpti_Device_GetChipName_Params_STRUCT_SIZE;
  chip.deviceIndex = static_cast<std::size_t>(ordinal);
  if (cuptiDeviceGetChipName(&chip) == CUPTI_SUCCESS && chip.pChipName) f.chip = chip.pChipName;
  return f;
}

}  // namespace labbook::profiler
