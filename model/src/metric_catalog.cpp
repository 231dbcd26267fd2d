#include "labbook/model/metric_catalog.h"

#include <algorithm>
#include <cmath>

#include "labbook/model/error.h"
#include "labbook/model/numbers.h"
#include "labbook/model/text.h"

namespace labbook {

namespace {

// The mapping follows Nsight Compute's "Metrics Mapping Table from CUPTI to Perfworks"
// (nvprof -> ncu); rows marked "derived" have no table entry and use the formula shown.
std::vector<CatalogMetric> build_catalog() {
  const std::string sectors_note =
      "Counts 32-byte sectors. nvprof on Fermi with L1 caching counted 128-byte L1 "
      "transactions, so the same access gives up to 4x the count here.";
  const std::string efficiency_note =
      "Requested bytes over bytes moved in whole 32-byte sectors. On Fermi with L1 "
      "caching the unit moved was a 128-byte line, so misaligned loads scored lower.";
  using F = MetricFormula;
  return {
      {"gld_efficiency", "%", "Global load efficiency: bytes requested / bytes moved",
       F::Direct, {"smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct"}, efficiency_note},
      {"gst_efficiency", "%", "Global store efficiency: bytes requested / bytes moved",
       F::Direct, {"smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct"}, efficiency_note},
      {"gld_transactions", "sectors", "Global load transactions (32-byte sectors)",
       F::Direct, {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"}, sectors_note},
      {"gst_transactions", "sectors", "Global store transactions (32-byte sectors)",
       F::Direct, {"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"}, sectors_note},
      // Every way a kernel reads global memory, so that a grade on loads cannot be dodged by
      // reading through an atomic that changes nothing, cp.async or a texture fetch.
      {"global_read_sectors", "sectors", "Sectors read from global memory by any path: loads, atomics, reductions, "
                                         "cp.async (LDGSTS) and texture fetches",
       F::WeightedSum,
       {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum",
        "l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum",
        "sm__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ldgsts_cache_access.sum",
        "sm__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ldgsts_cache_bypass.sum", "l1tex__t_sectors_pipe_tex_mem_texture.sum"},
       "labbook's: gld_transactions plus the sectors of the other paths. TMA copies (cp.async.bulk) are not counted: "
       "an exercise graded on this refuses them.", {1, 1, 1, 1, 1, 1}},
      {"global_write_sectors", "sectors", "Sectors written to global memory by any path: stores, atomics and reductions",
       F::WeightedSum,
       {"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum",
        "l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum"},
       "labbook's: gst_transactions plus the sectors of atomics and reductions (an atomic reads and writes, so it is "
       "in global_read_sectors too). TMA stores (cp.async.bulk) are not counted: an exercise graded on this refuses "
       "them.", {1, 1, 1}},
      // Every memory instruction whatever the state space: an array moved from local memory to
      // shared memory or to a slice of a global buffer makes the same accesses, under another counter.
      {"memory_instructions", "instructions", "Memory instructions executed, per warp, in any state space: global, "
                                              "local, shared, generic, cp.async, ldmatrix and texture",
       F::WeightedSum,
       {"smsp__sass_inst_executed_op_global.sum", "smsp__sass_inst_executed_op_local.sum",
        "smsp__sass_inst_executed_op_shared.sum", "smsp__inst_executed_op_generic_ld.sum",
        "smsp__inst_executed_op_generic_st.sum", "smsp__inst_executed_op_generic_atom.sum",
        "smsp__sass_inst_executed_op_ldgsts.sum", "smsp__sass_inst_executed_op_ldsm.sum",
        "smsp__sass_inst_executed_op_texture.sum"},
       "labbook's. Loads, stores, atomics and reductions alike; constant-bank operands are not memory instructions. "
       "LDGSTS and LDSM are added on their own, whether or not the global and shared counts hold them too."},
      {"inst_executed_global_loads", "requests", "Global load instructions executed, per warp (requests)",
       F::Direct, {"smsp__inst_executed_op_global_ld.sum"}, ""},
      {"inst_executed_global_stores", "requests", "Global store instructions executed, per warp (requests)",
       F::Direct, {"smsp__inst_executed_op_global_st.sum"}, ""},
      {"inst_executed_shared_loads", "requests", "Shared load instructions executed, per warp (requests)",
       F::Direct, {"smsp__inst_executed_op_shared_ld.sum"}, ""},
      {"inst_executed_shared_stores", "requests", "Shared store instructions executed, per warp (requests)",
       F::Direct, {"smsp__inst_executed_op_shared_st.sum"}, ""},
      {"inst_executed_local_loads", "requests", "Local load instructions executed, per warp (requests)",
       F::Direct, {"smsp__inst_executed_op_local_ld.sum"}, ""},
      {"inst_executed", "instructions", "Warp instructions executed", F::Direct, {"smsp__inst_executed.sum"}, ""},
      {"global_load_requests", "requests", "Global load requests as L1 counts them",
       F::Direct, {"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"},
       "Equals inst_executed_global_loads except for warp instructions with every lane "
       "predicated off, which reach no cache. Loads and stores together cost an extra "
       "replay pass on sm_90, which is why the per-request ratios divide by instructions."},
      {"global_store_requests", "requests", "Global store requests as L1 counts them",
       F::Direct, {"l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"}, ""},
      {"gld_transactions_per_request", "sectors/request", "Sectors per global load request",
       F::Ratio, {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "smsp__inst_executed_op_global_ld.sum"},
       "Derived: sectors / load instructions, nvprof's definition; 4 for a coalesced 4-byte warp load."},
      {"gst_transactions_per_request", "sectors/request", "Sectors per global store request",
       F::Ratio, {"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", "smsp__inst_executed_op_global_st.sum"},
       "Derived: sectors / store instructions, nvprof's definition; 4 for a coalesced 4-byte warp store."},
      {"gld_throughput", "bytes/s", "Global load throughput (bytes moved through L1)",
       F::Direct, {"l1tex__t_bytes_pipe_lsu_mem_global_op_ld.sum.per_second"}, ""},
      {"gst_throughput", "bytes/s", "Global store throughput (bytes moved through L1)",
       F::Direct, {"l1tex__t_bytes_pipe_lsu_mem_global_op_st.sum.per_second"}, ""},
      {"gld_requested_throughput", "bytes/s", "Global load throughput requested by the threads",
       F::ScaledByPct, {"l1tex__t_bytes_pipe_lsu_mem_global_op_ld.sum.per_second",
                        "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct"},
       "Derived: gld_throughput x gld_efficiency / 100."},
      {"dram_read_bytes", "bytes", "Bytes read from device memory",
       F::Direct, {"dram__bytes_read.sum"}, ""},
      {"dram_write_bytes", "bytes", "Bytes written to device memory",
       F::Direct, {"dram__bytes_write.sum"}, ""},
      {"dram_read_throughput", "bytes/s", "Device memory read throughput",
       F::Direct, {"dram__bytes_read.sum.per_second"}, ""},
      {"dram_write_throughput", "bytes/s", "Device memory write throughput",
       F::Direct, {"dram__bytes_write.sum.per_second"}, ""},
      {"dram_utilization", "%", "Device memory throughput as a share of its peak",
       F::Direct, {"dram__throughput.avg.pct_of_peak_sustained_elapsed"}, ""},
      {"shared_load_transactions", "wavefronts", "Shared memory load wavefronts",
       F::Direct, {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"}, ""},
      {"shared_store_transactions", "wavefronts", "Shared memory store wavefronts",
       F::Direct, {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"}, ""},
      {"shared_load_transactions_per_request", "wavefronts/request",
       "Shared memory load wavefronts per warp instruction",
       F::Ratio, {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
                  "smsp__inst_executed_op_shared_ld.sum"},
       "Derived: wavefronts / shared load instructions."},
      {"shared_store_transactions_per_request", "wavefronts/request",
       "Shared memory store wavefronts per warp instruction",
       F::Ratio, {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
                  "smsp__inst_executed_op_shared_st.sum"},
       "Derived: wavefronts / shared store instructions."},
      // Bank conflicts as a count, not per request: conflict-free requests added beside
      // conflicting ones (broadcast loads, say) leave it as it is. Reads are every shared access
      // but the writes (atomics and ldmatrix too). None for a kernel with no shared access of that
      // kind, where "no conflict" would be no lesson.
      {"shared_load_conflicts", "conflicts", "Shared-memory bank conflicts of every access that reads (loads, atomics, "
                                             "ldmatrix), of a kernel that loads from shared memory",
       F::CountWhere,
       {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
        "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum", "smsp__inst_executed_op_shared_ld.sum"},
       "labbook's: all shared conflicts but those of stores and cp.async; not measured where no shared load ran.",
       {1, -1, -1}},
      {"shared_store_conflicts", "conflicts", "Shared-memory bank conflicts of every access that writes (stores, "
                                              "cp.async), of a kernel that stores to shared memory",
       F::CountWhere,
       {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
        "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum", "smsp__inst_executed_op_shared_st.sum"},
       "labbook's: not measured where no shared store ran.", {1, 1}},
      {"shared_efficiency", "%", "Shared memory efficiency (loads and stores together)",
       F::Direct, {"smsp__sass_average_data_bytes_per_wavefront_mem_shared.pct"}, ""},
      {"shared_load_bank_conflicts", "conflicts", "Shared memory load bank conflicts",
       F::Direct, {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"}, ""},
      {"shared_store_bank_conflicts", "conflicts", "Shared memory store bank conflicts",
       F::Direct, {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"}, ""},
      {"local_load_transactions", "sectors", "Local memory load sectors (spills, local arrays)",
       F::Direct, {"l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum"}, ""},
      {"local_store_transactions", "sectors", "Local memory store sectors (spills, local arrays)",
       F::Direct, {"l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum"}, ""},
      {"l1_hit_rate", "%", "L1/TEX sector hit rate", F::Direct, {"l1tex__t_sector_hit_rate.pct"}, ""},
      {"global_hit_rate", "%", "L1 sector hit rate of global loads",
       F::Direct, {"l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct"}, ""},
      {"texture_load_requests", "requests", "Texture fetch requests (tex2D and the like) as L1TEX counts them",
       F::Direct, {"l1tex__t_requests_pipe_tex_mem_texture.sum"}, ""},
      {"texture_sectors", "sectors", "32-byte sectors texture fetches read through L1TEX",
       F::Direct, {"l1tex__t_sectors_pipe_tex_mem_texture.sum"},
       "nvprof's tex_cache_transactions counted differently (cache write-back cycles); this is the sector count."},
      {"texture_sectors_per_request", "sectors/request", "Sectors per texture fetch request",
       F::Ratio, {"l1tex__t_sectors_pipe_tex_mem_texture.sum", "l1tex__t_requests_pipe_tex_mem_texture.sum"},
       "Derived: texture sectors / texture requests."},
      {"texture_hit_rate", "%", "L1TEX sector hit rate of texture fetches",
       F::Direct, {"l1tex__t_sector_pipe_tex_mem_texture_hit_rate.pct"}, ""},
      {"constant_cache_requests", "requests", "Requests to the indexed constant cache (LDC: an address computed at run time)",
       F::Direct, {"idc__requests.sum"},
       "Constant operands with an address known at compile time are read through another cache and are not counted here."},
      {"l2_hit_rate", "%", "L2 sector hit rate", F::Direct, {"lts__t_sector_hit_rate.pct"}, ""},
      {"l2_tex_read_transactions", "sectors", "L2 sectors read by L1 (global, local and texture loads L1 did not serve)",
       F::Direct, {"lts__t_sectors_srcunit_tex_op_read.sum"},
       "The arrow from L1 to L2 in Nsight Compute's memory chart; L2 lookups from other units (copies, the other "
       "L2 partition) are not in it."},
      {"l2_bytes", "bytes", "Bytes L2 served or took in, from every unit (its sectors x 32)",
       F::Direct, {"lts__t_bytes.sum"},
       "The traffic of Nsight Compute's L2 roofline point: loads, stores and atomics from the SMs, copies, and the "
       "other L2 partition."},
      {"l2_peak_bandwidth", "bytes/s", "L2's peak bandwidth at the L2 clock the kernel ran at",
       F::Product, {"lts__t_bytes.sum.peak_sustained", "lts__cycles_elapsed.avg.per_second"},
       "Derived: the most bytes L2 moves per cycle x its cycles per second; Nsight Compute's L2 roof."},
      {"l2_tex_write_transactions", "sectors", "L2 sectors written by L1 (global and local stores: L1 writes through)",
       F::Direct, {"lts__t_sectors_srcunit_tex_op_write.sum"}, ""},
      {"achieved_occupancy", "%", "Active warps per SM over the maximum, while active",
       F::Direct, {"sm__warps_active.avg.pct_of_peak_sustained_active"}, ""},
      {"elapsed_cycles", "cycles", "GPC cycles elapsed (Nsight Compute's Elapsed Cycles)",
       F::Direct, {"gpc__cycles_elapsed.max"}, ""},
      {"sm_clock", "Hz", "Mean GPC clock while the kernel ran",
       F::Direct, {"gpc__cycles_elapsed.avg.per_second"},
       "CUPTI 13.0 cannot lock clocks: this records the clock the kernel ran at."},
      {"duration", "ns", "Kernel duration on the GPU", F::Direct, {"gpu__time_duration.sum"}, ""},
      // nvprof's flop counts: thread instructions executed with the predicate on, a
      // multiply-add counting two. The FMA lanes only: tensor-core work has its own counters.
      {"flop_count_sp", "FLOP", "Single-precision floating-point operations (add, multiply, multiply-add x 2)",
       F::WeightedSum,
       {"smsp__sass_thread_inst_executed_op_fadd_pred_on.sum", "smsp__sass_thread_inst_executed_op_fmul_pred_on.sum",
        "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum"},
       "FP32 FMA lanes only; TF32 work on the tensor cores is tensor_flop_count_tf32.", {1, 1, 2}},
      {"flop_count_dp", "FLOP", "Double-precision floating-point operations (add, multiply, multiply-add x 2)",
       F::WeightedSum,
       {"smsp__sass_thread_inst_executed_op_dadd_pred_on.sum", "smsp__sass_thread_inst_executed_op_dmul_pred_on.sum",
        "smsp__sass_thread_inst_executed_op_dfma_pred_on.sum"},
       "FP64 FMA lanes only; FP64 work on the tensor cores (DMMA, e.g. cuBLAS's DGEMM on compute capability "
       ">= 8.0) is tensor_flop_count_dp.", {1, 1, 2}},
      {"tensor_flop_count_dp", "FLOP", "FP64 operations on the tensor-core path (DMMA)",
       F::Direct, {"sm__ops_path_tensor_src_fp64.sum"},
       "labbook's name: nvprof's GPUs had no FP64 tensor cores. Nsight Compute counts math operations on the "
       "tensor path; read as FLOPs (a multiply-add is two), the convention of NVIDIA's tensor TFLOPS figures."},
      {"tensor_flop_count_tf32", "FLOP", "TF32 operations on the tensor-core path (FP32 data, FP32 accumulation)",
       F::Direct, {"sm__ops_path_tensor_src_tf32_dst_fp32.sum"},
       "labbook's name; counted like tensor_flop_count_dp. cuBLAS uses TF32 for SGEMM only when its math mode "
       "allows it."},
  };
}

}  // namespace

double CatalogMetric::weight(std::size_t i) const { return weights.empty() ? 1.0 : weights.at(i); }

double CatalogMetric::weighted_sum(const std::vector<double>& values, std::size_t count) const {
  double sum = 0;
  for (std::size_t i = 0; i < count; ++i) sum += weight(i) * values.at(i);
  return sum;
}

std::string CatalogMetric::weighted_text(std::size_t count) const {
  std::string text;
  for (std::size_t i = 0; i < count; ++i) {
    const double w = weight(i);
    const std::string sign = i == 0 ? (w < 0 ? "-" : "") : (w < 0 ? " - " : " + ");
    text += sign + (std::abs(w) == 1.0 ? std::string() : format_number("%g", std::abs(w)) + " x ") + inputs.at(i);
  }
  return text;
}

std::string CatalogMetric::formula_text() const {
  switch (formula) {
    case MetricFormula::Direct: return inputs.at(0);
    case MetricFormula::Ratio: return inputs.at(0) + " / " + inputs.at(1);
    case MetricFormula::ScaledByPct: return inputs.at(0) + " x " + inputs.at(1) + " / 100";
    case MetricFormula::Product: return inputs.at(0) + " x " + inputs.at(1);
    case MetricFormula::CountWhere: return weighted_text(inputs.size() - 1) + ", where " + inputs.back() + " > 0";
    case MetricFormula::WeightedSum: return weighted_text(inputs.size());
  }
  return {};
}

std::optional<double> CatalogMetric::evaluate(const std::map<std::string, double>& collected) const {
  std::vector<double> v;
  for (const auto& input : inputs) {
    auto it = collected.find(input);
    if (it == collected.end()) return std::nullopt;
    v.push_back(it->second);
  }
  switch (formula) {
    case MetricFormula::Direct: return v.at(0);
    case MetricFormula::Ratio:
      if (v.at(1) == 0.0) return std::nullopt;
      return v.at(0) / v.at(1);
    case MetricFormula::ScaledByPct: return v.at(0) * v.at(1) / 100.0;
    case MetricFormula::Product: return v.at(0) * v.at(1);
    case MetricFormula::CountWhere:
      return v.back() > 0 ? std::optional<double>(weighted_sum(v, v.size() - 1)) : std::nullopt;
    case MetricFormula::WeightedSum: return weighted_sum(v, v.size());
  }
  return std::nullopt;
}

const std::vector<CatalogMetric>& metric_catalog() {
  static const std::vector<CatalogMetric> catalog = build_catalog();
  return catalog;
}

const CatalogMetric* find_catalog_metric(const std::string& name) {
  for (const auto& m : metric_catalog())
    if (m.name == name) return &m;
  for (const auto& m : metric_catalog())
    if (m.formula == MetricFormula::Direct && m.inputs.at(0) == name) return &m;
  return nullptr;
}

bool is_perfworks_name(const std::string& name) { return name.find("__") != std::string::npos; }

std::string perfworks_name_problem(const std::string& name) {
  const std::size_t dot = name.find('.');
  const std::string base = name.substr(0, dot);
  const auto word = [](const std::string& w) {
    return !w.empty() && std::all_of(w.begin(), w.end(), [](char c) {
      return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
    });
  };
  const std::size_t sep = base.find("__");
  if (sep == 0 || sep == std::string::npos || !word(base.substr(0, sep)) || !word(base.substr(sep + 2)))
    return "not a Perfworks name: expected unit__counter (lower case, digits, '_'), e.g. dram__bytes_read.sum";
  if (dot == std::string::npos)
    return "a Perfworks metric needs a suffix: a rollup (.sum, .avg, .min, .max) or, for a ratio, .pct or .ratio";
  if (name.back() == '.' || name.find("..") != std::string::npos) return "an empty suffix ('..' or a final '.')";
  const std::vector<std::string> parts = labbook::split(name.substr(dot + 1), '.');
  static const std::vector<std::string> first = {"sum", "avg", "min", "max", "pct", "ratio", "max_rate"};
  if (std::find(first.begin(), first.end(), parts.front()) == first.end())
    return "'." + parts.front() + "' is no rollup: use .sum, .avg, .min or .max (counters) or .pct, .ratio (ratios)";
  for (const auto& p : parts)
    if (!word(p)) return "'" + name.substr(dot) + "' is not a valid suffix";
  return "";
}

std::vector<std::string> closest_metric_names(const std::string& name, std::size_t count) {
  std::vector<std::string> names;
  for (const auto& m : metric_catalog()) names.push_back(m.name);
  return closest_names(name, names, count);
}

std::vector<std::string> cupti_metrics_for(const std::vector<std::string>& names) {
  std::vector<std::string> out;
  auto add = [&](const std::string& m) {
    if (std::find(out.begin(), out.end(), m) == out.end()) out.push_back(m);
  };
  for (const auto& name : names) {
    if (is_perfworks_name(name)) {   // a well-formed Perfworks name passes; the collector checks it on the GPU
      if (const std::string problem = perfworks_name_problem(name); !problem.empty())
        throw Error("metric '" + name + "': " + problem);
      if (!find_catalog_metric(name)) add(name);
      else for (const auto& input : find_catalog_metric(name)->inputs) add(input);
      continue;
    }
    const CatalogMetric* m = find_catalog_metric(name);
    if (!m) {
      throw Error("unknown metric '" + name + "' (closest: " + join(closest_metric_names(name), ", ") +
                  "; 'labbook metrics' lists them all)");
    }
    for (const auto& input : m->inputs) add(input);
  }
  return out;
}

}  // namespace labbook
