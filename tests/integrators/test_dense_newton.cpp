// Tests of the dense Newton solver (integrators/DenseNewton.hpp): the last update is applied before
// returning, a stall at round-off is accepted (a long top run once failed there), true divergence is
// still a failure.
#include <cmath>
#include <cstdint>
#include <cstring>

#include <gtest/gtest.h>

#include "integrators/DenseNewton.hpp"

namespace {

using Eigen::Matrix2d;
using Eigen::Vector2d;
using kirchhoff::integrators::NewtonOptions;
using kirchhoff::integrators::NewtonResult;
using kirchhoff::integrators::newtonSolve;

/// A deterministic pseudo-random number in [-1, 1] from the bits of x (a stand-in for rounding).
double bitNoise(double x) {
  std::uint64_t b;
  std::memcpy(&b, &x, sizeof b);
  b ^= b >> 33;
  b *= 0xff51afd7ed558ccdULL;
  b ^= b >> 33;
  return static_cast<double>(b >> 11) / 4503599627370496.0 - 1.0;  // 2^52
}

// F(x) = (x0^2 - 2, x1 - x0^3): at |F| <= atol = 1e-6 the old solver returned an x with error
// ~1e-7 (the tolerance); with the update applied the error is ~atol^2, i.e. round-off.
TEST(DenseNewton, LastUpdateIsApplied) {
  auto fj = [](const Vector2d& x, Vector2d& F, Matrix2d& J) {
    F << x(0) * x(0) - 2.0, x(1) - x(0) * x(0) * x(0);
    J << 2.0 * x(0), 0.0, -3.0 * x(0) * x(0), 1.0;
  };
  NewtonOptions opt;
  opt.atol = 1e-6;
  opt.stol = 0.0;
  Vector2d x(1.0, 1.0);
  const NewtonResult r = newtonSolve<Vector2d, Matrix2d>(fj, x, opt);
  ASSERT_TRUE(r.converged);
  EXPECT_FALSE(r.stalled);
  EXPECT_LE(r.residualNorm, 1e-6);
  EXPECT_GT(r.residualNorm, 1e-14);  // the test passed at a residual well above round-off ...
  const double s = std::sqrt(2.0);
  EXPECT_NEAR(x(0), s, 4e-16);      // ... and the applied update brought x to round-off
  EXPECT_NEAR(x(1), 2.0 * s, 1e-15);
}

// A residual evaluated with rounding noise of relative size 1e-14 on terms of size 1e3 (as the
// heavy top's collective variables at |z| = 859 in input/top_kovalevskaya.yaml) cannot reach atol = 1e-14, nor
// an update below stol = 0: the stall at round-off is accepted, x is correct to the noise level.
TEST(DenseNewton, StallAtRoundOffIsAccepted) {
  const Vector2d a(1000.0, -700.0);
  auto fj = [&](const Vector2d& x, Vector2d& F, Matrix2d& J) {
    F(0) = (x(0) - a(0)) + 0.1 * (x(0) - a(0)) * (x(0) - a(0)) + 1e-11 * bitNoise(x(0) + 3.0 * x(1));
    F(1) = (x(1) - a(1)) + 1e-11 * bitNoise(x(1) - 5.0 * x(0));
    J << 1.0 + 0.2 * (x(0) - a(0)), 0.0, 0.0, 1.0;
  };
  NewtonOptions opt;
  opt.stol = 0.0;
  Vector2d x(1003.0, -690.0);
  const NewtonResult r = newtonSolve<Vector2d, Matrix2d>(fj, x, opt);
  EXPECT_TRUE(r.converged);
  EXPECT_TRUE(r.stalled);
  EXPECT_GT(r.residualNorm, opt.atol);
  EXPECT_LT(r.iterations, 15);
  EXPECT_LT((x - a).norm(), 1e-10);
}

// True divergence is still a failure: x^2 + 1 = 0 has no real root (Newton wanders), and a
// residual that stalls at 1e-6 (noise far above round-off) does not count as converged.
TEST(DenseNewton, DivergenceAndStallFarFromRoundOffFail) {
  auto noRoot = [](const Vector2d& x, Vector2d& F, Matrix2d& J) {
    F << x(0) * x(0) + 1.0, x(1) - 1.0;
    J << 2.0 * x(0), 0.0, 0.0, 1.0;
  };
  Vector2d x(0.3, 0.0);
  const NewtonResult r = newtonSolve<Vector2d, Matrix2d>(noRoot, x, NewtonOptions{});
  EXPECT_FALSE(r.converged);
  EXPECT_FALSE(r.stalled);
  EXPECT_EQ(r.iterations, NewtonOptions{}.maxIterations);

  auto noisy = [](const Vector2d& x, Vector2d& F, Matrix2d& J) {
    F << (x(0) - 2.0) + 1e-6 * bitNoise(x(0)), x(1) - 1.0;
    J = Matrix2d::Identity();
  };
  Vector2d y(1.0, 0.0);
  const NewtonResult s = newtonSolve<Vector2d, Matrix2d>(noisy, y, NewtonOptions{});
  EXPECT_FALSE(s.converged);
  EXPECT_GT(s.residualNorm, 1e-8);

  auto nan = [](const Vector2d& x, Vector2d& F, Matrix2d& J) {
    F << std::log(x(0) - 5.0), x(1);  // NaN for x0 < 5
    J = Matrix2d::Identity();
  };
  Vector2d z(1.0, 1.0);
  const NewtonResult n = newtonSolve<Vector2d, Matrix2d>(nan, z, NewtonOptions{});
  EXPECT_FALSE(n.converged);
}

}  // namespace
