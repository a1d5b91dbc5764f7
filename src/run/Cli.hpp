// The command line shared by all drivers:
//   kirchhoff-<model> DECK.yaml [-o OUTDIR] [--set KEY=VALUE]... [--restart [CHECKPOINT]] [--steps N]
//                     [--case N] [PETSc options]
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace kirchhoff::run {

struct CliOptions {
  std::string deck;
  std::string outdir;             ///< "" = default out/<deck stem>
  bool restart = false;
  std::string restartCheckpoint;  ///< "" = newest valid one in OUTDIR/checkpoints
  std::int64_t steps = -1;        ///< -1 = the deck's
  std::int64_t caseIndex = -1;    ///< --case N: only case N of the deck's sweep (-1 = all)
  double maxWall = -1.0;          ///< -1 = the deck's
  bool overwrite = false;
  bool newLog = false;            ///< --new-log: a restart starts a new invariant log
  bool help = false;
  bool version = false;
  bool deckReference = false;
  bool logReference = false;      ///< --log-reference: the invariant-log columns (docs/output.md)
  std::string tool;               ///< a driver tool flag such as --added-mass
  std::vector<std::string> sets;  ///< --set key=value overrides of deck values, in order
  std::vector<std::string> petscArgs;  ///< everything else, handed to PETSc
};

/// Parses argv; `toolFlags` are the driver's extra commands. Throws UsageError.
CliOptions parseCommandLine(int argc, char** argv, const std::vector<std::string>& toolFlags);

/// The usage text.
std::string usage(const std::string& model, const std::vector<std::pair<std::string, std::string>>& tools);

}  // namespace kirchhoff::run
