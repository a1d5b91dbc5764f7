// Typed exceptions and the sysexits-style exit codes every kirchhoff driver uses.
// Pure C++ code throws these with context (file, key, step); run/Main turns them into exit codes.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace kirchhoff {

/// Exit codes of every driver (documented in README, "Exit codes").
enum ExitCode : int {
  kExitOk = 0,         ///< finished
  kExitNumerical = 1,  ///< numerical failure (SNES diverged, NaN, vortex hit a body); last checkpoint kept
  kExitUsage = 64,     ///< bad command line (EX_USAGE)
  kExitData = 65,      ///< bad deck or unreadable checkpoint (EX_DATAERR)
  kExitNoMemory = 71,  ///< out of memory (EX_OSERR): the same limit fails again, so no requeue
  kExitRequeue = 75,   ///< stopped early after writing a checkpoint: requeue me (EX_TEMPFAIL)
};

/// Base of all kirchhoff errors; carries the exit code the driver should return.
class Error : public std::runtime_error {
 public:
  Error(const std::string& what, int code) : std::runtime_error(what), code_(code) {}
  int exitCode() const { return code_; }

 private:
  int code_;
};

/// Bad command line.
class UsageError : public Error {
 public:
  explicit UsageError(const std::string& what) : Error(what, kExitUsage) {}
};

/// Bad deck: the message names file, line, column, key and what was expected.
class DeckError : public Error {
 public:
  explicit DeckError(const std::string& what) : Error(what, kExitData) {}
};

/// A checkpoint that cannot be read or fails its hash.
class CheckpointError : public Error {
 public:
  explicit CheckpointError(const std::string& what) : Error(what, kExitData) {}
};

/// A physically invalid configuration detected while building a model (overlapping bodies, ...).
class ConfigurationError : public Error {
 public:
  explicit ConfigurationError(const std::string& what) : Error(what, kExitData) {}
};

/// Memory exhausted (a PETSc allocation or std::bad_alloc): exit 71.
class OutOfMemoryError : public Error {
 public:
  explicit OutOfMemoryError(const std::string& what) : Error(what, kExitNoMemory) {}
};

/// Numerical failure during a run (SNES divergence, NaN, a vortex too close to a body).
class NumericalError : public Error {
 public:
  /// `checkpointState`: the state the failure was detected on is valid and should be saved
  /// (a physical stop condition); false when the step itself failed (SNES, NaN).
  NumericalError(const std::string& what, std::int64_t step = -1, bool checkpointState = false)
      : Error(what, kExitNumerical), step_(step), checkpointState_(checkpointState) {}
  std::int64_t step() const { return step_; }
  bool checkpointState() const { return checkpointState_; }

 private:
  std::int64_t step_;
  bool checkpointState_;
};

}  // namespace kirchhoff
