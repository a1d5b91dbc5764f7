// GMRES restarted from its iterate after a breakdown (docs/fluidbody.md (FB-93a)): a product lost once (the operator
// returns zero, as an inexact application can) is recovered by one restart; a singular system is still reported.
#include <gtest/gtest.h>
#include <petscksp.h>

#include <algorithm>
#include <cmath>

#include "fluid/solve/BreakdownRestart.hpp"

namespace kirchhoff::fluid {
namespace {

/// Diagonal operator diag(2, 3, ..., n + 1) on PETSC_COMM_WORLD; `lostProducts` first applications return zero,
/// `singular` zeroes its last entry.
struct FaultyDiagonal {
  int lostProducts = 0;
  bool singular = false;
  int applications = 0;

  static PetscErrorCode mult(Mat A, Vec x, Vec y) {
    FaultyDiagonal* op = nullptr;
    PetscFunctionBeginUser;
    PetscCall(MatShellGetContext(A, &op));
    PetscInt begin = 0, end = 0, size = 0;
    PetscCall(VecGetOwnershipRange(x, &begin, &end));
    PetscCall(VecGetSize(x, &size));
    const PetscScalar* xa = nullptr;
    PetscScalar* ya = nullptr;
    PetscCall(VecGetArrayRead(x, &xa));
    PetscCall(VecGetArray(y, &ya));
    const bool lost = op->applications++ < op->lostProducts;
    for (PetscInt i = begin; i < end; ++i) {
      const double d = lost || (op->singular && i == size - 1) ? 0.0 : 2.0 + static_cast<double>(i);
      ya[i - begin] = d * xa[i - begin];
    }
    PetscCall(VecRestoreArray(y, &ya));
    PetscCall(VecRestoreArrayRead(x, &xa));
    PetscFunctionReturn(0);
  }
};

/// A GMRES solve of the operator with right-hand side all ones (rtol 1e-12, no preconditioner).
class BreakdownRestart : public ::testing::Test {
 protected:
  static constexpr PetscInt kSize = 8;

  void build(FaultyDiagonal* op) {
    ASSERT_EQ(MatCreateShell(PETSC_COMM_WORLD, PETSC_DECIDE, PETSC_DECIDE, kSize, kSize, op, &A_), 0);
    ASSERT_EQ(MatShellSetOperation(A_, MATOP_MULT, (void (*)(void))FaultyDiagonal::mult), 0);
    ASSERT_EQ(MatCreateVecs(A_, &x_, &b_), 0);
    ASSERT_EQ(VecSet(b_, 1.0), 0);
    ASSERT_EQ(KSPCreate(PETSC_COMM_WORLD, &ksp_), 0);
    ASSERT_EQ(KSPSetOperators(ksp_, A_, A_), 0);
    ASSERT_EQ(KSPSetType(ksp_, KSPGMRES), 0);
    PC pc = nullptr;
    ASSERT_EQ(KSPGetPC(ksp_, &pc), 0);
    ASSERT_EQ(PCSetType(pc, PCNONE), 0);
    ASSERT_EQ(KSPSetTolerances(ksp_, 1e-12, 1e-300, PETSC_DEFAULT, 100), 0);
  }
  void TearDown() override {
    (void)KSPDestroy(&ksp_);
    (void)VecDestroy(&x_);
    (void)VecDestroy(&b_);
    (void)MatDestroy(&A_);
  }
  /// max_i |x_i - 1 / (2 + i)|.
  double error() const {
    PetscInt begin = 0, end = 0;
    (void)VecGetOwnershipRange(x_, &begin, &end);
    const PetscScalar* xa = nullptr;
    (void)VecGetArrayRead(x_, &xa);
    double e = 0.0;
    for (PetscInt i = begin; i < end; ++i) e = std::max(e, std::abs(xa[i - begin] - 1.0 / (2.0 + static_cast<double>(i))));
    (void)VecRestoreArrayRead(x_, &xa);
    double all = 0.0;
    MPI_Allreduce(&e, &all, 1, MPI_DOUBLE, MPI_MAX, PETSC_COMM_WORLD);
    return all;
  }

  Mat A_ = nullptr;
  Vec x_ = nullptr, b_ = nullptr;
  KSP ksp_ = nullptr;
};

TEST_F(BreakdownRestart, ALostProductIsRecoveredByOneRestart) {
  FaultyDiagonal op;
  op.lostProducts = 1;
  build(&op);
  // Without the restart the solve ends in the breakdown (what PETSc 3.18 reports for a zero product).
  ASSERT_EQ(KSPSolve(ksp_, b_, x_), 0);
  KSPConvergedReason plain = KSP_CONVERGED_ITERATING;
  ASSERT_EQ(KSPGetConvergedReason(ksp_, &plain), 0);
  EXPECT_EQ(plain, KSP_DIVERGED_BREAKDOWN);

  op.applications = 0;
  int hooks = 0;
  const RestartedSolve r = solveRestartingOnBreakdown(ksp_, b_, x_, false, kBreakdownRestarts, [&] { ++hooks; });
  EXPECT_GT(r.reason, 0) << KSPConvergedReasons[r.reason];
  EXPECT_EQ(r.restarts, 1);
  EXPECT_EQ(hooks, 2);
  EXPECT_GE(r.iterations, kSize);  // the diagonal has kSize distinct eigenvalues
  EXPECT_LT(error(), 1e-11);       // rtol 1e-12 of |b| = sqrt(8), the condition number 9 / 2
  PetscBool guess = PETSC_TRUE;
  ASSERT_EQ(KSPGetInitialGuessNonzero(ksp_, &guess), 0);
  EXPECT_EQ(guess, PETSC_FALSE);  // restored
}

TEST_F(BreakdownRestart, ASingularSystemIsStillReportedAfterTheRestarts) {
  FaultyDiagonal op;
  op.singular = true;  // b = ones has a component outside the range
  build(&op);
  const RestartedSolve r = solveRestartingOnBreakdown(ksp_, b_, x_, false, kBreakdownRestarts);
  EXPECT_EQ(r.reason, KSP_DIVERGED_BREAKDOWN);
  EXPECT_EQ(r.restarts, kBreakdownRestarts);
}

TEST_F(BreakdownRestart, NoRestartWithoutBreakdown) {
  FaultyDiagonal op;
  build(&op);
  const RestartedSolve r = solveRestartingOnBreakdown(ksp_, b_, x_, false, kBreakdownRestarts);
  EXPECT_GT(r.reason, 0);
  EXPECT_EQ(r.restarts, 0);
  EXPECT_LT(error(), 1e-11);
}

}  // namespace
}  // namespace kirchhoff::fluid
