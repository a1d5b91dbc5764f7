// The watchdog thread: once a second it compares the time since the last beat with the stall
// limit max(stall_timeout, 50 x longest step, 5 x longest checkpoint), and a pending stop signal
// with the same grace; either way it prints who waited where, and _exit(75) (requeue me).
#include "run/Watchdog.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "core/Error.hpp"
#include "run/Signals.hpp"

namespace kirchhoff::run {

namespace {
double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
}  // namespace

Watchdog::Watchdog(double stallSeconds, std::string who, std::function<void()> tick, double tickSeconds)
    : stall_(stallSeconds), who_(std::move(who)), tick_(std::move(tick)), tickSeconds_(tickSeconds) {
  lastBeat_ = now();
  phase_ = "set-up";
  thread_ = std::thread([this] { watch(); });
}

Watchdog::~Watchdog() {
  {
    std::lock_guard<std::mutex> g(mutex_);
    quit_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void Watchdog::beat(const std::string& phase) {
  lastBeat_ = now();
  std::lock_guard<std::mutex> g(mutex_);
  phase_ = phase;
}

void Watchdog::observe(double stepSeconds, double checkpointSeconds) {
  if (stepSeconds > longestStep_) longestStep_ = stepSeconds;
  if (checkpointSeconds > longestCheckpoint_) longestCheckpoint_ = checkpointSeconds;
}

double Watchdog::limit() const {
  return std::max({stall_, 50.0 * longestStep_.load(), 5.0 * longestCheckpoint_.load()});
}

void Watchdog::stop(const std::string& why) const {
  std::string phase;
  {
    std::lock_guard<std::mutex> g(mutex_);
    phase = phase_;
  }
  char b[128];
  std::snprintf(b, sizeof b, " (longest step %.3g s, longest checkpoint %.3g s)", longestStep_.load(),
                longestCheckpoint_.load());
  std::fprintf(stderr,
               "%serror: watchdog: %s while in %s%s: another rank is gone or stuck in a collective; "
               "stopping with exit %d, the last checkpoint is kept: continue with --restart\n",
               who_.c_str(), why.c_str(), phase.c_str(), b, kExitRequeue);
  std::fflush(stderr);
  ::_exit(kExitRequeue);
}

void Watchdog::watch() {
  double lastTick = now(), signalSeen = -1.0;
  std::unique_lock<std::mutex> lk(mutex_);
  while (!quit_) {
    cv_.wait_for(lk, std::chrono::milliseconds(250));
    if (quit_) break;
    lk.unlock();
    const double t = now();
    if (tick_ && t - lastTick >= tickSeconds_) tick_(), lastTick = t;
    const double waited = t - lastBeat_.load();
    // The run loop polls the stop flag once per step: a signal that stays unanswered for the
    // stall limit means this rank is stuck (e.g. in a collective another rank never enters).
    if (stopRequested() && signalSeen < 0) signalSeen = t;
    const double lim = limit();
    if (stall_ > 0 && waited > lim) {
      char b[160];
      std::snprintf(b, sizeof b, "no progress for %.0f s (limit %.0f s, output.stall_timeout)", waited, lim);
      stop(b);
    }
    const double grace = std::max(30.0, 3.0 * longestStep_.load() + longestCheckpoint_.load());
    if (signalSeen >= 0 && t - signalSeen > grace && waited > grace) {
      char b[160];
      std::snprintf(b, sizeof b, "signal %d not answered for %.0f s", stopSignal(), t - signalSeen);
      stop(b);
    }
    lk.lock();
  }
}

}  // namespace kirchhoff::run
