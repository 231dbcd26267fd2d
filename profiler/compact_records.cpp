#include "compact_records.h"

namespace labbook::profiler {

const std::string* InternedNames::intern(const std::string& name) {
  std::lock_guard<std::mutex> lock(mutex_);
  return &*names_.insert(name).first;
}

Kernel to_kernel(const KernelRecord& record, std::string demangled) {
  Kernel k;
  k.mangled = record.mangled ? *record.mangled : std::string();
  k.name = std::move(demangled);
  k.device = record.device;
  k.stream = record.stream;
  k.correlation = record.correlation;
  for (int i = 0; i < 3; ++i) k.grid[i] = record.grid[i], k.block[i] = record.block[i];
  k.registers_per_thread = record.registers_per_thread;
  k.static_shared_bytes = record.static_shared_bytes;
  k.dynamic_shared_bytes = record.dynamic_shared_bytes;
  k.local_bytes_per_thread = record.local_bytes_per_thread;
  k.start_ns = record.start_ns;
  k.end_ns = record.end_ns;
  return k;
}

}  // namespace labbook::profiler
