#include "labbook/model/quantity_labels.h"

#include <algorithm>
#include <iterator>
#include <string_view>

#include "labbook/model/quantity.h"

namespace labbook {

namespace {

struct Label {
  std::string_view quantity, label;
};

// Short enough for a column header; the unit goes beside it, so no label repeats it.
constexpr Label kLabels[] = {
    {"gld_efficiency", "Load efficiency"},
    {"gst_efficiency", "Store efficiency"},
    {"gld_transactions", "Load sectors"},
    {"gst_transactions", "Store sectors"},
    {"global_read_sectors", "Global read sectors"},
    {"global_write_sectors", "Global write sectors"},
    {"memory_instructions", "Memory instructions"},
    {"shared_load_conflicts", "Shared load conflicts"},
    {"shared_store_conflicts", "Shared store conflicts"},
    {"inst_executed_global_loads", "Global load instructions"},
    {"inst_executed_global_stores", "Global store instructions"},
    {"inst_executed_shared_loads", "Shared load instructions"},
    {"inst_executed_shared_stores", "Shared store instructions"},
    {"inst_executed_local_loads", "Local load instructions"},
    {"inst_executed", "Warp instructions"},
    {"global_load_requests", "Load requests"},
    {"global_store_requests", "Store requests"},
    {"gld_transactions_per_request", "Sectors per load"},
    {"gst_transactions_per_request", "Sectors per store"},
    {"gld_throughput", "Load throughput"},
    {"gst_throughput", "Store throughput"},
    {"gld_requested_throughput", "Requested load throughput"},
    {"dram_read_bytes", "DRAM read"},
    {"dram_write_bytes", "DRAM written"},
    {"dram_read_throughput", "DRAM read throughput"},
    {"dram_write_throughput", "DRAM write throughput"},
    {"dram_utilization", "DRAM use of peak"},
    {"shared_load_transactions", "Shared load wavefronts"},
    {"shared_store_transactions", "Shared store wavefronts"},
    {"shared_load_transactions_per_request", "Wavefronts per shared load"},
    {"shared_store_transactions_per_request", "Wavefronts per shared store"},
    {"shared_efficiency", "Shared efficiency"},
    {"shared_load_bank_conflicts", "Shared load conflicts"},
    {"shared_store_bank_conflicts", "Shared store conflicts"},
    {"local_load_transactions", "Local load sectors"},
    {"local_store_transactions", "Local store sectors"},
    {"l1_hit_rate", "L1 hit rate"},
    {"global_hit_rate", "L1 hit rate, global loads"},
    {"texture_load_requests", "Texture requests"},
    {"texture_sectors", "Texture sectors"},
    {"texture_sectors_per_request", "Sectors per texture fetch"},
    {"texture_hit_rate", "Texture hit rate"},
    {"constant_cache_requests", "Indexed constant requests"},
    {"l2_hit_rate", "L2 hit rate"},
    {"l2_tex_read_transactions", "L1 to L2 read sectors"},
    {"l2_bytes", "L2 traffic"},
    {"l2_peak_bandwidth", "L2 peak bandwidth"},
    {"l2_tex_write_transactions", "L1 to L2 write sectors"},
    {"achieved_occupancy", "Occupancy"},
    {"elapsed_cycles", "Elapsed cycles"},
    {"sm_clock", "SM clock"},
    {"duration", "Kernel duration"},
    {"flop_count_sp", "FP32 operations"},
    {"flop_count_dp", "FP64 operations"},
    {"tensor_flop_count_dp", "FP64 tensor operations"},
    {"tensor_flop_count_tf32", "TF32 tensor operations"},
    {"time", "Time"},
    {"effective_bandwidth", "Effective bandwidth"},
    {"host_time", "Time the host sees"},
    {"host_bandwidth", "Bandwidth the host sees"},
    {"effective_bandwidth_pct_of_peak", "Share of DRAM peak"},
    {"dram_bandwidth", "DRAM bandwidth"},
    {"threads", "Threads"},
    {"payload", "Program's value"},
    {"payload_bytes", "Program's byte count"},
    {"payload_pct", "Program's share"},
    {"payload_error", "Error returned"},
    {"payload_ns", "Program's time"},
    {"range_time", "Wall time"},
    {"kernels_time_pct", "Kernels' share"},
    {"kernels_time", "Kernels' time"},
    {"kernels_calls", "Kernels"},
    {"kernels_avg", "Kernel average"},
    {"kernels_min", "Kernel shortest"},
    {"kernels_max", "Kernel longest"},
    {"memcpy_htod_time_pct", "Host-to-device share"},
    {"memcpy_htod_time", "Host-to-device time"},
    {"memcpy_htod_calls", "Host-to-device copies"},
    {"memcpy_htod_avg", "Host-to-device average"},
    {"memcpy_htod_min", "Host-to-device shortest"},
    {"memcpy_htod_max", "Host-to-device longest"},
    {"memcpy_dtoh_time_pct", "Device-to-host share"},
    {"memcpy_dtoh_time", "Device-to-host time"},
    {"memcpy_dtoh_calls", "Device-to-host copies"},
    {"memcpy_dtoh_avg", "Device-to-host average"},
    {"memcpy_dtoh_min", "Device-to-host shortest"},
    {"memcpy_dtoh_max", "Device-to-host longest"},
    {"um_htod_bytes", "Migrated to the GPU"},
    {"um_dtoh_bytes", "Migrated to the host"},
    {"um_gpu_page_faults", "GPU page faults"},
    {"um_cpu_page_faults", "CPU page faults"},
    {"copy_overlap_pct", "Copy time hidden"},
    {"max_concurrent_kernels", "Kernels at once"},
    {"cycles_per_load", "Cycles per load"},
    {"flop_rate_sp", "FP32 rate"},
    {"flop_rate_dp", "FP64 rate"},
    {"cycles_per_instruction", "Cycles per instruction"},
    {"speed_pct_of_reference", "Speed of the reference's"},
    {"wall_time", "Wall time"},
    {"wall_speed_pct_of_reference", "Wall speed of the reference's"},
    {"pageable_copy_bytes", "Pageable bytes copied"},
    {"synchronous_copies", "Synchronous copies"},
    {"link_pct", "Share of the link"},
    {"copy_hidden_pct", "Needed copy time hidden"},
};

const Label* find_label(std::string_view quantity) {
  const auto it = std::find_if(std::begin(kLabels), std::end(kLabels), [&](const Label& l) { return l.quantity == quantity; });
  return it == std::end(kLabels) ? nullptr : it;
}

}  // namespace

bool has_reader_label(const std::string& quantity) { return find_label(quantity) != nullptr; }

std::string quantity_reader_label(const std::string& quantity) {
  if (const Label* l = find_label(quantity)) return std::string(l->label);
  const std::string_view rate = share_of_peak_rate(quantity);
  if (!rate.empty()) return quantity_reader_label(std::string(rate)) + ", share of peak";
  std::string words = quantity;
  std::replace(words.begin(), words.end(), '_', ' ');
  if (!words.empty() && words[0] >= 'a' && words[0] <= 'z') words[0] = static_cast<char>(words[0] - 'a' + 'A');
  return words;
}

}  // namespace labbook
