// Preloaded into a program on the GPU machine (which has no debugger): on a crash it prints the
// stack as "binary(+offset)" lines, which addr2line resolves against the same build here.
//   LD_PRELOAD=.device-build/bin/segv_trace.so PROGRAM ...
#define _GNU_SOURCE
#include <execinfo.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

static void report(int sig) {
  void* frames[64];
  const int n = backtrace(frames, 64);
  const char* name = strsignal(sig);
  write(2, "segv_trace: ", 12);
  write(2, name, strlen(name));
  write(2, "\n", 1);
  backtrace_symbols_fd(frames, n, 2);
  signal(sig, SIG_DFL);
  raise(sig);
}

__attribute__((constructor)) static void install(void) {
  signal(SIGSEGV, report);
  signal(SIGBUS, report);
  signal(SIGILL, report);
  signal(SIGFPE, report);
  signal(SIGABRT, report);
}
