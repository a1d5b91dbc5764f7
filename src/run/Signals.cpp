// Stop-signal handlers: a sig_atomic_t flag set by SIGUSR1, SIGTERM, SIGINT, SIGHUP and SIGQUIT, or,
// inside an ImmediateStop scope (set-up), write(2) and _exit(75). Installed with sigaction after
// PETSc so PETSc's handler does not turn them into aborts (it made SIGHUP/SIGQUIT exit 59).
#include "run/Signals.hpp"

#include <unistd.h>

#include <csignal>

#include "core/Error.hpp"

namespace kirchhoff::run {

namespace {
volatile std::sig_atomic_t gStop = 0;
volatile std::sig_atomic_t gImmediate = 0;

[[noreturn]] void exitDuringSetUp() {
  static const char msg[] =
      "kirchhoff: stop signal during set-up (nothing to checkpoint yet): exit 75\n";
  (void)!::write(STDERR_FILENO, msg, sizeof msg - 1);
  ::_exit(kExitRequeue);
}

extern "C" void onStopSignal(int sig) {
  gStop = sig;
  if (gImmediate > 0) exitDuringSetUp();
}
}  // namespace

void installStopHandlers() {
  struct sigaction sa {};
  sa.sa_handler = onStopSignal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  for (int sig : {SIGUSR1, SIGTERM, SIGINT, SIGHUP, SIGQUIT}) sigaction(sig, &sa, nullptr);
}

bool stopRequested() { return gStop != 0; }
int stopSignal() { return static_cast<int>(gStop); }
void clearStopRequest() { gStop = 0; }

ImmediateStop::ImmediateStop() {
  gImmediate = gImmediate + 1;
  if (gStop != 0) exitDuringSetUp();
}

ImmediateStop::~ImmediateStop() { gImmediate = gImmediate - 1; }

}  // namespace kirchhoff::run
