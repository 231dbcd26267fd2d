#include "program_runner.h"

#include <sys/wait.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "labbook/model/error.h"

namespace labbook::profiler {

int run_program(const std::vector<std::string>& command,
                const std::map<std::string, std::string>& environment, const std::string& stdout_path) {
  if (command.empty()) throw Error("no program to run");
  int ready[2];   // closed on a successful exec; carries errno if exec fails
  if (pipe(ready) != 0) throw Error(std::string("pipe: ") + std::strerror(errno));
  const pid_t pid = fork();
  if (pid < 0) throw Error(std::string("fork: ") + std::strerror(errno));
  if (pid == 0) {
    close(ready[0]);
    fcntl(ready[1], F_SETFD, FD_CLOEXEC);
    for (const auto& [name, value] : environment) setenv(name.c_str(), value.c_str(), 1);
    if (!stdout_path.empty()) {
      const int out = ::open(stdout_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      if (out < 0 || ::dup2(out, STDOUT_FILENO) < 0) {
        const int err = errno;
        (void)!write(ready[1], &err, sizeof err);
        _exit(127);
      }
      if (out != STDOUT_FILENO) ::close(out);
    }
    std::vector<char*> argv;
    for (const auto& a : command) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execvp(argv[0], argv.data());
    const int err = errno;
    (void)!write(ready[1], &err, sizeof err);
    _exit(127);
  }
  close(ready[1]);
  int exec_errno = 0;
  const bool exec_failed = read(ready[0], &exec_errno, sizeof exec_errno) == sizeof exec_errno;
  close(ready[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (exec_failed) throw Error(command[0] + ": cannot run: " + std::strerror(exec_errno));
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return WEXITSTATUS(status);
}

bool program_exists(const std::string& program) {
  if (program.empty()) return false;
  if (program.find('/') != std::string::npos) return ::access(program.c_str(), X_OK) == 0;
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/bin:/bin";
  std::size_t start = 0;
  while (start <= dirs.size()) {
    const std::size_t end = std::min(dirs.find(':', start), dirs.size());
    const std::string dir = end > start ? dirs.substr(start, end - start) : ".";
    if (::access((dir + "/" + program).c_str(), X_OK) == 0) return true;
    start = end + 1;
  }
  return false;
}

}  // namespace labbook::profiler
