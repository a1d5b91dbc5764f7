// The exclusive lock of an output folder (docs/running.md, "One run per output folder"): the file
// OUTDIR/.kirchhoff.lock holds host, pid, job id, start time and a heartbeat under an fcntl lock.
#pragma once

#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

namespace kirchhoff::io {

/// Who holds (or last held) an output folder.
struct LockHolder {
  std::string host, pid, job, started, heartbeat;
  std::string describe() const;  ///< "host h, pid 123, job 456, since 2026-..."
};

class OutdirLock {
 public:
  OutdirLock() = default;
  OutdirLock(const OutdirLock&) = delete;
  OutdirLock& operator=(const OutdirLock&) = delete;
  ~OutdirLock();

  /// Takes the lock of `outdir` (which must exist). Throws UsageError (exit 64) naming the holder
  /// when another live process holds it. A stale lock (its holder died) is taken over and
  /// `*staleWarning` says whose it was.
  void acquire(const std::string& outdir, std::string* staleWarning);
  /// Rewrites the heartbeat time (for file systems whose OS locks do not reach other hosts).
  void heartbeat();
  /// Rewrites the heartbeat every kHeartbeatSeconds on a thread of its own until release() (a
  /// sweep's folder, whose runs beat only their cases' locks).
  void keepAlive();
  /// Empties the lock file and releases the OS lock (also done by the destructor and by death).
  void release();
  bool held() const { return fd_ >= 0; }
  const std::string& path() const { return path_; }

  /// Seconds after which a heartbeat from another host counts as stale.
  static constexpr double kStaleSeconds = 180.0;
  /// Seconds between heartbeats.
  static constexpr double kHeartbeatSeconds = 30.0;

 private:
  void writeContents();
  void stopKeepAlive();
  std::mutex mutex_;  // heartbeat() runs on the watchdog thread
  std::condition_variable wake_;
  std::thread beat_;
  bool quit_ = false;
  int fd_ = -1;
  std::string path_;
  LockHolder me_;
};

}  // namespace kirchhoff::io
