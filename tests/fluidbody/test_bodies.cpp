// fluidbody with bodies (the variational integrator with the panel fluid): symmetries of L_d under SE(2), slot derivatives, the discrete
// momentum map over 10^3 steps (disk, ellipse, channel), Kirchhoff motion, energy without drift (also composed, suzuki5).
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "core/Constants.hpp"
#include "fluid/PanelFluid.hpp"
#include "fluid/geometry/Shapes.hpp"
#include "models/fluidbody/FluidBodyModel.hpp"

using namespace kirchhoff;
using namespace kirchhoff::fluidbody;
using lie::Vec2;

namespace {

using kirchhoff::kPi;

BodyConfig body(fluid::Polygon shape, double density, Vec2 y, double theta = 0.0, Vec2 v = Vec2::Zero(),
                double omega = 0.0) {
  BodyConfig b;
  b.mass = shape.mass(density);
  b.inertia = shape.inertia(density);
  b.shape = std::move(shape);
  b.pose = {theta, y};
  b.velocity = v;
  b.omega = omega;
  return b;
}

std::unique_ptr<FluidBodyModel> model(FluidBodyConfig c, MPI_Comm comm = MPI_COMM_WORLD) {
  std::vector<fluid::Polygon> shapes;
  for (const auto& b : c.bodies) shapes.push_back(b.shape);
  auto f = std::make_unique<fluid::PanelFluid>(comm, shapes, c.fluidDensity);
  return std::make_unique<FluidBodyModel>(std::move(c), std::move(f), comm);
}

FluidBodyConfig diskVortex(double dt, int edges = 64) {
  FluidBodyConfig c;
  c.dt = dt;
  c.bodies.push_back(body(fluid::circle(1.0, edges), 1.0, Vec2::Zero()));
  c.vortices.push_back({Vec2(1.5, 0.0), 2 * kPi});
  return c;
}

FluidBodyConfig ellipseVortex(double dt) {
  FluidBodyConfig c;
  c.dt = dt;
  c.bodies.push_back(body(fluid::ellipse(1.0, 0.5, 64), 1.0, Vec2::Zero()));
  c.vortices.push_back({Vec2(0.0, 1.5), 2.0});
  return c;
}

FluidBodyConfig channel(double dt) {
  FluidBodyConfig c;
  c.dt = dt;
  for (double x : {-1.1, 1.1})
    for (double y : {0.8, -0.8}) c.bodies.push_back(body(fluid::plate(2.0, 0.1, 64), 1.0, Vec2(x, y)));
  c.vortices.push_back({Vec2(-5.0, 0.25), 2 * kPi});
  c.vortices.push_back({Vec2(-5.0, -0.25), -2 * kPi});
  return c;
}

/// Max relative drift of (J_x, J_y, J_rot) over `steps` steps (relative to |J| summed).
double momentumDrift(FluidBodyModel& m, int steps) {
  State s = m.initialState();
  const auto J0 = m.invariants(s, {});
  const double scale = std::abs(J0[1]) + std::abs(J0[2]) + std::abs(J0[3]);
  double drift = 0.0;
  for (int k = 0; k < steps; ++k) {
    m.step(s);
    s.step += 1;
    if (k % 50 == 49 || k + 1 == steps) {
      const auto J = m.invariants(s, {});
      for (int c : {1, 2, 3}) drift = std::max(drift, std::abs(J[c] - J0[c]) / scale);
    }
  }
  return drift;
}

}  // namespace

TEST(Bodies, DiscreteLagrangianInvariantUnderSE2) {
  // L_d(g.q, g.q') = L_d(q, q') + rho/2 sum K_i <c, J R (gamma_i' - gamma_i)> for a rigid motion
  // g = (R, c) of everything (the gauge term is the translation of beta_gamma), to 1e-12.
  FluidBodyConfig c;
  c.dt = 0.05;
  c.fluidDensity = 1.3;
  c.bodies.push_back(body(fluid::ellipse(1.0, 0.5, 48), 0.8, Vec2(0.0, 0.0), 0.3));
  c.bodies.push_back(body(fluid::circle(0.6, 40), 2.0, Vec2(2.6, 0.5)));
  c.vortices.push_back({Vec2(0.4, 1.6), 1.5});
  c.vortices.push_back({Vec2(1.4, -1.5), -0.7});
  auto m = model(c);
  auto& L = m->lagrangian();
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> u(-1, 1);
  Eigen::VectorXd q0(10), q1(10);
  q0 << 0.3, 0.0, 0.0, 0.0, 2.6, 0.5, 0.4, 1.6, 1.4, -1.5;
  for (int trial = 0; trial < 10; ++trial) {
    for (int i = 0; i < 10; ++i) q1[i] = q0[i] + 0.05 * u(rng);
    const double base = L.value(q0, q1);
    const double a = 3.0 * u(rng);
    const lie::Mat2 R = lie::rotation(a);
    const Vec2 t(4 * u(rng), 4 * u(rng));
    auto move = [&](const Eigen::VectorXd& q) {
      Eigen::VectorXd r = q;
      for (int j = 0; j < 2; ++j) {
        r[3 * j] += a;
        r.segment<2>(3 * j + 1) = R * q.segment<2>(3 * j + 1) + t;
      }
      for (int i = 0; i < 2; ++i) r.segment<2>(6 + 2 * i) = R * q.segment<2>(6 + 2 * i) + t;
      return r;
    };
    double gauge = 0.0;
    for (int i = 0; i < 2; ++i)
      gauge += 0.5 * c.fluidDensity * c.vortices[static_cast<std::size_t>(i)].circulation *
               t.dot(lie::Jrot(R * (q1.segment<2>(6 + 2 * i) - q0.segment<2>(6 + 2 * i))));
    EXPECT_NEAR(L.value(move(q0), move(q1)), base + gauge, 1e-12 * (1 + std::abs(base)));
  }
}

