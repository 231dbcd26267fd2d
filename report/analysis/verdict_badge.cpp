#include "verdict_badge.h"


namespace labbook::report {

namespace {

struct Style {
  Badge badge;
  const char* name;
  const char* symbol;
};
// Each badge differs in shape as well as colour (a reader who cannot tell green from red
// still tells a tick from a cross): green tick for what agrees, red cross for what does not,
// amber question mark for noise, orange diamond for a model that differs, grey circle for
// what could not be checked. Each symbol is one badge's, so that the HTML can tell them apart.
constexpr Style kStyles[] = {
    {Badge::kHolds, "holds", "✅"},        {Badge::kDoesNotHold, "does-not-hold", "❌"},
    {Badge::kInconclusive, "inconclusive", "❔"}, {Badge::kAsPredicted, "as-predicted", "☑️"},
    {Badge::kDiffers, "differs", "🔶"},    {Badge::kUnchecked, "unchecked", "⚪"},
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

const char* badge_css() {
  return ".badge{display:inline-block;padding:0 .5em;border-radius:.9em;font-weight:600;white-space:nowrap}\n"
         "@media (max-width:600px){.badge{white-space:normal}}\n"
         ".badge-holds,.badge-as-predicted{background:#dcfce7;color:#14532d}\n"
         ".badge-does-not-hold{background:#fee2e2;color:#7f1d1d}\n"
         ".badge-inconclusive{background:#fef9c3;color:#713f12}\n"
         ".badge-differs{background:#ffedd5;color:#7c2d12}\n"
         ".badge-unchecked{background:#f1f5f9;color:#334155}\n"
         // The pill drops the emoji (a font the reader may lack) but keeps a shape of its own.
         ".badge-holds::before{content:\"\\2713\\00a0\"}.badge-as-predicted::before{content:\"=\\00a0\"}"
         ".badge-does-not-hold::before{content:\"\\2717\\00a0\"}.badge-inconclusive::before{content:\"?\\00a0\"}"
         ".badge-differs::before{content:\"\\2260\\00a0\"}.badge-unchecked::before{content:\"\\2013\\00a0\"}\n";
}

}  // namespace labbook::report
