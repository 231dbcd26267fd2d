#include "warp_figure.h"

#include <algorithm>
#include <cstdio>

#include "format.h"
#include "global_cost.h"

namespace labbook::report {

namespace {

constexpr double kLeft = 10, kWidth = 760, kLaneY = 40, kMemoryY = 130, kBandY = 175;
const char* kColours[] = {"#4c9f38", "#e8a33d", "#3b7dd8", "#d9534f", "#9b59b6", "#17a2b8"};

}  // namespace

std::string warp_figure_svg(const warp::WarpAccess& a, const warp::Architecture& arch, const std::string& title) {
  std::vector<warp::Transaction> transactions;
  const warp::GlobalCost cost = warp::global_cost(a, arch, &transactions);
  // Memory shown: whole 128-byte lines around everything touched or moved.
  std::uint64_t low = ~0ull, high = 0;
  for (int l = 0; l < warp::kWarpSize; ++l)
    if (a.active[static_cast<std::size_t>(l)]) {
      low = std::min(low, a.address[static_cast<std::size_t>(l)]);
      high = std::max(high, a.address[static_cast<std::size_t>(l)] + static_cast<std::uint64_t>(a.width));
    }
  for (const auto& t : transactions) {
    low = std::min(low, t.address);
    high = std::max(high, t.address + t.bytes);
  }
  if (low > high) low = high = 0;
  low = low / 128 * 128;
  high = (high + 127) / 128 * 128;
  const double bytes = std::max<double>(static_cast<double>(high - low), 128.0);
  const auto x_of = [&](std::uint64_t address) { return kLeft + kWidth * static_cast<double>(address - low) / bytes; };
  const double lane_w = kWidth / warp::kWarpSize;

  std::string svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"780\" height=\"230\" font-family=\"sans-serif\" font-size=\"11\">\n";
  svg += "<text x=\"10\" y=\"16\" font-weight=\"bold\">" + escape_markup(title) + "</text>\n";
  char summary[200];
  std::snprintf(summary, sizeof summary, "%s: %.0f transaction(s), %.0f bytes moved for %.0f requested (%.1f %%)",
                arch.id.c_str(), cost.transactions, cost.bytes_moved, cost.bytes_requested, cost.efficiency_pct());
  svg += "<text x=\"10\" y=\"30\">" + escape_markup(summary) + "</text>\n";
  // Lanes, and a line from each active lane to the bytes it touches.
  for (int l = 0; l < warp::kWarpSize; ++l) {
    const auto i = static_cast<std::size_t>(l);
    const double x = kLeft + lane_w * l;
    svg += "<rect class=\"lane\" x=\"" + svg_number(x + 1) + "\" y=\"" + svg_number(kLaneY) + "\" width=\"" + svg_number(lane_w - 2) +
           "\" height=\"16\" fill=\"" + (a.active[i] ? "#7aa6da" : "#e0e0e0") + "\"/>\n";
    if (a.active[i])
      svg += "<line x1=\"" + svg_number(x + lane_w / 2) + "\" y1=\"" + svg_number(kLaneY + 16) + "\" x2=\"" +
             svg_number(x_of(a.address[i]) + kWidth * a.width / bytes / 2) + "\" y2=\"" + svg_number(kMemoryY) +
             "\" stroke=\"#999\" stroke-width=\"0.6\"/>\n";
  }
  // Memory: 32-byte sectors, with 128-byte line boundaries drawn heavier.
  for (std::uint64_t s = low; s < high; s += 32)
    svg += "<rect class=\"sector\" x=\"" + svg_number(x_of(s)) + "\" y=\"" + svg_number(kMemoryY) + "\" width=\"" +
           svg_number(kWidth * 32 / bytes) + "\" height=\"20\" fill=\"white\" stroke=\"" + (s % 128 == 0 ? "#333" : "#bbb") +
           "\"/>\n";
  for (int l = 0; l < warp::kWarpSize; ++l) {
    const auto i = static_cast<std::size_t>(l);
    if (a.active[i])
      svg += "<rect class=\"requested\" x=\"" + svg_number(x_of(a.address[i])) + "\" y=\"" + svg_number(kMemoryY + 4) + "\" width=\"" +
             svg_number(kWidth * a.width / bytes) + "\" height=\"12\" fill=\"#7aa6da\"/>\n";
  }
  // Transactions.
  for (std::size_t t = 0; t < transactions.size(); ++t) {
    const auto& tr = transactions[t];
    svg += "<rect class=\"transaction\" x=\"" + svg_number(x_of(tr.address) + 1) + "\" y=\"" + svg_number(kBandY) + "\" width=\"" +
           svg_number(std::max(kWidth * static_cast<double>(tr.bytes) / bytes - 2, 1.0)) + "\" height=\"14\" fill=\"" +
           kColours[t % 6] + "\"><title>" + std::to_string(tr.bytes) + " bytes at +" +
           std::to_string(tr.address - low) + "</title></rect>\n";
  }
  svg += "<text x=\"10\" y=\"" + svg_number(kMemoryY - 6) + "\">memory, " + std::to_string(high - low) +
         " bytes: 32-byte sectors, a heavy edge every 128-byte line; blue: bytes the lanes asked for</text>\n";
  svg += "<text x=\"10\" y=\"" + svg_number(kBandY + 30) + "\">coloured: one band per transaction</text>\n";
  return svg + "</svg>\n";
}

}  // namespace labbook::report
