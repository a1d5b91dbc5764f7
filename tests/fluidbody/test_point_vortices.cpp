// fluidbody with no bodies (point vortices) against closed forms: co-rotation and translation of
// pairs, discrete Noether momentum map, energy error order, and the symmetries of L_d.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "core/Constants.hpp"
#include "fluid/PointVortexFluid.hpp"
#include "models/fluidbody/FluidBodyModel.hpp"

using namespace kirchhoff;
using namespace kirchhoff::fluidbody;

namespace {

using kirchhoff::kPi;

std::unique_ptr<FluidBodyModel> vortexModel(const std::vector<VortexConfig>& v, double dt,
                                            double rho = 1.0) {
  FluidBodyConfig c;
  c.dt = dt;
  c.fluidDensity = rho;
  c.vortices = v;
  auto fluid = std::make_unique<fluid::PointVortexFluid>(MPI_COMM_WORLD, rho);
  return std::make_unique<FluidBodyModel>(c, std::move(fluid), MPI_COMM_WORLD);
}

lie::Vec2 gamma(const State& s, int i) { return {s["q"][2 * i], s["q"][2 * i + 1]}; }

void runSteps(FluidBodyModel& m, State& s, int steps) {
  for (int k = 0; k < steps; ++k) {
    m.step(s);
    s.step += 1;
  }
}

/// Kirchhoff's three-vortex configuration used for the conservation tests.
std::vector<VortexConfig> threeVortices() {
  return {{{0.0, 0.0}, 1.0}, {{1.0, 0.2}, 0.7}, {{-0.3, 1.1}, -0.4}};
}

}  // namespace

TEST(PointVortices, CoRotatingPairRate) {
  // K1 = 1, K2 = 2 at distance d = 1.5: rotation at (K1 + K2) / (2 pi d^2) about the centroid.
  const double K1 = 1.0, K2 = 2.0, d = 1.5, dt = 1e-3, T = 2.0;
  auto m = vortexModel({{{0.0, 0.0}, K1}, {{d, 0.0}, K2}}, dt);
  State s = m->initialState();
  runSteps(*m, s, static_cast<int>(std::lround(T / dt)));
  const lie::Vec2 r = gamma(s, 1) - gamma(s, 0);
  const double angle = std::atan2(r.y(), r.x());
  const double expected = (K1 + K2) / (2 * kPi * d * d) * T;
  EXPECT_NEAR(angle / expected, 1.0, 1e-6);
  EXPECT_NEAR(r.norm(), d, 1e-12 * d);  // the midpoint rule keeps the pair distance
  const lie::Vec2 centroid = (K1 * gamma(s, 0) + K2 * gamma(s, 1)) / (K1 + K2);
  EXPECT_NEAR(centroid.x(), K2 * d / (K1 + K2), 1e-12);
  EXPECT_NEAR(centroid.y(), 0.0, 1e-12);
}

TEST(PointVortices, OpposedPairTranslates) {
  // (K, -K) at distance d translates at K / (2 pi d), perpendicular to the pair.
  const double K = 1.3, d = 0.8, dt = 0.01, T = 5.0;
  auto m = vortexModel({{{0.0, 0.0}, K}, {{d, 0.0}, -K}}, dt);
  State s = m->initialState();
  runSteps(*m, s, static_cast<int>(std::lround(T / dt)));
  const double speed = K / (2 * kPi * d);
  // K > 0 (counter-clockwise) at the origin, -K at +d along x: both move in +y.
  EXPECT_NEAR(gamma(s, 0).y() / (speed * T), 1.0, 1e-6);
  EXPECT_NEAR(gamma(s, 1).y() / (speed * T), 1.0, 1e-6);
  EXPECT_NEAR(gamma(s, 0).x(), 0.0, 1e-12);
  EXPECT_NEAR(gamma(s, 1).x(), d, 1e-12);
}

