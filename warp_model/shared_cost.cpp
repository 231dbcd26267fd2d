#include "shared_cost.h"

#include <algorithm>
#include <set>
#include <utility>
#include <vector>

namespace labbook::warp {

namespace {

/// A 4-byte word one lane reads: its bank and word address.
struct WordAccess {
  int lane;
  std::uint64_t word;
};

/// Passes needed for one group of word accesses. With multicast, every lane reading a word
/// is served with it, so the cost is the most distinct words in one bank. With CC 1.x's
/// single broadcast word, each pass serves that word's lanes and one lane per other bank.
int passes(std::vector<WordAccess> words, const Architecture& arch) {
  const auto bank = [&](std::uint64_t word) { return word % static_cast<std::uint64_t>(arch.banks); };
  if (!arch.one_broadcast_word) {
    // Distinct (bank, word) pairs, sorted: the longest run of one bank is the cost.
    std::vector<std::pair<std::uint64_t, std::uint64_t>> distinct;
    distinct.reserve(words.size());
    for (const auto& w : words) distinct.emplace_back(bank(w.word), w.word);
    std::sort(distinct.begin(), distinct.end());
    distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
    int most = 0;
    for (std::size_t i = 0, run = 0; i < distinct.size(); ++i) {
      run = i > 0 && distinct[i].first == distinct[i - 1].first ? run + 1 : 1;
      most = std::max(most, static_cast<int>(run));
    }
    return most;
  }
  int steps = 0;
  while (!words.empty()) {
    ++steps;
    const std::uint64_t broadcast = words.front().word;
    std::set<std::uint64_t> banks_served = {bank(broadcast)};
    std::vector<WordAccess> left;
    for (const auto& w : words) {
      if (w.word == broadcast) continue;
      if (banks_served.insert(bank(w.word)).second) continue;   // one lane for this bank
      left.push_back(w);
    }
    words = std::move(left);
  }
  return steps;
}

}  // namespace

SharedCost& SharedCost::operator+=(const SharedCost& o) {
  requests += o.requests;
  wavefronts += o.wavefronts;
  ideal_wavefronts += o.ideal_wavefronts;
  degree = std::max(degree, o.degree);
  return *this;
}

SharedCost shared_cost(const WarpAccess& a, const Architecture& arch) {
  SharedCost cost;
  if (!a.any_active()) return cost;
  cost.requests = 1;
  const int words_per_lane = std::max(1, a.width / arch.bank_bytes);
  // Lanes served together, and how many separate requests each lane's words form.
  int group = arch.shared_lanes, pieces = 1;
  if (words_per_lane > 1) {
    if (arch.split_wide_shared_accesses) pieces = words_per_lane;   // one 32-bit request per word
    else group = std::max(1, arch.banks * arch.bank_bytes / a.width);   // 128 bytes per wavefront
  }
  for (int piece = 0; piece < pieces; ++piece)
    for (int first = 0; first < kWarpSize; first += group) {
      std::vector<WordAccess> words;
      for (int l = first; l < first + group; ++l) {
        const auto i = static_cast<std::size_t>(l);
        if (!a.active[i]) continue;
        const std::uint64_t first_word = a.address[i] / static_cast<std::uint64_t>(arch.bank_bytes);
        if (pieces > 1) words.push_back({l, first_word + static_cast<std::uint64_t>(piece)});
        else
          for (int w = 0; w < words_per_lane; ++w) words.push_back({l, first_word + static_cast<std::uint64_t>(w)});
      }
      if (words.empty()) continue;
      const int n = passes(words, arch);
      cost.wavefronts += n;
      cost.ideal_wavefronts += 1;
      cost.degree = std::max(cost.degree, n);
    }
  return cost;
}

}  // namespace labbook::warp
