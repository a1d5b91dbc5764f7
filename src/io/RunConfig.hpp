// The deck keys every driver shares (model, time, output, petsc_options, sweep) and the plain
// struct the run loop reads them into. Model-specific keys live in each driver's schema.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "io/Deck.hpp"
#include "io/Schema.hpp"

namespace kirchhoff::io {

struct RunConfig {
  std::string model;
  double dt = 0.0;
  std::int64_t steps = 0;         ///< final step index (time.steps, or round(end_time / dt))
  int logInterval = 1;            ///< steps between rows of invariants.h5
  int flushInterval = 100;        ///< rows buffered before the log is written
  int checkpointInterval = 1000;  ///< steps between checkpoints (0: only at the end / on signal)
  int keepCheckpoints = 2;
  int progressInterval = 100;     ///< steps between progress lines (0: none)
  int snapshotInterval = 0;       ///< steps between trajectory snapshots (0: none)
  int checkInterval = 1;          ///< steps between Model::check calls
  double maxWall = 0.0;           ///< wall-clock budget in seconds (0: none)
  double checkpointReserve = 30;  ///< seconds kept back from maxWall for the final write
  double stallTimeout = 900;      ///< watchdog: seconds without progress before exit 75 (0: off)
  std::string petscOptions;
};

/// Adds `model`, `time`, `output`, `petsc_options` and `sweep` to the schema's root.
void addRunKeys(Schema& schema);

/// Reads the common keys; `time.steps` or `time.end_time` (exactly one) fixes `steps`.
RunConfig readRunConfig(const Deck& deck);

/// One configuration of a sweep: its name (output subfolder) and the deck to run.
struct SweepCase {
  std::string name;
  Deck deck;
};

/// The configurations of the deck's `sweep:` section (one case named "" when there is none).
std::vector<SweepCase> sweepCases(const Deck& deck);

}  // namespace kirchhoff::io
