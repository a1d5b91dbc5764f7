// A GMRES solve that restarts from its iterate when the Krylov space breaks down short of the tolerance
// (docs/fluidbody.md (FB-93a)).
#include "fluid/solve/BreakdownRestart.hpp"

#include "fluid/solve/PetscThrow.hpp"

namespace kirchhoff::fluid {

RestartedSolve solveRestartingOnBreakdown(KSP ksp, Vec b, Vec x, bool transpose, int maxRestarts,
                                          const std::function<void()>& beforeEachSolve) {
  PetscBool nonzeroGuess = PETSC_FALSE;
  KIRCHHOFF_PETSC_THROW(KSPGetInitialGuessNonzero(ksp, &nonzeroGuess));
  RestartedSolve out;
  for (;;) {
    if (beforeEachSolve) beforeEachSolve();
    if (transpose)
      KIRCHHOFF_PETSC_THROW(KSPSolveTranspose(ksp, b, x));
    else
      KIRCHHOFF_PETSC_THROW(KSPSolve(ksp, b, x));
    PetscInt its = 0;
    KIRCHHOFF_PETSC_THROW(KSPGetConvergedReason(ksp, &out.reason));
    KIRCHHOFF_PETSC_THROW(KSPGetIterationNumber(ksp, &its));
    out.iterations += its;
    if (out.reason != KSP_DIVERGED_BREAKDOWN || out.restarts >= maxRestarts) break;
    // GMRES has left in x the best iterate of its last cycle (or the cycle's start when the Hessenberg diagonal
    // vanished): continue from there.
    ++out.restarts;
    KIRCHHOFF_PETSC_THROW(KSPSetInitialGuessNonzero(ksp, PETSC_TRUE));
  }
  KIRCHHOFF_PETSC_THROW(KSPSetInitialGuessNonzero(ksp, nonzeroGuess));
  return out;
}

}  // namespace kirchhoff::fluid
