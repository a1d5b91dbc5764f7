// fluidbody on the Nystrom discretization: a free disk and one vortex in a relative equilibrium of the
// circle-theorem system (docs/fluidbody.md (FB-33), (FB-39)) keep their distance and rotation rate to the
// time-stepping error only (Richardson over three dt), and the discrete momentum map (FB-27) to 1e-10.
#include <gtest/gtest.h>

#include <cmath>
#include <algorithm>
#include <cstdio>

#include "core/Constants.hpp"
#include "fluid/BoundaryFluidFactory.hpp"
#include "fluid/geometry/Shapes.hpp"
#include "models/fluidbody/FluidBodyModel.hpp"

using namespace kirchhoff;
using namespace kirchhoff::fluidbody;
using lie::Vec2;

namespace {

using kirchhoff::kPi;

/// The relative equilibrium (FB-39): rigid rotation at rate Omega about c = 0, r = gamma - y = (d, 0),
/// y = beta r, gamma = (1 + beta) r, beta = K (1 - R^2/d^2) / (a Omega - K), Omega the root of
/// a Omega^2 - (K R^4/d^4 + a omega0) Omega + K omega0 = 0, omega0 = -K R^2 / (2 pi d^2 (d^2 - R^2)).
struct RelativeEquilibrium {
  double Omega, beta;
};

RelativeEquilibrium equilibrium(double R, double d, double a, double K, int root) {
  const double w0 = -K * R * R / (2 * kPi * d * d * (d * d - R * R));
  const double B = -(K * std::pow(R / d, 4) + a * w0), C = K * w0;
  const double disc = std::sqrt(B * B - 4 * a * C);
  const double Omega = (-B + root * disc) / (2 * a);
  return {Omega, K * (1 - R * R / (d * d)) / (a * Omega - K)};
}

struct EquilibriumErrors {
  double rate, distanceError, momentumError;
};

EquilibriumErrors runEquilibrium(double dt, double T, int nodes) {
  const double R = 1.0, density = 0.1, K = 2 * kPi, d = 2.0;
  const double m = density * kPi * R * R, a = m + kPi * R * R;
  const RelativeEquilibrium e = equilibrium(R, d, a, K, -1);
  FluidBodyConfig c;
  c.dt = dt;
  c.discretization = fluid::DiscretizationKind::Nystrom;
  BodyConfig b;
  b.name = "disk";
  b.curve = fluid::circleCurve(R);
  b.shape = fluid::curveOutline(*b.curve, nodes);
  b.mass = m;
  b.inertia = density * b.curve->polarMoment;
  const Vec2 r(d, 0.0), y = e.beta * r;
  b.pose.y = y;
  b.velocity = e.Omega * lie::Jrot(y);
  c.bodies.push_back(b);
  c.vortices.push_back({y + r, K});
  auto fluid = fluid::makeBoundaryFluid(MPI_COMM_WORLD, {b.shape}, {*b.curve}, c.discretization, 1.0);
  FluidBodyModel model(c, std::move(fluid), MPI_COMM_WORLD);
  State s = model.initialState();
  auto rvec = [&]() { return Vec2(s["q"][3] - s["q"][1], s["q"][4] - s["q"][2]); };
  auto momentum = [&]() {
    const Eigen::VectorXd q = Eigen::Map<const Eigen::VectorXd>(s["q"].data(), 5);
    const Eigen::VectorXd p = Eigen::Map<const Eigen::VectorXd>(s["p"].data(), 5);
    return discreteMomentumMap(q, p, 1, {K}, 1.0);
  };
  const Eigen::Vector3d J0 = momentum();
  double angle = 0.0, dErr = 0.0;
  Vec2 prev = rvec();
  const int n = static_cast<int>(std::lround(T / dt));
  for (int k = 0; k < n; ++k) {
    model.step(s);
    s.step += 1;
    const Vec2 now = rvec();
    angle += std::atan2(lie::cross(prev, now), prev.dot(now));
    dErr = std::max(dErr, std::abs(now.norm() - d));
    prev = now;
  }
  const Eigen::Vector3d J1 = momentum();
  return {angle / (n * dt) - e.Omega, dErr, (J1 - J0).norm() / J0.norm()};
}

}  // namespace

TEST(NystromEquilibrium, DiskVortexRateToTimeSteppingError) {
  // 128 nodes (spectral: the fluid is exact to round-off), dt = 0.05, 0.025, 0.0125 over T = 5.
  // Rate errors O(dt^2); Richardson (h^2 and h^4 terms removed) leaves <= 1e-9.
  const double T = 5.0;
  const EquilibriumErrors r1 = runEquilibrium(0.05, T, 128), r2 = runEquilibrium(0.025, T, 128), r4 = runEquilibrium(0.0125, T, 128);
  const double rich = (64 * r4.rate - 20 * r2.rate + r1.rate) / 45.0;
  std::printf("disk + vortex equilibrium: rate error %.3e / %.3e / %.3e (dt 0.05 / 0.025 / 0.0125), Richardson %.3e; "
              "distance %.2e / %.2e / %.2e; momentum %.1e\n",
              r1.rate, r2.rate, r4.rate, rich, r1.distanceError, r2.distanceError, r4.distanceError,
              std::max({r1.momentumError, r2.momentumError, r4.momentumError}));
  EXPECT_LT(std::abs(rich), 1e-9);
  // Second order in dt: the error ratio is 4 +- 10 %.
  EXPECT_NEAR(r1.rate / r2.rate, 4.0, 0.4);
  EXPECT_NEAR(r2.rate / r4.rate, 4.0, 0.4);
  EXPECT_NEAR(r1.distanceError / r2.distanceError, 4.0, 0.6);
  EXPECT_LT(std::max({r1.momentumError, r2.momentumError, r4.momentumError}), 1e-10);
}
