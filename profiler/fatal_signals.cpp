#include "fatal_signals.h"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <string>

#include "collector.h"

namespace labbook::profiler {

namespace {

struct NamedSignal {
  int number;
  const char* name;
};
constexpr NamedSignal kSignals[] = {{SIGSEGV, "SIGSEGV"}, {SIGBUS, "SIGBUS"},   {SIGFPE, "SIGFPE"},
                                    {SIGILL, "SIGILL"},   {SIGABRT, "SIGABRT"}, {SIGINT, "SIGINT"},
                                    {SIGTERM, "SIGTERM"}, {SIGQUIT, "SIGQUIT"}, {SIGHUP, "SIGHUP"}};
struct sigaction g_previous[NSIG];
std::atomic<bool> g_handling{false};

// Writing JSON from a signal handler is not async-signal-safe. It is worth trying: the
// alternative is losing everything. If the collector deadlocks here (the crash hit while
// it held a lock), the alarm ends the process after a while, as the crash would have.
void on_fatal_signal(int sig) {
  if (!g_handling.exchange(true)) {
    alarm(30);
    std::string name = "signal " + std::to_string(sig);
    for (const auto& s : kSignals)
      if (s.number == sig) name = std::string("signal ") + s.name;
    finish_collector(name);
  }
  sigaction(sig, &g_previous[sig], nullptr);
  raise(sig);
}

}  // namespace

void write_measurement_on_fatal_signals() {
  struct sigaction action{};
  action.sa_handler = on_fatal_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESETHAND | SA_NODEFER;
  for (const auto& [sig, name] : kSignals) {
    struct sigaction previous{};
    sigaction(sig, nullptr, &previous);
    // A program or tool that already handles or ignores the signal keeps it.
    if (previous.sa_handler != SIG_DFL || (previous.sa_flags & SA_SIGINFO)) continue;
    g_previous[sig] = previous;
    sigaction(sig, &action, nullptr);
  }
}

}  // namespace labbook::profiler
