// The distributed direct solve of the boundary system (docs/fluidbody.md "Panel method", (FB-22a)):
// ScaLAPACK / MUMPS LU of the row slabs against Eigen's LU of the whole matrix on one rank, 1e-12.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "FluidTestUtil.hpp"
#include "core/Error.hpp"
#include "fluid/solve/DistributedLU.hpp"

namespace kirchhoff::fluid {
namespace {

using test::relDiff;

/// Max over ranks of |x - x on rank 0|: replicated results must be bitwise the same.
double spreadOverRanks(const Eigen::MatrixXd& x) {
  Eigen::MatrixXd x0 = x;
  MPI_Bcast(x0.data(), static_cast<int>(x0.size()), MPI_DOUBLE, 0, PETSC_COMM_WORLD);
  double d = (x - x0).cwiseAbs().maxCoeff();
  MPI_Allreduce(MPI_IN_PLACE, &d, 1, MPI_DOUBLE, MPI_MAX, PETSC_COMM_WORLD);
  return d;
}

class DistributedLuTest : public ::testing::TestWithParam<DirectFactorization> {};

/// A full-rank nonsymmetric matrix (condition number 9, then 47 after the change) and its row slabs as
/// PetscSplitOwnership deals them; A X = R and A^T X = R against Eigen's LU on the full matrix.
TEST_P(DistributedLuTest, SolvesAndTransposedSolvesEqualSerialLu) {
  const int n = 157;
  Eigen::MatrixXd A(n, n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      A(i, j) = std::sin(1.0 + 0.37 * i * j + j) / std::sqrt(n) + (i == j ? (i < 5 ? -0.5 : 2.0) : 0.0);
  Eigen::MatrixXd R(n, 3);
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < 3; ++k) R(i, k) = std::cos(0.3 * i - k);
  PetscInt local = PETSC_DECIDE, global = n;
  ASSERT_EQ(PetscSplitOwnership(PETSC_COMM_WORLD, &local, &global), 0);
  int mine = static_cast<int>(local), end = 0;
  MPI_Scan(&mine, &end, 1, MPI_INT, MPI_SUM, PETSC_COMM_WORLD);
  DistributedLU lu(PETSC_COMM_WORLD, n, end - mine, end, GetParam());
  // Two factorizations: the second (a changed matrix) reuses the analysis.
  for (int pass = 0; pass < 2; ++pass) {
    if (pass == 1) A.diagonal().array() += 0.3;
    lu.factor(A.middleRows(end - mine, mine));
    const Eigen::PartialPivLU<Eigen::MatrixXd> ref(A);
    const Eigen::MatrixXd X = lu.solve(R), Xt = lu.solve(R, true);
    EXPECT_LT(relDiff(X, ref.solve(R)), 1e-12) << "pass " << pass;
    EXPECT_LT(relDiff(Xt, ref.transpose().solve(R)), 1e-12) << "pass " << pass;
    // The residuals themselves, independent of Eigen's pivoting.
    EXPECT_LT(relDiff(A * X, R), 1e-12);
    EXPECT_LT(relDiff(A.transpose() * Xt, R), 1e-12);
    EXPECT_EQ(spreadOverRanks(X), 0.0);
    EXPECT_EQ(spreadOverRanks(Xt), 0.0);
  }
}

/// A singular matrix (a zero row, on the middle rank; every entry still stored) is refused on every
/// rank, not solved.
TEST_P(DistributedLuTest, SingularMatrixThrowsOnEveryRank) {
  const int n = 40;
  Eigen::MatrixXd A = Eigen::MatrixXd::Identity(n, n);
  for (int j = 0; j < n; ++j) A(0, j) = std::cos(1.0 + j);
  A.row(n / 2).setZero();
  PetscInt local = PETSC_DECIDE, global = n;
  ASSERT_EQ(PetscSplitOwnership(PETSC_COMM_WORLD, &local, &global), 0);
  int mine = static_cast<int>(local), end = 0;
  MPI_Scan(&mine, &end, 1, MPI_INT, MPI_SUM, PETSC_COMM_WORLD);
  DistributedLU lu(PETSC_COMM_WORLD, n, end - mine, end, GetParam());
  EXPECT_THROW(lu.factor(A.middleRows(end - mine, mine)), NumericalError);
}

/// Five bodies (several ranks hold pieces of one body), four vortices: densities, added mass,
/// vortex momentum, Kirchhoff-Routh function and the adjoint gradient (transposed solves) of the
/// distributed factorization against the one-rank Eigen LU path.
TEST_P(DistributedLuTest, SeveralBodyFluidEqualsOneRankPath) {
  const std::vector<Polygon> bodies = {ellipse(1.0, 0.5, 48), plate(1.6, 0.2, 52), circle(0.6, 40),
                                       ellipse(0.7, 0.4, 36), circle(0.4, 30)};
  const std::vector<lie::Pose> poses = {lie::Pose{0.3, Vec2(0.1, -0.2)}, lie::Pose{-0.7, Vec2(2.4, 0.9)},
                                        lie::Pose{1.1, Vec2(-0.4, 2.1)}, lie::Pose{0.5, Vec2(2.6, -1.8)},
                                        lie::Pose{-1.3, Vec2(-2.2, -0.9)}};
  Vortices v;
  v.gamma = {Vec2(1.2, -1.1), Vec2(-1.6, 0.4), Vec2(1.4, 2.4), Vec2(-2.0, -2.5)};
  v.K = {1.3, -0.7, 2.1, 0.4};
  Eigen::VectorXd Xi(15);
  for (int k = 0; k < 15; ++k) Xi[k] = std::sin(0.7 + 1.3 * k);
  PanelOptions options;
  options.solver = PanelSolver::Direct;
  options.factorization = GetParam();
  PanelFluid par(PETSC_COMM_WORLD, bodies, 1.3, options);
  PanelOptions serial;
  serial.solver = PanelSolver::Direct;
  PanelFluid ser(PETSC_COMM_SELF, bodies, 1.3, serial);
  int ranks = 1;
  MPI_Comm_size(PETSC_COMM_WORLD, &ranks);
  EXPECT_EQ(par.distributedFactor(), ranks > 1);
  EXPECT_FALSE(ser.distributedFactor());
  for (int move = 0; move < 2; ++move) {  // a second configuration: refactorization
    std::vector<lie::Pose> p = poses;
    for (auto& x : p) x.theta += 0.2 * move;
    par.setConfiguration(p, v);
    ser.setConfiguration(p, v);
    EXPECT_LT(relDiff(par.lagrangianGradient(Xi), ser.lagrangianGradient(Xi)), 1e-12) << "move " << move;
    EXPECT_LT(relDiff(par.addedMassAction(Xi), ser.addedMassAction(Xi)), 1e-12);
    EXPECT_LT(relDiff(par.addedMass(), ser.addedMass()), 1e-12);
    EXPECT_LT(relDiff(par.densities(), ser.densities()), 1e-12);
    EXPECT_LT(relDiff(par.vortexMomentum(), ser.vortexMomentum()), 1e-12);
    EXPECT_NEAR(par.kirchhoffRouth(), ser.kirchhoffRouth(), 1e-12 * std::abs(ser.kirchhoffRouth()));
    EXPECT_EQ(spreadOverRanks(par.lagrangianGradient(Xi)), 0.0);
    EXPECT_EQ(spreadOverRanks(par.addedMass()), 0.0);
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, DistributedLuTest,
                         ::testing::Values(DirectFactorization::Scalapack, DirectFactorization::Mumps),
                         [](const ::testing::TestParamInfo<DirectFactorization>& i) {
                           return directFactorizationName(i.param);
                         });

}  // namespace
}  // namespace kirchhoff::fluid
