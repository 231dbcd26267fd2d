#pragma once
// Fresh folders under /tmp for one test (mkdtemp).
#include <stdlib.h>

#include <filesystem>
#include <stdexcept>
#include <string>
#include <system_error>

namespace labbook::test {

/// A fresh folder: the caller removes it.
inline std::string make_temp_dir(const std::string& prefix) {
  std::string name = "/tmp/" + prefix + "-XXXXXX";
  if (!::mkdtemp(name.data())) throw std::runtime_error("mkdtemp failed");
  return name;
}

/// A fresh folder removed with all it holds when the test is done, whether or not it passed.
class TempDir {
 public:
  explicit TempDir(const std::string& prefix) : path_(make_temp_dir(prefix)) {}
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace labbook::test
