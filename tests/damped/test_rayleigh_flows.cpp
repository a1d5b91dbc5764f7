// Tests of the exact Rayleigh sub-flows (models/damped/RayleighFlows, docs/damped.md (DA-3)-(DA-6)): closed
// forms for scalar damping, DOP853 for a non-diagonal M and D, and the energy rate -eps <D p#, p#>.
#include <cmath>
#include <memory>

#include <gtest/gtest.h>

#include "integrators/Dop853.hpp"
#include "models/damped/RayleighFlows.hpp"
#include "models/damped/RayleighSystem.hpp"

namespace {

using namespace kirchhoff::damped;

std::shared_ptr<RayleighSystem> scalarPendulum(double m, double d, double eps) {
  return std::make_shared<RayleighSystem>(MatrixXd::Constant(1, 1, m), eps,
                                          std::make_shared<PendulumPotential>(1.0),
                                          std::make_shared<ConstantDissipation>(MatrixXd::Constant(1, 1, d)));
}

// p' = -g - a p, a = eps d / m: p(t) = e^{-a t} p0 - g (1 - e^{-a t}) / a.
TEST(RayleighFlows, KickDampMatchesClosedFormScalar) {
  const double m = 2.0, d = 3.0, eps = 0.1, t = 0.7, q0 = 0.7, p0 = -0.4;
  const auto sys = scalarPendulum(m, d, eps);
  VectorXd q = VectorXd::Constant(1, q0), p = VectorXd::Constant(1, p0);
  kickDampVY(*sys, q, p, t);
  const double a = eps * d / m, g = std::sin(q0);
  const double exact = std::exp(-a * t) * p0 - g * (1.0 - std::exp(-a * t)) / a;
  EXPECT_NEAR(p(0), exact, 1e-15);  // a few ulps of |p| ~ 0.6
  EXPECT_EQ(q(0), q0);               // q frozen
  VectorXd p2 = VectorXd::Constant(1, p0);
  dampY(*sys, q, p2, t);
  EXPECT_NEAR(p2(0), std::exp(-a * t) * p0, 1e-16);
}

// Non-diagonal M and D in R^3 (constant): compare with DOP853 at rtol = atol = 1e-13 on the
// linear ODE p' = -grad V(q) - eps D M^-1 p (q frozen). Agreement to 1e-11 is the reference's accuracy.
TEST(RayleighFlows, KickDampMatchesReferenceMatrixCase) {
  MatrixXd M(3, 3), D(3, 3);
  M << 2.0, 0.3, 0.1, 0.3, 1.5, -0.2, 0.1, -0.2, 1.0;
  D << 1.0, 0.5, 0.0, 0.5, 2.0, 0.3, 0.0, 0.3, 0.0;  // PSD with a near-null direction
  D = D * D.transpose();
  const double eps = 0.4, t = 1.3;
  RayleighSystem sys(M, eps, std::make_shared<ElasticPendulumPotential>(10.0, 1.0, 1.0, 1.0),
                     std::make_shared<ConstantDissipation>(D));
  VectorXd q(3), p(3);
  q << 0.5, -0.2, -1.1;
  p << 0.3, 0.8, -0.5;
  const VectorXd g = sys.potential().gradient(q);
  const MatrixXd A = sys.dampingMatrix(q);
  kirchhoff::integrators::Dop853Options opt;
  opt.rtol = opt.atol = 1e-13;
  const VectorXd ref = kirchhoff::integrators::dop853(
      [&](double, const VectorXd& y) { return VectorXd(-g - A * y); }, 0.0, p, {t}, opt)[0];
  VectorXd pk = p;
  kickDampVY(sys, q, pk, t);
  EXPECT_LT((pk - ref).norm(), 1e-11);
  const VectorXd refY = kirchhoff::integrators::dop853(
      [&](double, const VectorXd& y) { return VectorXd(-A * y); }, 0.0, p, {t}, opt)[0];
  VectorXd py = p;
  dampY(sys, q, py, t);
  EXPECT_LT((py - refY).norm(), 1e-11);
}

// A q-dependent full-rank D (no closed form, no cache: the eigen-decomposition path of the
// sub-flows) against DOP853 at 1e-13 on the frozen-q linear ODE.
class ScaledDissipation final : public Dissipation {
 public:
  explicit ScaledDissipation(MatrixXd D0) : D0_(std::move(D0)) {}
  std::string name() const override { return "scaled"; }
  MatrixXd matrix(const VectorXd& q) const override { return (1.0 + q.squaredNorm()) * D0_; }
  bool constant() const override { return false; }

