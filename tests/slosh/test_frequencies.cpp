// Linear coupled frequencies of the slosh model (docs/slosh.md): roots of nu = omega^2 [m_v + m_f
// tan(kL/2)/(kL/2)], the discrete normal modes converging to them, and the FFT peaks of q(t).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "SloshFixtures.hpp"
#include "Spectrum.hpp"
#include "models/slosh/LinearFrequencies.hpp"
#include "models/slosh/LinearModes.hpp"

using namespace kirchhoff::slosh;
namespace st = kirchhoff::slosh::fixtures;

namespace {

LinearProblem tank(double nu) {
  LinearProblem lp;
  lp.gravity = 9.81;
  lp.depth = 0.1;
  lp.length = 1.0;
  lp.vehicleMass = 100.0;
  lp.fluidMass = 100.0;
  lp.stiffness = nu;
  return lp;
}

}  // namespace

// Each root solves the relation (residual 1e-10 of nu) and lies in its monotone branch.
TEST(SloshDispersion, RootsSolveTheRelationInTheirBranches) {
  const LinearProblem lp = tank(1000.0);
  const auto w = coupledFrequencies(lp, 5);
  const double scale = 2.0 * lp.waveSpeed() / lp.length;
  for (int n = 0; n < 5; ++n) {
    EXPECT_LT(std::abs(dispersion(lp, w[n])), 1e-10 * lp.stiffness) << n;
    const double theta = w[n] / scale;
    EXPECT_GT(theta, n == 0 ? 0.0 : n * M_PI - M_PI / 2) << n;
    EXPECT_LT(theta, n * M_PI + M_PI / 2) << n;
  }
  // Published-style values for this tank (python brentq cross-check): 1.97835, 4.51803, 9.77570 rad/s.
  EXPECT_NEAR(w[0], 1.97835465, 1e-7);
  EXPECT_NEAR(w[1], 4.51803415, 1e-7);
  EXPECT_NEAR(w[2], 9.77570177, 1e-7);
}

// Rigid limit k -> 0: nu = (m_v + m_f) omega^2 (1 + O(theta^2)); tan(theta)/theta = 1 + theta^2/3, so
// for nu = 1e-4 (theta ~ 3e-4) the relative deviation is m_f/(m_v+m_f) theta^2/6 ~ 1e-8.
TEST(SloshDispersion, RigidLimit) {
  const LinearProblem lp = tank(1e-4);
  const double w0 = coupledFrequencies(lp, 1)[0];
  EXPECT_NEAR(w0, std::sqrt(1e-4 / 200.0), 1e-7 * w0);
  EXPECT_EQ(coupledFrequencies(tank(0.0), 2)[0], 0.0);  // free tank: translation at omega = 0
}

// nu -> inf: the tank is held fixed and root n tends to the n-th fixed-tank antisymmetric mode
// kL = (2n + 1) pi (distance ~ m_f c^2 / (nu L^2) relative: 1e-8 at nu = 1e12).
TEST(SloshDispersion, StiffSpringLimitIsTheFixedTank) {
  const auto w = coupledFrequencies(tank(1e12), 3);
  const auto f = fixedTankFrequencies(tank(1e12), 3);
  for (int n = 0; n < 3; ++n) EXPECT_NEAR(w[n], f[n], 1e-6 * f[n]) << n;
}

// 1:1 resonance: nu/m_v = (2 pi c / L)^2 puts the second coupled root exactly on the first
// symmetric mode (tan(pi) = 0), to bisection accuracy (1e-12 relative).
TEST(SloshDispersion, ResonantStiffnessPutsARootOnTheSymmetricMode) {
  LinearProblem lp = tank(0.0);
  lp.stiffness = resonantStiffness(lp, 1);
  EXPECT_NEAR(lp.stiffness, 100.0 * std::pow(2 * M_PI * std::sqrt(0.981), 2), 1e-9);
  EXPECT_NEAR(coupledFrequencies(lp, 2)[1], symmetricFrequencies(lp, 1)[0], 1e-12 * 6.3);
}

