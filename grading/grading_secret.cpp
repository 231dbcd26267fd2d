#include "grading_secret.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string>
#include <random>

#include "labbook/model/atomic_file.h"
#include "labbook/model/error.h"

namespace labbook::grading {

namespace {

std::string random_hex(std::size_t bytes) {
  std::random_device device;   // the kernel's random source on Linux
  static const char digits[] = "0123456789abcdef";
  std::string hex;
  for (std::size_t i = 0; i < 2 * bytes; ++i) hex += digits[device() & 0xfu];
  return hex;
}

}  // namespace

std::string class_secret(const std::string& out_dir) {
  std::filesystem::create_directories(out_dir);
  const std::string path = out_dir + "/.grading-secret";
  // Written whole under a name of its own (Slurm tasks on two nodes may share a pid), then
  // linked: a task that loses the race reads the winner's secret, never a partial one.
  std::string tmp = path + ".XXXXXX";
  const std::string secret = random_hex(32);
  const int fd = ::mkstemp(tmp.data());
  if (fd < 0) throw Error(path + ": cannot create the class's secret: " + std::strerror(errno));
  const bool written = ::fchmod(fd, S_IRUSR) == 0 &&
                       ::write(fd, secret.data(), secret.size()) == static_cast<ssize_t>(secret.size());
  ::close(fd);
  const bool linked = written && (::link(tmp.c_str(), path.c_str()) == 0 || errno == EEXIST);
  const int why = errno;
  ::unlink(tmp.c_str());
  if (!linked) throw Error(path + ": cannot write the class's secret: " + std::strerror(why));
  std::string kept = read_file(path);
  if (kept.size() != secret.size()) throw Error(path + ": not a secret labbook wrote (remove it to grade afresh)");
  return kept;
}

std::uint64_t student_seed(const std::string& secret, const std::string& student, const std::string& submission) {
  // FNV-1a over the secret, the name and the submission, each ended by a separator.
  std::uint64_t h = 1469598103934665603ull;
  const auto mix = [&h](const std::string& text) {
    for (unsigned char c : text) h = (h ^ c) * 1099511628211ull;
    h = (h ^ 0u) * 1099511628211ull;
  };
  mix(secret);
  mix(student);
  mix(submission);
  return h % 1000000007ull;
}

}  // namespace labbook::grading
