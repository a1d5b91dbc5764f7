// Close gaps (docs/fluidbody.md "Close gaps", (FB-64)-(FB-66)) on several ranks: two disks 1e-3 of the
// radius apart and a vortex 1e-2 from one, refined on every rank alike; A(g) against the exact series
// (FB-63), and every result equal to the serial dense-LU recomputation on PETSC_COMM_SELF to 1e-12.
#include <gtest/gtest.h>

#include <algorithm>

#include "FluidTestUtil.hpp"
#include "TwoCylinders.hpp"
#include "fluid/discretization/NystromDiscretization.hpp"

namespace kirchhoff::fluid {
namespace {

/// n disks of radius 0.5 and 64 Nystrom nodes, refined toward close neighbours to 1e-8.
std::unique_ptr<BoundaryFluid> disks(MPI_Comm comm, int n, PanelSolver solver, PanelOperator op) {
  const std::vector<SmoothCurve> curves(static_cast<std::size_t>(n), circleCurve(0.5));
  std::vector<Polygon> outlines;
  std::vector<RefinableShape> shapes;
  for (const SmoothCurve& c : curves) outlines.push_back(curveOutline(c, 64)), shapes.push_back(refinableShape(c));
  SolverOptions o;
  o.solver = solver;
  o.op = op;
  auto f = std::make_unique<BoundaryFluid>(
      comm, outlines, std::make_unique<NystromDiscretization>(curves, std::vector<int>(curves.size(), 64)), 1.0, o,
      "close_mpi_");
  f->enableRefinement(shapes, GaussPanelOptions{}, 1e-8);
  return f;
}

using test::relDiff;

void expectDistributedEqualsSerial(PanelSolver solver, PanelOperator op) {
  const std::vector<lie::Pose> poses = {lie::Pose{0.0, Vec2(0.0, 0.0)}, lie::Pose{0.0, Vec2(1.0005, 0.0)}};
  Vortices v;
  v.gamma = {Vec2(0.0, 0.505), Vec2(2.0, 1.5)};
  v.K = {1.3, -0.7};
  Eigen::VectorXd Xi(6);
  Xi << 0.4, -0.3, 0.8, -1.1, 0.5, 0.2;
  auto par = disks(PETSC_COMM_WORLD, 2, solver, op);
  auto ser = disks(PETSC_COMM_SELF, 2, PanelSolver::Direct, PanelOperator::Dense);
  EXPECT_TRUE(par->refineFor(poses, v, 0.0));
  EXPECT_TRUE(ser->refineFor(poses, v, 0.0));
  EXPECT_EQ(par->resolution().unknowns, ser->resolution().unknowns);
  EXPECT_NEAR(par->resolution().errorEstimate, ser->resolution().errorEstimate, 1e-3 * ser->resolution().errorEstimate);
  par->setConfiguration(poses, Vortices{});
  const Eigen::Matrix4d R = test::twoCylinderAddedMass({0.0, 0.0}, 0.5, {1.0005, 0.0}, 0.5, 1.0);
  const Eigen::MatrixXd A = par->addedMass();
  const int idx[4] = {1, 2, 4, 5};
  for (int a = 0; a < 4; ++a)
    for (int b = 0; b < 4; ++b) EXPECT_NEAR(A(idx[a], idx[b]), R(a, b), 1e-8 * R.cwiseAbs().maxCoeff());
  par->setConfiguration(poses, v);
  ser->setConfiguration(poses, v);
  const double tol = solver == PanelSolver::Direct ? 1e-12 : 1e-9;
  EXPECT_LT(relDiff(par->addedMass(), ser->addedMass()), tol);
  EXPECT_LT(relDiff(par->vortexMomentum(), ser->vortexMomentum()), tol);
  EXPECT_NEAR(par->kirchhoffRouth(), ser->kirchhoffRouth(), tol * std::abs(ser->kirchhoffRouth()));
  EXPECT_LT(relDiff(par->lagrangianGradient(Xi), ser->lagrangianGradient(Xi)), tol);
  const auto up = par->vortexVelocities(Xi), us = ser->vortexVelocities(Xi);
  for (std::size_t i = 0; i < up.size(); ++i) EXPECT_LT((up[i] - us[i]).norm(), tol * us[i].norm());
}

TEST(CloseGapsMpi, DenseDirectEqualsSerial) { expectDistributedEqualsSerial(PanelSolver::Direct, PanelOperator::Dense); }
TEST(CloseGapsMpi, FastOperatorEqualsSerial) { expectDistributedEqualsSerial(PanelSolver::Ksp, PanelOperator::Fast); }
TEST(CloseGapsMpi, DenseKspEqualsSerial) { expectDistributedEqualsSerial(PanelSolver::Ksp, PanelOperator::Dense); }

void expectClosePairEqualsSerial(PanelOperator op) {
  // (FB-96): 16 disks on a grid of spacing 2, bodies 7 and 8 2e-3 apart. Balanced by nodes, the two refined bodies
  // fall on two ranks (np 2: 0-7 | 8-15), so their preconditioner block is factored on both and applied to the
  // gathered iterate. Every result equals the serial dense LU to 1e-10, in at most 20 GMRES iterations per boundary
  // solve (14.5 for the serial pair, 45 with block Jacobi at this gap).
  std::vector<lie::Pose> poses;
  for (int j = 0; j < 16; ++j) poses.push_back(lie::Pose{0.1 * j, Vec2(2.0 * (j % 4), 2.0 * (j / 4))});
  poses[8].y = poses[7].y + Vec2(1.002, 0.0);
  Vortices v;
  v.gamma = {Vec2(1.0, 1.0), Vec2(3.0, 1.0), Vec2(1.0, 3.0), Vec2(3.0, 3.0)};
  v.K = {1.0, -1.0, 1.0, -1.0};
  Eigen::VectorXd Xi(48);
  for (int k = 0; k < 48; ++k) Xi[k] = 0.1 * std::sin(1.0 + k);
  auto par = disks(PETSC_COMM_WORLD, 16, PanelSolver::Ksp, op);
  auto ser = disks(PETSC_COMM_SELF, 16, PanelSolver::Direct, PanelOperator::Dense);
  const long estimateIts0 = par->totalIterations(), estimateSolves0 = par->totalSolves();
  par->refineFor(poses, v, 0.0);
  ser->refineFor(poses, v, 0.0);
  // The iterative estimate solves its densities to 1e-2 of the tolerance (FB-66): it moves by far less than that.
  const double e = par->resolution().errorEstimate, eSerial = ser->resolution().errorEstimate;
  const double estimateIts =
      double(par->totalIterations() - estimateIts0) / double(std::max(1L, par->totalSolves() - estimateSolves0));
  EXPECT_GT(eSerial, 1e-11);
  EXPECT_NEAR(e, eSerial, 1e-2 * eSerial);
  const long its0 = par->totalIterations(), solves0 = par->totalSolves();
  par->setConfiguration(poses, v);
  ser->setConfiguration(poses, v);
  EXPECT_LT(relDiff(par->lagrangianGradient(Xi), ser->lagrangianGradient(Xi)), 1e-10);
  const auto up = par->vortexVelocities(Xi), us = ser->vortexVelocities(Xi);
  for (std::size_t i = 0; i < up.size(); ++i) EXPECT_LT((up[i] - us[i]).norm(), 1e-10 * us[i].norm());
  const double its = double(par->totalIterations() - its0) / double(par->totalSolves() - solves0);
  int rank = 0;
  MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
  if (rank == 0)
    std::printf("%.1f GMRES iterations per boundary solve (%.1f in the estimate); estimate %.3e, serial %.3e\n", its,
                estimateIts, e, eSerial);
  EXPECT_LE(its, 20.0);
}

TEST(CloseGapsMpi, ClosePairAcrossRanksFastOperator) { expectClosePairEqualsSerial(PanelOperator::Fast); }
TEST(CloseGapsMpi, ClosePairAcrossRanksDenseRows) { expectClosePairEqualsSerial(PanelOperator::Dense); }

}  // namespace
}  // namespace kirchhoff::fluid
