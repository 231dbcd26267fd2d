#include "harness_result.h"

#include <nlohmann/json.hpp>

#include "labbook/model/error.h"

namespace labbook::grading {

HarnessResult parse_harness_result(const std::string& text, const std::string& origin) {
  try {
    const auto j = nlohmann::json::parse(text);
    HarnessResult r;
    r.correct = j.at("correct").get<bool>();
    r.problem = j.at("problem").get<std::string>();
    for (const auto& c : j.value("calls", nlohmann::json::array()))
      r.calls.push_back({c.at("range").get<std::string>(), c.at("seconds").get<double>(),
                         c.value("compulsory_read_bytes", 0.0), c.value("compulsory_write_bytes", 0.0)});
    for (const auto& f : j.value("flags", nlohmann::json::array()))
      r.flags.push_back({f.at("code").get<std::string>(), f.at("message").get<std::string>()});
    return r;
  } catch (const nlohmann::json::exception& e) {
    throw Error(origin + ": not a harness result: " + e.what());
  }
}

}  // namespace labbook::grading
