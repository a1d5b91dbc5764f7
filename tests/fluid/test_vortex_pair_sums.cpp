// The vortex–vortex sums of docs/fluidbody.md (FB-10), (FB-55): shares over simulated ranks, direct and
// through the FMM, against the direct pair sums and the Biot–Savart law of fluid/geometry/PointVortices.
#include <gtest/gtest.h>

#include <random>

#include "fluid/fast/VortexPairSums.hpp"

using namespace kirchhoff::fluid;

namespace {

Vortices randomVortices(int m, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  Vortices v;
  for (int i = 0; i < m; ++i) {
    v.gamma.emplace_back(6.0 * u(gen), 3.0 * u(gen));
    v.K.push_back(u(gen) - 0.5);
  }
  return v;
}

/// W_vv and its gradient summed over `ranks` shares.
std::pair<double, Eigen::VectorXd> summed(const Vortices& v, int ranks) {
  double w = 0.0;
  Eigen::VectorXd g = Eigen::VectorXd::Zero(2 * v.size());
  for (int r = 0; r < ranks; ++r) {
    VortexPairSums s;
    s.update(v, r, ranks);
    w += s.routhShare();
    g += s.gradientShare();
  }
  return {w, g};
}

}  // namespace

TEST(VortexPairSums, FmmSharesAgreeWithTheDirectPairSums) {
  const Vortices v = randomVortices(kVortexFmmMin + 500, 3);
  const double w = vortexInteraction(v, 0, v.size());
  Eigen::VectorXd g = Eigen::VectorXd::Zero(2 * v.size());
  addVortexInteractionGradient(v, 0, v.size(), g);
  for (int ranks : {1, 2, 3}) {
    const auto [ws, gs] = summed(v, ranks);
    EXPECT_NEAR(ws, w, 1e-12 * std::abs(w)) << ranks << " ranks";
    EXPECT_LT((gs - g).cwiseAbs().maxCoeff(), 1e-12 * g.cwiseAbs().maxCoeff()) << ranks << " ranks";
  }
  VortexPairSums s;
  s.update(v, 0, 1);
  EXPECT_TRUE(s.fast());
}

TEST(VortexPairSums, FewVorticesKeepTheDirectSumsBitwise) {
  const Vortices v = randomVortices(200, 5);
  VortexPairSums s;
  s.update(v, 0, 1);
  EXPECT_FALSE(s.fast());
  Eigen::VectorXd g = Eigen::VectorXd::Zero(2 * v.size());
  addVortexInteractionGradient(v, 0, v.size(), g);
  EXPECT_EQ(s.routhShare(), vortexInteraction(v, 0, v.size()));
  EXPECT_EQ((s.gradientShare() - g).cwiseAbs().maxCoeff(), 0.0);
  const auto [w2, g2] = summed(v, 2);
  EXPECT_NEAR(w2, s.routhShare(), 1e-13 * std::abs(w2));
}

TEST(VortexPairSums, VelocitiesAndFieldAgreeWithBiotSavart) {
  for (int m : {100, kVortexFmmMin + 100}) {
    const Vortices v = randomVortices(m, 7);
    const std::vector<Vec2> u = vortexSelfVelocities(v);
    double e = 0.0, mx = 0.0;
    for (int i = 0; i < m; ++i) {
      const Vec2 ref = biotSavart(v, v.gamma[i], i);
      e = std::max(e, (u[i] - ref).norm());
      mx = std::max(mx, ref.norm());
    }
    EXPECT_LT(e, 1e-12 * mx) << m << " vortices";
    std::vector<std::complex<double>> z;
    for (int k = 0; k < 50; ++k) z.emplace_back(-1.0 + 0.17 * k, 4.0 - 0.05 * k);  // beside and among them
    const std::vector<std::complex<double>> w = vortexField(v, z);
    e = mx = 0.0;
    for (int k = 0; k < 50; ++k) {
      const Vec2 ref = biotSavart(v, Vec2(z[k].real(), z[k].imag()));
      e = std::max(e, std::abs(w[k] - std::complex<double>(ref.x(), -ref.y())));
      mx = std::max(mx, ref.norm());
    }
    EXPECT_LT(e, 1e-12 * mx) << m << " vortices";
  }
}
