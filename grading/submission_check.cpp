#include "submission_check.h"

#include <regex>
#include <sstream>

#include "labbook/model/text.h"

namespace labbook::grading {

namespace {

/// Library functions a submission has no business calling, by what they would let it do.
struct Forbidden {
  const char* why;
  std::vector<std::string> names;
};
const std::vector<Forbidden>& forbidden_calls() {
  static const std::vector<Forbidden> list = {
      {"opens or changes files: a submission reads and writes no files (the harness owns input and output)",
       {"fopen", "fopen64", "freopen", "freopen64", "fdopen", "open", "open64", "openat", "openat64", "creat", "creat64",
        "remove", "unlink", "unlinkat", "rename", "renameat", "truncate", "ftruncate", "mkdir", "rmdir", "opendir",
        "chdir", "chmod", "symlink", "link", "dup2", "dup3"}},
      {"starts or signals processes", {"system", "popen", "fork", "vfork", "execl", "execlp", "execle", "execv", "execvp",
                                       "execve", "execvpe", "posix_spawn", "posix_spawnp", "clone", "kill", "ptrace"}},
      {"ends the program or runs code at its end: the harness decides when the program ends",
       {"exit", "_exit", "_Exit", "quick_exit", "atexit", "at_quick_exit", "on_exit"}},
      {"reads or changes the environment", {"getenv", "secure_getenv", "setenv", "unsetenv", "putenv", "clearenv"}},
      {"loads code or goes around the C library", {"dlopen", "dlmopen", "dlsym", "dlvsym", "syscall", "mprotect", "signal",
                                                    "sigaction", "setjmp", "longjmp", "_setjmp", "__longjmp_chk"}}};
  return list;
}

/// Parts of C++ names (mangled) that give away file streams or std::filesystem.
constexpr const char* kForbiddenManglings[] = {"basic_ofstream", "basic_ifstream", "basic_fstream", "basic_filebuf",
                                               "St10filesystem"};

bool starts_with(const std::string& s, const char* head) { return s.rfind(head, 0) == 0; }

/// Why a symbol the submission defines is refused ("" when it is fine). Its C++ functions
/// are its own; a function with C linkage, or in namespace std or labbook, would replace the C
/// library's, the CUDA runtime's or the harness's own at link time (even a weak one: the
/// program's definitions come before a shared library's). Variables with C names are the
/// student's (a __device__ variable's host shadow is one), except the C library's own.
std::string definition_problem(const std::string& name, const std::string& type, const std::string& bind) {
  if (name == "main") return "the submission defines main: the harness owns main";
  if (starts_with(name, "__cuda") || starts_with(name, "__fatbinwrap") || starts_with(name, "__nv")) return "";
  const std::string shown = demangled(name);
  if (type == "OBJECT") {
    for (const char* libc : {"stdin", "stdout", "stderr", "environ", "__environ", "errno", "program_invocation_name"})
      if (name == libc) return "the submission defines " + shown + ", which belongs to the C library";
    return "";
  }
  if (type != "FUNC") return "";
  if (!starts_with(name, "_Z")) {
    if (bind == "WEAK" && starts_with(name, "nvtx")) return "";   // NVTX's header defines these
    return "the submission defines " + shown + ", a function with C linkage that the C library, the CUDA runtime "
           "or the harness may use: give it a C++ name or make it static";
  }
  if (name.find("7labbook") != std::string::npos)
    return "the submission defines " + shown + " in namespace labbook, which is the harness's";
  if (bind == "GLOBAL" && (starts_with(name, "_ZNSt") || starts_with(name, "_ZSt") || starts_with(name, "_ZNKSt") ||
                           starts_with(name, "_Znw") || starts_with(name, "_Zna") || starts_with(name, "_Zdl") ||
                           starts_with(name, "_Zda")))
    return "the submission defines " + shown + ", which belongs to the C++ library";
  return "";
}

std::string call_problem(const std::string& name) {
  for (const auto& f : forbidden_calls())
    for (const auto& n : f.names)
      if (name == n) return "the submission calls " + n + ", which " + f.why;
  for (const char* part : kForbiddenManglings)
    if (name.find(part) != std::string::npos) return "the submission uses " + demangled(name) + ", which opens files";
  return "";
}

}  // namespace

std::string object_problem(const std::string& readelf_output) {
  std::istringstream in(readelf_output);
  std::string line;
  bool in_init_array = false;
  int initialisers = 0;
  std::string problem;
  while (std::getline(in, line)) {
    if (line.rfind("Relocation section", 0) == 0) {
      in_init_array = line.find("'.rela.init_array'") != std::string::npos ||
                      line.find("'.rel.init_array'") != std::string::npos;
      continue;
    }
    if (line.empty()) {
      in_init_array = false;
      continue;
    }
    // A relocation entry starts with its hexadecimal offset.
    if (in_init_array && line.find_first_not_of("0123456789abcdef") > 0 && line.find(" R_") != std::string::npos)
      ++initialisers;
    // A symbol table line: "  12: 0000000000000000   123 FUNC    GLOBAL DEFAULT    2 main"
    std::istringstream fields(line);
    std::string num, value, size, type, bind, vis, ndx, name;
    if (!(fields >> num >> value >> size >> type >> bind >> vis >> ndx >> name) || num.back() != ':') continue;
    if (bind != "GLOBAL" && bind != "WEAK") continue;
    const std::string why = ndx == "UND" ? call_problem(name) : definition_problem(name, type, bind);
    if (!why.empty() && (problem.empty() || (name == "main" && ndx != "UND"))) problem = why;   // main says it best
  }
  if (!problem.empty()) return problem + ".";
  if (initialisers > 1)
    return "the submission runs code before main (a global object's constructor or a constructor function): "
           "hand in kernels and functions only.";
  return "";
}

std::string host_code_problem(const std::string& objdump_output) {
  // The x86-64 instructions that enter the kernel; objdump prints the mnemonic after the
  // bytes: "  4005d0:\t0f 05   \tsyscall".
  static const std::regex system_call(R"(\t(syscall|sysenter|int +\$0x80)\b)");
  std::string function;
  std::istringstream lines(objdump_output);
  for (std::string line; std::getline(lines, line);) {
    if (!line.empty() && line.back() == ':' && line.find('<') != std::string::npos)
      function = line.substr(line.find('<') + 1, line.rfind('>') - line.find('<') - 1);   // "0000000000000000 <f>:"
    std::smatch m;
    if (std::regex_search(line, m, system_call))
      return "the submission makes a system call itself (" + m[1].str() + " in " + demangled(function) +
             "): it may only compute, through the CUDA runtime";
  }
  return "";
}

}  // namespace labbook::grading
