#include "flush_passes.h"

#include "labbook/model/error.h"
#include "labbook/model/text.h"

namespace labbook::profiler {

std::vector<FlushPass> parse_flush_passes(const std::string& text) {
  std::vector<FlushPass> passes;
  for (const std::string& word : split(text, ',')) {
    if (word == "write") passes.push_back(FlushPass::Write);
    else if (word == "discard") passes.push_back(FlushPass::Discard);
    else if (word == "read") passes.push_back(FlushPass::Read);
    else if (word == "write-lines") passes.push_back(FlushPass::WriteLines);
    else throw Error("'" + word + "': expected write, write-lines, discard or read");
  }
  if (passes.empty()) throw Error("no pass: expected a list such as write,discard");
  return passes;
}

}  // namespace labbook::profiler
