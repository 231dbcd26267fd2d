#include "submission_check.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "labbook/model/atomic_file.h"
#include "labbook/model/text.h"
#include "labbook/model/toml_reader.h"

namespace labbook::grading {

bool NameSet::contains(const std::string& name) const {
  if (names.count(name)) return true;
  return std::any_of(prefixes.begin(), prefixes.end(), [&](const std::string& p) { return name.rfind(p, 0) == 0; });
}

SymbolPolicy load_symbol_policy(const std::string& base_toml_path, std::vector<std::string> host_calls,
                                std::vector<std::string> entry_points) {
  const toml::table root = parse_toml(read_file(base_toml_path), base_toml_path);
  const TomlReader top(root, base_toml_path, "allowed_symbols.toml");
  top.only({"host", "device", "generated", "sections"});
  SymbolPolicy p;
  p.host_calls = std::move(host_calls);
  p.entry_points = std::move(entry_points);
  const auto read = [&](const std::string& key, NameSet& into) {
    for (const toml::table* group : top.tables(key)) {
      const TomlReader r(*group, base_toml_path, "[[" + key + "]]");
      r.only({"names", "prefixes"});
      for (const std::string& name : r.strings("names", false)) into.names.insert(name);
      for (const std::string& prefix : r.strings("prefixes", false)) {
        if (prefix.empty()) r.fail("prefixes", "holds an empty prefix, which would allow every name");
        into.prefixes.push_back(prefix);
      }
    }
  };
  read("host", p.host);
  read("device", p.device);
  read("generated", p.generated);
  read("sections", p.sections);
  return p;
}

namespace {

bool starts_with(const std::string& s, const std::string& head) { return s.rfind(head, 0) == 0; }

// ---- readelf's three tables: section headers (-S), symbols (-s), relocations (-r) ----

struct Section {
  std::string name, type;
  unsigned long long size = 0, entry_size = 0;
};

struct Symbol {
  unsigned long long value = 0, size = 0;
  std::string type, bind, visibility, ndx, name;   // ndx: a section's index, UND, ABS or COM
  bool defined() const { return ndx != "UND"; }
  bool local() const { return bind == "LOCAL"; }
};

struct Relocation {
  unsigned long long offset = 0;   // where in the relocated section
  unsigned long long symbol = 0;   // its index in .symtab
  long long addend = 0;
};

struct ElfListing {
  std::map<unsigned long, Section> sections;                    // by index
  std::map<unsigned long, Symbol> symbols;                      // .symtab, by index
  std::map<std::string, std::vector<Relocation>> relocations;   // by relocation section
  std::string unread;   // the first section or symbol line that did not parse: refuse, not skip
};

/// What made a listing unreadable ("" when nothing did): a line that did not parse, or no
/// symbols (or sections) at all, as when readelf failed. The check refuses what it cannot read.
std::string unreadable(const ElfListing& elf, bool with_sections) {
  if (!elf.unread.empty()) return "readelf printed \"" + elf.unread + "\"";
  if (elf.symbols.empty() || (with_sections && elf.sections.empty()))
    return with_sections ? "no symbol table or section headers" : "no symbol table";
  return "";
}

ElfListing parse_readelf(const std::string& text) {
  // "  [11] .text.startup     PROGBITS        0000000000000000 0008a0 000021 00  AX  0   0 16"
  static const std::regex section_line(R"(^\s*\[\s*(\d+)\]\s+(\S+)\s+(\S+)\s+[0-9a-f]+\s+[0-9a-f]+\s+([0-9a-f]+)\s+([0-9a-f]+)\s)");
  // "    21: 0000000000000040   283 FUNC    GLOBAL HIDDEN     2 _Z16transpose_kernelPKfPfjj"; in a cubin
  // the type may read "<processor specific>: 13", and "[<other>: 10]" may follow the visibility.
  static const std::regex symbol_line(
      R"(^\s*(\d+):\s+([0-9a-f]+)\s+(\S+)\s+(.+?)\s+(LOCAL|GLOBAL|WEAK|UNIQUE)\s+(\S+)(?:\s+\[[^\]]*\])?\s+(UND|ABS|COM|\d+)\s*(\S*)\s*$)");
  // "0000000000000000  0000001100000001 R_X86_64_64   0000000000000000 .text.startup + 0": the
  // symbol's index is the top half of Info.
  static const std::regex relocation_line(R"(^([0-9a-f]+)\s+([0-9a-f]+)\s+R_\S+(.*)$)");
  static const std::regex addend(R"(([+-])\s*([0-9a-f]+)\s*$)");
  static const std::regex section_start(R"(^\s*\[\s*(\d+)\])"), symbol_start(R"(^\s*\d+:)");

  ElfListing elf;
  std::string relocated;     // the relocation section being read, if any
  bool in_symtab = true;     // not .dynsym
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    std::smatch m;
    if (starts_with(line, "Relocation section '")) {
      relocated = line.substr(20, line.find('\'', 20) - 20);
      continue;
    }
    if (starts_with(line, "Symbol table '")) in_symtab = line.find("'.symtab'") != std::string::npos;
    if (line.empty() || !std::isspace(static_cast<unsigned char>(line[0]))) {
      if (!relocated.empty() && std::regex_match(line, m, relocation_line)) {
        Relocation r;
        r.offset = std::stoull(m[1].str(), nullptr, 16);
        r.symbol = std::stoull(m[2].str(), nullptr, 16) >> 32;
        const std::string rest = m[3].str();
        if (std::smatch a; std::regex_search(rest, a, addend))
          r.addend = (a[1] == "-" ? -1 : 1) * static_cast<long long>(std::stoull(a[2].str(), nullptr, 16));
        elf.relocations[relocated].push_back(r);
      } else if (line.empty()) {
        relocated.clear();
      }
      continue;
    }
    if (std::regex_search(line, m, section_start)) {   // a section header; [0] is the null one
      if (std::stoul(m[1].str()) == 0) continue;
      if (std::regex_search(line, m, section_line))
        elf.sections[std::stoul(m[1].str())] = {m[2].str(), m[3].str(), std::stoull(m[4].str(), nullptr, 16),
                                                std::stoull(m[5].str(), nullptr, 16)};
      else if (elf.unread.empty())
        elf.unread = line;
    } else if (in_symtab && std::regex_search(line, symbol_start)) {   // a symbol
      if (std::regex_match(line, m, symbol_line)) {
        // The size is decimal, or hex ("0x1a0") when large.
        elf.symbols[std::stoul(m[1].str())] = {std::stoull(m[2].str(), nullptr, 16), std::stoull(m[3].str(), nullptr, 0),
                                              m[4].str(), m[5].str(), m[6].str(), m[7].str(), m[8].str()};
      } else if (elf.unread.empty()) {
        elf.unread = line;
      }
    }
  }
  return elf;
}

// ---- the rules ----

const char* const kBeforeMain =
    "the submission runs code before main (a global object's constructor or a constructor function): hand in "
    "kernels and functions only";

/// "a", "a and b", "a, b and c".
std::string listed(const std::vector<std::string>& items) {
  if (items.size() < 2) return items.empty() ? "" : items[0];
  return join(std::vector<std::string>(items.begin(), items.end() - 1), ", ") + " and " + items.back();
}

/// What the exercise lets host code call, for a refusal: six of its CUDA calls at most by name.
std::string may_call(const SymbolPolicy& p) {
  const std::vector<std::string>& calls = p.host_calls;
  if (calls.size() <= 6) return join(calls, ", ") + (calls.empty() ? "" : ", ") + "the C math library and its own kernels";
  return "the C math library, its own kernels and " + std::to_string(calls.size()) + " CUDA runtime calls (" +
         join(std::vector<std::string>(calls.begin(), calls.begin() + 6), ", ") + ", ...)";
}

bool is_entry_point(const SymbolPolicy& p, const std::string& name) {
  const std::string shown = demangled(name);
  return std::any_of(p.entry_points.begin(), p.entry_points.end(),
                     [&](const std::string& e) { return name == e || starts_with(shown, e + "("); });
}

/// Names of the C++ library and ABI, and operator new and delete: a definition of one, even a
/// weak one, replaces the library's (or the harness's copy) for the whole program.
bool in_library_namespace(const std::string& name) {
  // After _Z and a special name's prefix (vtable TV, typeinfo TI/TS, VTT TT, guard variable
  // GV) and a nested name's qualifiers: std (St, or Sa/Sb/Ss/Si/So/Sd, its abbreviations),
  // __gnu_cxx or __cxxabiv1.
  static const std::regex library(R"(^_Z(T[VIST]|GV)?(N[rVKRO]*)?(St|S[absiod]|9__gnu_cxx|10__cxxabiv1))");
  static const std::regex new_or_delete("^_Z(nw|na|dl|da)");
  return std::regex_search(name, library) || std::regex_search(name, new_or_delete);
}

/// Why the submission's code would run before or after main ("" when only nvcc's registration
/// would): a section outside the allowed set, a constructor array other than .init_array, or
/// an .init_array entry other than nvcc's registration.
std::string section_problem(const SymbolPolicy& p, const ElfListing& elf) {
  for (const auto& [index, s] : elf.sections) {
    std::string target = s.name;   // .rela.X relocates X, and is allowed where X is
    if (starts_with(s.name, ".rela.")) target = s.name.substr(5);
    else if (starts_with(s.name, ".rel.")) target = s.name.substr(4);
    const bool code_table = s.type == "INIT_ARRAY" || s.type == "PREINIT_ARRAY" || s.type == "FINI_ARRAY";
    if (p.sections.contains(target) && (!code_table || s.name == ".init_array")) continue;
    std::string why = "is not one nvcc makes: hand in kernels and functions, without section attributes or "
                      "assembler directives";
    if (s.type == "FINI_ARRAY" || starts_with(target, ".fini_array") || starts_with(target, ".dtors") || target == ".fini")
      why = "runs at exit: nothing of the submission's may run after the harness's main";
    else if (code_table || starts_with(target, ".init_array") || starts_with(target, ".preinit_array") ||
             starts_with(target, ".ctors") || target == ".init")
      why = "runs before main: nothing of the submission's may run before the harness's main";
    return "the submission puts code or data in section " + s.name + ", which " + why;
  }

  // .init_array's one entry must be nvcc's registration of the file with the CUDA runtime:
  // a local function named ..__sti____cudaRegisterAll.. (at .text.startup + its value).
  unsigned long long entries = 0;
  for (const auto& [index, s] : elf.sections)
    if (s.name == ".init_array") entries += s.size / (s.entry_size ? s.entry_size : 8);
  std::vector<Relocation> relocations;
  for (const char* name : {".rela.init_array", ".rel.init_array"})
    if (auto r = elf.relocations.find(name); r != elf.relocations.end())
      relocations.insert(relocations.end(), r->second.begin(), r->second.end());
  if (entries == 0 && relocations.empty()) return "";
  if (entries != 1 || relocations.size() != 1) return kBeforeMain;
  const auto target = elf.symbols.find(relocations[0].symbol);
  for (const auto& [index, s] : elf.symbols)
    if (s.local() && s.type == "FUNC" && s.name.find("__sti____cudaRegisterAll") != std::string::npos &&
        target != elf.symbols.end() && target->second.ndx == s.ndx &&
        target->second.value + relocations[0].addend == s.value)
      return "";
  return kBeforeMain;
}

/// Why a definition of the submission's (not local) is refused, "" when it is fine.
std::string definition_problem(const SymbolPolicy& p, const Symbol& s, const std::set<std::string>& harness) {
  const std::string shown = demangled(s.name);
  if (s.type == "OBJECT" && p.generated.contains(s.name)) return "";
  if (s.name.find("7labbook") != std::string::npos)
    return "the submission defines " + shown + " in namespace labbook, which is the harness's";
  if (in_library_namespace(s.name))
    return "the submission defines " + shown + ", which belongs to the C++ library: a definition of it, even an "
           "inline one, replaces the library's";
  if (is_entry_point(p, s.name)) return "";
  if (harness.count(s.name))
    return "the submission defines " + shown + ", which replaces the harness's " + shown + ": give yours another name";
  if (s.type == "FUNC" && !starts_with(s.name, "_Z"))
    return "the submission defines " + shown + ", a function with C linkage that the C library, the CUDA runtime or "
           "the harness may use: give it a C++ name or make it static";
  // A variable's name is not mangled; one beginning with an underscore may be the C library's
  // or one the linker provides only where no object defines it (__init_array_start, ...).
  if (!starts_with(s.name, "_Z") && starts_with(s.name, "_"))
    return "the submission defines " + shown + ", a name that the compiler, the C library and the linker keep for "
           "themselves (it begins with an underscore): rename it";
  if (s.visibility == "DEFAULT" || s.visibility == "PROTECTED")
    return "only the exercise's functions may be visible outside the file: make " + shown +
           " static or put it in an anonymous namespace";
  return "";
}

/// A reference to a C++ name outside the libraries is to a function the file does not
/// define (the harness's reference kernel, another file's function); anything else is a call.
bool is_foreign_function(const std::string& name) { return starts_with(name, "_Z") && !in_library_namespace(name); }

/// Whether every call `elf` makes to the symbol at `index` is made from a function nothing can
/// call: not an entry point (the harness's only way in) and named by no relocation (no call,
/// no address taken). nvcc gives each `__device__` function that is neither static nor inline
/// such a host body, which calls exit(1): a student's helper must not be refused for it.
bool only_from_dead_code(const ElfListing& elf, unsigned long index, const SymbolPolicy& policy) {
  std::set<unsigned long long> named;   // symbols some relocation names
  for (const auto& [relocated, relocations] : elf.relocations)
    for (const auto& r : relocations) named.insert(r.symbol);
  bool any = false;
  for (const auto& [relocated, relocations] : elf.relocations) {
    if (!starts_with(relocated, ".rela")) continue;
    const std::string target = relocated.substr(5);   // ".rela.text" relocates ".text"
    std::string section_index;
    for (const auto& [i, section] : elf.sections)
      if (section.name == target) section_index = std::to_string(i);
    for (const auto& r : relocations) {
      if (r.symbol != index) continue;
      any = true;
      const auto from = std::find_if(elf.symbols.begin(), elf.symbols.end(), [&](const auto& entry) {
        const Symbol& f = entry.second;
        return f.type == "FUNC" && f.ndx == section_index && f.value <= r.offset && r.offset < f.value + f.size;
      });
      if (from == elf.symbols.end() || named.count(from->first) || is_entry_point(policy, from->second.name)) return false;
    }
  }
  return any;
}

}  // namespace

