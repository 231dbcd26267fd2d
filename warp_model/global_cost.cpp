#include "global_cost.h"

#include <algorithm>
#include <array>
#include <iterator>
#include <string>

#include "labbook/model/error.h"

namespace labbook::warp {

namespace {

/// Distinct unit numbers in ascending order, on the stack: the model costs millions of
/// instructions per kernel. A lane's access (at most 16 bytes: global_cost() checks) touches
/// at most two units of 32 bytes or more.
struct Units {
  std::array<std::uint64_t, 2 * kWarpSize> number{};
  std::size_t count = 0;
  const std::uint64_t* begin() const { return number.data(); }
  const std::uint64_t* end() const { return number.data() + count; }
  std::size_t size() const { return count; }
};

/// Units of `unit` bytes touched by the active lanes in [first, first + count).
Units units_touched(const WarpAccess& a, int first, int count, std::uint64_t unit) {
  // Units are powers of two on every architecture here: shift rather than divide per lane.
  int shift = 0;
  while ((std::uint64_t{1} << shift) < unit) ++shift;
  const bool power_of_two = (std::uint64_t{1} << shift) == unit;
  Units units;
  for (int l = first; l < first + count; ++l) {
    const auto i = static_cast<std::size_t>(l);
    if (!a.active[i]) continue;
    const std::uint64_t begin = a.address[i], end = begin + static_cast<std::uint64_t>(a.width);
    for (std::uint64_t u = power_of_two ? begin >> shift : begin / unit; u * unit < end; ++u)
      units.number[units.count++] = u;
  }
  std::sort(units.number.begin(), units.number.begin() + static_cast<long>(units.count));
  units.count = static_cast<std::size_t>(std::unique(units.number.begin(), units.number.begin() + static_cast<long>(units.count)) -
                                         units.number.begin());
  return units;
}

/// Fermi's stores: runs of adjacent 32-byte segments go out as transactions of 4, 2 or 1
/// segments ("one four-segment and one one-segment transaction" for offset 11, 003).
void group_store_segments(const Units& segments, int max_per_transaction, std::uint64_t unit,
                          GlobalCost& cost, std::vector<Transaction>* out) {
  auto it = segments.begin();
  while (it != segments.end()) {
    std::uint64_t start = *it, length = 1;
    for (auto next = std::next(it); next != segments.end() && *next == start + length; ++next) ++length;
    std::advance(it, static_cast<long>(length));
    while (length > 0) {
      std::uint64_t take = 1;
      for (std::uint64_t size : {4u, 2u})
        if (size <= static_cast<std::uint64_t>(max_per_transaction) && length >= size) {
          take = size;
          break;
        }
      ++cost.transactions;
      if (out) out->push_back({start * unit, take * unit});
      start += take;
      length -= take;
    }
  }
}

/// CC 1.0/1.1 (004): lane k must touch word k of a block aligned to 16 words.
bool coalesces_strictly(const WarpAccess& a, int first, int count) {
  const auto w = static_cast<std::uint64_t>(a.width);
  std::uint64_t base = 0;
  bool have_base = false;
  for (int l = first; l < first + count; ++l) {
    const auto i = static_cast<std::size_t>(l);
    if (!a.active[i]) continue;
    const std::uint64_t expected_base = a.address[i] - static_cast<std::uint64_t>(l - first) * w;
    if (have_base && expected_base != base) return false;
    base = expected_base;
    have_base = true;
  }
  return !have_base || (a.width >= 4 && base % (w * static_cast<std::uint64_t>(count)) == 0);
}

/// CC 1.0/1.1 (004): a coalesced half-warp is one block of 16 words, moved as 64 bytes
/// (32-bit words), 128 (64-bit) or two of 128 (128-bit); otherwise one `unit` per lane.
void strict_half_warp_cost(const WarpAccess& a, int first, int count, std::uint64_t unit, GlobalCost& cost,
                           std::vector<Transaction>* out) {
  auto add = [&](std::uint64_t address, std::uint64_t bytes) {
    ++cost.transactions;
    cost.bytes_moved += static_cast<double>(bytes);
    if (out) out->push_back({address, bytes});
  };
  if (!coalesces_strictly(a, first, count)) {
    for (int l = first; l < first + count; ++l)
      if (a.active[static_cast<std::size_t>(l)]) add(a.address[static_cast<std::size_t>(l)] / unit * unit, unit);
    return;
  }
  std::uint64_t low = ~0ull, high = 0;
  for (int l = first; l < first + count; ++l)
    if (a.active[static_cast<std::size_t>(l)]) {
      low = std::min(low, a.address[static_cast<std::size_t>(l)]);
      high = std::max(high, a.address[static_cast<std::size_t>(l)] + static_cast<std::uint64_t>(a.width));
    }
  const std::uint64_t block = static_cast<std::uint64_t>(a.width) * static_cast<std::uint64_t>(count);
  const std::uint64_t size = std::min<std::uint64_t>(block, 128);
  for (std::uint64_t t = high > 0 ? low / block * block : 0; t < high; t += size) add(t, size);
}

}  // namespace

GlobalCost& GlobalCost::operator+=(const GlobalCost& o) {
  requests += o.requests;
  transactions += o.transactions;
  sectors += o.sectors;
  lines += o.lines;
  bytes_requested += o.bytes_requested;
  bytes_moved += o.bytes_moved;
  return *this;
}

GlobalCost GlobalCost::scaled(double f) const {
  return {requests * f, transactions * f, sectors * f, lines * f, bytes_requested * f, bytes_moved * f};
}

double GlobalCost::efficiency_pct() const { return bytes_moved > 0 ? 100.0 * bytes_requested / bytes_moved : 100.0; }

double GlobalCost::transactions_per_request() const { return requests > 0 ? transactions / requests : 0.0; }

GlobalCost global_cost(const WarpAccess& a, const Architecture& arch, std::vector<Transaction>* out) {
  if (a.width < 1 || a.width > 16)
    throw Error("a lane accesses 1 to 16 bytes (a 128-bit load at most), not " + std::to_string(a.width));
  GlobalCost cost;
  if (!a.any_active()) return cost;
  cost.requests = 1;
  // Bytes requested: distinct bytes, so that 32 lanes reading one word ask for 4 bytes
  // (003's figure 4-12: 3.125 % of a 128-byte line).
  std::array<std::uint64_t, kWarpSize> starts{};
  std::size_t active = 0;
  for (int l = 0; l < kWarpSize; ++l)
    if (a.active[static_cast<std::size_t>(l)]) starts[active++] = a.address[static_cast<std::size_t>(l)];
  std::sort(starts.begin(), starts.begin() + static_cast<long>(active));
  std::uint64_t covered_to = 0;
  for (std::size_t s = 0; s < active; ++s) {
    const std::uint64_t start = starts[s];
    const std::uint64_t end = start + static_cast<std::uint64_t>(a.width);
    if (end > covered_to) cost.bytes_requested += static_cast<double>(end - std::max(start, covered_to));
    covered_to = std::max(covered_to, end);
  }
  cost.sectors = static_cast<double>(units_touched(a, 0, kWarpSize, 32).size());
  cost.lines = static_cast<double>(units_touched(a, 0, kWarpSize, 128).size());

  const bool store = a.op == Operation::Store;
  const std::uint64_t unit = static_cast<std::uint64_t>(store ? arch.store_unit_bytes : arch.load_unit_bytes);
  for (int first = 0; first < kWarpSize; first += arch.coalescing_lanes) {
    if (arch.strict_coalescing) {
      strict_half_warp_cost(a, first, arch.coalescing_lanes, unit, cost, out);
      continue;
    }
    const auto units = units_touched(a, first, arch.coalescing_lanes, unit);
    cost.bytes_moved += static_cast<double>(units.size() * unit);
    if (store && arch.store_segments_per_transaction > 1) {
      group_store_segments(units, arch.store_segments_per_transaction, unit, cost, out);
    } else {
      cost.transactions += static_cast<double>(units.size());
      if (out)
        for (auto u : units) out->push_back({u * unit, unit});
    }
  }
  return cost;
}

}  // namespace labbook::warp
