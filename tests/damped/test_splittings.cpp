// Tests of the Rayleigh splittings Phi_2S, Phi_3S, Phi_RKS (docs/damped.md (DA-7)-(DA-10)): reduction to
// Störmer–Verlet at eps = 0, order 2 in both orderings, order 4 of the symmetric triple jump,
// orders 4, 6, 8 of the compositions (docs/composition.md (CM-3)).
#include <cmath>
#include <cstdio>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "DampedCases.hpp"

namespace {

using namespace kirchhoff::damped;
using kirchhoff::damped::cases::splitting;

VectorXd q0Elastic() { return (VectorXd(3) << 0.5, -0.2, -1.1).finished(); }
VectorXd p0Elastic() { return (VectorXd(3) << 0.3, 0.8, -0.5).finished(); }

// grad V of the elastic pendulum, written out independently of Potential.cpp.
VectorXd gradElastic(const VectorXd& q) {
  const double k = 10.0, l0 = 1.0, m = 1.0, g = 1.0, r = q.norm();
  VectorXd d = (k * (r - l0) / r) * q;
  d(2) += m * g;
  return d;
}

struct SchemeCase {
  Splitting s;
  RksMethod rk;
};
const SchemeCase kSchemes[] = {{Splitting::Phi2S, RksMethod::Heun},
                               {Splitting::Phi3S, RksMethod::Heun},
                               {Splitting::PhiRKS, RksMethod::Heun},
                               {Splitting::PhiRKS, RksMethod::ExplicitMidpoint},
                               {Splitting::PhiRKS, RksMethod::ImplicitMidpoint}};

// At eps = 0 every DKD scheme is the B (position) Störmer–Verlet method and every KDK scheme is
// velocity Verlet: the sub-flows are then the same arithmetic, so only round-off may differ.
TEST(RayleighSplittings, EpsZeroIsStormerVerlet) {
  const auto sys = cases::elasticPendulum(0.0);
  const double h = 0.05;
  for (const Ordering o : {Ordering::DriftKickDrift, Ordering::KickDriftKick}) {
    for (const SchemeCase& c : kSchemes) {
      const RayleighMethod m = splitting(c.s, o, c.rk);
      VectorXd q = q0Elastic(), p = p0Elastic(), qs = q, ps = p;
      double maxDiff = 0.0;
      for (int k = 0; k < 400; ++k) {
        rayleighStep(*sys, m, q, p, k * h, h);
        if (o == Ordering::DriftKickDrift) {
          qs += 0.5 * h * ps;
          ps -= h * gradElastic(qs);
          qs += 0.5 * h * ps;
        } else {
          ps -= 0.5 * h * gradElastic(qs);
          qs += h * ps;
          ps -= 0.5 * h * gradElastic(qs);
        }
        maxDiff = std::max({maxDiff, (q - qs).norm(), (p - ps).norm()});
      }
      // 400 steps of a nonlinear map: round-off growth stays below 1e-12 (|q|, |p| ~ 1).
      EXPECT_LT(maxDiff, 1e-12) << describe(m);
    }
  }
}

// Error at T of (q, p) against DOP853 (rtol `tol`) on the damped elastic pendulum (eps = 0.1,
// radial D: q-dependent damping, the hardest case for the splitting).
double errorAt(const RayleighMethod& m, double h, double T, double tol = 1e-13) {
  const auto sys = cases::elasticPendulum(0.1);
  const VectorXd ref = cases::rayleighReference(*sys, q0Elastic(), p0Elastic(), {T}, tol)[0];
  VectorXd q = q0Elastic(), p = p0Elastic();
  const int n = static_cast<int>(std::lround(T / h));
  for (int k = 0; k < n; ++k) rayleighStep(*sys, m, q, p, k * h, h);
  VectorXd y(6);
  y << q, p;
  return (y - ref).norm();
}

// The errors err(h), err(h/2), err(h/4) and the observed orders between them:
// p1 = log2(err(h)/err(h/2)), p2 = log2(err(h/2)/err(h/4)); `finest` = err(h/4).
struct HalvingOrders {
  double finest, p1, p2;
};
template <class Err>
HalvingOrders halvingOrders(Err&& err, double h) {
  const double e1 = err(h), e2 = err(h / 2), e3 = err(h / 4);
  return {e3, std::log2(e1 / e2), std::log2(e2 / e3)};
}

TEST(RayleighSplittings, SecondOrderBothOrderings) {
  const double T = 4.0;
  for (const Ordering o : {Ordering::DriftKickDrift, Ordering::KickDriftKick}) {
    for (const SchemeCase& c : kSchemes) {
      const RayleighMethod m = splitting(c.s, o, c.rk);
      const auto [e3, p1, p2] = halvingOrders([&](double h) { return errorAt(m, h, T); }, 0.04);
      std::printf("  %-32s err(h=0.01) %.3e  orders %.3f %.3f\n", describe(m).c_str(), e3, p1, p2);
      // Second order: observed orders within 0.1 of 2 (an O(h) scheme is far outside).
      EXPECT_NEAR(p1, 2.0, 0.1) << describe(m);
      EXPECT_NEAR(p2, 2.0, 0.1) << describe(m);
    }
  }
}

TEST(RayleighSplittings, TripleJumpFourthOrderForSymmetricBases) {
  const double T = 4.0;
  for (const SchemeCase& c : kSchemes) {
    const RayleighMethod m =
        splitting(c.s, Ordering::DriftKickDrift, c.rk, Composition::TripleJump);
    const auto [e3, p1, p2] = halvingOrders([&](double h) { return errorAt(m, h, T); }, 0.08);
    std::printf("  %-44s err(h=0.02) %.3e  orders %.3f %.3f\n", describe(m).c_str(), e3, p1, p2);
    if (!isSymmetric(m.splitting)) continue;  // see TripleJumpOfExplicitRksIsThirdOrder
    EXPECT_EQ(order(m.splitting), 4);
    EXPECT_NEAR(p2, 4.0, 0.2) << describe(m);  // order 4 (asymptotic: finest pair)
    EXPECT_GT(p1, 3.6) << describe(m);
  }
}

// RKS with an explicit RK2 is not symmetric: the triple jump (sum gamma_i^3 = 0) then only lifts
// order 2 to 3 (Hairer–Lubich–Wanner Thm II.4.1). The non-symmetric part of the local error is
// O(|h A|^3), A = eps D M^-1, so it shows only under strong damping: pendulum with eps = 2, T = 2.
double pendulumErrorAt(const RayleighMethod& m, double eps, double h, double T) {
  const auto sys = cases::pendulum(eps);
  const VectorXd q0 = VectorXd::Constant(1, 1.5), p0 = VectorXd::Zero(1);
  const VectorXd ref = cases::rayleighReference(*sys, q0, p0, {T})[0];
  VectorXd q = q0, p = p0;
  const int n = static_cast<int>(std::lround(T / h));
  for (int k = 0; k < n; ++k) rayleighStep(*sys, m, q, p, k * h, h);
  return std::hypot(q(0) - ref(0), p(0) - ref(1));
}

TEST(RayleighSplittings, TripleJumpOfExplicitRksIsThirdOrder) {
  for (const RksMethod rk : {RksMethod::Heun, RksMethod::ExplicitMidpoint, RksMethod::ImplicitMidpoint}) {
    const RayleighMethod m = splitting(Splitting::PhiRKS, Ordering::DriftKickDrift, rk,
                                       Composition::TripleJump);
    const auto [e3, p1, p2] =
        halvingOrders([&](double h) { return pendulumErrorAt(m, 2.0, h, 2.0); }, 0.05);
    std::printf("  eps=2 %-40s err(h=0.0125) %.3e  orders %.3f %.3f\n", describe(m).c_str(), e3, p1, p2);
    EXPECT_EQ(order(m.splitting), isSymmetric(m.splitting) ? 4 : 3);
    EXPECT_NEAR(p2, order(m.splitting), 0.25) << describe(m);
  }
}

}  // namespace

