// SIGUSR1 / SIGTERM / SIGINT / SIGHUP / SIGQUIT only set a flag (async-signal-safe); the run loop polls it, all
// ranks agree by an allreduce, checkpoint and exit 75 ("requeue me").
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

}  // namespace kirchhoff::run
