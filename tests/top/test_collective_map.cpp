// Tests of the collective map M: T*R^4 -> se(3)* (models/top/CollectiveMap.hpp; Ohsawa 2019,
// eq. (4.1), Prop. 2.2, Cor. 3.2, Sec. 4.2): identities of A(p), the Poisson property, the lift
// (Theorem 4.1 (i)) and the Noether quantities.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <random>

#include "core/Error.hpp"
#include "models/top/CollectiveMap.hpp"
#include "top/TopTestUtil.hpp"

namespace {

using namespace kirchhoff::top;

using test::randomZ;

// A A^T = |p|^2/4 I and A p = 0 (Prop. 2.2), exact algebra: 1e-15 relative.
TEST(CollectiveMap, MatrixAIdentities) {
  std::mt19937 g(7);
  for (int t = 0; t < 20; ++t) {
    const Vec4 p = randomZ(g).tail<4>();
    const auto A = collectiveA<double>(p);
    EXPECT_LT((A * A.transpose() - 0.25 * p.squaredNorm() * Mat3::Identity()).norm(),
              1e-15 * (1.0 + p.squaredNorm()));
    EXPECT_LT((A * p).norm(), 1e-15 * (1.0 + p.squaredNorm()));
  }
}

// M is Poisson (Cor. 3.2): DM Omega DM^T = B(M(z)) at random z, to 1e-14 (entries O(1)); this
// is what the reconstructed formulas of docs/heavytop.md must satisfy.
TEST(CollectiveMap, IsPoisson) {
  std::mt19937 g(11);
  for (int t = 0; t < 20; ++t) {
    const Vec8 z = randomZ(g);
    const Mat68 D = collectiveMapJacobian(z);
    const Mat6 lhs = D * canonicalOmega() * D.transpose();
    EXPECT_LT((lhs - poissonTensor(collectiveMap<double>(z))).cwiseAbs().maxCoeff(), 1e-14);
  }
}

// The analytic DM equals the complex-step derivative to 1e-14.
TEST(CollectiveMap, JacobianMatchesComplexStep) {
  using C = std::complex<double>;
  std::mt19937 g(3);
  const Vec8 z = randomZ(g);
  const Mat68 D = collectiveMapJacobian(z);
  for (int k = 0; k < 8; ++k) {
    Vec8T<C> zc = z.cast<C>();
    zc[k] += C(0.0, 1e-30);
    const Vec6 col = collectiveMap<C>(zc).imag() / 1e-30;
    EXPECT_LT((col - D.col(k)).norm(), 1e-14) << "column " << k;
  }
}

// The lift inverts M for random (Pi, Gamma), any phase and shift, including Gamma = +-|Gamma| e3
// (theta = 0, pi), to 1e-14 relative.
TEST(CollectiveMap, LiftInvertsMap) {
  std::mt19937 g(5);
  std::uniform_real_distribution<double> u(-2.0, 2.0);
  for (int t = 0; t < 20; ++t) {
    const Vec3 Pi(u(g), u(g), u(g));
    Vec3 Gamma(u(g), u(g), u(g));
    if (t == 0) Gamma = Vec3(0.0, 0.0, 1.7);
    if (t == 1) Gamma = Vec3(0.0, 0.0, -0.4);
    const Vec8 z = collectiveLift(Pi, Gamma, u(g), u(g));
    const Vec6 y = collectiveMap<double>(z);
    const double scale = 1.0 + Pi.norm() + Gamma.norm();
    EXPECT_LT((y.head<3>() - Pi).norm(), 1e-14 * scale) << t;
    EXPECT_LT((y.tail<3>() - Gamma).norm(), 1e-14 * scale) << t;
  }
  EXPECT_THROW(collectiveLift(Vec3(1, 0, 0), Vec3::Zero(), 0.0, 0.0), kirchhoff::ConfigurationError);
}

// The paper's normalization for the Kovalevskaya data: psi(0) = (cos 15 deg, 0, sin 15 deg, 0)
// and q1 = Re chi1 = 1 (docs/heavytop.md), M(z0) = (Pi(0), Gamma(0)) to round-off.
TEST(CollectiveMap, KovalevskayaLift) {
  const Vec3 Pi(2.0, 0.0, 4.0), Gamma(0.5, 0.0, std::sqrt(3.0) / 2.0);
  const double s = collectiveShiftForQ1(Pi, Gamma, 0.0, 1.0);
  const Vec8 z = collectiveLift(Pi, Gamma, 0.0, s);
  const double d = std::acos(-1.0) / 12.0;
  EXPECT_NEAR(z[0], 1.0, 1e-15);
  EXPECT_NEAR(z[4], std::cos(d), 1e-15);
  EXPECT_NEAR(z[5], 0.0, 1e-15);
  EXPECT_NEAR(z[6], std::sin(d), 1e-15);
  EXPECT_NEAR(z[7], 0.0, 1e-15);
  Vec6 y0;
  y0 << Pi, Gamma;
  EXPECT_LT((collectiveMap<double>(z) - y0).norm(), 1e-14);
}

// Noether quantities (Sec. 4.2): f1 = |Gamma|^2 = 4 J1^2 and f2 = Pi . Gamma = J1 J2 at random z
// (1e-14 relative); M is invariant under both symmetry actions, chi -> chi + b psi and
// (chi, psi) -> e^{it}(chi, psi), which generate the 2-dimensional fibres of M.
TEST(CollectiveMap, NoetherQuantitiesAndFibres) {
  using C = std::complex<double>;
  std::mt19937 g(13);
  for (int t = 0; t < 20; ++t) {
    const Vec8 z = randomZ(g);
    const Vec6 y = collectiveMap<double>(z);
    const double J1 = noetherJ1(z), J2 = noetherJ2(z);
    EXPECT_NEAR(y.tail<3>().squaredNorm(), 4.0 * J1 * J1, 1e-14 * (1.0 + 4.0 * J1 * J1));
    EXPECT_NEAR(y.head<3>().dot(y.tail<3>()), J1 * J2, 1e-14 * (1.0 + std::abs(J1 * J2)));
    const double b = 0.37, th = 0.81;
    Vec8 zb = z;
    zb.head<4>() += b * z.tail<4>();
    EXPECT_LT((collectiveMap<double>(zb) - y).norm(), 1e-14 * (1.0 + y.norm()));
    const C e = std::exp(C(0.0, th));
    Vec8 zr;
    for (int k = 0; k < 4; ++k) {  // complex pairs (q1 + i q2, q3 + i q4), (p1 + i p2, p3 + i p4)
      const C w = e * C(z[2 * k], z[2 * k + 1]);
      zr[2 * k] = w.real();
      zr[2 * k + 1] = w.imag();
    }
    EXPECT_LT((collectiveMap<double>(zr) - y).norm(), 1e-14 * (1.0 + y.norm()));
    // J1 and J2 are invariant under both actions (they commute).
    EXPECT_NEAR(noetherJ2(zr), J2, 1e-14 * (1.0 + std::abs(J2)));
    EXPECT_NEAR(noetherJ2(zb), J2, 1e-14 * (1.0 + std::abs(J2)));
    EXPECT_NEAR(noetherJ1(zr), J1, 1e-14 * (1.0 + J1));
  }
}

}  // namespace