std::string object_problem(const SymbolPolicy& policy, const std::string& submission_readelf,
                           const std::string& harness_readelf) {
  const ElfListing elf = parse_readelf(submission_readelf), harness_elf = parse_readelf(harness_readelf);
  if (std::string why = unreadable(elf, true); !why.empty())
    return "labbook could not read the submission's object (" + why + "): ask your instructor.";
  if (std::string why = unreadable(harness_elf, false); !why.empty())
    return "labbook could not read the harness's object (" + why + "): ask your instructor.";
  std::vector<const Symbol*> definitions, references;
  bool exit_unreachable = false;   // only code nothing can call calls exit
  for (const auto& [index, s] : elf.symbols)
    if (!s.defined() && s.name == "exit") exit_unreachable = only_from_dead_code(elf, index, policy);
  for (const auto& [index, s] : elf.symbols) {
    if (s.type == "IFUNC")
      return "the submission runs code before main (" + demangled(s.name) + " is an ifunc, whose resolver the "
             "loader calls before main): hand in kernels and functions only.";
    if (s.local() || s.name.empty()) continue;
    if (s.name == "main" && s.defined()) return "the submission defines main: the harness owns main.";
    (s.defined() ? definitions : references).push_back(&s);
  }
  if (std::string why = section_problem(policy, elf); !why.empty()) return why + ".";

  std::set<std::string> harness;   // every name harness.o defines or references
  for (const auto& [index, s] : harness_elf.symbols)
    if (!s.local() && !s.name.empty()) harness.insert(s.name);
  for (const Symbol* s : definitions)
    if (std::string why = definition_problem(policy, *s, harness); !why.empty()) return why + ".";

  std::vector<std::string> calls;
  std::string foreign;
  for (const Symbol* s : references) {
    if (policy.host.contains(s->name) || (s->name == "exit" && exit_unreachable) ||
        std::find(policy.host_calls.begin(), policy.host_calls.end(), s->name) != policy.host_calls.end())
      continue;
    if (!is_foreign_function(s->name)) calls.push_back(demangled(s->name));
    else if (foreign.empty()) foreign = demangled(s->name);
  }
  if (!calls.empty())
    return "the submission calls " + listed(calls) + ", which this exercise does not allow (it may call " +
           may_call(policy) + ").";
  if (!foreign.empty())
    return "the submission uses " + foreign + ", which it does not define (a kernel or function of the harness or of "
           "another file): hand in one file that defines everything it uses besides the CUDA runtime.";
  return "";
}

