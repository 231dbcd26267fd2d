#include "compact_records.h"

namespace labbook::profiler {

const std::string* InternedNames::intern(const std::string& name) {
  std::lock_guard<std::mutex> lock(mutex_);
  return &*names_.insert(name).first;
}

void make_kernel(const KernelRecord& record, const std::string& demangled, Kernel& into) {
  std::string name = std::move(into.name), mangled = std::move(into.mangled), range = std::move(into.range);
  name.assign(demangled);
  if (record.mangled) mangled.assign(*record.mangled);
  else mangled.clear();
  range.clear();
  into = Kernel{};
  into.name = std::move(name);
  into.mangled = std::move(mangled);
  into.range = std::move(range);
  into.device = record.device;
  into.stream = record.stream;
  into.correlation = record.correlation;
  for (int i = 0; i < 3; ++i) into.grid[i] = record.grid[i], into.block[i] = record.block[i];
  into.registers_per_thread = record.registers_per_thread;
  into.static_shared_bytes = record.static_shared_bytes;
  into.dynamic_shared_bytes = record.dynamic_shared_bytes;
  into.local_bytes_per_thread = record.local_bytes_per_thread;
  into.start_ns = record.start_ns;
  into.end_ns = record.end_ns;
}

}  // namespace labbook::profiler
