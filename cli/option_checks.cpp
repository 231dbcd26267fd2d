#include "option_checks.h"

#include <filesystem>
#include <string>
#include <system_error>

#include "format.h"

namespace labbook::cli {

std::string output_folder_problem(const std::string& value) {
  std::error_code error;
  for (std::filesystem::path p = value; !p.empty(); p = p.parent_path()) {
    if (std::filesystem::is_directory(p, error)) return "";
    if (std::filesystem::exists(p, error))
      return "'" + report::cut_text(value, 200) + "' cannot be a folder: " +
             (p == std::filesystem::path(value) ? std::string("a file stands there")
                                                : "'" + report::cut_text(p.string(), 200) + "' is a file");
    if (p == p.parent_path()) break;
  }
  return "";
}

}  // namespace labbook::cli
