#include "memory_flow.h"

#include "format.h"
#include "quantities.h"

namespace labbook::report {

namespace {

std::string or_not_measured(const std::optional<double>& v, const std::string& unit) {
  return v ? format_value(*v, unit) : unit + " not measured";
}

/// Bytes the threads asked for per request, on average: sectors x 32 x efficiency / requests.
std::optional<double> requested_bytes_per_request(const GlobalTraffic& t) {
  if (!t.requests || !t.sectors || !t.efficiency_pct || *t.requests <= 0) return std::nullopt;
  return *t.sectors * kSectorBytes * *t.efficiency_pct / 100.0 / *t.requests;
}

/// A caption candidate: its line, and how far the traffic is above the least it could be
/// (1 when at the least, or when the least is not known).
struct Caption {
  std::string line;
  double excess = 1;
};

std::optional<Caption> global_caption(const std::string& kind, const GlobalTraffic& t) {
  if (!t.requests || !t.sectors || *t.requests <= 0) return std::nullopt;
  const double per_request = *t.sectors / *t.requests;
  const std::string line = kind + ": " + two_decimals(per_request) + " sectors per request";
  // The least a request can cost is the bytes it asks for in whole sectors; without the
  // efficiency those bytes are unknown, so the textbook case is given instead.
  const auto bytes = requested_bytes_per_request(t);
  if (!bytes || *bytes <= 0) return Caption{line + " (a warp's 32 aligned, consecutive 4-byte words need 4)"};
  const double least = *bytes / kSectorBytes;
  return Caption{line + "; the " + format_value(*bytes, "B") + " a request asks for on average need at least " +
                     two_decimals(least) + " sectors per request",
                 per_request / least};
}

std::optional<Caption> shared_caption(const std::string& kind, const SharedTraffic& t) {
  if (!t.instructions || !t.wavefronts || *t.instructions <= 0) return std::nullopt;
  const double per_instruction = *t.wavefronts / *t.instructions;
  return Caption{kind + ": " + two_decimals(per_instruction) +
                     " wavefronts per instruction (1 for 4-byte words without bank conflicts)",
                 per_instruction};
}

std::string global_sentence(const std::string& kind, const GlobalTraffic& t) {
  if (!t.requests && !t.sectors) return kind + " from the SM to L1: not measured.";
  std::string s = kind + " from the SM to L1: " + or_not_measured(t.requests, "requests") + ", " +
                  (t.sectors ? sectors_with_bytes(*t.sectors) : "sectors not measured");
  // An efficiency of no sectors is no figure: the counter reads 0.
  const bool moved = t.sectors && *t.sectors > 0;
  if (moved && t.efficiency_pct) s += ", " + format_value(*t.efficiency_pct, "%") + " of their bytes used";
  return s + ".";
}

std::string shared_sentence(const std::string& kind, const SharedTraffic& t) {
  if (!t.instructions && !t.wavefronts && !t.bank_conflicts) return kind + ": not measured.";
  return kind + ": " + or_not_measured(t.instructions, "instructions") + ", " + or_not_measured(t.wavefronts, "wavefronts") +
         ", " + or_not_measured(t.bank_conflicts, "conflicts") + ".";
}

std::string bytes_or_not_measured(const std::optional<double>& v) {
  return v ? format_value(*v, "bytes") : "not measured";
}

std::string percent_or_not_measured(const std::optional<double>& v) {
  return v ? format_value(*v, "%") : "not measured";
}

std::string sectors_sentence(const std::optional<double>& sectors) {
  return sectors ? sectors_with_bytes(*sectors) : "not measured";
}

}  // namespace

bool MemoryFlow::any() const {
  for (const auto* t : {&global_loads, &global_stores})
    if (t->requests || t->sectors || t->efficiency_pct) return true;
  for (const auto* t : {&shared_loads, &shared_stores})
    if (t->instructions || t->wavefronts || t->bank_conflicts) return true;
  for (const auto* v : {&l1_hit_rate_pct, &l2_read_sectors, &l2_write_sectors, &l2_hit_rate_pct, &dram_read_bytes,
                        &dram_write_bytes, &local_load_sectors, &local_store_sectors})
    if (*v) return true;
  return false;
}

const std::vector<std::string>& memory_flow_quantities() {
  static const std::vector<std::string> names = {
      "inst_executed_global_loads", "gld_transactions", "gld_efficiency", "inst_executed_global_stores",
      "gst_transactions", "gst_efficiency", "global_hit_rate", "l2_tex_read_transactions", "l2_tex_write_transactions",
      "l2_hit_rate", "dram_read_bytes", "dram_write_bytes", "inst_executed_shared_loads", "shared_load_transactions",
      "shared_load_bank_conflicts", "inst_executed_shared_stores", "shared_store_transactions",
      "shared_store_bank_conflicts", "local_load_transactions", "local_store_transactions"};
  return names;
}

MemoryFlow memory_flow(const MeasuredQuantity& measured) {
  MemoryFlow f;
  f.global_loads = {measured("inst_executed_global_loads"), measured("gld_transactions"), measured("gld_efficiency")};
  f.global_stores = {measured("inst_executed_global_stores"), measured("gst_transactions"), measured("gst_efficiency")};
  f.l1_hit_rate_pct = measured("global_hit_rate");
  f.l2_read_sectors = measured("l2_tex_read_transactions");
  f.l2_write_sectors = measured("l2_tex_write_transactions");
  f.l2_hit_rate_pct = measured("l2_hit_rate");
  f.dram_read_bytes = measured("dram_read_bytes");
  f.dram_write_bytes = measured("dram_write_bytes");
  f.shared_loads = {measured("inst_executed_shared_loads"), measured("shared_load_transactions"),
                    measured("shared_load_bank_conflicts")};
  f.shared_stores = {measured("inst_executed_shared_stores"), measured("shared_store_transactions"),
                     measured("shared_store_bank_conflicts")};
  f.local_load_sectors = measured("local_load_transactions");
  f.local_store_sectors = measured("local_store_transactions");
  return f;
}

MemoryFlow range_memory_flow(const Measurement& m, const std::string& range) {
  return memory_flow([&](const std::string& name) { return range_quantity(m, range, Quantity::named(name)).value; });
}

nlohmann::json memory_flow_json(const MemoryFlow& f) {
  const std::vector<const std::optional<double>*> values = {
      &f.global_loads.requests, &f.global_loads.sectors, &f.global_loads.efficiency_pct,
      &f.global_stores.requests, &f.global_stores.sectors, &f.global_stores.efficiency_pct,
      &f.l1_hit_rate_pct, &f.l2_read_sectors, &f.l2_write_sectors, &f.l2_hit_rate_pct,
      &f.dram_read_bytes, &f.dram_write_bytes,
      &f.shared_loads.instructions, &f.shared_loads.wavefronts, &f.shared_loads.bank_conflicts,
      &f.shared_stores.instructions, &f.shared_stores.wavefronts, &f.shared_stores.bank_conflicts,
      &f.local_load_sectors, &f.local_store_sectors};
  const auto& names = memory_flow_quantities();   // the same order as memory_flow() reads them
  nlohmann::json out = nlohmann::json::object();
  for (std::size_t i = 0; i < values.size(); ++i)
    out[names.at(i)] = *values[i] ? nlohmann::json(**values[i]) : nlohmann::json(nullptr);
  return out;
}

std::string memory_flow_caption(const MemoryFlow& f) {
  // The kind of access furthest above its least cost teaches most; the first on a tie.
  std::optional<Caption> best;
  for (const auto& c : {global_caption("Global loads", f.global_loads), global_caption("Global stores", f.global_stores),
                        shared_caption("Shared loads", f.shared_loads), shared_caption("Shared stores", f.shared_stores)})
    if (c && (!best || c->excess > best->excess * 1.01)) best = c;
  return best ? best->line + "." : "";
}

std::string memory_flow_description(const MemoryFlow& f) {
  return global_sentence("Global loads", f.global_loads) + " " + global_sentence("Global stores", f.global_stores) +
         " L1 hit rate of global loads: " + percent_or_not_measured(f.l1_hit_rate_pct) +
         ". From L1 to L2: reads " + sectors_sentence(f.l2_read_sectors) + ", writes " +
         sectors_sentence(f.l2_write_sectors) + ". L2 hit rate: " + percent_or_not_measured(f.l2_hit_rate_pct) +
         ". From L2 to DRAM: read " + bytes_or_not_measured(f.dram_read_bytes) + ", written " +
         bytes_or_not_measured(f.dram_write_bytes) + ". " + shared_sentence("Shared-memory loads", f.shared_loads) + " " +
         shared_sentence("Shared-memory stores", f.shared_stores) + " Local memory: loads " +
         (f.local_load_sectors ? format_value(*f.local_load_sectors, "sectors") : "not measured") + ", stores " +
         (f.local_store_sectors ? format_value(*f.local_store_sectors, "sectors") : "not measured") + ".";
}

std::string sectors_with_bytes(double sectors) {
  if (sectors <= 0) return format_value(sectors, "sectors");
  return format_value(sectors, "sectors") + " (" + format_value(sectors * kSectorBytes, "bytes") + ")";
}

}  // namespace labbook::report
