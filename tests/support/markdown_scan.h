#pragma once
/// @file
/// Where the parts of a Markdown line are, as the sheet lint reads them: code spans, link
/// destinations, fences and table cells; the text helpers the lint's rules share.
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace labbook::report::markdown {

/// ASCII classes: a byte of a UTF-8 sequence is none of them.
bool is_alnum(char c);
bool is_word(char c);
bool is_blank(char c);

std::string trim(const std::string& s);
std::string lower(std::string s);
/// Lines without their "\n" or "\r\n"; a last line without one counts.
std::vector<std::string> split_lines(const std::string& text);
/// Markdown backslash escapes removed: "\_" reads "_", "\[1\]" reads "[1]".
std::string unescape(const std::string& s);
/// The entities a writer escapes (&amp; &lt; &gt; &quot; &apos; and &#39;) read back; others kept.
std::string unescape_entities(const std::string& s);

/// Inline code spans of a Markdown line as [begin, end): a run of n backquotes up to the
/// next run of exactly n; an escaped backquote ("\`") opens none.
std::vector<std::pair<std::size_t, std::size_t>> code_spans(const std::string& line);

struct LinkTarget {
  std::size_t begin, end;   ///< the destination, "(" excluded, ")" included
  std::string target;
};
/// Destinations of links and images, "[text](target)" or "[text](<target>)"; in "[![a](x.svg)](x.svg)" both.
std::vector<LinkTarget> link_targets(const std::string& text);
bool is_external(const std::string& target);

/// A fence line: ``` or ~~~ (3 or more), indented by blanks only; "" for any other line.
std::string fence_of(const std::string& line);
bool closes_fence(const std::string& line, const std::string& fence);
/// A table's delimiter row: "| --- | :-: |".
bool is_delimiter_row(const std::string& line);
/// Cells of a table row as [begin, end) in `line`: split at unescaped '|', outer pipes dropped.
std::vector<std::pair<std::size_t, std::size_t>> table_cells(const std::string& line);

}  // namespace labbook::report::markdown