namespace {

// The composition layer on the symmetric splittings (docs/damped.md "Composition methods";
// docs/composition.md (CM-3)): least-squares slope of log error over three h on the damped
// elastic pendulum (T = 4, DOP853 reference at 1e-15) within 0.3 of 4, 6, 8 for suzuki5,
// kahan_li6, kahan_li8 with Phi_2S, Phi_3S (DKD) and Phi_RKS(implicit midpoint, KDK).

TEST(RayleighSplittings, CompositionsReachTheirOrder) {
  const double T = 4.0;
  struct Case {
    Splitting s;
    Ordering o;
    RksMethod rk;
  };
  const Case bases[] = {{Splitting::Phi2S, Ordering::DriftKickDrift, RksMethod::Heun},
                        {Splitting::Phi3S, Ordering::DriftKickDrift, RksMethod::Heun},
                        {Splitting::PhiRKS, Ordering::KickDriftKick, RksMethod::ImplicitMidpoint}};
  const std::pair<Composition, std::vector<double>> sets[] = {
      {Composition::Suzuki5, {0.1, 0.05, 0.025}},
      {Composition::KahanLi6, {0.1, 0.05, 0.025}},
      {Composition::KahanLi8, {0.1, 0.0625, 0.04}}};
  for (const Case& b : bases)
    for (const auto& [c, hs] : sets) {
      const RayleighMethod m = splitting(b.s, b.o, b.rk, c);
      double sx = 0, sy = 0, sxx = 0, sxy = 0;
      for (double h : hs) {
        const double e = errorAt(m, h, T, 1e-15), x = std::log(h), y = std::log(e);
        std::printf("  %-48s h=%-7g err %.3e\n", describe(m).c_str(), h, e);
        sx += x; sy += y; sxx += x * x; sxy += x * y;
      }
      const double slope = (3 * sxy - sx * sy) / (3 * sxx - sx * sx);
      std::printf("  %-48s fitted order %.3f\n", describe(m).c_str(), slope);
      EXPECT_EQ(order(m.splitting), kirchhoff::integrators::compositionOrder(c));
      EXPECT_NEAR(slope, order(m.splitting), 0.3) << describe(m);
    }
}

}  // namespace
