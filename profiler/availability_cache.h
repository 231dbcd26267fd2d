#pragma once
/// @file
/// The counter availability image kept between metrics runs. CUPTI takes about 0.13 s to make
/// it in every run (H200), and it stays the same while the device, its driver and its
/// parameters, CUPTI and the boot do: the file's name holds them all. No CUPTI here: the unit
/// tests use it too.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace labbook::profiler {

/// The folder the images are kept in (cache_folder.h).
inline constexpr const char* kAvailabilityCacheKind = "counter-availability";

/// What an image is kept under: "" where a part is unknown (then nothing is kept).
struct AvailabilityKey {
  std::string device_uuid;    ///< the device's (a MIG instance's own), in hex
  std::string driver;         ///< the kernel module's version line and parameters
  int cupti_version = 0;
  std::string boot_id;        ///< what the driver allows may change with a reboot
};

/// The key of this boot and driver, read from /proc; its device and CUPTI parts left to fill.
AvailabilityKey host_availability_key();

/// The file in `folder` for `key`; "" when the key lacks a part.
std::string availability_cache_file(const std::string& folder, const AvailabilityKey& key);

/// The kept image, if it is exactly `size` bytes (the size CUPTI now asks for); else empty.
std::vector<std::uint8_t> read_kept_availability(const std::string& path, std::size_t size);

/// Keeps `image` at `path` (temporary file and rename: runs side by side share the folder);
/// a failure leaves nothing and is not an error, since the image can always be asked for again.
void keep_availability(const std::string& path, const std::vector<std::uint8_t>& image);

}  // namespace labbook::profiler
