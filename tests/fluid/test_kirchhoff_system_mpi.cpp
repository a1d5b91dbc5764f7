// The bordered Kirchhoff system (docs/fluidbody.md (FB-91)) on the ranks of the test against one rank: delta and the
// vortex gradient to 1e-10 relative, on row slabs that cut bodies (dense operator) and on whole bodies (fast).
#include <cstdio>

#include "FastOperatorScene.hpp"

namespace kirchhoff::fluid {
namespace {

void expectSameAsOneRank(PanelOperator op, int n) {
  const test::ClusterScene s(n, 8);
  SolverOptions o;
  o.solver = PanelSolver::Ksp;
  o.op = op;
  Fluid::KirchhoffSolution k[2];
  int c = 0;
  for (MPI_Comm comm : {PETSC_COMM_WORLD, PETSC_COMM_SELF}) {
    auto f = test::sceneFluid(comm, "panel", s, o);
    Eigen::VectorXd m(3 * n), r(3 * n);
    for (int i = 0; i < 3 * n; ++i) m[i] = 1.0 + 0.1 * (i % 3), r[i] = std::sin(2.0 + 0.9 * i);
    k[c++] = f->kirchhoffSolve(m, r, 1e-12);
  }
  const double dd = (k[0].delta - k[1].delta).norm() / k[1].delta.norm();
  const double dg = (k[0].vortexGradient - k[1].vortexGradient).norm() / k[1].vortexGradient.norm();
  int rank = 0;
  MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
  if (rank == 0)
    std::printf("%s operator, %d bodies: delta %.2e, vortex gradient %.2e relative to one rank\n",
                op == PanelOperator::Fast ? "fast" : "dense", n, dd, dg);
  EXPECT_LT(dd, 1e-10);
  EXPECT_LT(dg, 1e-10);
}

TEST(KirchhoffSystemMpi, DenseOperatorRowSlabsMatchOneRank) { expectSameAsOneRank(PanelOperator::Dense, 7); }
TEST(KirchhoffSystemMpi, FastOperatorWholeBodiesMatchOneRank) { expectSameAsOneRank(PanelOperator::Fast, 12); }

}  // namespace
}  // namespace kirchhoff::fluid
