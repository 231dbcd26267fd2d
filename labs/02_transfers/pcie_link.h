#pragma once
// PcieLink: the PCIe link between this GPU and the host, from device queries. CUDA gives
// the GPU's PCI address (cudaDeviceGetPCIBusId); Linux gives that device's link speed and
// width (/sys/bus/pci/devices/ADDRESS/{max,current}_link_{speed,width}). GPUs lower the
// link speed when idle, so the peak uses the maximum speed at the current width.
#include <cctype>
#include <cstdio>
#include <fstream>
#include <string>

#include <cuda_runtime.h>

namespace labbook::lab {

struct PcieLink {
  std::string address;            ///< e.g. "0000:1b:00.0"; empty when CUDA gives none
  double max_gt_per_s = 0;        ///< transfers per second per lane, e.g. 32 (PCIe 5.0)
  double current_gt_per_s = 0;
  int width = 0;                  ///< lanes in use
  int max_width = 0;

  bool known() const { return max_gt_per_s > 0 && width > 0; }
  /// PCIe generation for a per-lane rate: 2.5 -> 1, 5 -> 2, 8 -> 3, 16 -> 4, 32 -> 5, 64 -> 6.
  int generation() const {
    const double rates[] = {2.5, 5, 8, 16, 32, 64};
    for (int g = 0; g < 6; ++g)
      if (max_gt_per_s <= rates[g] * 1.01) return g + 1;
    return 0;
  }
  /// Bytes per second in one direction: rate x lanes x encoding / 8 (8b/10b up to
  /// PCIe 2.0, 128b/130b from 3.0; PCIe 6.0's FLIT encoding is close to 1).
  double peak_bytes_per_second() const {
    const double encoding = max_gt_per_s <= 5.01 ? 8.0 / 10.0 : max_gt_per_s <= 32.01 ? 128.0 / 130.0 : 242.0 / 256.0;
    return max_gt_per_s * 1e9 * width * encoding / 8.0;
  }
};

namespace detail {
/// The first number in a sysfs file such as "32.0 GT/s PCIe" or "16"; 0 when unreadable.
inline double sysfs_number(const std::string& path) {
  std::ifstream in(path);
  double v = 0;
  return (in >> v) ? v : 0;
}
}  // namespace detail

inline PcieLink query_pcie_link(int device) {
  PcieLink link;
  char id[32] = {};
  if (cudaDeviceGetPCIBusId(id, sizeof id, device) != cudaSuccess) {
    cudaGetLastError();
    return link;
  }
  for (char& c : id) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  link.address = id;
  // CUDA prints an 8-digit PCI domain ("00000000:1B:00.0"); sysfs uses 4.
  if (link.address.size() > 12 && link.address.find(':') == 8) link.address = link.address.substr(4);
  const std::string dir = "/sys/bus/pci/devices/" + link.address + "/";
  link.max_gt_per_s = detail::sysfs_number(dir + "max_link_speed");
  link.current_gt_per_s = detail::sysfs_number(dir + "current_link_speed");
  link.width = static_cast<int>(detail::sysfs_number(dir + "current_link_width"));
  link.max_width = static_cast<int>(detail::sysfs_number(dir + "max_link_width"));
  return link;
}

inline void print_pcie_link(const PcieLink& link) {
  if (!link.known()) {
    std::printf("PCIe link: unknown (PCI address '%s', no link speed in sysfs)\n", link.address.c_str());
    return;
  }
  std::printf("PCIe link %s: gen %d x%d (max %.1f GT/s x%d, now %.1f GT/s): peak %.2f GB/s per direction\n",
              link.address.c_str(), link.generation(), link.width, link.max_gt_per_s, link.max_width,
              link.current_gt_per_s, link.peak_bytes_per_second() / 1e9);
}

}  // namespace labbook::lab