// The discrete system's vehicle-moving modes converge to the roots at second order in da (error ratio
// 4 within 10 % from N = 50 to 100 to 200); modes that leave the vehicle still (amplitude < 1e-9) sit
// at the symmetric frequencies 2 n pi c / L, within 1e-3 relative at N = 200.
TEST(SloshDispersion, DiscreteModesConvergeAtSecondOrder) {
  const LinearProblem lp = tank(1000.0);
  const auto roots = coupledFrequencies(lp, 3);
  const auto sym = symmetricFrequencies(lp, 2);
  std::vector<double> errPrev;
  for (int N : {50, 100, 200}) {
    Config cfg = st::baseConfig(N, 0.0);
    const auto modes = discreteLinearModes(Discretization(cfg.par, cfg.depth, 1.0));
    std::vector<double> coupled, still;
    for (const auto& m : modes) (m.vehicleAmplitude > 1e-9 ? coupled : still).push_back(m.omega);
    std::vector<double> err;
    for (int n = 0; n < 3; ++n) err.push_back(std::abs(coupled[n] - roots[n]) / roots[n]);
    std::printf("[ slosh ] N = %3d  modal error %.3e %.3e %.3e   symmetric %.5f (%.5f)\n", N, err[0], err[1],
                err[2], still[0], sym[0]);
    for (std::size_t n = 0; n < errPrev.size(); ++n) {
      EXPECT_NEAR(errPrev[n] / err[n], 4.0, 0.4) << "N=" << N << " root " << n;
    }
    errPrev = err;
    if (N == 200) {
      EXPECT_NEAR(still[0], sym[0], 1e-3 * sym[0]);
      EXPECT_NEAR(still[1], sym[1], 1e-3 * sym[1]);
    }
  }
}

// The vehicle's spectrum: N = 100, 0.1 % off-centre bump (excites symmetric and antisymmetric modes),
// 0.5 CFL, T = 400 s. Each FFT peak (refined) lies within half a bin (2 pi / T) of the root of the
// relation, and within 0.05 bin of the Stormer-Verlet frequency of the discrete mode. At the symmetric
// frequencies the vehicle spectrum is below 1e-3 of its largest peak, while a fluid particle at a = 0.14 L
// shows a symmetric peak above 1e-2 of its largest: the symmetric modes are excited but do not couple.
TEST(SloshDispersion, VehicleSpectrumPeaksAtTheCoupledRoots) {
  const int N = 100;
  Config cfg = st::baseConfig(N, 1e-3);
  const double dt = st::cflStep(cfg, 0.5);
  Discretization d(cfg.par, cfg.depth, dt);
  const SlabCoefficients c = d.slab(1, N);
  const long steps = static_cast<long>(400.0 / dt);
  const int every = 4;
  SerialState<double> s = serialInitialState<double>(d, cfg.init);
  std::vector<double> xg, q, xq;
  for (long n = 1; n <= steps; ++n) {
    stormerVerletStep(s, d, c, xg);
    if (n % every == 0) {
      q.push_back(s.q);
      xq.push_back(s.x[N / 7 - 1]);  // a = 0.14 L: no node of the first two symmetric modes
    }
  }
  const double ts = every * dt, bin = spectrum::resolution(q, ts);
  const LinearProblem lp = LinearProblem::of(d);
  const auto roots = coupledFrequencies(lp, 3);
  const auto modes = discreteLinearModes(d);
  std::vector<double> coupled;
  for (const auto& m : modes)
    if (m.vehicleAmplitude > 1e-3) coupled.push_back(stormerVerletFrequency(m.omega, dt));  // symmetric: ~1e-7
  double qMax = 0.0;
  for (int n = 0; n < 3; ++n) {
    const double peak = spectrum::refinedPeak(q, ts, roots[n]);
    qMax = std::max(qMax, spectrum::amplitude(q, ts, peak));
    std::printf("[ slosh ] root %.6f  FFT bin %.6f  refined %.6f  SV mode %.6f  bin %.2e\n", roots[n],
                spectrum::binPeak(q, ts, roots[n]), peak, coupled[n], bin);
    EXPECT_LT(std::abs(peak - roots[n]), 0.5 * bin) << n;
    EXPECT_LT(std::abs(peak - coupled[n]), 0.05 * bin) << n;
  }
  double xMax = 0.0;
  for (double w : roots) xMax = std::max(xMax, spectrum::amplitude(xq, ts, spectrum::refinedPeak(xq, ts, w)));
  for (double w : symmetricFrequencies(lp, 2)) {
    const double qs = spectrum::amplitude(q, ts, spectrum::refinedPeak(q, ts, w)) / qMax;
    const double xs = spectrum::amplitude(xq, ts, spectrum::refinedPeak(xq, ts, w)) / xMax;
    std::printf("[ slosh ] symmetric %.4f: vehicle %.2e, fluid %.2e (relative to largest peak)\n", w, qs, xs);
    EXPECT_LT(qs, 1e-3);
    EXPECT_GT(xs, 1e-2);
  }
}
