#pragma once
// labbook's help text: CLI11's layout without the "Excludes:" lists, which named every other
// option of `grade` after --collect and made its help unreadable. "Needs:" stays: it says
// which option another one requires (--gpus-per-task needs --slurm).
#include <sstream>
#include <string>

#include <CLI/CLI.hpp>

namespace labbook::cli {

class HelpFormatter : public CLI::Formatter {
 public:
  std::string make_option_opts(const CLI::Option* opt) const override {
    std::stringstream out;
    if (!opt->get_option_text().empty()) return " " + opt->get_option_text();
    if (opt->get_type_size() != 0) {
      if (!opt->get_type_name().empty()) out << " " << get_label(opt->get_type_name());
      if (!opt->get_default_str().empty()) out << "=" << opt->get_default_str();
      if (opt->get_expected_max() == CLI::detail::expected_max_vector_size) out << " ...";
      if (opt->get_required()) out << " " << get_label("REQUIRED");
    }
    if (!opt->get_needs().empty()) {
      out << " " << get_label("Needs") << ":";
      for (const CLI::Option* needed : opt->get_needs()) out << " " << needed->get_name();
    }
    return out.str();
  }
};

}  // namespace labbook::cli
