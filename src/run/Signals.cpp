// Stop-signal handlers: a sig_atomic_t flag set by SIGUSR1, SIGTERM, SIGINT, SIGHUP and SIGQUIT.
// Installed with sigaction after PETSc so PETSc's handler does not turn them into aborts.
#include "run/Signals.hpp"

#include <csignal>

namespace kirchhoff::run {

namespace {
volatile std::sig_atomic_t gStop = 0;

extern "C" void onStopSignal(int sig) { gStop = sig; }
}  // namespace

void installStopHandlers() {
  struct sigaction sa {};
  sa.sa_handler = onStopSignal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  sigaction(SIGUSR1, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGHUP, &sa, nullptr);   // a closed terminal or ssh session: checkpoint, not PETSc's exit 59
  sigaction(SIGQUIT, &sa, nullptr);
}

bool stopRequested() { return gStop != 0; }
int stopSignal() { return static_cast<int>(gStop); }
void clearStopRequest() { gStop = 0; }

}  // namespace kirchhoff::run
