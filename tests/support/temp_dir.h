#pragma once
// A fresh folder under /tmp for one test (mkdtemp): the caller removes it.
#include <stdlib.h>

#include <stdexcept>
#include <string>

namespace labbook::test {

inline std::string make_temp_dir(const std::string& prefix) {
  std::string name = "/tmp/" + prefix + "-XXXXXX";
  if (!::mkdtemp(name.data())) throw std::runtime_error("mkdtemp failed");
  return name;
}

}  // namespace labbook::test
