// Tests of the DDB method for the dissipative rigid body (docs/damped.md Sec. 2): retraction
// Jacobians, Casimir |M| to 1e-13 in scenarios A and B, limit sets, measured orders.
#include <cmath>
#include <cstdio>

#include <gtest/gtest.h>

#include "DampedCases.hpp"
#include "lie/SO3.hpp"
#include "models/damped/RigidBodyIntegrator.hpp"

namespace {

using namespace kirchhoff::damped;
using kirchhoff::lie::hat;

const Retraction kRetractions[] = {Retraction::Exp, Retraction::Cayley};

// The Newton Jacobian of DDB step 1 against central differences (step 1e-6: error ~1e-9).
TEST(DoubleBracket, DiscreteMomentumJacobian) {
  const Mat3 I = Vec3(1.0, 2.0, 3.0).asDiagonal();
  const Vec3 Om(0.3, -1.2, 0.8);
  const double h = 0.5, e = 1e-6;
  for (const Retraction r : kRetractions) {
    const Mat3 J = discreteMomentumJacobian(r, h, I, Om);
    Mat3 fd;
    for (int j = 0; j < 3; ++j) {
      const Vec3 d = e * Vec3::Unit(j);
      fd.col(j) = (discreteMomentum(r, h, I, Om + d) - discreteMomentum(r, h, I, Om - d)) / (2 * e);
    }
    EXPECT_LT((J - fd).norm(), 1e-8 * J.norm());
  }
  // The rigid-body vector field Jacobian (used by Lobatto IIIC), same check.
  const DissipativeRigidBody body(I, 0.1);
  const Vec3 M(1.0, -0.5, 0.7);
  Mat3 fd;
  for (int j = 0; j < 3; ++j) {
    const Vec3 d = e * Vec3::Unit(j);
    fd.col(j) = (body.rhs(M + d) - body.rhs(M - d)) / (2 * e);
  }
  EXPECT_LT((body.jacobian(M) - fd).norm(), 1e-8 * fd.norm());
}

RigidBodyMethod ddb(Retraction r, DdbVariant v) {
  RigidBodyMethod m;
  m.kind = RigidBodyMethod::Kind::DDB;
  m.ddb.retraction = r;
  m.ddb.variant = v;
  return m;
}
RigidBodyMethod other(RigidBodyMethod::Kind k) {
  RigidBodyMethod m;
  m.kind = k;
  return m;
}

struct RigidRun {
  Vec3 M;
  double maxCasimir = 0.0;  // max_k ||M_k|/|M0| - 1|
  bool converged = true;
};
RigidRun run(const DissipativeRigidBody& body, const RigidBodyMethod& m, const Vec3& M0, double h,
             double T) {
  RigidRun r;
  r.M = M0;
  const int n = static_cast<int>(std::lround(T / h));
  for (int k = 0; k < n; ++k) {
    r.converged = r.converged && rigidBodyStep(body, m, r.M, k * h, h).converged;
    r.maxCasimir = std::max(r.maxCasimir, std::abs(r.M.norm() / M0.norm() - 1.0));
  }
  return r;
}

// Scenarios A and B, h = 0.1, T = 200. DDB keeps |M| to 1e-13 relative (measured <= 1.1e-14);
// RK4 and Lobatto IIIC drift (measured 1.8e-8 / 2.0e-9 in A, 2.3e-8 / 4.3e-10 in B).
// A: every DDB variant reaches the reference's limit point -|M0| e3 (measured |M - M_ref| <= 2e-11);
// B: the distance to the circle M3 = 0 matches the reference's 3.65e-5 within 5% (measured 2%).
TEST(DoubleBracket, CasimirAndLimitSets) {
  const double h = 0.1, T = 200.0;
  for (const char scenario : {'A', 'B'}) {
    const auto c = scenario == 'A' ? cases::scenarioA() : cases::scenarioB();
    const DissipativeRigidBody body(c.I, c.alpha);
    EXPECT_EQ(body.limitSetDimension(), scenario == 'A' ? 1 : 2);
    const Vec3 ref = Vec3(cases::rigidReference(body, c.M0, {T})[0]);
    const double refDist = body.distanceToLimitSet(ref, c.M0.norm());
    for (const Retraction r : kRetractions) {
      for (const DdbVariant v : {DdbVariant::Plain, DdbVariant::Symmetric}) {
        const RigidBodyMethod m = ddb(r, v);
        const RigidRun x = run(body, m, c.M0, h, T);
        const double dist = body.distanceToLimitSet(x.M, c.M0.norm());
        std::printf("  %c %-22s casimir %.2e  dist %.3e (ref %.3e)  |M-Mref| %.2e\n", scenario,
                    describe(m).c_str(), x.maxCasimir, dist, refDist, (x.M - ref).norm());
        EXPECT_TRUE(x.converged);
        EXPECT_LT(x.maxCasimir, 1e-13) << describe(m);
        if (scenario == 'A') {
          EXPECT_LT((x.M - ref).norm(), 1e-9) << describe(m);
          EXPECT_LT(std::abs(x.M(2) + c.M0.norm()), 1e-9) << describe(m);
        } else {
          EXPECT_LT(dist, 1e-4) << describe(m);
          EXPECT_NEAR(dist, refDist, 0.05 * refDist) << describe(m);
        }
      }
    }
    for (const auto k : {RigidBodyMethod::Kind::RK4, RigidBodyMethod::Kind::LobattoIIIC}) {
      const RigidRun x = run(body, other(k), c.M0, h, T);
      std::printf("  %c %-22s casimir %.2e\n", scenario, describe(other(k)).c_str(), x.maxCasimir);
      EXPECT_GT(x.maxCasimir, 1e-10) << describe(other(k));  // no exact Casimir: it drifts
    }
  }
}

// Orders from the error at T = 10 in scenario A against DOP853: the plain scheme is first order
// for alpha > 0 (second at alpha = 0), the symmetric variant is second order.
std::vector<double> errors(const DissipativeRigidBody& body, const RigidBodyMethod& m,
                           const Vec3& M0, const std::vector<double>& hs, double T) {
  const Vec3 ref = Vec3(cases::rigidReference(body, M0, {T})[0]);
  std::vector<double> e;
  for (const double h : hs) e.push_back((run(body, m, M0, h, T).M - ref).norm());
  return e;
}

TEST(DoubleBracket, MeasuredOrders) {
  const auto c = cases::scenarioA();
  const std::vector<double> hs = {0.025, 0.0125, 0.00625, 0.003125};
  for (const double alpha : {0.1, 0.0}) {
    const DissipativeRigidBody body(c.I, alpha);
    for (const Retraction r : kRetractions) {
      for (const DdbVariant v : {DdbVariant::Plain, DdbVariant::Symmetric}) {
        const RigidBodyMethod m = ddb(r, v);
        const auto e = errors(body, m, c.M0, hs, 10.0);
        const double p = std::log2(e[2] / e[3]);
        std::printf("  alpha=%.1f %-22s errors %.3e %.3e %.3e %.3e  orders %.2f %.2f %.2f\n", alpha,
                    describe(m).c_str(), e[0], e[1], e[2], e[3], std::log2(e[0] / e[1]),
                    std::log2(e[1] / e[2]), p);
        const double expected = (v == DdbVariant::Plain && alpha > 0.0) ? 1.0 : 2.0;
        EXPECT_NEAR(p, expected, 0.15) << describe(m) << " alpha=" << alpha;
      }
    }
  }
}

}  // namespace
