// Tests of the DOP853 reference integrator (integrators/Dop853.hpp; Hairer–Norsett–Wanner II.10):
// order 8 of the fixed-step scheme, closed-form errors at rtol = 1e-12, exact output times, counts.
#include <gtest/gtest.h>

#include <cmath>
#include <utility>
#include <vector>

#include "core/Constants.hpp"
#include "core/Error.hpp"
#include "integrators/Dop853.hpp"

namespace {

using Eigen::VectorXd;
using kirchhoff::integrators::Dop853Options;
using kirchhoff::integrators::Dop853Stats;
using kirchhoff::integrators::dop853;

using kirchhoff::kPi;

// y' = y.
VectorXd growth(double, const VectorXd& y) { return y; }

// Harmonic oscillator x' = v, v' = -x.
VectorXd oscillator(double, const VectorXd& y) {
  VectorXd d(2);
  d << y[1], -y[0];
  return d;
}

// Kepler problem q'' = -q / |q|^3 in the plane, y = (q1, q2, p1, p2).
VectorXd kepler(double, const VectorXd& y) {
  const double r3 = std::pow(y[0] * y[0] + y[1] * y[1], 1.5);
  VectorXd d(4);
  d << y[2], y[3], -y[0] / r3, -y[1] / r3;
  return d;
}

// Closed-form Kepler orbit (a = 1, mu = 1, period 2 pi) starting at pericentre, eccentricity e:
// E - e sin E = t, q = (cos E - e, sqrt(1 - e^2) sin E).
VectorXd keplerExact(double t, double e) {
  double E = t;
  for (int i = 0; i < 50; ++i) E -= (E - e * std::sin(E) - t) / (1.0 - e * std::cos(E));
  const double Edot = 1.0 / (1.0 - e * std::cos(E));
  const double b = std::sqrt(1.0 - e * e);
  VectorXd y(4);
  y << std::cos(E) - e, b * std::sin(E), -std::sin(E) * Edot, b * std::cos(E) * Edot;
  return y;
}

// Fixed-step DOP853 (the trial step without control) over [0, T] in n steps.
template <class F>
VectorXd fixedStep(F f, const VectorXd& y0, double T, int n) {
  Dop853Options opt;  // only the error norm uses the tolerances; y1 does not
  VectorXd y = y0, y1(y0.size());
  const double h = T / n;
  for (int i = 0; i < n; ++i) {
    double err = 0.0;
    kirchhoff::integrators::dop853detail::trialStep(f, i * h, y, f(i * h, y), h, opt, y1, err);
    y = y1;
  }
  return y;
}

// Observed order log2(e(h) / e(h/2)) of the fixed-step scheme (the trial step without control):
// y' = y over [0, 8], n = 8, 16, 32 (measured 7.70, 7.86); harmonic oscillator over ten periods,
// n = 40, 80, 160 (8.10, 8.03); Kepler e = 0.2 over one period, n = 32, 64 (7.66; eccentric orbits
// reach the asymptotic regime late: 6.3, 7.0 for n = 8..32, and n = 128 is at round-off).
// The method is order 8: we require 7.5..8.6 on pairs whose errors lie above 1e-12 (relative).
TEST(Dop853, FixedStepOrderEight) {
  auto expectOrder = [](const std::vector<double>& err, const char* what) {
    for (std::size_t i = 0; i + 1 < err.size(); ++i) {
      ASSERT_GT(err[i + 1], 1e-12) << what;
      const double order = std::log2(err[i] / err[i + 1]);
      EXPECT_GT(order, 7.5) << what << " pair " << i;
      EXPECT_LT(order, 8.6) << what << " pair " << i;
    }
  };
  const VectorXd y0 = VectorXd::Constant(1, 1.0);
  std::vector<double> eg;
  for (int n : {8, 16, 32})
    eg.push_back(std::abs(fixedStep(growth, y0, 8.0, n)[0] - std::exp(8.0)) / std::exp(8.0));
  expectOrder(eg, "y'=y");
  VectorXd x0(2);
  x0 << 1.0, 0.0;
  std::vector<double> eo;
  for (int n : {40, 80, 160}) eo.push_back((fixedStep(oscillator, x0, 20.0 * kPi, n) - x0).norm());
  expectOrder(eo, "oscillator");
  const VectorXd k0 = keplerExact(0.0, 0.2);
  std::vector<double> ek;
  for (int n : {32, 64}) ek.push_back((fixedStep(kepler, k0, 2.0 * kPi, n) - k0).norm());
  expectOrder(ek, "Kepler e=0.2");
}

// Adaptive run at rtol = atol = 1e-12 against closed forms, at output times T/3, 2T/3, T (not
// step points: they must be hit exactly). Harmonic oscillator: error < 1e-10 over one period
// (the brief's bound). Kepler e = 0.5: measured 1.40e-10 after one period, where scipy 1.10's
// solve_ivp DOP853 (same coefficients and controller) gives 1.47e-10 at the same tolerances, so
// 1e-10 is not reachable by this method at rtol = 1e-12; we assert 2e-10 for e = 0.5 and the
// brief's 1e-10 for e = 0.1 (measured 2.8e-11).
TEST(Dop853, ClosedFormsAtTightTolerance) {
  const double T = 2.0 * kPi;
  VectorXd x0(2);
  x0 << 1.0, 0.0;
  const std::vector<double> times = {T / 3.0, 2.0 * T / 3.0, T};
  const auto xs = dop853(oscillator, 0.0, x0, times);
  for (std::size_t i = 0; i < times.size(); ++i) {
    VectorXd exact(2);
    exact << std::cos(times[i]), -std::sin(times[i]);
    EXPECT_LT((xs[i] - exact).norm(), 1e-10) << "oscillator t=" << times[i];
  }
  for (const auto& [e, bound] : {std::pair{0.1, 1e-10}, std::pair{0.5, 2e-10}}) {
    const auto ks = dop853(kepler, 0.0, keplerExact(0.0, e), times);
    for (std::size_t i = 0; i < times.size(); ++i)
      EXPECT_LT((ks[i] - keplerExact(times[i], e)).norm(), bound) << "Kepler e=" << e
                                                                   << " t=" << times[i];
  }
}

// Tolerance proportionality (Kepler e = 0.5, ten periods): each factor 100 in tol lowers the
// global error by a factor 20..400 (measured 55, 133, 157 for tol 1e-6 -> 1e-12, and errors
// 6.4e-3, 1.2e-4, 8.7e-7, 5.5e-9, matching scipy's DOP853: 7.2e-3, 1.2e-4, 9.2e-7, 6.3e-9).
// The error/tol ratio after ten revolutions is 5500..11500 (local control, linear growth in t);
// we bound it by 2e4.
TEST(Dop853, ErrorFollowsTolerance) {
  const double e = 0.5, T = 20.0 * kPi;
  double previous = -1.0;
  for (double tol : {1e-6, 1e-8, 1e-10, 1e-12}) {
    Dop853Options opt;
    opt.rtol = opt.atol = tol;
    const double err = (dop853(kepler, 0.0, keplerExact(0.0, e), {T}, opt)[0] -
                        keplerExact(0.0, e)).norm();
    EXPECT_LT(err, 2e4 * tol) << "tol=" << tol;
    if (previous > 0.0) {
      EXPECT_GT(previous / err, 20.0) << "tol=" << tol;
      EXPECT_LT(previous / err, 400.0) << "tol=" << tol;
    }
    previous = err;
  }
}

// Counts: every accepted step costs 12 evaluations and every rejected step 11, plus f(t0) and
// the HINIT probe. One Kepler period (e = 0.5) at 1e-12: measured 60 steps, 9 rejected, 821
// evaluations; scipy's DOP853 takes 59 steps and 818 evaluations. We require within 20% of
// scipy's step count and at most one rejection per five steps.
TEST(Dop853, CountsAreConsistentAndReasonable) {
  Dop853Stats st;
  dop853(kepler, 0.0, keplerExact(0.0, 0.5), {2.0 * kPi}, {}, &st);
  EXPECT_EQ(st.evaluations, 12 * st.steps + 11 * st.rejected + 2);
  EXPECT_GE(st.steps, 48);
  EXPECT_LE(st.steps, 71);
  EXPECT_LE(st.rejected, st.steps / 5);
  // Many output times: each is a step end, so the steps are at least the outputs.
  std::vector<double> times;
  for (int i = 1; i <= 500; ++i) times.push_back(2.0 * kPi * i / 500.0);
  Dop853Stats dense;
  const auto ys = dop853(kepler, 0.0, keplerExact(0.0, 0.5), times, {}, &dense);
  EXPECT_GE(dense.steps, 500);
  EXPECT_LT((ys.back() - keplerExact(0.0, 0.5)).norm(), 1e-10);
  // A given h0 skips HINIT (one evaluation fewer).
  Dop853Options opt;
  opt.h0 = 1e-3;
  Dop853Stats fixed0;
  dop853(kepler, 0.0, keplerExact(0.0, 0.5), {2.0 * kPi}, opt, &fixed0);
  EXPECT_EQ(fixed0.evaluations, 12 * fixed0.steps + 11 * fixed0.rejected + 1);
}

// Output times equal to t0 or repeated return the current state unchanged.
TEST(Dop853, RepeatedAndInitialOutputTimes) {
  VectorXd x0(2);
  x0 << 1.0, 0.0;
  const auto xs = dop853(oscillator, 0.0, x0, {0.0, 1.0, 1.0});
  EXPECT_EQ((xs[0] - x0).norm(), 0.0);
  EXPECT_EQ((xs[1] - xs[2]).norm(), 0.0);
}

// Failures are NumericalErrors: blow-up of y' = y^2 (y = 1/(1 - t)) before t = 2, too few
// steps allowed, and decreasing output times.
TEST(Dop853, FailuresThrowNumericalError) {
  auto blowup = [](double, const VectorXd& y) { return VectorXd(y.array().square()); };
  EXPECT_THROW(dop853(blowup, 0.0, VectorXd::Constant(1, 1.0), {2.0}), kirchhoff::NumericalError);
  Dop853Options few;
  few.maxSteps = 5;
  EXPECT_THROW(dop853(kepler, 0.0, keplerExact(0.0, 0.5), {2.0 * kPi}, few),
               kirchhoff::NumericalError);
  EXPECT_THROW(dop853(growth, 0.0, VectorXd::Constant(1, 1.0), {1.0, 0.5}),
               kirchhoff::NumericalError);
}

}  // namespace
