// fluidbody with one free disk and one vortex against an independent reference: the circle-theorem
// Lagrangian L = a|v|^2/2 + beta + W_G(r) + K R^2 <J r, v>/d^2 integrated by DOP853 (a reference
// that shares no code with the panel method).
#include <gtest/gtest.h>

#include <cmath>

#include "core/Constants.hpp"
#include "fluid/PanelFluid.hpp"
#include "fluid/geometry/Shapes.hpp"
#include "integrators/Dop853.hpp"
#include "models/fluidbody/FluidBodyModel.hpp"

using namespace kirchhoff;
using namespace kirchhoff::fluidbody;
using lie::Vec2;

namespace {

using kirchhoff::kPi;

/// Closed-form disk + vortex dynamics (fluid density 1, zero circulation about the disk):
///   r = gamma - y, d = |r|, f = <J r, v>/d^2, W_G = -(K^2/4 pi) log(1 - R^2/d^2),
///   X = dW_G/dr + K R^2 grad_r f,  gamma_dot = J X / K,
///   a v_dot = K J gamma_dot - K R^2 d/dt (J r / d^2),  a = m + pi R^2.
/// State (y, v, gamma). Derived from the Euler–Lagrange equations of L (fluidbody.md analytic checks).
Eigen::VectorXd diskVortexRhs(const Eigen::VectorXd& s, double R, double m, double K) {
  const Vec2 y = s.segment<2>(0), v = s.segment<2>(2), g = s.segment<2>(4);
  const Vec2 r = g - y;
  const double d2 = r.squaredNorm();
  const Vec2 Jr = lie::Jrot(r), Jv = lie::Jrot(v);
  const Vec2 dW = -(K * K * R * R / (2 * kPi)) * r / (d2 * (d2 - R * R));
  const Vec2 gradf = -Jv / d2 - 2.0 * Jr.dot(v) * r / (d2 * d2);
  const Vec2 X = dW + K * R * R * gradf;
  const Vec2 gdot = lie::Jrot(X) / K;
  const Vec2 rdot = gdot - v;
  const Vec2 dJr = lie::Jrot(rdot) / d2 - 2.0 * Jr * r.dot(rdot) / (d2 * d2);
  const double a = m + kPi * R * R;
  const Vec2 vdot = (K * lie::Jrot(gdot) - K * R * R * dJr) / a;
  Eigen::VectorXd ds(6);
  ds << v, vdot, gdot;
  return ds;
}

}  // namespace

TEST(DiskVortex, ReferenceIsConsistentWithItsInvariants) {
  // The reference itself: E = a|v|^2/2 + (K^2/4 pi) log(1 - R^2/d^2) and
  // P = a v + K (R^2 J r / d^2 - J gamma) conserved (fluidbody.md), so its derivation is checked.
  const double R = 1.0, m = kPi, K = 2 * kPi, a = m + kPi;
  Eigen::VectorXd s0(6);
  s0 << 0.0, 0.0, 0.1, -0.2, 1.5, 0.0;
  auto f = [&](double, const Eigen::VectorXd& s) { return diskVortexRhs(s, R, m, K); };
  auto invariants = [&](const Eigen::VectorXd& s) {
    const Vec2 y = s.segment<2>(0), v = s.segment<2>(2), g = s.segment<2>(4), r = g - y;
    const double d2 = r.squaredNorm();
    const double E = 0.5 * a * v.squaredNorm() + K * K / (4 * kPi) * std::log(1 - R * R / d2);
    const Vec2 P = a * v + K * (R * R * lie::Jrot(r) / d2 - lie::Jrot(g));
    return Eigen::Vector3d(E, P.x(), P.y());
  };
  const auto sT = integrators::dop853(f, 0.0, s0, {10.0}).back();
  EXPECT_NEAR((invariants(sT) - invariants(s0)).norm(), 0.0, 1e-9);
}

TEST(DiskVortex, PanelSimulationMatchesCircleTheoremReference) {
  // 256 edges, dt = 0.01, t = 10: body centre and vortex within 1e-3 of the reference.
  const double R = 1.0, rho = 1.0, K = 2 * kPi, dt = 0.01, T = 10.0;
  FluidBodyConfig c;
  c.dt = dt;
  BodyConfig b;
  b.name = "disk";
  b.shape = fluid::circle(R, 256);
  b.mass = kPi * R * R;  // the smooth disk's mass and inertia: the reference's
  b.inertia = 0.5 * kPi * R * R * R * R;
  b.velocity = Vec2(0.1, -0.2);
  c.bodies.push_back(b);
  c.vortices.push_back({Vec2(1.5, 0.0), K});
  auto fluid = std::make_unique<fluid::PanelFluid>(MPI_COMM_WORLD, std::vector<fluid::Polygon>{b.shape}, rho);
  FluidBodyModel model(c, std::move(fluid), MPI_COMM_WORLD);
  State s = model.initialState();
  const int n = static_cast<int>(std::lround(T / dt));
  for (int k = 0; k < n; ++k) {
    model.step(s);
    s.step += 1;
  }
  Eigen::VectorXd s0(6);
  s0 << 0.0, 0.0, 0.1, -0.2, 1.5, 0.0;
  const auto ref = integrators::dop853(
      [&](double, const Eigen::VectorXd& x) { return diskVortexRhs(x, R, b.mass, K); }, 0.0, s0, {T}).back();
  const Vec2 y(s["q"][1], s["q"][2]), g(s["q"][3], s["q"][4]);
  const double ey = (y - ref.segment<2>(0)).norm(), eg = (g - ref.segment<2>(4)).norm();
  RecordProperty("centre_error", std::to_string(ey));
  RecordProperty("vortex_error", std::to_string(eg));
  std::printf("disk + vortex at t = %g: |y - y_ref| = %.3e, |gamma - gamma_ref| = %.3e (travelled %.3f)\n",
              T, ey, eg, (ref.segment<2>(4) - s0.segment<2>(4)).norm());
  EXPECT_LT(ey, 1e-3);
  EXPECT_LT(eg, 1e-3);
}
