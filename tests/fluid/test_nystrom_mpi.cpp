// The Nystrom discretization (docs/fluidbody.md "High-order boundary integrals") on several ranks:
// rows of the boundary system and vortex sums split, redundant LU or GMRES; every result equals a
// serial dense-LU recomputation on PETSC_COMM_SELF to 1e-12 (two smooth bodies, three vortices, one close).
#include <gtest/gtest.h>

#include "FluidTestUtil.hpp"
#include "fluid/discretization/NystromDiscretization.hpp"

namespace kirchhoff::fluid {
namespace {

std::unique_ptr<BoundaryFluid> nystromFluid(MPI_Comm comm, PanelSolver solver) {
  const std::vector<SmoothCurve> curves = {ellipseCurve(1.0, 0.5), starCurve(0.6, {0.05, 0.1}, {0.0, -0.08})};
  const std::vector<int> nodes = {96, 80};
  std::vector<Polygon> outlines;
  for (std::size_t j = 0; j < curves.size(); ++j) outlines.push_back(curveOutline(curves[j], nodes[j]));
  SolverOptions o;
  o.solver = solver;
  return std::make_unique<BoundaryFluid>(comm, outlines, std::make_unique<NystromDiscretization>(curves, nodes),
                                         1.3, o, "nystrom_mpi_");
}

using test::relDiff;

void expectNystromDistributedEqualsSerial(PanelSolver solver) {
  const std::vector<lie::Pose> poses = {lie::Pose{0.3, Vec2(0.1, -0.2)}, lie::Pose{-0.7, Vec2(1.6, 1.3)}};
  Vortices v;
  v.gamma = {Vec2(1.4, -0.9), Vec2(-1.3, 0.8), Vec2(1.02, -0.2)};  // the last one 0.02 from the ellipse
  v.K = {1.3, -0.7, 0.4};
  Eigen::VectorXd Xi(6);
  Xi << 0.4, -0.3, 0.8, -1.1, 0.5, 0.2;
  auto par = nystromFluid(PETSC_COMM_WORLD, solver), ser = nystromFluid(PETSC_COMM_SELF, PanelSolver::Direct);
  par->setConfiguration(poses, v);
  ser->setConfiguration(poses, v);
  EXPECT_LT(relDiff(par->addedMass(), ser->addedMass()), 1e-12);
  EXPECT_LT(relDiff(par->vortexMomentum(), ser->vortexMomentum()), 1e-12);
  EXPECT_NEAR(par->kirchhoffRouth(), ser->kirchhoffRouth(), 1e-12 * std::abs(ser->kirchhoffRouth()));
  EXPECT_LT(relDiff(par->lagrangianGradient(Xi), ser->lagrangianGradient(Xi)), 1e-12);
  const auto up = par->vortexVelocities(Xi), us = ser->vortexVelocities(Xi);
  for (std::size_t i = 0; i < up.size(); ++i) EXPECT_LT((up[i] - us[i]).norm(), 1e-12 * us[i].norm());
}

TEST(NystromMpi, DirectEqualsSerial) { expectNystromDistributedEqualsSerial(PanelSolver::Direct); }
TEST(NystromMpi, KspEqualsSerial) { expectNystromDistributedEqualsSerial(PanelSolver::Ksp); }

}  // namespace
}  // namespace kirchhoff::fluid
