// SIGUSR1 / SIGTERM / SIGINT / SIGHUP / SIGQUIT only set a flag (async-signal-safe); the run loop
// polls it, all ranks agree by an allreduce, checkpoint and exit 75 ("requeue me"). During set-up
// (an ImmediateStop scope: deck, model construction) there is nothing to save: exit 75 at once.
#pragma once

namespace kirchhoff::run {

/// Installs the handlers (call after PetscInitialize, which installs its own).
void installStopHandlers();
/// True once a stop signal arrived on this rank.
bool stopRequested();
/// The signal number that requested the stop (0 if none).
int stopSignal();
/// For tests: clears the flag.
void clearStopRequest();

/// While one lives, a stop signal ends the process at once with exit 75 and a one-line message
/// (set-up writes no output, so nothing is lost); a signal that arrived before it is honoured on
/// construction. Scopes nest; the loop's checkpoint-then-exit behaviour resumes after the last.
class ImmediateStop {
 public:
  ImmediateStop();
  ~ImmediateStop();
  ImmediateStop(const ImmediateStop&) = delete;
  ImmediateStop& operator=(const ImmediateStop&) = delete;
};

}  // namespace kirchhoff::run
