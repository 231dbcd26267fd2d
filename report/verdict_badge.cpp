#include "verdict_badge.h"


namespace labbook::report {

namespace {

struct Style {
  Badge badge;
  const char* name;
  const char* symbol;
};
// Green for what agrees, red for what does not, amber for noise, orange for a model that
// differs (explained in the row), grey for what could not be checked. Each symbol is one
// badge's, so that the HTML can tell them apart.
constexpr Style kStyles[] = {
    {Badge::kHolds, "holds", "🟢"},        {Badge::kDoesNotHold, "does-not-hold", "🔴"},
    {Badge::kInconclusive, "inconclusive", "🟡"}, {Badge::kAsPredicted, "as-predicted", "✅"},
    {Badge::kDiffers, "differs", "🟠"},    {Badge::kUnchecked, "unchecked", "⚪"},
};

}  // namespace

const char* badge_name(Badge b) {
  for (const auto& s : kStyles)
    if (s.badge == b) return s.name;
  return "unchecked";
}

const char* badge_symbol(const std::string& name) {
  for (const auto& s : kStyles)
    if (name == s.name) return s.symbol;
  return "";
}

std::string mark_badges(const std::string& html) {
  std::string out = html;
  for (const auto& s : kStyles) {
    const std::string open = std::string(s.symbol) + " <strong>", close = "</strong>";
    // The pill's colour replaces the symbol, which needs an emoji font the reader may lack.
    const std::string mark = std::string("<span class=\"badge badge-") + s.name + "\">";
    for (std::size_t at = out.find(open); at != std::string::npos; at = out.find(open, at)) {
      const std::size_t end = out.find(close, at + open.size());
      if (end == std::string::npos) break;
      out.replace(end, close.size(), "</span>");
      out.replace(at, open.size(), mark);
      at += mark.size();
    }
  }
  return out;
}

const char* badge_css() {
  return ".badge{display:inline-block;padding:0 .5em;border-radius:.9em;font-weight:600;white-space:nowrap}\n"
         ".badge-holds,.badge-as-predicted{background:#dcfce7;color:#14532d}\n"
         ".badge-does-not-hold{background:#fee2e2;color:#7f1d1d}\n"
         ".badge-inconclusive{background:#fef9c3;color:#713f12}\n"
         ".badge-differs{background:#ffedd5;color:#7c2d12}\n"
         ".badge-unchecked{background:#f1f5f9;color:#334155}\n";
}

}  // namespace labbook::report