std::string device_problem(const SymbolPolicy& policy, const std::string& cubin_readelf) {
  const ElfListing elf = parse_readelf(cubin_readelf);
  if (std::string why = unreadable(elf, false); !why.empty())
    return "labbook could not read the submission's device code (" + why + "): ask your instructor.";
  std::vector<std::string> calls;
  std::string foreign;
  for (const auto& [index, s] : elf.symbols) {
    if (s.local() || s.name.empty()) continue;
    const std::string shown = demangled(s.name);
    if (s.defined()) {
      // Device code is linked with the harness's and the device runtime's: the same names
      // would replace theirs.
      if (s.name.find("7labbook") != std::string::npos || in_library_namespace(s.name) ||
          (s.type == "FUNC" && !starts_with(s.name, "_Z") && !is_entry_point(policy, s.name)))
        return "the submission's device code defines " + shown + ", a name the harness's device code or the CUDA "
               "device runtime may use: give it a C++ name of your own.";
    } else if (!policy.device.contains(s.name)) {
      if (!is_foreign_function(s.name)) calls.push_back(shown);
      else if (foreign.empty()) foreign = shown;
    }
  }
  if (!calls.empty())
    return "the submission's device code calls " + listed(calls) + ", which this exercise does not allow (device code "
           "may call printf, malloc, free, assert, and launch kernels).";
  if (!foreign.empty())
    return "the submission's device code calls " + foreign + ", which it does not define (a __device__ function of "
           "the harness or of another file): hand in one file that defines every function it calls.";
  return "";
}

std::string device_instruction_problem(const std::string& ptx) {
  static const std::regex function(R"(\.(entry|func)\s+(\([^)]*\)\s*)?([A-Za-z_$][A-Za-z0-9_$]*))");
  static const std::regex bulk_copy(R"(\b(cp\.(reduce\.)?async\.bulk)\b)");
  std::string in;
  std::istringstream lines(ptx);
  for (std::string line; std::getline(lines, line);) {
    std::smatch m;
    if (std::regex_search(line, m, function)) in = m[3].str();
    if (std::regex_search(line, m, bulk_copy))
      return "the submission's device code copies with the Tensor Memory Accelerator (" + m[1].str() +
             (in.empty() ? "" : " in " + demangled(in)) + "), whose traffic no counter this exercise is graded on "
             "sees: use loads and stores, or cp.async.";
  }
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
