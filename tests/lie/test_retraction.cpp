// SO(3) retractions (lie/Retraction): the identities the DDB update relies on, the differentials
// against finite differences, and the series branches of the dexp^-1 coefficient (damped.md Sec. 2).
#include <cmath>

#include <gtest/gtest.h>

#include "core/Error.hpp"
#include "lie/Retraction.hpp"
#include "lie/SO3.hpp"

namespace {

using namespace kirchhoff::lie;

const Retraction kRetractions[] = {Retraction::Exp, Retraction::Cayley};

// The key identity behind the update: tau(v)^T (dtau^-1_v)^T = (dtau^-1_{-v})^T, so the
// conservative step maps M_k = (dtau^-1_{h Om})^T I Om to M_{k+1} = (dtau^-1_{-h Om})^T I Om.
TEST(Retraction, Identities) {
  const Vec3 v(0.3, -1.1, 0.7);
  for (const Retraction r : kRetractions) {
    const Mat3 lhs = tau(r, v).transpose() * dtauInvTranspose(r, v);
    EXPECT_LT((lhs - dtauInvTranspose(r, -v)).norm(), 1e-14);
    // dtau_v is the inverse of dtau^-1_v.
    EXPECT_LT((dtauInvTranspose(r, v).transpose() * dtau(r, v) - Mat3::Identity()).norm(), 1e-14);
    // tau(v)^T y without a matrix equals the matrix product and keeps |y|.
    const Vec3 y(1.0, 2.0, -0.5);
    EXPECT_LT((tauTransposeApply(r, v, y) - tau(r, v).transpose() * y).norm(), 1e-15);
    EXPECT_NEAR(tauTransposeApply(r, v, y).norm(), y.norm(), 1e-15);
    // Right-trivialized differential: (d/dt tau(v + t d)) tau(v)^T = hat(dtau_v d), central
    // difference with t = 1e-5 (truncation 1e-10, round-off 1e-11).
    const Vec3 d(0.2, 0.5, -0.4);
    const double t = 1e-5;
    const Mat3 D = (tau(r, v + t * d) - tau(r, v - t * d)) / (2 * t) * tau(r, v).transpose();
    EXPECT_LT((D - hat(dtau(r, v) * d)).norm(), 1e-9);
  }
}

// c(th) and c'(th)/th switch to series at th = 0.1: both sides agree, and c' matches a finite difference.
TEST(Retraction, DexpInvCoefficientSeriesAndSlope) {
  EXPECT_NEAR(dexpInvCoefficient(0.1 - 1e-12), dexpInvCoefficient(0.1 + 1e-12), 1e-15);
  EXPECT_NEAR(dexpInvCoefficientSlope(0.1 - 1e-12), dexpInvCoefficientSlope(0.1 + 1e-12), 1e-11);
  EXPECT_NEAR(dexpInvCoefficient(0.0), 1.0 / 12.0, 1e-17);
  for (const double th : {0.05, 0.5, 2.0, 5.0}) {
    const double dt = 1e-5;
    const double fd = (dexpInvCoefficient(th + dt) - dexpInvCoefficient(th - dt)) / (2 * dt);
    EXPECT_NEAR(dexpInvCoefficientSlope(th) * th, fd, 1e-9 * (1.0 + std::abs(fd))) << th;
  }
  // The closed form of the doc at th = 2: (1 - cot(1)) / 4.
  EXPECT_NEAR(dexpInvCoefficient(2.0), (1.0 - 1.0 / std::tan(1.0)) / 4.0, 1e-15);
}

TEST(Retraction, CayleyAndExpAreRotations) {
  for (const Retraction r : kRetractions)
    for (const Vec3& v : {Vec3(0.0, 0.0, 0.0), Vec3(1e-9, 0.0, 0.0), Vec3(2.0, -1.0, 0.5)}) {
      const Mat3 R = tau(r, v);
      EXPECT_LT((R.transpose() * R - Mat3::Identity()).norm(), 1e-15);
      EXPECT_NEAR(R.determinant(), 1.0, 1e-15);
    }
  EXPECT_THROW(requireExpDomain(7.0), kirchhoff::NumericalError);
}

}  // namespace
