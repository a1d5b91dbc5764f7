// Conservation properties of the slosh Stormer-Verlet scheme (docs/slosh.md "Reference results"): energy
// error bounded and O(dt^2), momentum balance p + spring impulse, fluid mass, second-order convergence.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "SloshFixtures.hpp"

using namespace kirchhoff::slosh;
namespace st = kirchhoff::slosh::fixtures;

namespace {

struct EnergyStats {
  double maxRel = 0.0;  ///< max |E_n - E_0| / (E_0 - E_rest); SloshInvariants::energy is E - E_rest
  double meanFirst = 0.0, meanSecond = 0.0;
};

// Relative energy error (E_n - E_0) / (E_0 - E_rest) over a run of `steps` steps.
EnergyStats energyError(const Config& cfg, double cflFraction, long steps) {
  Discretization d(cfg.par, cfg.depth, st::cflStep(cfg, cflFraction));
  std::vector<SloshInvariants> h;
  st::runSerial(d, cfg.init, steps, &h);
  EnergyStats s;
  const double e0 = h.front().energy;
  const std::size_t half = h.size() / 2;
  for (std::size_t n = 0; n < h.size(); ++n) {
    const double rel = (h[n].energy - e0) / e0;
    s.maxRel = std::max(s.maxRel, std::abs(rel));
    (n < half ? s.meanFirst : s.meanSecond) += rel / static_cast<double>(half);
  }
  return s;
}

}  // namespace

// Small amplitude (0.1 % bump, N = 40): the same time span at dt = 0.4 CFL (10^4 steps) and 0.2 CFL
// (2 10^4 steps). Stormer-Verlet's
// energy error is O(dt^2): the ratio must be 4 within 10 %; no drift: the mean over the second half
// differs from the first half's by less than 10 % of the maximum error.
TEST(SloshEnergy, BoundedAndSecondOrderAtSmallAmplitude) {
  const Config cfg = st::baseConfig(40, 1e-3);
  const EnergyStats a = energyError(cfg, 0.4, 10000);
  const EnergyStats b = energyError(cfg, 0.2, 20000);
  std::printf("[ slosh ] small amplitude: max |dE|/E = %.3e (dt = 0.4 CFL), %.3e (0.2 CFL), ratio %.3f\n",
              a.maxRel, b.maxRel, a.maxRel / b.maxRel);
  EXPECT_NEAR(a.maxRel / b.maxRel, 4.0, 0.4);
  EXPECT_LT(a.maxRel, 1e-2);
  EXPECT_LT(std::abs(a.meanSecond - a.meanFirst), 0.1 * a.maxRel);
}

// Large amplitude (20 % cosine mode 1, vehicle displaced, N = 100) up to t = 1 s, before the wave
// steepens into a bore at t ~ 1.5 s (the shock criterion max_jump = 0.03 is not reached).
// Energy error bounded and still O(dt^2): 0.25 vs 0.125 CFL, ratio 4 within 0.5.
TEST(SloshEnergy, BoundedAtLargeAmplitude) {
  Config cfg = st::baseConfig(100, 0.0);
  cfg.depth.add(ProfileTerm::cosine(0.02, 1));
  cfg.init.q0 = 0.005;
  const double T = 1.0;
  auto run = [&](double fraction) {
    Discretization d(cfg.par, cfg.depth, st::cflStep(cfg, fraction));
    std::vector<SloshInvariants> h;
    st::runSerial(d, cfg.init, static_cast<long>(T / d.dt()), &h);
    double maxRel = 0.0, maxJump = 0.0;
    for (const auto& v : h) {
      maxRel = std::max(maxRel, std::abs(v.energy - h.front().energy) / h.front().energy);
      maxJump = std::max(maxJump, v.maxJump);
    }
    EXPECT_LT(maxJump, 0.03);
    return maxRel;
  };
  const double a = run(0.25), b = run(0.125);
  std::printf("[ slosh ] large amplitude: max |dE|/E = %.3e (0.25 CFL), %.3e (0.125 CFL), ratio %.3f\n", a, b,
              a / b);
  EXPECT_LT(a, 1e-4);
  EXPECT_NEAR(a / b, 4.0, 0.5);
}

// p^{n+1} = p^n - (nu dt/2)(q^n + q^{n+1}) is the discrete spring impulse: p + impulse = p^0 to
// rounding (1e-12 of the momentum scale m_f * max|q_t|); the fluid mass of the deformed cells equals
// m_f = rho da sum H to rounding (1e-13 relative).
TEST(SloshEnergy, MomentumBalanceAndMass) {
  Config cfg = st::baseConfig(60, 0.05);
  cfg.init.qdot0 = 0.02;
  Discretization d(cfg.par, cfg.depth, st::cflStep(cfg, 0.5));
  std::vector<SloshInvariants> h;
  st::runSerial(d, cfg.init, 3000, &h);
  double qdotMax = 0.0;
  for (const auto& v : h) qdotMax = std::max(qdotMax, std::abs(v.qdot));
  for (const auto& v : h) {
    EXPECT_NEAR(v.momentumBalance, h.front().momentumBalance, 1e-12 * d.fluidMass() * qdotMax);
    EXPECT_NEAR(v.mass, d.fluidMass(), 1e-13 * d.fluidMass());
  }
  // Not trivial: the vehicle oscillates, so p itself changes (p_t = -nu q).
  EXPECT_GT(qdotMax, 0.01);
}

// Second order in time: q(T) and x(T) against a run with dt/16 (T = 2 s, 5 % bump): successive
// errors fall by 4 (within 15 %).
TEST(SloshEnergy, SecondOrderConvergenceInTime) {
  Config cfg = st::baseConfig(40, 0.05);
  cfg.init.q0 = 0.01;
  const double T = 2.0;
  const double dt0 = st::cflStep(cfg, 0.5);
  const long n0 = static_cast<long>(std::ceil(T / dt0));
  auto run = [&](long steps) {
    Discretization d(cfg.par, cfg.depth, T / static_cast<double>(steps));
    return st::runSerial(d, cfg.init, steps);
  };
  const SerialState<double> ref = run(16 * n0);
  double prev = 0.0;
  for (long m : {1, 2, 4}) {
    const SerialState<double> s = run(m * n0);
    double err = std::abs(s.q - ref.q);
    for (std::size_t i = 0; i < s.x.size(); ++i) err = std::max(err, std::abs(s.x[i] - ref.x[i]));
    if (m > 1) {
      std::printf("[ slosh ] time convergence: error %.3e, ratio %.3f\n", err, prev / err);
      EXPECT_NEAR(prev / err, 4.0, 0.6);
    }
    prev = err;
  }
}
