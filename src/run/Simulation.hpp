// The generic run loop for one configuration on one communicator: step, invariants, log,
// snapshots, checkpoints, progress, signals and wall clock; failures mapped to exit codes.
#pragma once

#include <cstdint>
#include <string>

#include <mpi.h>

#include "io/Deck.hpp"
#include "run/Main.hpp"

namespace kirchhoff::run {

struct RunOptions {
  std::string outdir;
  bool restart = false;
  std::string checkpoint;   ///< explicit checkpoint file ("" = newest valid)
  std::int64_t steps = -1;  ///< final step index (-1: the deck's)
  double maxWall = -1.0;    ///< seconds (-1: the deck's)
  double startTime = 0.0;   ///< MPI_Wtime() at program start (the wall-clock budget counts from it)
  bool overwrite = false;
  bool newLog = false;      ///< a restart starts a new invariant log (lost logs, or a checkpoint from another OUTDIR)
  std::string label;        ///< prefix of messages ("case003: ") in sweeps
  std::string overrides;    ///< the --set arguments, one per line (log attribute "overrides")
};

struct RunResult {
  int exitCode = 0;
  std::int64_t step = 0;  ///< last step reached
  double time = 0.0;
  std::string summary;    ///< Model::summary of the final state
  std::string message;    ///< the error or stop message (empty when finished)
};

/// Runs one configuration. Messages go to stderr/stdout on the communicator's rank 0.
/// Never throws for errors of the run itself: they are in the result.
RunResult runSimulation(MPI_Comm comm, const Driver& driver, const io::Deck& deck,
                        const RunOptions& options);

}  // namespace kirchhoff::run
