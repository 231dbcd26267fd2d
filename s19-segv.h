#include <execinfo.h>
#include <signal.h>
#include <unistd.h>
#include <cstdio>
static void s19_on_segv(int) { void* f[64]; int n = backtrace(f, 64); backtrace_symbols_fd(f, n, 2); _exit(139); }
static int s19_installed = (signal(SIGSEGV, s19_on_segv), 0);
