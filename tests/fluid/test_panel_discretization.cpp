// The panel discretization behind the Discretization interface (fluid/discretization/Discretization.hpp): segment
// multipole moments against the closed-form panel field, pose derivatives of the interaction blocks and
// the point field against central differences, block symmetry of the interface under a common motion.
#include <gtest/gtest.h>

#include <cmath>

#include "fluid/discretization/PanelDiscretization.hpp"
#include "fluid/discretization/PanelKernel.hpp"
#include "fluid/geometry/Shapes.hpp"

namespace kirchhoff::fluid {
namespace {

TEST(PanelDiscretization, MultipoleMomentsReproduceTheFarField) {
  // Omega_q(Z) = a_0 log Z + sum_k a_k Z^-k outside the body's disk: phi = Re Omega and
  // Omega' = u - i v of the closed-form panel at |Z| = 2.5 R, 40 terms (truncation ~ 0.4^41 = 5e-17,
  // relative to the panel's a_0 = l / 2 pi).
  const PanelDiscretization d({ellipse(1.0, 0.4, 48)}, PanelCorrection::Auto, 0);
  const Eigen::MatrixXcd A = d.multipoleMoments(0, 40);
  const double R = d.body(0).radius;
  double far = 0.0;  // the farthest vertex bounds the boundary
  for (const lie::Vec2& v : d.polygons()[0].vertices) far = std::max(far, v.norm());
  EXPECT_EQ(R, far);
  EXPECT_GT(R, 1.0);  // tangent sampling: the tips' vertices lie outside the ellipse
  double worst = 0.0;
  for (double t : {0.3, 1.9, 4.0}) {
    const Complex Z = std::polar(2.5 * R, t);
    for (int q = 0; q < d.body(0).size(); ++q) {
      const panel::PotentialTerms exact = panel::potentialTerms(d.geometry().seg[q], Z);
      Complex w = A(0, q) * std::log(Z), dw = A(0, q) / Z;
      for (int k = 1; k <= 40; ++k) {
        w += A(k, q) * std::pow(Z, -k);
        dw += -static_cast<double>(k) * A(k, q) * std::pow(Z, -k - 1);
      }
      worst = std::max({worst, std::abs(w.real() - exact.phi), std::abs(dw - exact.dW)});
    }
  }
  EXPECT_LT(worst, 1e-15);  // measured 1.4e-16
}

TEST(PanelDiscretization, InteractionGradientMatchesCentralDifferences) {
  // d/d(theta_P, y_P) of uM^T M_PQ vM + uS^T S_PQ vS for random weights, rows 3..10 of body P.
  const PanelDiscretization d({ellipse(1.0, 0.5, 24), plate(1.5, 0.2, 24)}, PanelCorrection::Auto, 1L << 20);
  const int first = 3, count = 8, nQ = d.body(1).size();
  Eigen::VectorXd uM = Eigen::VectorXd::Random(count), vM = Eigen::VectorXd::Random(nQ);
  Eigen::VectorXd uS = Eigen::VectorXd::Random(count), vS = Eigen::VectorXd::Random(nQ);
  const lie::Pose gQ{0.4, lie::Vec2(0.3, 1.6)};
  auto form = [&](const lie::Pose& gP) {
    Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> M(count, nQ), S(count, nQ);
    d.interaction(0, gP, first, count, 1, gQ, M.data(), nQ, S.data(), nQ);
    return uM.dot(M * vM) + uS.dot(S * vS);
  };
  const lie::Pose gP{-0.2, lie::Vec2(-0.5, 0.1)};
  form(gP);  // assemble (fills the W' cache the gradient uses)
  PairWeights w;
  w.normal = {{uM.data(), vM.data()}};
  w.potential = {{uS.data(), vS.data()}};
  const Eigen::Vector3d g = d.interactionGradient(0, gP, first, count, 1, gQ, w);
  const double h = 1e-5;
  for (int c = 0; c < 3; ++c) {
    lie::Pose a = gP, b = gP;
    if (c == 0) a.theta += h, b.theta -= h;
    else a.y[c - 1] += h, b.y[c - 1] -= h;
    const double fd = (form(a) - form(b)) / (2 * h);
    EXPECT_NEAR(g[c], fd, 1e-8 * (1 + std::abs(fd))) << "component " << c;
  }
  // The same without the cache (poses changed since the last assembly: recomputed).
  form(gQ);
  EXPECT_NEAR((d.interactionGradient(0, gP, first, count, 1, gQ, w) - g).norm(), 0.0, 1e-13 * g.norm());
}

TEST(PanelDiscretization, PointFieldDerivativeAndBlocksAreFrameIndependent) {
  const PanelDiscretization d({circle(1.0, 32), ellipse(0.8, 0.3, 20)}, PanelCorrection::Auto, 0);
  const lie::Pose g{0.7, lie::Vec2(0.2, -0.4)};
  const int n = d.body(1).size();
  const Complex z(1.1, 0.9);
  std::vector<double> psi(n), psiA(n), psiB(n);
  std::vector<Complex> dO(n);
  d.pointField(1, g, z, 0, n, psi.data(), dO.data());
  const double h = 1e-6;
  for (int c = 0; c < 2; ++c) {
    const Complex e = c == 0 ? Complex(h, 0) : Complex(0, h);
    d.pointField(1, g, z + e, 0, n, psiA.data(), nullptr);
    d.pointField(1, g, z - e, 0, n, psiB.data(), nullptr);
    for (int q = 0; q < n; ++q) {
      // grad psi = -(Im dOmega, Re dOmega)
      const double exact = c == 0 ? -dO[q].imag() : -dO[q].real();
      EXPECT_NEAR((psiA[q] - psiB[q]) / (2 * h), exact, 1e-8);
    }
  }
  // Rows of M_01 and S_01 are unchanged by a common rigid motion of both bodies.
  const int n0 = d.body(0).size();
  std::vector<double> M1(static_cast<std::size_t>(n0 * n)), S1(M1.size()), M2(M1.size()), S2(M1.size());
  const lie::Pose g0{0.1, lie::Vec2(-1.5, 0.3)}, common{1.2, lie::Vec2(3.0, -2.0)};
  d.interaction(0, g0, 0, n0, 1, g, M1.data(), n, S1.data(), n);
  d.interaction(0, common * g0, 0, n0, 1, common * g, M2.data(), n, S2.data(), n);
  for (std::size_t k = 0; k < M1.size(); ++k) {
    EXPECT_NEAR(M1[k], M2[k], 1e-13);
    EXPECT_NEAR(S1[k], S2[k], 1e-13);
  }
}

}  // namespace
}  // namespace kirchhoff::fluid