TEST(Bodies, SlotDerivativesMatchCentralDifferences) {
  FluidBodyConfig c = ellipseVortex(0.1);
  c.bodies.push_back(body(fluid::circle(0.5, 32), 1.5, Vec2(2.5, -0.5)));
  auto m = model(c);
  auto& L = m->lagrangian();
  Eigen::VectorXd q0(8), q1(8), d1, d2;
  q0 << 0.2, 0.1, -0.1, 0.0, 2.5, -0.5, 0.1, 1.5;
  q1 = q0;
  q1 << 0.25, 0.13, -0.08, -0.05, 2.52, -0.45, 0.0, 1.55;
  L.slotDerivatives(q0, q1, &d1, &d2);
  const double eps = 1e-5;
  for (int i = 0; i < 8; ++i) {
    Eigen::VectorXd e = Eigen::VectorXd::Zero(8);
    e[i] = eps;
    const double fd1 = (L.value(q0 + e, q1) - L.value(q0 - e, q1)) / (2 * eps);
    const double fd2 = (L.value(q0, q1 + e) - L.value(q0, q1 - e)) / (2 * eps);
    EXPECT_NEAR(d1[i], fd1, 1e-6 * (1 + std::abs(fd1))) << "D1 component " << i;
    EXPECT_NEAR(d2[i], fd2, 1e-6 * (1 + std::abs(fd2))) << "D2 component " << i;
  }
}

TEST(Bodies, MomentumMapConservedDiskVortex) {
  auto m = model(diskVortex(0.025));
  EXPECT_LT(momentumDrift(*m, 1000), 1e-10);
}

TEST(Bodies, MomentumMapConservedEllipseVortex) {
  auto m = model(ellipseVortex(0.1));
  EXPECT_LT(momentumDrift(*m, 1000), 1e-10);
}

TEST(Bodies, MomentumMapConservedChannel) {
  auto m = model(channel(0.01));
  EXPECT_LT(momentumDrift(*m, 1000), 1e-10);
}

TEST(Bodies, TranslatingEllipseKeepsEnergyAndMomentum) {
  // No vortices: Kirchhoff motion. Along a principal axis the motion is uniform translation, so
  // energy 1/2 <K Xi, Xi> and momentum are kept to 1e-10 (the exact motion keeps them constant).
  for (Vec2 v : {Vec2(1.0, 0.0), Vec2(0.0, 0.7)}) {
    FluidBodyConfig c;
    c.dt = 0.01;
    c.bodies.push_back(body(fluid::ellipse(1.0, 0.5, 64), 1.0, Vec2::Zero(), 0.0, v));
    auto m = model(c);
    State s = m->initialState();
    const auto I0 = m->invariants(s, {});
    for (int k = 0; k < 1000; ++k) {
      m->step(s);
      s.step += 1;
    }
    const auto I = m->invariants(s, {});
    EXPECT_NEAR(I[0], I0[0], 1e-10 * std::abs(I0[0]));
    for (int j : {1, 2, 3}) EXPECT_NEAR(I[j], I0[j], 1e-10 * (std::abs(I0[1]) + std::abs(I0[2]) + 1));
    EXPECT_NEAR(s["q"][0], 0.0, 1e-12);  // no rotation
  }
}

