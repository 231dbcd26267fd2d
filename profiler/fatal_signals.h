#pragma once
/// @file
/// Writes the measurement when the profiled program dies of a signal (a crash, abort(),
/// Ctrl-C, kill), so what was collected up to then is not lost, then lets the signal take
/// its usual course so the program's exit status stays what it would have been.
namespace labbook::profiler {

/// Installs handlers for SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGINT, SIGTERM, SIGQUIT
/// and SIGHUP that call finish_collector("signal NAME"). A program that installs its own
/// handlers later replaces these, as it would replace the defaults.
void write_measurement_on_fatal_signals();

}  // namespace labbook::profiler
