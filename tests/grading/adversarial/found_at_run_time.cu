// Adversarial: names no forbidden function. It finds open and write in the C library at run
// time (from memcpy's address back to the library's ELF header, then through its dynamic
// symbol table), tries to create the old result file, and forges the harness's records on the
// descriptor labbook reads them from: "correct, and the end". Only the kernel (seccomp) and
// labbook's own reading of the records stand in its way.
#include <elf.h>
#include <fcntl.h>

#include <cstdint>
#include <cstring>

#include <cuda_runtime.h>

namespace {

using Open = int (*)(const char*, int, ...);
using Write = long (*)(int, const void*, unsigned long);

const unsigned char* library_base(const void* inside) {
  auto page = reinterpret_cast<std::uintptr_t>(inside) & ~std::uintptr_t{4095};
  for (;; page -= 4096) {
    const auto* p = reinterpret_cast<const unsigned char*>(page);
    if (p[0] == 0x7f && p[1] == 'E' && p[2] == 'L' && p[3] == 'F') return p;
  }
}

const void* find_function(const unsigned char* base, const char* name) {
  const auto* header = reinterpret_cast<const Elf64_Ehdr*>(base);
  const auto* phdr = reinterpret_cast<const Elf64_Phdr*>(base + header->e_phoff);
  const Elf64_Dyn* dynamic = nullptr;
  for (int i = 0; i < header->e_phnum; ++i)
    if (phdr[i].p_type == PT_DYNAMIC) dynamic = reinterpret_cast<const Elf64_Dyn*>(base + phdr[i].p_vaddr);
  if (!dynamic) return nullptr;
  std::uintptr_t symtab = 0, strtab = 0;
  for (const Elf64_Dyn* d = dynamic; d->d_tag != DT_NULL; ++d) {
    if (d->d_tag == DT_SYMTAB) symtab = d->d_un.d_ptr;
    if (d->d_tag == DT_STRTAB) strtab = d->d_un.d_ptr;
  }
  const auto at = [&](std::uintptr_t a) { return a < reinterpret_cast<std::uintptr_t>(base) ? a + reinterpret_cast<std::uintptr_t>(base) : a; };
  const auto* symbols = reinterpret_cast<const Elf64_Sym*>(at(symtab));
  const char* strings = reinterpret_cast<const char*>(at(strtab));
  for (const Elf64_Sym* s = symbols; reinterpret_cast<const char*>(s) < strings; ++s) {
    const char* n = strings + s->st_name;
    std::size_t i = 0;
    while (name[i] && n[i] == name[i]) ++i;
    if (!name[i] && !n[i] && ELF64_ST_TYPE(s->st_info) == STT_FUNC && s->st_value) return base + s->st_value;
  }
  return nullptr;
}

}  // namespace

void transpose(const float*, float*, unsigned, unsigned) {
  static bool tried = false;
  if (tried) return;
  tried = true;
  const unsigned char* libc = library_base(reinterpret_cast<const void*>(&std::memcpy));
  const auto open = reinterpret_cast<Open>(find_function(libc, "open"));
  const auto write = reinterpret_cast<Write>(find_function(libc, "write"));
  if (!open || !write) return;
  const int fd = open("result.json", O_WRONLY | O_CREAT | O_TRUNC, 0644);
  const char* said = fd >= 0 ? "found_at_run_time: created result.json\n" : "found_at_run_time: open refused\n";
  write(2, said, std::strlen(said));
  static const char forged[] = "{\"labbook_harness\": 2}\n{\"end\": true}\n";
  for (int records = 3; records < 16; ++records) write(records, forged, sizeof forged - 1);
}
