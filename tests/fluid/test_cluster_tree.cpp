// The cluster-tree FMM (docs/fluidbody.md (FB-57)-(FB-60)) against direct summation of the same point sources:
// local expansions (potential and derivative), the exact transpose, the far gradient against central
// differences, the truncation error against the order, and the M2L count growing linearly with the leaves.
#include <gtest/gtest.h>

#include "ClusterTreeScene.hpp"
#include "core/Error.hpp"

namespace kirchhoff::fluid {
namespace {

using test::C;

std::vector<char> all(std::size_t n) { return std::vector<char>(n, 1); }

struct FieldErrors {
  double phi = 0.0, dphi = 0.0;  // largest error over the largest direct value
};

/// The tree's far field at every target against the direct sums over the far leaves.
FieldErrors fieldErrors(const std::vector<test::PointLeaf>& L, int p, double eta) {
  ClusterTree tree(MPI_COMM_SELF, p, eta);
  tree.build(test::clusters(L), all(L.size()));
  const Eigen::MatrixXcd b = tree.localExpansions(test::multipoles(L, p));
  const auto near = test::nearMatrix(tree);
  double e0 = 0, m0 = 0, e1 = 0, m1 = 0;
  for (std::size_t P = 0; P < L.size(); ++P)
    for (std::size_t t = 0; t < L[P].x.size(); ++t) {
      const C x = L[P].target(t), z = (x - L[P].centre) / L[P].radius;
      C phi(0.0, 0.0), dphi(0.0, 0.0), zl(1.0, 0.0);
      for (int l = 0; l <= p; ++l, zl *= z) {
        phi += b(l, P) * zl;
        if (l < p) dphi += static_cast<double>(l + 1) * b(l + 1, P) * zl / L[P].radius;
      }
      double ref = 0.0;
      C dref(0.0, 0.0);
      for (std::size_t Q = 0; Q < L.size(); ++Q)
        for (std::size_t j = 0; !near[P][Q] && j < L[Q].q.size(); ++j) {
          ref += L[Q].q[j] * std::log(std::abs(x - L[Q].source(j)));
          dref += L[Q].q[j] / (x - L[Q].source(j));
        }
      e0 = std::max(e0, std::abs(phi.real() - ref)), m0 = std::max(m0, std::abs(ref));
      e1 = std::max(e1, std::abs(dphi - dref)), m1 = std::max(m1, std::abs(dref));
    }
  return {e0 / m0, e1 / m1};
}

TEST(ClusterTree, LocalExpansionsMatchDirectSums) {
  // Mixed radii, a tight cluster, a ring about a leaf at a cell centre, a row and a big leaf: 1e-12 at the
  // default order of eta = 2 (p = 46) and of eta = 1.5 (p = 76).
  const auto L = test::mixedLeaves(1);
  for (double eta : {2.0, 1.5}) {
    const FieldErrors e = fieldErrors(L, multipoleOrder(eta), eta);
    EXPECT_LT(e.phi, 1e-12) << "eta " << eta;
    EXPECT_LT(e.dphi, 1e-12) << "eta " << eta;
  }
}

TEST(ClusterTree, ErrorFallsWithOrder) {
  // Every M2L pair has rho <= 1/eta: the error falls like eta^-p (bound 10 eta^-p), and really is truncation.
  const auto L = test::mixedLeaves(2);
  std::vector<double> err;
  for (int p : {8, 16, 24}) {
    err.push_back(fieldErrors(L, p, 2.0).phi);
    EXPECT_LT(err.back(), 10.0 * std::pow(2.0, -p)) << "p = " << p;
  }
  EXPECT_GT(err[0], 100.0 * err[2]);
}

TEST(ClusterTree, TransposeIsExact) {
  // sum c . L(a) = sum E(c) . a (plain, complex bilinear) for random complex a, c: the transpose of the
  // whole linear map, to round-off.
  const auto L = test::mixedLeaves(3);
  const int p = multipoleOrder(2.0);
  ClusterTree tree(MPI_COMM_SELF, p, 2.0);
  tree.build(test::clusters(L), all(L.size()));
  const Eigen::MatrixXcd a = Eigen::MatrixXcd::Random(p + 1, static_cast<Eigen::Index>(L.size()));
  const Eigen::MatrixXcd c = Eigen::MatrixXcd::Random(p + 1, static_cast<Eigen::Index>(L.size()));
  const Eigen::MatrixXcd b = tree.localExpansions(a), e = tree.multipoleAdjoints(c);
  const C lhs = c.cwiseProduct(b).sum(), rhs = e.cwiseProduct(a).sum();
  const double scale = c.cwiseAbs().cwiseProduct(b.cwiseAbs()).sum();
  EXPECT_GT(std::abs(lhs), 1e-3 * scale);
  EXPECT_LT(std::abs(lhs - rhs), 1e-14 * scale);
}

TEST(ClusterTree, FarGradientMatchesCentralDifferences) {
  // F = Re sum_P c_P . L_P(a) = the direct far sum (near pairs fixed at the base configuration); dF/dtheta,
  // dF/dx, dF/dy of every leaf (target and source sides (FB-59), (FB-60)) against central differences of
  // the direct sum, h = 1e-5 (difference error ~1e-10).
  auto L = test::mixedLeaves(4, 16);
  const int p = multipoleOrder(2.0);
  ClusterTree tree(MPI_COMM_SELF, p, 2.0);
  tree.build(test::clusters(L), all(L.size()));
  const auto near = test::nearMatrix(tree);
  const Eigen::MatrixXcd a = test::multipoles(L, p), c = test::contractions(L, p);
  const double F = c.cwiseProduct(tree.localExpansions(a)).sum().real(), ref = test::directFarSum(L, near);
  EXPECT_LT(std::abs(F - ref), 1e-12 * std::abs(ref));
  const Eigen::Matrix3Xd g = tree.farGradient(a, c);
  const double h = 1e-5;
  Eigen::Matrix3Xd fd(3, g.cols());
  for (std::size_t i = 0; i < L.size(); ++i)
    for (int k = 0; k < 3; ++k) {
      const C step = k == 0 ? C(0.0, 0.0) : (k == 1 ? C(h, 0.0) : C(0.0, h));
      auto at = [&](double s) {
        auto M = L;
        M[i].theta += k == 0 ? s * h : 0.0;
        M[i].centre += s * step;
        return test::directFarSum(M, near);
      };
      fd(k, static_cast<Eigen::Index>(i)) = (at(1.0) - at(-1.0)) / (2.0 * h);
    }
  EXPECT_LT((g - fd).cwiseAbs().maxCoeff(), 1e-8 * fd.cwiseAbs().maxCoeff());
  // F depends on relative positions only: the translations sum to zero.
  EXPECT_LT(std::abs(g.row(1).sum()) + std::abs(g.row(2).sum()), 1e-12 * g.cwiseAbs().maxCoeff() * g.cols());
}

TEST(ClusterTree, M2lPairsGrowLinearly) {
  // Disks of radius 0.5 on a square grid of spacing 2 (BodyGrid's configuration), eta = 2: the M2L pairs per
  // leaf level off at ~14 (direct M2L between all far pairs: n (n - 1) / 2 - near), the near pairs are the grid's
  // neighbours.
  std::vector<double> perLeaf;
  for (int n : {16, 64, 256, 1024, 4096, 16384}) {
    const int side = static_cast<int>(std::lround(std::sqrt(n)));
    std::vector<Cluster> leaves;
    for (int j = 0; j < n; ++j) leaves.push_back(Cluster{C(2.0 * (j % side), 2.0 * (j / side)), 0.5});
    ClusterTree tree(MPI_COMM_SELF, 46, 2.0);
    tree.build(leaves, all(leaves.size()));
    EXPECT_EQ(static_cast<long>(tree.nearPairs().size()), 2L * side * (side - 1)) << n;
    perLeaf.push_back(static_cast<double>(tree.m2lPairs()) / n);
    EXPECT_EQ(tree.m2lApplied(), 2 * tree.m2lPairs());
    EXPECT_LT(tree.m2lPairs(), static_cast<long>(n) * (n - 1) / 2);
  }
  // Measured: 3.4, 6.6, 9.4, 11.4, 12.6, 13.2 pairs per leaf; the growth is the boundary's ~n^-1/2 share,
  // halving with every factor of 4: bounded per leaf, increments shrinking.
  for (std::size_t k = 0; k < perLeaf.size(); ++k) EXPECT_LT(perLeaf[k], 15.0) << k;
  for (std::size_t k = 3; k < perLeaf.size(); ++k)
    EXPECT_LT(perLeaf[k] - perLeaf[k - 1], 0.75 * (perLeaf[k - 1] - perLeaf[k - 2])) << k;
}

TEST(ClusterTree, RejectsBadLeavesAndOptions) {
  EXPECT_THROW(ClusterTree(MPI_COMM_SELF, 10, 1.0), ConfigurationError);
  EXPECT_THROW(ClusterTree(MPI_COMM_SELF, 0, 2.0), ConfigurationError);
  EXPECT_THROW(multipoleOrder(2.0, 0.0), ConfigurationError);
  ClusterTree tree(MPI_COMM_SELF, 10, 2.0);
  EXPECT_THROW(tree.build({Cluster{C(0.0, 0.0), 0.0}}, {1}), ConfigurationError);
  EXPECT_THROW(tree.build({Cluster{C(0.0, 0.0), 1.0}}, {}), ConfigurationError);
}

}  // namespace
}  // namespace kirchhoff::fluid
