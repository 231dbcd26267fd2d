#include "flush_passes.h"

#include <algorithm>

#include "labbook/model/error.h"
#include "labbook/model/text.h"

namespace labbook::profiler {

std::vector<FlushPass> parse_flush_passes(const std::string& text) {
  std::vector<FlushPass> passes;
  for (const std::string& word : split(text, ',')) {
    if (word == "write") passes.push_back(FlushPass::Write);
    else if (word == "discard") passes.push_back(FlushPass::Discard);
    else if (word == "read") passes.push_back(FlushPass::Read);
    else if (word == "settle") passes.push_back(FlushPass::Settle);
    else throw Error("'" + word + "': expected write, discard, read or settle");
  }
  if (std::all_of(passes.begin(), passes.end(), [](FlushPass p) { return p == FlushPass::Settle; }))
    throw Error("no pass over the buffer: expected a list such as write,discard");
  return passes;
}

}  // namespace labbook::profiler
