// Tests of the damped deck reader and the step-size guard (an unstable dt is refused): linear stability
// bounds (2 for Störmer–Verlet, 2 sqrt 2 for RK4, 0 for Heun), refusals with the bound printed.
#include <cmath>
#include <complex>
#include <string>

#include <gtest/gtest.h>

#include "DampedCases.hpp"
#include "core/Error.hpp"
#include "io/RunConfig.hpp"
#include "models/damped/RayleighStability.hpp"
#include "setup/damped/DampedSetup.hpp"

namespace {

using namespace kirchhoff;
using namespace kirchhoff::damped;

// Undamped oscillator: the scan finds the classical bounds to within its 1e-3 grid.
TEST(DampedSetup, UndampedStabilityBounds) {
  EXPECT_NEAR(undampedStabilityBound(cases::splitting(Splitting::Phi2S)), 2.0, 1.1e-3);
  EXPECT_NEAR(undampedStabilityBound(cases::splitting(Splitting::Phi3S, Ordering::KickDriftKick)),
              2.0, 1.1e-3);
  EXPECT_NEAR(undampedStabilityBound(cases::kind(RayleighMethod::Kind::RK4)), 2.0 * std::sqrt(2.0), 1.1e-3);
  EXPECT_LT(undampedStabilityBound(cases::kind(RayleighMethod::Kind::Heun)), 2e-3);
  EXPECT_LT(undampedStabilityBound(cases::kind(RayleighMethod::Kind::ExplicitMidpoint)), 2e-3);
  // RK4's step map on q'' = -q has the eigenvalues R(+-ix), R(z) = 1 + z + z^2/2 + z^3/6 + z^4/24.
  const RayleighSystem osc(MatrixXd::Identity(1, 1), 0.0,
                           std::make_shared<QuadraticPotential>(MatrixXd::Identity(1, 1)),
                           std::make_shared<ConstantDissipation>(MatrixXd::Zero(1, 1)));
  for (const double x : {0.5, 2.0, 3.0}) {
    const std::complex<double> z(0.0, x);
    const double R = std::abs(1.0 + z + z * z / 2.0 + z * z * z / 6.0 + z * z * z * z / 24.0);
    EXPECT_NEAR(stepMapSpectralRadius(osc, cases::kind(RayleighMethod::Kind::RK4), x), R, 1e-14);
  }
}

// The chain's omega_max = 2 sqrt(k/m) sin(n pi / (2(n + 1))) (analytic).
TEST(DampedSetup, ChainOmegaMax) {
  const int n = 20;
  const double k = 25.0;
  const auto sys = cases::chain(n, k, 0.05);
  const auto e = estimateStability(*sys, VectorXd::Zero(n), cases::kind(RayleighMethod::Kind::RK4), 0.1, 100);
  EXPECT_NEAR(e.omegaMax, 2.0 * std::sqrt(k) * std::sin(n * std::acos(-1.0) / (2.0 * (n + 1))), 1e-12);
  EXPECT_LT(e.rho, 1.0);  // h omega = 1.0 < 2.83 with damping: stable
}

std::string chainDeck(const std::string& method, double dt, const std::string& guard = "refuse") {
  return "model: damped\nsystem: rayleigh\nstability_guard: " + guard +
         "\ntime: {dt: " + std::to_string(dt) + ", steps: 400}\n"
         "rayleigh:\n  eps: 0.05\n  potential: {type: harmonic_chain, n: 20, k: 25.0}\n"
         "  dissipation: {type: constant, value: 1.0}\n"
         "  initial: {type: state, q: [0.1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],"
         " p: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]}\n"
         "  scheme: {method: " + method + "}\n";
}

std::string refusal(const std::string& text) {
  const io::Schema schema = run::driverSchema(setup::dampedDriver());
  try {
    const io::Deck deck(text, "test.yaml", schema);
    std::string warning;
    setup::makeDampedModel(deck, io::readRunConfig(deck).dt, &warning);
    return warning.empty() ? "" : "warning: " + warning;
  } catch (const DeckError& e) {
    return std::string("refused: ") + e.what();
  }
}

// omega_max = 9.972: RK4 needs dt < 0.2836, the splittings dt < 0.2006.
TEST(DampedSetup, GuardRefusesUnstableExplicitSteps) {
  EXPECT_EQ(refusal(chainDeck("rk4", 0.25)), "");
  const std::string rk4 = refusal(chainDeck("rk4", 0.30));
  EXPECT_NE(rk4.find("refused: test.yaml"), std::string::npos) << rk4;
  EXPECT_NE(rk4.find("time.dt"), std::string::npos) << rk4;
  EXPECT_NE(rk4.find("h*omega_max = 2.992"), std::string::npos) << rk4;
  EXPECT_NE(rk4.find("h*omega < 2.828"), std::string::npos) << rk4;
  EXPECT_NE(rk4.find("(h < 0.2836)"), std::string::npos) << rk4;
  const std::string sv = refusal(chainDeck("phi_2s", 0.25));
  EXPECT_NE(sv.find("h*omega < 2 (h < 0.2006)"), std::string::npos) << sv;
  EXPECT_EQ(refusal(chainDeck("phi_2s", 0.19)), "");
  // Heun has no undamped stability interval: refused; 'warn' downgrades to a warning.
  EXPECT_EQ(refusal(chainDeck("heun", 0.05)).rfind("refused:", 0), 0u);
  EXPECT_EQ(refusal(chainDeck("heun", 0.05, "warn")).rfind("warning:", 0), 0u);
  EXPECT_EQ(refusal(chainDeck("dop853", 1.0)), "");  // adaptive: no bound
}

TEST(DampedSetup, ReaderCrossChecks) {
  // Triple jump of a non-symmetric RKS base.
  std::string d = chainDeck("phi_rks, rk: heun, composition: triple_jump", 0.1);
  EXPECT_NE(refusal(d).find("symmetric base"), std::string::npos);
  // Wrong number of initial values.
  d = chainDeck("phi_2s", 0.1);
  d.replace(d.find("q: [0.1, 0, "), 12, "q: [0.1, ");
  EXPECT_NE(refusal(d).find("needs n = 20 values"), std::string::npos) << refusal(d);
  // A rigid_body section in a rayleigh deck.
  d = chainDeck("phi_2s", 0.1) + "rigid_body: {inertia: [1, 2, 3], alpha: 0.1, M0: [1, 1, 1], scheme: {method: rk4}}\n";
  EXPECT_NE(refusal(d).find("needs system: rigid_body"), std::string::npos) << refusal(d);
  // DDB-exp with h |M0| / I_min >= 2 pi.
  d = "model: damped\nsystem: rigid_body\ntime: {dt: 4.0, steps: 10}\n"
      "rigid_body: {inertia: [1, 2, 3], alpha: 0.1, M0: [1, 1, 1], scheme: {method: ddb, retraction: exp}}\n";
  EXPECT_NE(refusal(d).find("2 pi"), std::string::npos) << refusal(d);
  // Relative equilibrium that does not exist (k <= m W^2).
  d = "model: damped\nsystem: rayleigh\ntime: {dt: 0.1, steps: 10}\n"
      "rayleigh:\n  eps: 0.1\n  potential: {type: elastic_pendulum, k: 1.0, l0: 1.0, W: 1.2}\n"
      "  dissipation: {type: radial}\n  initial: {type: relative_equilibrium}\n"
      "  scheme: {method: phi_2s}\n";
  EXPECT_NE(refusal(d).find("potential.W"), std::string::npos) << refusal(d);
}

// The elastic-pendulum deck reads into the documented relative equilibrium.
TEST(DampedSetup, ElasticDeckStartsAtRelativeEquilibrium) {
  const std::string text =
      "model: damped\nsystem: rayleigh\ntime: {dt: 0.1, steps: 10}\n"
      "rayleigh:\n  eps: 0.1\n  potential: {type: elastic_pendulum, k: 10.0, l0: 1.0, W: 1.2}\n"
      "  dissipation: {type: radial, c: 1.0}\n  initial: {type: relative_equilibrium}\n"
      "  scheme: {method: phi_3s, ordering: kdk}\n";
  const io::Schema schema = run::driverSchema(setup::dampedDriver());
  const io::Deck deck(text, "test.yaml", schema);
  const RayleighConfig c = setup::readRayleighConfig(deck, io::readRunConfig(deck).dt);
  const RelativeEquilibrium re = cases::elasticEquilibrium();
  EXPECT_LT((c.q0 - VectorXd(re.q)).norm(), 1e-15);
  EXPECT_LT((c.p0 - VectorXd(re.p)).norm(), 1e-15);
  EXPECT_EQ(c.method.splitting.method, Splitting::Phi3S);
  EXPECT_EQ(c.method.splitting.ordering, Ordering::KickDriftKick);
}

}  // namespace
