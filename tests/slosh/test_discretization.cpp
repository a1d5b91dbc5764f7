// Tests of the slosh grid (docs/slosh.md): depth-profile terms, sigma quadrature weights, the
// discrete fluid mass, the rest energy E_rest (minimum of the discrete potential) and the CFL bound.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "SloshFixtures.hpp"
#include "core/Error.hpp"
#include "models/slosh/Discretization.hpp"
#include "models/slosh/Profile.hpp"

using namespace kirchhoff;
using namespace kirchhoff::slosh;

TEST(SloshProfile, TermsEvaluateTheirFormulas) {
  const double L = 2.0;
  // Exact formulas; 1e-15 covers the rounding of one exp/cos.
  EXPECT_DOUBLE_EQ(ProfileTerm::constant(0.3)(1.1, L), 0.3);
  EXPECT_NEAR(ProfileTerm::linear(0.1, 0.3)(1.0, L), 0.2, 1e-15);
  EXPECT_NEAR(ProfileTerm::cosine(0.01, 1)(0.0, L), 0.01, 1e-15);
  EXPECT_NEAR(ProfileTerm::cosine(0.01, 1)(1.0, L), 0.0, 1e-15);    // mode 1: node at L/2
  EXPECT_NEAR(ProfileTerm::cosine(0.01, 2)(2.0, L), 0.01, 1e-15);   // mode 2 symmetric
  EXPECT_NEAR(ProfileTerm::gaussian(0.02, 0.5, 0.1)(0.6, L), 0.02 * std::exp(-1.0), 1e-15);
  const ProfileTerm t = ProfileTerm::table({0.0, 1.0, 2.0}, {0.1, 0.3, 0.2});
  EXPECT_NEAR(t(0.5, L), 0.2, 1e-15);
  EXPECT_NEAR(t(1.5, L), 0.25, 1e-15);
  EXPECT_NEAR(t(2.0, L), 0.2, 1e-15);
  Profile p({ProfileTerm::constant(0.1), ProfileTerm::cosine(0.01, 1)});
  EXPECT_NEAR(p(0.0, L), 0.11, 1e-15);
}

TEST(SloshProfile, MalformedTablesAreRejected) {
  EXPECT_THROW(ProfileTerm::table({0.0, 1.0}, {0.1}), ConfigurationError);
  EXPECT_THROW(ProfileTerm::table({0.0, 0.0, 1.0}, {0.1, 0.1, 0.1}), ConfigurationError);
  Profile p({ProfileTerm::table({0.0, 0.5}, {0.1, 0.1})});
  EXPECT_THROW(p.validate(1.0), ConfigurationError);  // does not cover [0, 1]
  EXPECT_THROW(Profile().validate(1.0), ConfigurationError);
}

TEST(SloshDiscretization, RejectsNonPositiveDepth) {
  Config c = fixtures::baseConfig(20, 0.0);
  c.depth.add(ProfileTerm::cosine(0.2, 1));  // 0.1 + 0.2 cos: negative near a = L
  EXPECT_THROW(Discretization(c.par, c.depth, 1e-3), ConfigurationError);
}

