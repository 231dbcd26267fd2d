#pragma once
/// @file
/// The sheet lint: what a student should never read in a sheet, the workbook index, a
/// sheet's SVG figures or what `labbook run` prints. Numbers in scientific notation, a unit
/// written twice, counts with decimals or "1 kernels", measured values without their unit,
/// links to files the workbook did not write, and snake_case identifiers used as labels.
///
/// Code is never linted: fenced code blocks, inline code spans, link targets, URLs and file
/// names (ending in .txt, .svg, .json, .md or .html) are skipped by every rule, so compiler
/// output, kernel names and identifiers in backquotes are fine.
#include <string>
#include <vector>

namespace labbook::report {

/// One thing to fix: where (file, 1-based line), which rule, and the text around it.
struct LintFinding {
  std::string file;
  int line = 0;
  std::string rule;      ///< "e-notation", "doubled unit", "count with decimals", "singular count",
                         ///< "unitless value", "dangling link" or "identifier label"
  std::string excerpt;
};

/// Lints rendered Markdown text `markdown` of file `file` (a sheet or the workbook index);
/// `written` = names of files the workbook wrote next to it (for relative links). Every rule
/// applies; "unitless value" to the "Measured here" column of tables, "identifier label" to
/// the words of table header cells.
std::vector<LintFinding> lint_markdown(const std::string& file, const std::string& markdown,
                                       const std::vector<std::string>& written);

/// Lints terminal text (what `labbook run` prints), same rules that apply to plain text;
/// "unitless value" to the column under "measured here" of a space-aligned table whose
/// header line names it.
std::vector<LintFinding> lint_terminal(const std::string& name, const std::string& text);

/// Lints an SVG picture: "e-notation" and "identifier label" on the text content of its
/// <text> elements (a label such as "payload_bytes (log scale)" counts as an identifier).
std::vector<LintFinding> lint_svg(const std::string& file, const std::string& svg);

/// "file:line: rule: excerpt".
std::string describe(const LintFinding&);

}  // namespace labbook::report
