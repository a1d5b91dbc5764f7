// OUTDIR/summary.json (docs/output.md, "summary.json"): what one run was and how it ended, in a
// form scripts and job arrays can read: model, deck hash, git sha, ranks, steps, wall time,
// steps/s, exit status, and the largest relative change of each conserved invariant.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace kirchhoff::run {

struct RunSummary {
  std::string model, deckFile, deckHash, gitSha, codeVersion, overrides, outdir;
  int ranks = 1;
  std::int64_t firstStep = 0;  ///< step the run started from (0, or the restart checkpoint's)
  std::int64_t lastStep = 0;   ///< step reached
  std::int64_t finalStep = 0;  ///< step the run was asked to reach
  double time = 0.0, dt = 0.0;
  double wallSeconds = 0.0;
  int exitStatus = 0;
  std::string message;  ///< the error or stop message ("" when finished)
  /// max over the logged rows of |c - c0| / |c0| (|c - c0| when |c0| <= 1e-12), c0 the first row
  std::vector<std::pair<std::string, double>> maxRelativeChange;
};

/// "finished", "failed", "stopped" (75, to be continued) or "bad input" (64, 65).
std::string statusName(int exitStatus);

/// The JSON text (non-finite numbers as null).
std::string toJson(const RunSummary& s);

/// Writes `path` atomically (temporary file, then rename). Throws Error on I/O failure.
void writeSummaryFile(const std::string& path, const RunSummary& s);

/// The columns of the invariant log at `logPath` whose `kind` is conserved, in the log's order
/// (none when there is no readable log).
std::vector<std::string> conservedColumns(const std::string& logPath);

/// Largest relative change of each named column of the invariant log at `logPath` (NaN for a
/// column that is missing or empty).
std::vector<std::pair<std::string, double>> maxRelativeChanges(const std::string& logPath,
                                                               const std::vector<std::string>& names);

}  // namespace kirchhoff::run
