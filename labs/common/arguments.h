#pragma once
// Arguments: the lab programs' command line, flag by flag. A mistake prints what is wrong and
// the usage line on stderr and exits with code 2.
#include <cstdio>
#include <cstdlib>
#include <string>

namespace labbook::lab {

class Arguments {
 public:
  /// `usage`: the flags, e.g. "[--repeat R] [--only TEXT]".
  Arguments(int argc, char** argv, std::string program, std::string usage)
      : argc_(argc), argv_(argv), program_(std::move(program)), usage_(std::move(usage)) {}

  /// Moves to the next flag; false when there is none.
  bool next() {
    if (++at_ >= argc_) return false;
    flag_ = argv_[at_];
    return true;
  }
  const std::string& flag() const { return flag_; }

  /// The current flag's value.
  const char* value() {
    if (at_ + 1 >= argc_) fail(flag_ + " needs a value");
    return argv_[++at_];
  }

  /// The current flag's value as an integer in [min, max].
  template <typename T>
  T number(unsigned long long min, unsigned long long max) {
    const char* text = value();
    char* end = nullptr;
    const unsigned long long v = std::strtoull(text, &end, 0);
    if (!*text || *end || v < min || v > max)
      fail(flag_ + ": expected an integer in [" + std::to_string(min) + ", " + std::to_string(max) + "], got '" + text + "'");
    return static_cast<T>(v);
  }

  [[noreturn]] void fail(const std::string& why) const {
    std::fprintf(stderr, "%s: %s\nusage: %s %s\n", program_.c_str(), why.c_str(), program_.c_str(), usage_.c_str());
    std::exit(2);
  }

 private:
  int argc_;
  char** argv_;
  std::string program_, usage_, flag_;
  int at_ = 0;
};

}  // namespace labbook::lab