TEST(Bodies, TumblingEllipseEnergyBoundedSecondOrder) {
  // Launched at 30 degrees to its axis the ellipse tumbles; the energy error oscillates and
  // shrinks as dt^2 (max over t in [0, 10] at dt and dt/2).
  auto maxError = [](double dt) {
    FluidBodyConfig c;
    c.dt = dt;
    c.bodies.push_back(body(fluid::ellipse(1.0, 0.5, 64), 1.0, Vec2::Zero(), 0.0,
                            Vec2(std::cos(kPi / 6), std::sin(kPi / 6))));
    auto m = model(c);
    State s = m->initialState();
    const double H0 = m->invariants(s, {})[0];
    double e = 0.0;
    for (int k = 0; k < static_cast<int>(std::lround(10.0 / dt)); ++k) {
      m->step(s);
      s.step += 1;
      e = std::max(e, std::abs(m->invariants(s, {})[0] - H0) / H0);
    }
    return e;
  };
  const double e1 = maxError(0.04), e2 = maxError(0.02);
  std::printf("tumbling ellipse: max |dH/H| = %.3e (dt 0.04), %.3e (dt 0.02), order %.2f\n", e1, e2,
              std::log2(e1 / e2));
  EXPECT_NEAR(std::log2(e1 / e2), 2.0, 0.2);
}

namespace {

/// Drift of H (one value per step of size dt) over the run, from the slope of a linear fit over a
/// whole number of periods of the oscillation (found from the autocorrelation): a partial period at
/// the end would bias the slope by up to amplitude x period / span, which is not drift.
struct EnergyDrift {
  int period, periods;
  double amplitude, drift;
};

EnergyDrift energyDrift(const std::vector<double>& H, double dt) {
  const int N = static_cast<int>(H.size());
  double mean = 0;
  for (double h : H) mean += h / N;
  auto autocorrelation = [&](int lag) {
    double c = 0;
    for (int i = 0; i + lag < N; ++i) c += (H[i] - mean) * (H[i + lag] - mean);
    return c;
  };
  int lag = 1;
  while (lag < N / 4 && autocorrelation(lag) > 0) ++lag;  // first zero crossing
  int period = lag;
  for (int l = lag; l < N / 4; ++l)
    if (autocorrelation(l) > autocorrelation(period)) period = l;  // first maximum after it
  const int n = (N / period) * period;
  double st = 0, sh = 0, stt = 0, sth = 0;
  for (int i = 0; i < n; ++i) {
    const double t = dt * (i + 1);
    st += t, sh += H[i], stt += t * t, sth += t * H[i];
  }
  const double slope = (n * sth - st * sh) / (n * stt - st * st);
  const double amplitude = 0.5 * (*std::max_element(H.begin(), H.end()) - *std::min_element(H.begin(), H.end()));
  return {period, n / period, amplitude, slope * dt * N};
}

/// H after each of N steps.
std::vector<double> energies(FluidBodyConfig c, int N) {
  auto m = model(std::move(c));
  State s = m->initialState();
  std::vector<double> H;
  for (int k = 0; k < N; ++k) {
    m->step(s);
    s.step += 1;
    H.push_back(m->invariants(s, {})[0]);
  }
  return H;
}

}  // namespace

TEST(Bodies, DiskVortexEnergyNoDrift) {
  // 10^4 steps at dt = 0.025: the drift of H over 10^4 steps, from the slope of a linear fit over
  // whole periods, is below 1% of the oscillation amplitude (a symplectic scheme does not drift).
  const int N = 10000;
  const EnergyDrift d = energyDrift(energies(diskVortex(0.025), N), 0.025);
  std::printf("disk + vortex, 10^4 steps: period %d steps, %d periods fitted, amplitude %.3e, "
              "drift per 10^4 steps %.3e (%.3f%% of the amplitude)\n",
              d.period, d.periods, d.amplitude, d.drift, 100 * std::abs(d.drift) / d.amplitude);
  EXPECT_GT(N / d.period, 10);  // the fit sees many oscillations
  EXPECT_LT(std::abs(d.drift), 0.01 * d.amplitude);
}

TEST(Bodies, DiskVortexComposedEnergyNoDrift) {
  // The same 10^4 steps of dt = 0.025 composed by suzuki5 (docs/composition.md (CM-5)): the composed
  // map is symplectic, H oscillates with no drift (below 1% of the amplitude, whole periods) and an
  // amplitude 10^3 below the second-order map's (order 4).
  const int N = 10000;
  FluidBodyConfig c = diskVortex(0.025);
  c.composition = integrators::Composition::Suzuki5;
  const EnergyDrift d = energyDrift(energies(c, N), 0.025);
  std::printf("disk + vortex, suzuki5, 10^4 steps: period %d steps, %d periods fitted, amplitude %.3e, "
              "drift per 10^4 steps %.3e (%.3f%% of the amplitude)\n",
              d.period, d.periods, d.amplitude, d.drift, 100 * std::abs(d.drift) / d.amplitude);
  EXPECT_GT(N / d.period, 10);
  EXPECT_LT(std::abs(d.drift), 0.01 * d.amplitude);
  EXPECT_LT(d.amplitude, 1e-6);
}
