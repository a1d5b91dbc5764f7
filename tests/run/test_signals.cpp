// Stop signals (run/Signals.hpp; set-up once ignored them, SIGHUP/SIGQUIT exited 59): SIGUSR1/TERM/INT/HUP/QUIT only set the
// flag the run loop polls; inside an ImmediateStop scope (set-up) they end the process at once with
// exit 75. Each case runs in a forked child so the test process keeps its own handlers.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <csignal>

#include "core/Error.hpp"
#include "run/Signals.hpp"

namespace {

using namespace kirchhoff;

/// Runs `body` in a child; returns its exit status (or 128 + signal if a signal killed it).
template <class F>
int inChild(F&& body) {
  const pid_t pid = fork();
  if (pid == 0) _exit(body());
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

const int kStopSignals[] = {SIGUSR1, SIGTERM, SIGINT, SIGHUP, SIGQUIT};

TEST(Signals, StopSignalsOnlySetTheFlagInTheRunLoop) {
  for (int sig : kStopSignals) {
    const int code = inChild([sig] {
      run::installStopHandlers();
      run::clearStopRequest();
      std::raise(sig);
      return run::stopRequested() && run::stopSignal() == sig ? 0 : 1;
    });
    EXPECT_EQ(code, 0) << "signal " << sig;  // SIGHUP/SIGQUIT killed the process before (exit 59 under PETSc)
  }
}

TEST(Signals, DuringSetUpAStopSignalExitsAtOnceWith75) {
  for (int sig : kStopSignals) {
    const int code = inChild([sig] {
      run::installStopHandlers();
      run::clearStopRequest();
      const run::ImmediateStop setUp;
      std::raise(sig);
      return 3;  // not reached
    });
    EXPECT_EQ(code, kExitRequeue) << "signal " << sig;
  }
  // A signal that arrived just before the set-up is honoured when the scope opens ...
  EXPECT_EQ(inChild([] {
              run::installStopHandlers();
              run::clearStopRequest();
              std::raise(SIGTERM);
              const run::ImmediateStop setUp;
              return 3;
            }),
            kExitRequeue);
  // ... and after the scope the run loop's behaviour (flag only) is back.
  EXPECT_EQ(inChild([] {
              run::installStopHandlers();
              run::clearStopRequest();
              { const run::ImmediateStop setUp; }
              std::raise(SIGTERM);
              return run::stopRequested() ? 0 : 1;
            }),
            0);
}

}  // namespace
