// The body-cluster operator (docs/fluidbody.md (FB-41)-(FB-46)) distributed by whole bodies: a 20-body
// configuration on the ranks of the test against the serial dense path, 1e-10 relative (panels, Nystrom).
#include "FastOperatorScene.hpp"

namespace kirchhoff::fluid {
namespace {

TEST(FastOperatorMpi, PanelTwentyBodiesMatchDense) {
  test::expectFastEqualsDense(PETSC_COMM_WORLD, "panel", 20, 1e-10);
}
TEST(FastOperatorMpi, NystromTwelveBodiesMatchDense) {
  test::expectFastEqualsDense(PETSC_COMM_WORLD, "nystrom", 12, 1e-10);
}

TEST(FastOperatorMpi, PanelTwelveBodiesThreeHundredVorticesMatchDense) {
  // The vortex groups shared out over the ranks (FB-62): the fast path on the test's ranks against the serial
  // dense path, 1e-12.
  test::expectFastEqualsDense(PETSC_COMM_WORLD, "panel", 12, 1e-12, 296, 8);
}
TEST(FastOperatorMpi, NystromTwelveBodiesThreeHundredVorticesMatchDense) {
  test::expectFastEqualsDense(PETSC_COMM_WORLD, "nystrom", 12, 1e-12, 296);
}

TEST(FastOperatorMpi, BodiesAreOwnedWholeAndBalanced) {
  int ranks = 1, rank = 0;
  MPI_Comm_size(PETSC_COMM_WORLD, &ranks);
  MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
  SolverOptions o;
  o.op = PanelOperator::Fast;
  auto f = test::clusterFluid(PETSC_COMM_WORLD, "panel", 20, o);
  const auto* op = f->clusterOperator();
  int span[2] = {op->bodyBegin(), op->bodyEnd()};
  std::vector<int> all(2 * ranks);
  MPI_Allgather(span, 2, MPI_INT, all.data(), 2, MPI_INT, PETSC_COMM_WORLD);
  EXPECT_EQ(all[0], 0);
  EXPECT_EQ(all[2 * ranks - 1], 20);
  for (int r = 1; r < ranks; ++r) EXPECT_EQ(all[2 * r], all[2 * r - 1]);
  for (int r = 0; r < ranks; ++r) EXPECT_NEAR(all[2 * r + 1] - all[2 * r], 20.0 / ranks, 1.0);
}

}  // namespace
}  // namespace kirchhoff::fluid
