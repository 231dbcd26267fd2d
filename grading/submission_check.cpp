#include "submission_check.h"

#include <sstream>

namespace labbook::grading {

std::string object_problem(const std::string& readelf_output) {
  std::istringstream in(readelf_output);
  std::string line;
  bool in_init_array = false;
  int initialisers = 0;
  bool defines_main = false;
  while (std::getline(in, line)) {
    if (line.rfind("Relocation section", 0) == 0) {
      in_init_array = line.find("'.rela.init_array'") != std::string::npos ||
                      line.find("'.rel.init_array'") != std::string::npos;
      continue;
    }
    if (line.empty()) {
      in_init_array = false;
      continue;
    }
    // A relocation entry starts with its hexadecimal offset.
    if (in_init_array && line.find_first_not_of("0123456789abcdef") > 0 && line.find(" R_") != std::string::npos)
      ++initialisers;
    // A symbol table line: "  12: 0000000000000000   123 FUNC    GLOBAL DEFAULT    2 main"
    std::istringstream fields(line);
    std::string num, value, size, type, bind, vis, ndx, name;
    if (fields >> num >> value >> size >> type >> bind >> vis >> ndx >> name && num.back() == ':' && type == "FUNC" &&
        bind == "GLOBAL" && ndx != "UND" && name == "main")
      defines_main = true;
  }
  if (defines_main) return "the submission defines main: the harness owns main, hand in the kernel only";
  if (initialisers > 1)
    return "the submission runs code before main (a global object's constructor or a constructor function): "
           "hand in the kernel only";
  return "";
}

}  // namespace labbook::grading
