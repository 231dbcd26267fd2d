#include "source_lines_table.h"

#include <cmath>
#include <fstream>
#include <map>
#include <vector>

#include "format.h"

namespace labbook::report {

namespace {

/// "5.00 (ideal 4.00)", "—" when the line made no such access.
std::string per_request(double amount, double ideal, double requests) {
  if (requests <= 0 || amount <= 0) return "—";
  return two_decimals(amount / requests) + " (ideal " + two_decimals(ideal / requests) + ")";
}

std::string count(double v) { return v > 0 ? with_thousands(std::llround(v)) : "—"; }


/// Source files' lines, each file read once however many of its lines a table shows.
class SourceFiles {
 public:
  /// The line's text, indentation left out and cut to 60 characters; "" when the file cannot
  /// be read or has no such line.
  std::string line(const std::string& file, int number) {
    if (file.empty() || number <= 0) return "";
    auto [it, added] = files_.try_emplace(file);
    if (added) {
      std::ifstream in(file);
      for (std::string text; std::getline(in, text);) it->second.push_back(std::move(text));
    }
    if (static_cast<std::size_t>(number) > it->second.size()) return "";
    const std::string& text = it->second[static_cast<std::size_t>(number) - 1];
    const std::size_t first = text.find_first_not_of(" \t");
    return first == std::string::npos ? "" : cut_text(text.substr(first), 60);
  }

 private:
  std::map<std::string, std::vector<std::string>> files_;
};

}  // namespace

Table source_lines_table(const SourceProfile& profile, std::size_t max_lines) {
  SourceFiles sources;
  Table t{{"Line", "Source", "Requests", "Sectors per request", "Excess sectors", "Shared wavefronts per request",
           "Local sectors"},
          {}};
  for (std::size_t i = 0; i < profile.lines.size() && (max_lines == 0 || i < max_lines); ++i) {
    const SourceLine& l = profile.lines[i];
    std::string excess = "—";
    if (l.excess_sectors() > 0)
      excess = count(l.excess_sectors()) +
               (profile.excess_sectors > 0 ? " (" + format_value(100.0 * l.excess_sectors() / profile.excess_sectors, "%") + ")" : "");
    std::string where = l.where();
    if (const std::string why = source_line_explanation(l, profile.excess_sectors); !why.empty()) {
      t.notes.push_back(Text{l.where() + ": " + why});
      where += " (note " + std::to_string(t.notes.size()) + ")";
    }
    const std::string text = sources.line(l.file, l.line);
    // Loads and stores apart where the GPU told them apart and the line has both.
    std::string sectors = per_request(l.global_sectors, l.global_ideal_sectors, l.global_requests);
    if (l.loads.requests > 0 && l.stores.requests > 0)
      sectors = "loads " + per_request(l.loads.sectors, l.loads.ideal_sectors, l.loads.requests) + "; stores " +
                per_request(l.stores.sectors, l.stores.ideal_sectors, l.stores.requests);
    t.rows.push_back({Text{where}, text.empty() ? Text{"—"} : Text{code(text)}, Text{count(l.global_requests + l.shared_requests)},
                      Text{sectors}, Text{excess},
                      Text{per_request(l.shared_wavefronts, l.shared_ideal_wavefronts, l.shared_requests)},
                      Text{count(l.local_sectors)}});
  }
  return t;
}

nlohmann::json source_lines_json(const SourceProfile& profile) {
  nlohmann::json lines = nlohmann::json::array();
  for (const auto& l : profile.lines)
    lines.push_back({{"file", l.file}, {"line", l.line}, {"function", l.function}, {"requests", l.global_requests},
                     {"sectors", l.global_sectors}, {"ideal_sectors", l.global_ideal_sectors},
                     {"shared_requests", l.shared_requests}, {"shared_wavefronts", l.shared_wavefronts},
                     {"shared_ideal_wavefronts", l.shared_ideal_wavefronts}, {"local_sectors", l.local_sectors}});
  return lines;
}

}  // namespace labbook::report
