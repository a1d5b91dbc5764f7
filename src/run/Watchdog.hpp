// The collective watchdog (docs/running.md, "Hangs and the watchdog"): a thread that ends the
// process when its rank made no progress far longer than a step takes, or ignored a stop signal.
#pragma once

#include <atomic>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace kirchhoff::run {

class Watchdog {
 public:
  /// `stallSeconds` <= 0 disables the stall check. `tick` runs on the watchdog thread every
  /// `tickSeconds` (the output-folder lock's heartbeat). The thread never calls MPI.
  Watchdog(double stallSeconds, std::string who, std::function<void()> tick, double tickSeconds);
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;
  ~Watchdog();

  /// Main thread: progress was made; now in `phase` (a string literal: "set-up", "step 12", ...).
  void beat(const std::string& phase);
  /// Main thread: the longest step / checkpoint so far (the stall limit grows with them).
  void observe(double stepSeconds, double checkpointSeconds);
  /// The current stall limit in seconds.
  double limit() const;

 private:
  void watch();
  [[noreturn]] void stop(const std::string& why) const;

  double stall_;
  std::string who_;
  std::function<void()> tick_;
  double tickSeconds_;
  std::atomic<double> lastBeat_{0.0};
  std::atomic<double> longestStep_{0.0}, longestCheckpoint_{0.0};
  mutable std::mutex mutex_;
  std::string phase_;
  std::condition_variable cv_;
  bool quit_ = false;
  std::thread thread_;
};

}  // namespace kirchhoff::run
