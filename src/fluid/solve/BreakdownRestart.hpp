// A GMRES solve that restarts from its iterate when the Krylov space breaks down short of the tolerance
// (docs/fluidbody.md (FB-93a)): the next cycle starts from the true residual b - A x, as a GMRES restart does.
#pragma once

#include <petscksp.h>

#include <functional>

namespace kirchhoff::fluid {

/// Restarts after a breakdown before the error is reported (FB-93a).
constexpr int kBreakdownRestarts = 2;

/// What solveRestartingOnBreakdown did: the reason of its last KSPSolve, the iterations of all of them and the
/// restarts it made.
struct RestartedSolve {
  KSPConvergedReason reason = KSP_CONVERGED_ITERATING;
  PetscInt iterations = 0;
  int restarts = 0;
};

/// Solves A x = b (A^T x = b when `transpose`) with `ksp` from the guess the KSP is set up with; when a solve ends in
/// KSP_DIVERGED_BREAKDOWN it solves again from the iterate it reached (nonzero guess), at most `maxRestarts` times.
/// `beforeEachSolve` (may be empty) runs before every KSPSolve. The KSP's initial-guess flag is restored. Collective.
RestartedSolve solveRestartingOnBreakdown(KSP ksp, Vec b, Vec x, bool transpose, int maxRestarts,
                                          const std::function<void()>& beforeEachSolve = {});

}  // namespace kirchhoff::fluid
