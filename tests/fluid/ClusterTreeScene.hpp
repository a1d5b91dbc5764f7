// Leaf clusters of point sources and point targets for the cluster-tree tests (docs/fluidbody.md
// (FB-57)-(FB-60)): exact multipoles (FB-51) and target contractions, and the direct far sums they approximate.
#pragma once

#include <algorithm>
#include <cmath>
#include <complex>
#include <random>
#include <vector>

#include "fluid/fast/ClusterTree.hpp"

namespace kirchhoff::fluid::test {

using C = std::complex<double>;

/// A rigid leaf: sources q_j at body-frame offsets zeta_j and targets (weights w_t) at offsets x_t, all inside
/// the disk of radius r about the centre; angle theta rotates the offsets.
struct PointLeaf {
  C centre;
  double radius = 1.0, theta = 0.0;
  std::vector<C> zeta, x;
  std::vector<double> q, w;
  C source(std::size_t j) const { return centre + std::polar(1.0, theta) * zeta[j]; }
  C target(std::size_t t) const { return centre + std::polar(1.0, theta) * x[t]; }
};

/// A jittered grid of leaves of radii 0.2 .. 0.9 (spacing 2.2), a tight cluster of six small leaves, a ring of
/// eight leaves about a ninth (centres coinciding with a cell centre), three leaves in a row and one big leaf.
inline std::vector<PointLeaf> mixedLeaves(unsigned seed, int grid = 36) {
  std::mt19937 g(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<PointLeaf> L;
  auto add = [&](C c, double r) {
    PointLeaf l;
    l.centre = c;
    l.radius = r;
    l.theta = 6.283 * u(g);
    for (int j = 0; j < 6; ++j) {
      l.zeta.push_back(0.95 * r * std::sqrt(u(g)) * std::polar(1.0, 6.283 * u(g)));
      l.q.push_back(u(g) - 0.5);
      l.x.push_back(0.95 * r * std::sqrt(u(g)) * std::polar(1.0, 6.283 * u(g)));
      l.w.push_back(u(g) - 0.5);
    }
    L.push_back(l);
  };
  const int side = static_cast<int>(std::ceil(std::sqrt(grid)));
  for (int j = 0; j < grid; ++j)
    add(C(2.2 * (j % side) + 0.3 * (u(g) - 0.5), 2.2 * (j / side) + 0.3 * (u(g) - 0.5)), 0.2 + 0.7 * u(g));
  for (int j = 0; j < 6; ++j) add(C(-3.0 + 0.25 * (j % 3), 1.0 + 0.25 * (j / 3)), 0.1);
  add(C(-6.0, 8.0), 0.3);
  for (int j = 0; j < 8; ++j) add(C(-6.0, 8.0) + std::polar(0.9, 0.785398 * j), 0.3);
  for (int j = 0; j < 3; ++j) add(C(4.0 + j, -3.0), 0.4);
  add(C(16.0, 5.0), 2.5);
  return L;
}

inline std::vector<Cluster> clusters(const std::vector<PointLeaf>& L) {
  std::vector<Cluster> c;
  for (const auto& l : L) c.push_back(Cluster{l.centre, l.radius});
  return c;
}

/// Scaled multipoles (FB-51): a_0 = sum q, a_k = -sum q (zeta / r)^k / k (world-frame offsets).
inline Eigen::MatrixXcd multipoles(const std::vector<PointLeaf>& L, int p) {
  Eigen::MatrixXcd a = Eigen::MatrixXcd::Zero(p + 1, static_cast<Eigen::Index>(L.size()));
  for (std::size_t i = 0; i < L.size(); ++i)
    for (std::size_t j = 0; j < L[i].q.size(); ++j) {
      const C z = (L[i].source(j) - L[i].centre) / L[i].radius;
      C zk(1.0, 0.0);
      a(0, i) += L[i].q[j];
      for (int k = 1; k <= p; ++k) a(k, i) -= L[i].q[j] * (zk *= z) / static_cast<double>(k);
    }
  return a;
}

/// Target contractions c_l = sum_t w_t (x_t / r)^l (world-frame offsets): Re c . L = sum_t w_t phi(x_t).
inline Eigen::MatrixXcd contractions(const std::vector<PointLeaf>& L, int p) {
  Eigen::MatrixXcd c = Eigen::MatrixXcd::Zero(p + 1, static_cast<Eigen::Index>(L.size()));
  for (std::size_t i = 0; i < L.size(); ++i)
    for (std::size_t t = 0; t < L[i].w.size(); ++t) {
      const C z = (L[i].target(t) - L[i].centre) / L[i].radius;
      C zl(1.0, 0.0);
      for (int l = 0; l <= p; ++l, zl *= z) c(l, i) += L[i].w[t] * zl;
    }
  return c;
}

/// Near leaves of every leaf from the tree's near pairs.
inline std::vector<std::vector<char>> nearMatrix(const ClusterTree& tree) {
  const int n = tree.leafCount();
  std::vector<std::vector<char>> near(static_cast<std::size_t>(n), std::vector<char>(static_cast<std::size_t>(n), 0));
  for (int i = 0; i < n; ++i) near[i][i] = 1;
  for (const auto& [i, j] : tree.nearPairs()) near[i][j] = near[j][i] = 1;
  return near;
}

/// F = sum_P sum_{t in P} w_t sum_{Q far of P} sum_j q_j log|x_t - zeta_j| by direct summation.
inline double directFarSum(const std::vector<PointLeaf>& L, const std::vector<std::vector<char>>& near) {
  double F = 0.0;
  for (std::size_t P = 0; P < L.size(); ++P)
    for (std::size_t Q = 0; Q < L.size(); ++Q) {
      if (near[P][Q]) continue;
      for (std::size_t t = 0; t < L[P].w.size(); ++t)
        for (std::size_t j = 0; j < L[Q].q.size(); ++j)
          F += L[P].w[t] * L[Q].q[j] * std::log(std::abs(L[P].target(t) - L[Q].source(j)));
    }
  return F;
}

}  // namespace kirchhoff::fluid::test
