// fluidbody with scheme.composition (docs/composition.md (CM-1)): on the Nystrom disk + vortex relative
// equilibrium (docs/fluidbody.md (FB-39)) the error against the exact rigid rotation has the fitted orders
// 4, 6, 8; the discrete momentum map (FB-27) is kept to 1e-10; a restart mid-run is bitwise a straight run.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "core/Constants.hpp"
#include "fluid/BoundaryFluidFactory.hpp"
#include "fluid/geometry/Shapes.hpp"
#include "models/fluidbody/FluidBodyModel.hpp"

using namespace kirchhoff;
using namespace kirchhoff::fluidbody;
using integrators::Composition;
using lie::Vec2;

namespace {

using kirchhoff::kPi;
constexpr double kR = 1.0, kDensity = 0.1, kK = 2 * kPi, kD = 2.0;

/// The relative equilibrium (FB-39): rigid rotation at rate Omega about 0 with r = gamma - y = (d, 0),
/// y = beta r, gamma = (1 + beta) r (the root -1 of the quadratic, as in test_nystrom_equilibrium).
struct Equilibrium {
  double Omega, beta;
};

Equilibrium equilibrium(double a) {
  const double w0 = -kK * kR * kR / (2 * kPi * kD * kD * (kD * kD - kR * kR));
  const double B = -(kK * std::pow(kR / kD, 4) + a * w0), C = kK * w0;
  const double Omega = (-B - std::sqrt(B * B - 4 * a * C)) / (2 * a);
  return {Omega, kK * (1 - kR * kR / (kD * kD)) / (a * Omega - kK)};
}

/// The disk (64 Nystrom nodes: spectral, the discretization's equilibrium is the exact one to
/// round-off) and the vortex, stepped by `composition` with step dt.
struct EquilibriumRun {
  Equilibrium e;
  std::unique_ptr<FluidBodyModel> model;
  Vec2 y0, g0;
};

EquilibriumRun makeRun(double dt, Composition composition, MPI_Comm comm = MPI_COMM_WORLD) {
  const double m = kDensity * kPi * kR * kR, a = m + kPi * kR * kR;
  EquilibriumRun run{equilibrium(a), nullptr, {}, {}};
  FluidBodyConfig c;
  c.dt = dt;
  c.composition = composition;
  c.discretization = fluid::DiscretizationKind::Nystrom;
  BodyConfig b;
  b.name = "disk";
  b.curve = fluid::circleCurve(kR);
  b.shape = fluid::curveOutline(*b.curve, 64);
  b.mass = m;
  b.inertia = kDensity * b.curve->polarMoment;
  const Vec2 r(kD, 0.0);
  run.y0 = run.e.beta * r;
  run.g0 = run.y0 + r;
  b.pose.y = run.y0;
  b.velocity = run.e.Omega * lie::Jrot(run.y0);
  c.bodies.push_back(b);
  c.vortices.push_back({run.g0, kK});
  auto fluid = fluid::makeBoundaryFluid(comm, {b.shape}, {*b.curve}, c.discretization, 1.0);
  run.model = std::make_unique<FluidBodyModel>(c, std::move(fluid), comm);
  return run;
}

void advance(FluidBodyModel& model, State& s, int steps) {
  for (int k = 0; k < steps; ++k) {
    model.step(s);
    s.step += 1;
  }
}

/// max(|y(T) - R(Omega T) y0|, |gamma(T) - R(Omega T) gamma0|): the time-stepping error alone.
double rotationError(double dt, double T, Composition composition) {
  EquilibriumRun run = makeRun(dt, composition);
  State s = run.model->initialState();
  advance(*run.model, s, static_cast<int>(std::lround(T / dt)));
  const auto Rot = lie::rotation(run.e.Omega * T);
  const Vec2 y(s["q"][1], s["q"][2]), g(s["q"][3], s["q"][4]);
  return std::max((y - Rot * run.y0).norm(), (g - Rot * run.g0).norm());
}

/// Least-squares slope of log(err) against log(dt).
double fittedOrder(const std::vector<double>& dt, const std::vector<double>& err) {
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  const double n = static_cast<double>(dt.size());
  for (std::size_t i = 0; i < dt.size(); ++i) {
    const double x = std::log(dt[i]), y = std::log(err[i]);
    sx += x, sy += y, sxx += x * x, sxy += x * y;
  }
  return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

void expectOrder(Composition c, std::vector<double> dts, double T, double tolerance) {
  std::vector<double> err;
  for (const double dt : dts) err.push_back(rotationError(dt, T, c));
  const double p = fittedOrder(dts, err);
  std::printf("%s (order %d), T = %g:", integrators::compositionName(c).c_str(), integrators::compositionOrder(c), T);
  for (std::size_t i = 0; i < dts.size(); ++i) std::printf("  dt %.4g: %.3e", dts[i], err[i]);
  std::printf("  -> fitted order %.3f\n", p);
  ::testing::Test::RecordProperty("fitted_order", std::to_string(p));
  EXPECT_NEAR(p, integrators::compositionOrder(c), tolerance);
}

}  // namespace

// T = 4 (about 0.4 turns); dt ranges in the asymptotic range above the SNES round-off (~3e-13).
TEST(FluidBodyComposition, TripleJumpIsFourthOrder) { expectOrder(Composition::TripleJump, {0.1, 0.05, 0.025}, 4.0, 0.3); }
TEST(FluidBodyComposition, Suzuki5IsFourthOrder) { expectOrder(Composition::Suzuki5, {0.2, 0.1, 0.05}, 4.0, 0.3); }
TEST(FluidBodyComposition, KahanLi6IsSixthOrder) { expectOrder(Composition::KahanLi6, {0.2, 0.1, 0.05}, 4.0, 0.3); }
TEST(FluidBodyComposition, KahanLi8IsEighthOrder) { expectOrder(Composition::KahanLi8, {0.4, 0.2, 0.1}, 4.0, 0.3); }

TEST(FluidBodyComposition, MomentumMapKeptToSolverTolerance) {
  // A free disk (panel, 64 edges) and a vortex off equilibrium, 100 composed steps of dt = 0.1:
  // the discrete momentum map (FB-27) of every sub-step is conserved, so the step's is.
  for (Composition comp : {Composition::Suzuki5, Composition::KahanLi8}) {
    FluidBodyConfig c;
    c.dt = 0.1;
    c.composition = comp;
    BodyConfig b;
    b.name = "disk";
    b.shape = fluid::circle(1.0, 64);
    b.mass = b.shape.mass(1.0);
    b.inertia = b.shape.inertia(1.0);
    b.velocity = Vec2(0.1, -0.2);
    b.omega = 0.3;
    c.bodies.push_back(b);
    c.vortices.push_back({Vec2(1.5, 0.2), kK});
    auto fluid = fluid::makeBoundaryFluid(MPI_COMM_WORLD, {b.shape}, {}, c.discretization, 1.0);
    FluidBodyModel model(c, std::move(fluid), MPI_COMM_WORLD);
    State s = model.initialState();
    auto J = [&]() {
      const Eigen::VectorXd q = Eigen::Map<const Eigen::VectorXd>(s["q"].data(), 5);
      const Eigen::VectorXd p = Eigen::Map<const Eigen::VectorXd>(s["p"].data(), 5);
      return discreteMomentumMap(q, p, 1, {kK}, 1.0);
    };
    const Eigen::Vector3d J0 = J();
    advance(model, s, 100);
    const Eigen::Vector3d dJ = J() - J0;
    const double linear = dJ.head<2>().norm() / J0.head<2>().norm(), angular = std::abs(dJ[2]) / std::abs(J0[2]);
    std::printf("%s: relative change of the momentum map over 100 steps: linear %.2e, angular %.2e (|J0| = %.3f, %.3f)\n",
                integrators::compositionName(comp).c_str(), linear, angular, J0.head<2>().norm(), J0[2]);
    EXPECT_LT(linear, 1e-10);
    EXPECT_LT(angular, 1e-10);
  }
}

TEST(FluidBodyComposition, RestartMidRunIsBitwiseStraightRun) {
  // A step is the whole composition; the state (q, p, q_previous, Jacobian remainder) restarts it:
  // 20 steps straight against 10 steps, the state handed to a fresh model (restore), 10 more.
  const double dt = 0.2;
  EquilibriumRun straight = makeRun(dt, Composition::KahanLi6);
  State a = straight.model->initialState();
  advance(*straight.model, a, 20);
  EquilibriumRun first = makeRun(dt, Composition::KahanLi6);
  State b = first.model->initialState();
  advance(*first.model, b, 10);
  EquilibriumRun second = makeRun(dt, Composition::KahanLi6);
  State c = b;
  second.model->restore(c);
  advance(*second.model, c, 10);
  for (const char* f : {"q", "p", "q_previous", "jacobian_correction"}) EXPECT_EQ(a[f], c[f]) << f;
}
