// A sweep: the configurations of a deck's `sweep:` section spread over sub-communicators
// (MPI_Comm_split), each with its own output folder and checkpoints, and a summary table.
#pragma once

#include <vector>

#include <mpi.h>

#include "io/RunConfig.hpp"
#include "run/Simulation.hpp"

namespace kirchhoff::run {

/// Runs every case; returns the combined exit code (a deck/usage error first, then "requeue",
/// then a numerical failure, else 0). Writes OUTDIR/sweep_summary.txt on world rank 0.
int runSweep(MPI_Comm world, const Driver& driver, const std::vector<io::SweepCase>& cases,
             int ranksPerCase, const RunOptions& options);

/// The exit code of several runs combined.
int combineExitCodes(const std::vector<int>& codes);

}  // namespace kirchhoff::run
