// Symplecticity of the slosh Stormer-Verlet map (docs/slosh.md (SL-12)): the one-step Jacobian S
// (complex step, N = 20) satisfies S^T Omega S = Omega with trapezoidal/left/right sigma, not with Simpson.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <complex>

#include "SloshFixtures.hpp"
#include "StepJacobian.hpp"
#include "models/slosh/LinearModes.hpp"

using namespace kirchhoff::slosh;
using kirchhoff::slosh::fixtures::complexStepJacobian;
using kirchhoff::slosh::fixtures::pack;
using kirchhoff::slosh::fixtures::stepMap;

namespace {

// 5-point central difference (error O(h^4)), the cross-check of the complex step.
Eigen::MatrixXd fivePointJacobian(const std::vector<double>& z0, const Discretization& d,
                                  const SlabCoefficients& c) {
  const std::size_t n = z0.size();
  Eigen::MatrixXd S(n, n);
  for (std::size_t j = 0; j < n; ++j) {
    const double h = 1e-4 * std::max(1e-2, std::abs(z0[j]));
    auto at = [&](double s) {
      std::vector<double> z = z0;
      z[j] += s * h;
      return stepMap(z, d, c);
    };
    const auto m2 = at(-2), m1 = at(-1), p1 = at(1), p2 = at(2);
    for (std::size_t i = 0; i < n; ++i)
      S(static_cast<long>(i), static_cast<long>(j)) = (m2[i] - 8 * m1[i] + 8 * p1[i] - p2[i]) / (12 * h);
  }
  return S;
}

// Omega = sum M_i dw_i ^ dx_i + dp ^ dq as a matrix: Omega(u, v) = u^T J v.
Eigen::MatrixXd omegaMatrix(const SlabCoefficients& c) {
  const long N = static_cast<long>(c.n), n = 2 * (N + 1);
  Eigen::MatrixXd J = Eigen::MatrixXd::Zero(n, n);
  for (long i = 0; i < N; ++i) {
    J(N + 1 + i, i) = c.massWeight[static_cast<std::size_t>(i)];
    J(i, N + 1 + i) = -c.massWeight[static_cast<std::size_t>(i)];
  }
  J(2 * N + 1, N) = 1.0;
  J(N, 2 * N + 1) = -1.0;
  return J;
}

struct JacobianPoint {
  Config cfg;
  Discretization d;
  SlabCoefficients c;
  std::vector<double> z;
};

// A generic (nonlinear) point: 5 % bump, vehicle moving, after 50 steps so all fields are non-trivial.
JacobianPoint genericPoint(Quadrature q) {
  Config cfg = kirchhoff::slosh::fixtures::baseConfig(20, 0.05, q);
  cfg.init.q0 = 0.01;
  cfg.init.qdot0 = 0.05;
  Discretization d(cfg.par, cfg.depth, kirchhoff::slosh::fixtures::cflStep(cfg, 0.5));
  SlabCoefficients c = d.slab(1, 20);
  SerialState<double> s = kirchhoff::slosh::fixtures::runSerial(d, cfg.init, 50);
  return JacobianPoint{cfg, d, c, pack(s)};
}

double symplecticDefect(const JacobianPoint& s) {
  const Eigen::MatrixXd S = complexStepJacobian(s.z, s.d, s.c);
  const Eigen::MatrixXd J = omegaMatrix(s.c);
  return (S.transpose() * J * S - J).cwiseAbs().maxCoeff() / J.cwiseAbs().maxCoeff();
}

}  // namespace

// The complex-step Jacobian agrees with the 5-point stencil to its truncation/rounding level
// (h = 1e-4 relative: O(h^4) ~ 1e-16 truncation, ~1e-12 rounding / h; measured ~1e-10, bound 1e-8).
TEST(SloshSymplecticity, ComplexStepMatchesFivePointStencil) {
  const JacobianPoint s = genericPoint(Quadrature::Trapezoid);
  const Eigen::MatrixXd A = complexStepJacobian(s.z, s.d, s.c);
  const Eigen::MatrixXd B = fivePointJacobian(s.z, s.d, s.c);
  EXPECT_LT((A - B).cwiseAbs().maxCoeff() / A.cwiseAbs().maxCoeff(), 1e-8);
}

// docs/slosh.md: |S^T Omega S - Omega| < 1e-10 relative to max |Omega| with the trapezoidal sigma
// (and the left/right Riemann sums, whose interior weights are also 1); Simpson's interior weights
// 4/3, 2/3 break it (the doc expects about 1e-2; we require > 1e-4, measured values in the report).
TEST(SloshSymplecticity, TrapezoidLeftRightPreserveOmegaSimpsonDoesNot) {
  for (Quadrature q : {Quadrature::Trapezoid, Quadrature::Left, Quadrature::Right}) {
    const double defect = symplecticDefect(genericPoint(q));
    RecordProperty(quadratureName(q), std::to_string(defect));
    std::printf("[ slosh ] symplectic defect %-9s %.3e\n", quadratureName(q).c_str(), defect);
    EXPECT_LT(defect, 1e-10) << quadratureName(q);
  }
  const double simpson = symplecticDefect(genericPoint(Quadrature::Simpson));
  std::printf("[ slosh ] symplectic defect simpson   %.3e\n", simpson);
  EXPECT_GT(simpson, 1e-4);
}

// Linear stability: about the rest state S is the linear Stormer-Verlet map, stable iff
// omega_max dt < 2 (omega_max from the discrete normal modes). The documented bound da/sqrt(g h)
// lies below that limit by less than 1 % here, and |eig S| = 1 (1e-8) below it, > 1 above it.
TEST(SloshSymplecticity, LinearStabilityLimitMatchesTheCflBound) {
  Config cfg = kirchhoff::slosh::fixtures::baseConfig(20, 0.0);
  Discretization probe(cfg.par, cfg.depth, 1.0);
  const auto modes = discreteLinearModes(probe);
  const double critical = 2.0 / modes.back().omega;
  EXPECT_LE(probe.stabilityBound(), critical);
  EXPECT_GT(probe.stabilityBound(), 0.99 * critical);
  for (double f : {0.99, 1.01}) {
    Discretization d(cfg.par, cfg.depth, f * critical);
    const SlabCoefficients c = d.slab(1, 20);
    const SerialState<double> rest = serialInitialState<double>(d, cfg.init);
    const Eigen::MatrixXd S = complexStepJacobian(pack(rest), d, c);
    const double rhoMax = S.eigenvalues().cwiseAbs().maxCoeff();
    if (f < 1)
      EXPECT_NEAR(rhoMax, 1.0, 1e-8);
    else
      EXPECT_GT(rhoMax, 1.05);
  }
}
