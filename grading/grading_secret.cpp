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
  // Written whole under another name, then linked: a task that loses the race reads the
  // winner's secret, never a partial one.
  const std::string tmp = path + "." + std::to_string(::getpid());
  const std::string secret = random_hex(32);
  ::unlink(tmp.c_str());   // left by a run that died between open and unlink
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL, S_IRUSR);
  if (fd < 0) throw Error(tmp + ": cannot create: " + std::strerror(errno));
  const bool written = ::write(fd, secret.data(), secret.size()) == static_cast<ssize_t>(secret.size());
  ::close(fd);
  const bool linked = written && (::link(tmp.c_str(), path.c_str()) == 0 || errno == EEXIST);
  const int why = errno;
  ::unlink(tmp.c_str());
  if (!linked) throw Error(path + ": cannot write the class's secret: " + std::strerror(why));
  std::string kept = read_file(path);
  if (kept.size() != secret.size()) throw Error(path + ": not a secret labbook wrote (remove it to grade afresh)");
  return kept;
}

std::uint64_t student_seed(const std::string& secret, const std::string& student) {
  std::uint64_t h = 1469598103934665603ull;   // FNV-1a over the secret, a separator, the name
  const auto mix = [&h](unsigned char c) { h = (h ^ c) * 1099511628211ull; };
  for (unsigned char c : secret) mix(c);
  mix(0);
  for (unsigned char c : student) mix(c);
  return h % 1000000007ull;
}

}  // namespace labbook::grading
