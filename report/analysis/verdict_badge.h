#pragma once
/// @file
/// Verdicts as badges: one symbol and one colour per kind of verdict, the same in Markdown
/// (a coloured circle before the verdict in bold) and in HTML (a pill of that colour), so a reader
/// scanning a table sees at once which claims held.
#include <string>

namespace labbook::report {

enum class Badge { kHolds, kDoesNotHold, kInconclusive, kAsPredicted, kDiffers, kUnchecked };

/// The badge's name as Span::target carries it, and the CSS class suffix ("holds").
const char* badge_name(Badge);

/// The coloured circle written before the verdict in Markdown, for a badge name ("" if unknown).
const char* badge_symbol(const std::string& name);

/// The stylesheet's rules for the badges.
const char* badge_css();

}  // namespace labbook::report
