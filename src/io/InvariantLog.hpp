// OUTDIR/invariants.h5: group /invariants with equal-length, chunked, extendible 1-D datasets
// `step`, `time` and one per invariant; root attributes describe the run. Rank 0 writes it.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/Quantity.hpp"

namespace kirchhoff::io {

class InvariantLog {
 public:
  /// Creates a fresh log at `path` (replacing any old one) with the given columns and root
  /// string/integer attributes. Each column carries units, description and kind from
  /// `quantities` (same order as `names`, as the model declares them; a column without one gets
  /// empty units and description); integer quantities (counts) are stored as int64. `time`
  /// describes the time column (the model's units).
  static InvariantLog create(const std::string& path, const std::vector<std::string>& names,
                             const std::map<std::string, std::string>& attributes,
                             std::int64_t nranks, int flushInterval,
                             const std::vector<Quantity>& quantities = {},
                             const Quantity& time = timeQuantity());
  /// Reopens the log of a run being restarted at `step`: rows after `step` (and off the
  /// logging grid step % logInterval == 0, e.g. a final row) are cut off, so the continued log
  /// equals an uninterrupted one. Falls back to the copy `path.ckpt` taken at the last
  /// checkpoint when the log itself is unreadable or too short; `warning` then says so.
  static InvariantLog reopen(const std::string& path, const std::vector<std::string>& names,
                             std::int64_t step, int logInterval, int flushInterval,
                             std::string* warning);

  InvariantLog(InvariantLog&&) noexcept;
  InvariantLog& operator=(InvariantLog&&) noexcept;
  ~InvariantLog();

  /// Buffers one row; writes when flushInterval rows are buffered and the last write is
  /// kMinFlushSeconds old.
  void append(std::int64_t step, double time, const std::vector<double>& values);
  /// Writes buffered rows (the file is closed between flushes, so a crash rarely corrupts it).
  void flush();
  /// Flushes, then brings the fallback copy `path.ckpt` up to date for restarts: the rows since
  /// the previous checkpoint are appended to it, so the cost does not grow with the length of
  /// the log (a full copy made long runs slower with every checkpoint). A missing or unreadable
  /// copy is rebuilt by a full copy.
  void snapshotForCheckpoint();
  /// Appends "step N: <changes>" to the root attribute `restart_changes` (the log and its copy).
  void recordRestartChanges(std::int64_t step, const std::string& changes);
  const std::string& path() const { return path_; }
  /// Shortest time between two writes of buffered rows (explicit flushes are not delayed).
  static constexpr double kMinFlushSeconds = 1.0;
  /// Value of a column in the first row on disk (NaN if none; buffered rows are not seen).
  double firstValue(const std::string& name) const;

 private:
  InvariantLog(std::string path, std::vector<std::string> names, int flushInterval);
  /// Replaces `path.ckpt` by a full copy of the log (atomically; no temporary left on failure).
  void rebuildCopy();
  std::string path_;
  std::vector<std::string> names_;
  int flushInterval_;
  std::chrono::steady_clock::time_point lastFlush_{};  ///< of the last write (epoch: none yet)
  std::vector<std::int64_t> steps_;
  std::vector<double> times_;
  std::vector<std::vector<double>> columns_;
  /// Rows appended since the last checkpoint (not yet in the copy `path.ckpt`).
  std::vector<std::int64_t> ckSteps_;
  std::vector<double> ckTimes_;
  std::vector<std::vector<double>> ckColumns_;
  bool copyValid_ = false;  ///< path.ckpt holds every row up to the last checkpoint
};

}  // namespace kirchhoff::io