TEST(PointVortices, DiscreteMomentumMapConserved) {
  // 10^4 steps of a three-vortex motion: J_trans and J_rot to 1e-10 relative.
  auto m = vortexModel(threeVortices(), 0.01, 1.3);
  State s = m->initialState();
  const auto inv0 = m->invariants(s, {});
  const double scale = std::abs(inv0[1]) + std::abs(inv0[2]) + std::abs(inv0[3]);
  double drift = 0.0, legendre = 0.0;
  for (int k = 0; k < 10000; ++k) {
    m->step(s);
    s.step += 1;
    if (k % 100 == 99) {
      const auto inv = m->invariants(s, {});
      for (int c : {1, 2, 3}) drift = std::max(drift, std::abs(inv[c] - inv0[c]) / scale);
      legendre = std::max(legendre, inv[10]);
    }
  }
  EXPECT_LT(drift, 1e-10);
  EXPECT_LT(legendre, 1e-10);  // the parasitic mode stays at the solver tolerance
}

TEST(PointVortices, EnergyErrorBoundedSecondOrder) {
  // Max |H - H0| over T = 10 at dt and dt/2: ratio 4 (second order), and no drift.
  auto maxError = [](double dt) {
    auto m = vortexModel(threeVortices(), dt);
    State s = m->initialState();
    const double H0 = m->invariants(s, {})[0];
    double e = 0.0;
    const int n = static_cast<int>(std::lround(10.0 / dt));
    for (int k = 0; k < n; ++k) {
      m->step(s);
      s.step += 1;
      e = std::max(e, std::abs(m->invariants(s, {})[0] - H0));
    }
    return e;
  };
  const double e1 = maxError(0.02), e2 = maxError(0.01);
  const double order = std::log2(e1 / e2);
  EXPECT_NEAR(order, 2.0, 0.1) << "errors " << e1 << " " << e2;
}

TEST(PointVortices, LagrangianSymmetries) {
  // L_d(R q, R q') = L_d(q, q') for rotations; L_d(q + c, q' + c) = L_d(q, q') +
  // rho/2 sum K_i <c, J (gamma_i' - gamma_i)> for translations (fluidbody.md).
  const double rho = 1.7;
  auto m = vortexModel(threeVortices(), 0.05, rho);
  auto& L = m->lagrangian();
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(-1, 1);
  for (int trial = 0; trial < 20; ++trial) {
    Eigen::VectorXd q0(6), q1(6);
    for (int i = 0; i < 6; ++i) q0[i] = 2 * u(rng), q1[i] = q0[i] + 0.1 * u(rng);
    const double base = L.value(q0, q1);
    const lie::Mat2 R = lie::rotation(3.0 * u(rng));
    const lie::Vec2 c(5 * u(rng), 5 * u(rng));
    Eigen::VectorXd r0 = q0, r1 = q1, t0 = q0, t1 = q1;
    double gauge = 0.0;
    for (int i = 0; i < 3; ++i) {
      r0.segment<2>(2 * i) = R * q0.segment<2>(2 * i);
      r1.segment<2>(2 * i) = R * q1.segment<2>(2 * i);
      t0.segment<2>(2 * i) += c;
      t1.segment<2>(2 * i) += c;
      gauge += 0.5 * rho * L.circulations()[static_cast<std::size_t>(i)] *
               c.dot(lie::Jrot(q1.segment<2>(2 * i) - q0.segment<2>(2 * i)));
    }
    EXPECT_NEAR(L.value(r0, r1), base, 1e-12 * (1 + std::abs(base)));
    EXPECT_NEAR(L.value(t0, t1), base + gauge, 1e-12 * (1 + std::abs(base)));
  }
}

TEST(PointVortices, SlotDerivativesMatchCentralDifferences) {
  auto m = vortexModel(threeVortices(), 0.05);
  auto& L = m->lagrangian();
  Eigen::VectorXd q0(6), q1(6), d1, d2;
  q0 << 0.1, -0.2, 1.0, 0.3, -0.4, 1.2;
  q1 = q0 + Eigen::VectorXd::Constant(6, 0.013);
  L.slotDerivatives(q0, q1, &d1, &d2);
  const double eps = 1e-6;
  for (int i = 0; i < 6; ++i) {
    Eigen::VectorXd e = Eigen::VectorXd::Zero(6);
    e[i] = eps;
    const double fd1 = (L.value(q0 + e, q1) - L.value(q0 - e, q1)) / (2 * eps);
    const double fd2 = (L.value(q0, q1 + e) - L.value(q0, q1 - e)) / (2 * eps);
    EXPECT_NEAR(d1[i], fd1, 1e-6 * (1 + std::abs(fd1)));
    EXPECT_NEAR(d2[i], fd2, 1e-6 * (1 + std::abs(fd2)));
  }
}
