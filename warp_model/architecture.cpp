#include "architecture.h"

#include "labbook/model/error.h"

namespace labbook::warp {

const std::vector<Architecture>& architectures() {
  static const std::vector<Architecture> table = [] {
    Architecture sm90;
    sm90.id = "sm_90";
    sm90.description = "Volta and later: 32-byte sectors in L1 and L2, 32 banks of 4 bytes";
    sm90.short_name = "Volta and later";
    sm90.citation = "CUDA C++ Programming Guide, compute capability 7.x-9.x global and shared memory";

    Architecture fermi_ca = sm90;
    fermi_ca.id = "fermi_ca";
    fermi_ca.description = "Fermi, loads cached in L1 (-Xptxas -dlcm=ca): 128-byte line transactions";
    fermi_ca.short_name = "Fermi, L1 cached";
    fermi_ca.citation = "003_c67e0f909fb510d6.txt, « Chargements en cache »; 004_12112d3317679e06.txt (Fermi: 128-byte lines)";
    fermi_ca.load_unit_bytes = 128;
    fermi_ca.store_segments_per_transaction = 4;

    Architecture fermi_cg = fermi_ca;
    fermi_cg.id = "fermi_cg";
    fermi_cg.description = "Fermi/Kepler, loads not cached in L1 (-Xptxas -dlcm=cg): 32-byte segments";
    fermi_cg.short_name = "Fermi, L1 bypassed";
    fermi_cg.citation = "003_c67e0f909fb510d6.txt, « Charges non mises en cache »";
    fermi_cg.load_unit_bytes = 32;

    Architecture cc1x;
    cc1x.id = "cc1x";
    cc1x.description = "compute capability 1.0/1.1: half-warp coalescing by word size and alignment, 16 banks";
    cc1x.short_name = "compute capability 1.x";
    cc1x.citation = "004_12112d3317679e06.txt (Wortgröße / Speicherkante); 000_e84d1941bb8bbaf9.txt, V-A";
    cc1x.coalescing_lanes = 16;
    cc1x.load_unit_bytes = 32;
    cc1x.strict_coalescing = true;
    cc1x.banks = 16;
    cc1x.shared_lanes = 16;
    cc1x.one_broadcast_word = true;
    cc1x.split_wide_shared_accesses = true;
    return std::vector<Architecture>{sm90, fermi_ca, fermi_cg, cc1x};
  }();
  return table;
}

const Architecture& architecture(const std::string& id) {
  std::string known;
  for (const auto& a : architectures()) {
    if (a.id == id) return a;
    known += (known.empty() ? "" : ", ") + a.id;
  }
  throw Error("unknown architecture '" + id + "' (known: " + known + ")");
}

}  // namespace labbook::warp
