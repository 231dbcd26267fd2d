#include "resource_usage.h"

#include <regex>
#include <sstream>

namespace labbook::report {

std::vector<KernelResources> parse_ptxas_report(const std::string& text) {
  static const std::regex entry(R"(Compiling entry function '([^']+)' for '([^']+)')");
  static const std::regex frame(R"((\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads)");
  static const std::regex used(R"(Used (\d+) registers)");
  static const std::regex barriers(R"(used (\d+) barriers)");
  static const std::regex smem(R"((\d+) bytes smem)");
  static const std::regex cmem(R"((\d+) bytes cmem\[(\d+)\])");
  std::vector<KernelResources> out;
  std::istringstream lines(text);
  std::string line;
  std::smatch m;
  while (std::getline(lines, line)) {
    if (std::regex_search(line, m, entry)) {
      KernelResources k;
      k.function = m[1];
      k.architecture = m[2];
      out.push_back(std::move(k));
      continue;
    }
    if (out.empty()) continue;   // module-wide lines (gmem) before the first kernel
    KernelResources& k = out.back();
    if (std::regex_search(line, m, frame)) {
      k.stack_bytes = std::stol(m[1]);
      k.spill_store_bytes = std::stol(m[2]);
      k.spill_load_bytes = std::stol(m[3]);
    } else if (std::regex_search(line, m, used)) {
      k.registers = std::stoi(m[1]);
      if (std::regex_search(line, m, barriers)) k.barriers = std::stoi(m[1]);
      if (std::regex_search(line, m, smem)) k.shared_bytes = std::stol(m[1]);
      for (std::sregex_iterator it(line.begin(), line.end(), cmem), end; it != end; ++it)
        k.constant_bytes[std::stoi((*it)[2])] += std::stol((*it)[1]);
    }
  }
  return out;
}

}  // namespace labbook::report
