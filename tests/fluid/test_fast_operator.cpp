// The boundary fluid on the matrix-free body-cluster operator (docs/fluidbody.md (FB-41)-(FB-46)) against
// the dense path: A Xi, F, M_C, W_G, the adjoint gradient, vortex velocities and A(g) to 1e-10 relative;
// the far-pair gradient against central differences of F; option errors.
#include "FastOperatorScene.hpp"

#include "core/Error.hpp"

namespace kirchhoff::fluid {
namespace {

TEST(FastOperator, PanelEightBodiesMatchDense) { test::expectFastEqualsDense(PETSC_COMM_SELF, "panel", 8, 1e-10); }
TEST(FastOperator, NystromEightBodiesMatchDense) {
  test::expectFastEqualsDense(PETSC_COMM_SELF, "nystrom", 8, 1e-10);
}
TEST(FastOperator, PanelTwentyBodiesOneRankMatchDense) {
  test::expectFastEqualsDense(PETSC_COMM_SELF, "panel", 20, 1e-10);
}

TEST(FastOperator, PanelTwelveBodiesThreeHundredVorticesMatchDense) {
  // The vortex terms through the tree (FB-61), (FB-62): 300 vortices, a third of them within 0.13 .. 0.3 of a
  // body's disk, groups of at most 32: G s, dG s, G^T K, b_I, W_vv and every gradient term against the dense path.
  test::expectFastEqualsDense(PETSC_COMM_SELF, "panel", 12, 1e-12, 296);
}
TEST(FastOperator, NystromTwelveBodiesThreeHundredVorticesMatchDense) {
  test::expectFastEqualsDense(PETSC_COMM_SELF, "nystrom", 12, 1e-12, 296);
}
TEST(FastOperator, PanelVortexGroupsOfEightMatchDense) {
  // 38 groups: most vortex pairs and vortex-body pairs through the tree.
  test::expectFastEqualsDense(PETSC_COMM_SELF, "panel", 12, 1e-12, 296, 8);
}

TEST(FastOperator, GradientMatchesCentralDifferences) {
  // Five bodies, all pairs far at eta 1.2 (centre distance >= 1.8 > 1.2 (r_P + r_Q)): the body gradient is
  // the far-pair derivatives (FB-45) alone. Central differences, h = 1e-5: truncation ~1e-9.
  const test::ClusterScene s(5);
  SolverOptions o;
  o.op = PanelOperator::Fast;
  o.multipoleEta = 1.2;
  auto f = test::clusterFluid(PETSC_COMM_SELF, "panel", 5, o);
  const Eigen::VectorXd q = test::pack(s.poses, s.vortices);
  test::lagrangianAt(*f, q, s.vortices.K, s.Xi);
  EXPECT_EQ(f->clusterOperator()->nearPairs(), 0);
  const Eigen::VectorXd g = f->lagrangianGradient(s.Xi);
  const Eigen::VectorXd fd = test::centralDifferences(*f, q, s.vortices.K, s.Xi, 1e-5);
  EXPECT_LT((g - fd).cwiseAbs().maxCoeff(), 1e-7 * fd.cwiseAbs().maxCoeff());
}

TEST(FastOperator, VortexGradientMatchesCentralDifferences) {
  // Five bodies and 64 vortices at the default eta: near and far vortex-body pairs, near and far vortex groups
  // (leaves of 8). dF/dq over every body and vortex coordinate against central differences, h = 1e-5.
  const test::ClusterScene s(5, 60);
  SolverOptions o;
  o.op = PanelOperator::Fast;
  o.vortexLeafSize = 8;
  auto f = test::clusterFluid(PETSC_COMM_SELF, "panel", 5, o);
  const Eigen::VectorXd q = test::pack(s.poses, s.vortices);
  test::lagrangianAt(*f, q, s.vortices.K, s.Xi);
  const Eigen::VectorXd g = f->lagrangianGradient(s.Xi);
  const Eigen::VectorXd fd = test::centralDifferences(*f, q, s.vortices.K, s.Xi, 1e-5);
  EXPECT_GT(f->vortexTerms()->tree().m2lPairs(), 0);
  EXPECT_GT(f->vortexTerms()->nearVortexNodes(), 0);
  EXPECT_LT((g - fd).cwiseAbs().maxCoeff(), 1e-7 * fd.cwiseAbs().maxCoeff());
}

TEST(FastOperator, DirectSolverIsRejected) {
  SolverOptions o;
  o.op = PanelOperator::Fast;
  o.solver = PanelSolver::Direct;
  EXPECT_THROW(test::clusterFluid(PETSC_COMM_SELF, "panel", 3, o), ConfigurationError);
}

TEST(FastOperator, AutoPicksFastFromTheMeasuredBodyCount) {
  SolverOptions o;
  o.op = PanelOperator::Auto;
  EXPECT_EQ(test::clusterFluid(PETSC_COMM_SELF, "panel", 3, o)->clusterOperator(), nullptr);
  EXPECT_NE(test::clusterFluid(PETSC_COMM_SELF, "panel", kFastOperatorMinBodies, o)->clusterOperator(), nullptr);
  o.op = PanelOperator::Dense;
  EXPECT_EQ(test::clusterFluid(PETSC_COMM_SELF, "panel", kFastOperatorMinBodies, o)->clusterOperator(), nullptr);
}

}  // namespace
}  // namespace kirchhoff::fluid
