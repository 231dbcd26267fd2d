#include "availability_cache.h"

#include <fstream>
#include <iterator>
#include <string_view>

#include "cache_folder.h"
#include "labbook/model/atomic_file.h"
#include "labbook/model/error.h"

namespace labbook::profiler {

namespace {
std::string whole_file(const char* path) {
  std::ifstream in(path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::string first_line(const char* path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}
}  // namespace

AvailabilityKey host_availability_key() {
  AvailabilityKey key;
  // The module's parameters too: a module reloaded with others keeps the boot id.
  const std::string version = first_line("/proc/driver/nvidia/version");
  if (!version.empty()) key.driver = version + "\n" + whole_file("/proc/driver/nvidia/params");
  key.boot_id = first_line("/proc/sys/kernel/random/boot_id");
  return key;
}

std::string availability_cache_file(const std::string& folder, const AvailabilityKey& key) {
  if (folder.empty() || key.device_uuid.empty() || key.driver.empty() || key.cupti_version == 0 || key.boot_id.empty())
    return "";
  // The driver's lines and the boot id are long: hashed into the name with the rest.
  return folder + "/" + key.device_uuid + "-cupti" + std::to_string(key.cupti_version) + "-" +
         name_hash(key.driver + "|" + key.boot_id) + ".bin";
}

std::vector<std::uint8_t> read_kept_availability(const std::string& path, std::size_t size) {
  if (path.empty() || size == 0) return {};
  std::ifstream in(path, std::ios::binary);
  std::vector<std::uint8_t> image{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  if (image.size() != size) return {};
  return image;
}

void keep_availability(const std::string& path, const std::vector<std::uint8_t>& image) {
  if (path.empty() || image.empty()) return;
  try {
    write_file_atomically(path, std::string(image.begin(), image.end()));
  } catch (const Error&) {
  }
}

}  // namespace labbook::profiler