// Weights e_i, i = 0..N+1: every rule integrates constants exactly; Simpson (with its 3/8 tail for an
// odd number of intervals) integrates cubics exactly, so the errors below are rounding (1e-14).
TEST(SloshDiscretization, QuadratureWeights) {
  for (int N : {20, 21}) {  // 21 and 22 intervals
    for (Quadrature q : {Quadrature::Trapezoid, Quadrature::Left, Quadrature::Right, Quadrature::Simpson}) {
      Config c = fixtures::baseConfig(N, 0.0, q);
      Discretization d(c.par, c.depth, 1e-3);
      double ones = 0.0, cubic = 0.0;
      for (std::size_t i = 0; i <= static_cast<std::size_t>(N) + 1; ++i) {
        ones += d.weight(i) * d.da();
        cubic += d.weight(i) * d.da() * std::pow(d.label(i), 3);
      }
      EXPECT_NEAR(ones, 1.0, 1e-14) << quadratureName(q) << " N=" << N;
      if (q == Quadrature::Simpson) {
        EXPECT_NEAR(cubic, 0.25, 1e-14) << "N=" << N;
      }
    }
  }
  Config c = fixtures::baseConfig(20, 0.0, Quadrature::Trapezoid);
  Discretization d(c.par, c.depth, 1e-3);
  EXPECT_DOUBLE_EQ(d.wallWeight(), 0.1);  // c_b = (h0_0 + h0_{N+1}) / 2
  EXPECT_NEAR(d.onePlusBeta(), 1.0 + 1000.0 * d.da() * 0.1 / 100.0, 1e-15);
}

// Flat 0.1 m over 1 m at 1000 kg/m^3: m_f = 100 kg/m, E_rest = rho g h^2 L / 2 = 49.05 J/m (exact
// for the flat grid up to rounding, 1e-12 relative).
TEST(SloshDiscretization, FlatMassAndRestEnergy) {
  Config c = fixtures::baseConfig(50, 0.0);
  Discretization d(c.par, c.depth, 1e-3);
  EXPECT_NEAR(d.fluidMass(), 100.0, 1e-12);
  EXPECT_NEAR(d.meanDepth(), 0.1, 1e-15);
  EXPECT_NEAR(d.restEnergy(), 0.5 * 1000 * 9.81 * 0.01, 1e-12 * 49.05);
}

// E_rest is the minimum of V(x) = sum rho g H^2 da^2 / (2 dx_j) over grids with x_0 = 0, x_{N+1} = L:
// at dx_j = L H_j / sum H, V equals E_rest (1e-12 relative) and every admissible perturbation raises it.
TEST(SloshDiscretization, RestEnergyIsTheMinimumOfThePotential) {
  Config c = fixtures::baseConfig(30, 0.2);  // non-flat labels: the rest grid is not uniform
  Discretization d(c.par, c.depth, 1e-3);
  const std::size_t N = 30;
  double sumH = 0.0;
  for (std::size_t j = 0; j <= N; ++j) sumH += d.halfDepth(j);
  std::vector<double> x(N + 2, 0.0);
  for (std::size_t j = 0; j <= N; ++j) x[j + 1] = x[j] + d.length() * d.halfDepth(j) / sumH;
  auto potential = [&](const std::vector<double>& xs) {
    double V = 0.0;
    for (std::size_t j = 0; j <= N; ++j) {
      const double H = d.halfDepth(j);
      V += 0.5 * d.density() * d.gravity() * H * H * d.da() * d.da() / (xs[j + 1] - xs[j]);
    }
    return V;
  };
  EXPECT_NEAR(potential(x), d.restEnergy(), 1e-12 * d.restEnergy());
  std::mt19937 rng(7);
  std::normal_distribution<double> noise(0.0, 1e-4);
  for (int trial = 0; trial < 20; ++trial) {
    std::vector<double> y = x;
    for (std::size_t i = 1; i <= N; ++i) y[i] += noise(rng);
    EXPECT_GT(potential(y) - d.restEnergy(), 0.0);
  }
}

// The wave CFL bound da / sqrt(g h_max) and the spring bound 2 / sqrt(nu / m_v).
TEST(SloshDiscretization, StabilityBounds) {
  Config c = fixtures::baseConfig(99, 0.0);
  Discretization d(c.par, c.depth, 1e-3);
  EXPECT_NEAR(d.waveCflBound(), 0.01 / std::sqrt(0.981), 1e-15);
  EXPECT_NEAR(d.springBound(), 2.0 / std::sqrt(10.0), 1e-15);
  EXPECT_DOUBLE_EQ(d.stabilityBound(), d.waveCflBound());
}
