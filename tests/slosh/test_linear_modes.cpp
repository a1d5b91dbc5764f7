// The discrete normal modes (docs/slosh.md (SL-17)) are the linearization of the stepper itself: the
// eigenvalues exp(+-i omega_h dt) of the complex-step Jacobian of one Stormer-Verlet step at rest give
// omega = (2/dt) sin(omega_h dt / 2), for every quadrature including Simpson (the frequency table
// must hold for every quadrature the deck offers).
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "SloshFixtures.hpp"
#include "StepJacobian.hpp"
#include "models/slosh/LinearModes.hpp"

using namespace kirchhoff::slosh;
namespace st = kirchhoff::slosh::fixtures;

namespace {

/// The frequencies omega of the linearized one-step map at the rest state, ascending: each conjugate
/// pair exp(+-i theta) gives omega = (2/dt) sin(theta/2) (SL-10 is Stormer-Verlet for x_tt = -A x).
/// *radius gets max | |mu| - 1 | (0 for a stable linear Stormer-Verlet map).
std::vector<double> mapFrequencies(const Discretization& d, double* radius) {
  const SlabCoefficients c = d.slab(1, static_cast<std::size_t>(d.points()));
  const InitialConditions rest{};
  const Eigen::MatrixXd S = st::complexStepJacobian(st::pack(serialInitialState<double>(d, rest)), d, c);
  const Eigen::VectorXcd mu = S.eigenvalues();
  std::vector<double> omega;
  *radius = 0.0;
  for (int k = 0; k < mu.size(); ++k) {
    *radius = std::max(*radius, std::abs(std::abs(mu(k)) - 1.0));
    if (mu(k).imag() > 0.0) omega.push_back(2.0 / d.dt() * std::sin(0.5 * std::arg(mu(k))));
  }
  std::sort(omega.begin(), omega.end());
  return omega;
}

/// max over modes of |omega_mode - omega_map| / omega_map (both lists ascending, N + 1 entries).
double worstMismatch(const Discretization& d, double* radius, double* coupled = nullptr) {
  const std::vector<double> map = mapFrequencies(d, radius);
  const std::vector<LinearMode> modes = discreteLinearModes(d);
  EXPECT_EQ(map.size(), modes.size());
  double worst = 0.0;
  if (coupled) *coupled = 0.0;
  for (std::size_t k = 0; k < std::min(map.size(), modes.size()); ++k) {
    const double e = std::abs(modes[k].omega - map[k]) / map[k];
    worst = std::max(worst, e);
    if (coupled && modes[k].vehicleAmplitude > 1e-3) *coupled = std::max(*coupled, e);
  }
  return worst;
}

}  // namespace

// N = 40 and 41 (odd and even interval counts: Simpson with and without its 3/8 tail), 0.5 CFL, the
// four quadratures: every mode equals the map's frequency to 1e-9 relative (measured <= 1e-11; the
// eigenvalues of a nonsymmetric 2(N+1) matrix), and the map is stable (| |mu| - 1 | < 1e-9).
TEST(SloshLinearModes, AreTheEigenvaluesOfTheStepperForEveryQuadrature) {
  for (Quadrature q : {Quadrature::Trapezoid, Quadrature::Left, Quadrature::Right, Quadrature::Simpson}) {
    for (int N : {40, 41}) {
      const Config cfg = st::baseConfig(N, 0.0, q);
      const Discretization d(cfg.par, cfg.depth, st::cflStep(cfg, 0.5));
      double radius = 0.0;
      const double worst = worstMismatch(d, &radius);
      std::printf("[ slosh ] %-9s N = %d: modes vs map %.2e, | |mu| - 1 | %.2e\n", quadratureName(q).c_str(), N,
                  worst, radius);
      EXPECT_LT(worst, 1e-9) << quadratureName(q) << " N=" << N;
      EXPECT_LT(radius, 1e-9) << quadratureName(q) << " N=" << N;
    }
  }
}

// The reference tank: L = 2 m, h0 = 0.15 m, N = 300, Simpson, 0.5 CFL. The vehicle-coupled modes
// (those --frequencies prints) equal the map's to 1e-9 (measured 4e-11); with trapezoid interior
// weights and Simpson's wall weight in the mass matrix (the table before the fix) the second coupled
// mode was 3.56472 rad/s against the map's 3.56254 (6e-4 relative).
TEST(SloshLinearModes, SimpsonReferenceTank) {
  Config cfg = st::baseConfig(300, 0.0, Quadrature::Simpson);
  cfg.par.length = 2.0;
  cfg.depth = Profile();
  cfg.depth.add(ProfileTerm::constant(0.15));
  const Discretization d(cfg.par, cfg.depth, st::cflStep(cfg, 0.5));
  double radius = 0.0, coupled = 0.0;
  const double worst = worstMismatch(d, &radius, &coupled);
  std::printf("[ slosh ] simpson L = 2, h0 = 0.15, N = 300: coupled modes vs map %.2e (all %.2e), | |mu| - 1 | %.2e\n",
              coupled, worst, radius);
  EXPECT_LT(coupled, 1e-9);
  EXPECT_LT(radius, 1e-9);
}