 private:
  MatrixXd D0_;
};

TEST(RayleighFlows, GeneralDissipationEigenPath) {
  MatrixXd M(3, 3), D(3, 3);
  M << 2.0, 0.3, 0.1, 0.3, 1.5, -0.2, 0.1, -0.2, 1.0;
  D << 1.0, 0.2, 0.0, 0.2, 0.5, 0.1, 0.0, 0.1, 0.3;
  RayleighSystem sys(M, 0.4, std::make_shared<ElasticPendulumPotential>(10.0, 1.0, 1.0, 1.0),
                     std::make_shared<ScaledDissipation>(D));
  VectorXd q(3), p(3);
  q << 0.5, -0.2, -1.1;
  p << 0.3, 0.8, -0.5;
  const VectorXd g = sys.potential().gradient(q);
  const MatrixXd A = sys.dampingMatrix(q);
  kirchhoff::integrators::Dop853Options opt;
  opt.rtol = opt.atol = 1e-13;
  const VectorXd ref = kirchhoff::integrators::dop853(
      [&](double, const VectorXd& y) { return VectorXd(-g - A * y); }, 0.0, p, {0.9}, opt)[0];
  VectorXd pk = p;
  kickDampVY(sys, q, pk, 0.9);
  EXPECT_LT((pk - ref).norm(), 1e-11);
}

// Kinetic energy under exp(t eps Y): dT/dt at t = 0 equals -eps <D p#, p#> (the sign and size of
// the dissipation). Central difference, error O(t^2) = 1e-8 relative for t = 1e-4.
TEST(RayleighFlows, DampingRateIsMinusEpsDpp) {
  MatrixXd M = MatrixXd::Identity(3, 3);
  RayleighSystem sys(M, 0.3, std::make_shared<ElasticPendulumPotential>(10.0, 1.0, 1.0, 1.0),
                     std::make_shared<RadialDissipation>(2.0));
  VectorXd q(3), p(3);
  q << 0.5, -0.2, -1.1;
  p << 0.3, 0.8, -0.5;
  const double t = 1e-4;
  VectorXd pp = p, pm = p;
  dampY(sys, q, pp, t);
  dampY(sys, q, pm, -t);
  const double rate = (sys.kinetic(pp) - sys.kinetic(pm)) / (2.0 * t);
  const double expect = -sys.dissipationRate(q, p);
  EXPECT_LT(expect, 0.0);
  EXPECT_NEAR(rate, expect, 1e-8 * std::abs(expect));
}

// Radial damping acts only along u = q/|q|: the flow keeps q x p (all three components).
TEST(RayleighFlows, RadialDampingKeepsAngularMomentum) {
  RayleighSystem sys(MatrixXd::Identity(3, 3), 0.5,
                     std::make_shared<ElasticPendulumPotential>(10.0, 1.0, 1.0, 0.0),
                     std::make_shared<RadialDissipation>(1.0));
  Eigen::Vector3d q(0.5, -0.2, -1.1), p(0.3, 0.8, -0.5);
  VectorXd qq = q, pp = p;
  kickDampVY(sys, qq, pp, 0.9);  // g = 0: the spring force is radial too
  const Eigen::Vector3d L0 = q.cross(p), L1 = q.cross(Eigen::Vector3d(pp));
  EXPECT_LT((L1 - L0).norm(), 1e-15);
  EXPECT_GT((Eigen::Vector3d(pp) - p).norm(), 1e-2);  // the flow did act
}

// The rank-one closed form (radial D) against the eigen-decomposition path (the same D as a
// constant matrix at this q), with a non-diagonal M. Agreement to round-off (1e-14).
TEST(RayleighFlows, RankOneClosedFormMatchesEigenPath) {
  MatrixXd M(3, 3);
  M << 2.0, 0.3, 0.1, 0.3, 1.5, -0.2, 0.1, -0.2, 1.0;
  VectorXd q(3), p(3);
  q << 0.5, -0.2, -1.1;
  p << 0.3, 0.8, -0.5;
  const auto V = std::make_shared<ElasticPendulumPotential>(10.0, 1.0, 1.0, 1.0);
  const auto radial = std::make_shared<RadialDissipation>(2.5);
  RayleighSystem sysR(M, 0.3, V, radial);
  RayleighSystem sysC(M, 0.3, V, std::make_shared<ConstantDissipation>(radial->matrix(q)));
  for (const double t : {0.01, 0.7, 5.0}) {
    VectorXd pr = p, pc = p, yr = p, yc = p;
    kickDampVY(sysR, q, pr, t);
    kickDampVY(sysC, q, pc, t);
    dampY(sysR, q, yr, t);
    dampY(sysC, q, yc, t);
    EXPECT_LT((pr - pc).norm(), 1e-14) << t;
    EXPECT_LT((yr - yc).norm(), 1e-14) << t;
  }
}

}  // namespace
