// The cluster tree and the body-cluster operator distributed by owned leaves (docs/fluidbody.md (FB-58)):
// on the ranks of the test against one rank (MPI_COMM_SELF), 1e-13 relative; contiguous and round-robin owners.
#include <gtest/gtest.h>
#include <petscsys.h>

#include "ClusterTreeScene.hpp"
#include "fluid/fast/BodyClusterOperator.hpp"
#include "fluid/discretization/PanelDiscretization.hpp"
#include "fluid/geometry/Shapes.hpp"

namespace kirchhoff::fluid {
namespace {

int worldRank() {
  int r = 0;
  MPI_Comm_rank(PETSC_COMM_WORLD, &r);
  return r;
}
int worldSize() {
  int r = 1;
  MPI_Comm_size(PETSC_COMM_WORLD, &r);
  return r;
}

/// Largest difference over the largest entry of the reference.
double relDiffComplex(const Eigen::MatrixXcd& a, const Eigen::MatrixXcd& b) {
  return (a - b).cwiseAbs().maxCoeff() / b.cwiseAbs().maxCoeff();
}

/// Columns of `m` that this rank owns, summed over the ranks (every column owned by one rank).
template <class Matrix>
Matrix sumOwned(Matrix m) {
  using Scalar = typename Matrix::Scalar;
  const int doubles = static_cast<int>(m.size() * sizeof(Scalar) / sizeof(double));
  MPI_Allreduce(MPI_IN_PLACE, reinterpret_cast<double*>(m.data()), doubles, MPI_DOUBLE, MPI_SUM, PETSC_COMM_WORLD);
  return m;
}

void expectTreeMatchesOneRank(bool roundRobin) {
  const auto L = test::mixedLeaves(7);
  const int p = multipoleOrder(2.0), n = static_cast<int>(L.size()), ranks = worldSize(), rank = worldRank();
  std::vector<char> owned(L.size());
  for (int i = 0; i < n; ++i) owned[i] = (roundRobin ? i % ranks : i * ranks / n) == rank;
  ClusterTree tree(PETSC_COMM_WORLD, p, 2.0), serial(MPI_COMM_SELF, p, 2.0);
  tree.build(test::clusters(L), owned);
  serial.build(test::clusters(L), std::vector<char>(L.size(), 1));
  const Eigen::MatrixXcd a = test::multipoles(L, p), c = test::contractions(L, p);
  EXPECT_LT(relDiffComplex(sumOwned(tree.localExpansions(a)), serial.localExpansions(a)), 1e-13) << "forward";
  EXPECT_LT(relDiffComplex(sumOwned(tree.multipoleAdjoints(c)), serial.multipoleAdjoints(c)), 1e-13) << "transpose";
  const Eigen::Matrix3Xd g = sumOwned(Eigen::Matrix3Xd(tree.farGradient(a, c))), s = serial.farGradient(a, c);
  EXPECT_LT((g - s).cwiseAbs().maxCoeff(), 1e-13 * s.cwiseAbs().maxCoeff()) << "gradient";
  // Each rank applies the M2L into its active cells only: together no more than twice the pairs plus the
  // shared top of the tree.
  long applied = tree.m2lApplied();
  MPI_Allreduce(MPI_IN_PLACE, &applied, 1, MPI_LONG, MPI_SUM, PETSC_COMM_WORLD);
  EXPECT_GE(applied, serial.m2lApplied());
  if (!roundRobin) {
    EXPECT_LT(applied, 2 * serial.m2lApplied()) << "contiguous owners share little of the tree";
  }
}

TEST(ClusterTreeMpi, ContiguousOwnersMatchOneRank) { expectTreeMatchesOneRank(false); }
TEST(ClusterTreeMpi, RoundRobinOwnersMatchOneRank) { expectTreeMatchesOneRank(true); }

TEST(ClusterTreeMpi, BodyClusterOperatorMatchesOneRank) {
  // 30 panel bodies of different radii on a jittered grid: M v, S v (owned rows), M^T u, S^T u (complete)
  // and the far gradient (summed over the ranks) against the operator on one rank.
  std::mt19937 gen(9);
  std::uniform_real_distribution<double> u01(0.0, 1.0);
  std::vector<Polygon> shapes;
  std::vector<lie::Pose> poses;
  for (int j = 0; j < 30; ++j) {
    const double r = 0.3 + 0.5 * u01(gen), x = 2.1 * (j % 6) + 0.2 * u01(gen), y = 2.1 * (j / 6) + 0.2 * u01(gen);
    shapes.push_back(j % 2 ? circle(r, 20) : ellipse(r, 0.6 * r, 24));
    poses.push_back(lie::Pose{6.283 * u01(gen), Vec2(x, y)});
  }
  const PanelDiscretization d(shapes, PanelCorrection::Auto, 0);
  std::vector<int> sizes;
  for (int j = 0; j < d.bodyCount(); ++j) sizes.push_back(d.body(j).size());
  const NodeLayout L(sizes);
  const auto [b0, b1] = balancedBodies(L, worldSize(), worldRank());
  const int p = multipoleOrder(2.0);
  BodyClusterOperator op(PETSC_COMM_WORLD, d, L, b0, b1, p, 2.0), one(MPI_COMM_SELF, d, L, 0, L.bodies, p, 2.0);
  op.setPoses(poses);
  one.setPoses(poses);
  Eigen::VectorXd x(L.nodes), w(L.nodes);
  for (int i = 0; i < L.nodes; ++i) x[i] = u01(gen) - 0.5, w[i] = u01(gen) - 0.5;
  for (auto k : {BodyClusterOperator::Kind::Normal, BodyClusterOperator::Kind::Potential}) {
    Eigen::VectorXd y = Eigen::VectorXd::Zero(L.nodes), ref = y, yt, reft;
    op.apply(k, x, y);
    one.apply(k, x, ref);
    Eigen::VectorXd mine = Eigen::VectorXd::Zero(L.nodes);
    mine.segment(L.offset[b0], L.offset[b1] - L.offset[b0]) = y.segment(L.offset[b0], L.offset[b1] - L.offset[b0]);
    EXPECT_LT((sumOwned(mine) - ref).cwiseAbs().maxCoeff(), 1e-13 * ref.cwiseAbs().maxCoeff());
    op.applyTranspose(k, w, yt);
    one.applyTranspose(k, w, reft);
    EXPECT_LT((yt - reft).cwiseAbs().maxCoeff(), 1e-13 * reft.cwiseAbs().maxCoeff());
  }
  Eigen::VectorXd g = Eigen::VectorXd::Zero(3 * L.bodies), ref = g;
  op.addFarGradient({{&w, &x}, {&x, &w}}, {{&w, &x}}, g);
  one.addFarGradient({{&w, &x}, {&x, &w}}, {{&w, &x}}, ref);
  EXPECT_LT((sumOwned(g) - ref).cwiseAbs().maxCoeff(), 1e-13 * ref.cwiseAbs().maxCoeff());
}

}  // namespace
}  // namespace kirchhoff::fluid
