// The momentum map restored after a DEL step (docs/fluidbody.md (FB-29c)): J(q1, p1) = J(q0, p0) exactly, by the
// least-norm change of the bodies' momenta; the vortices' momenta are not touched.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "models/fluidbody/FluidBodyModel.hpp"

using namespace kirchhoff::fluidbody;

namespace {

struct ProjectionScene {
  Eigen::VectorXd q0, p0, q1, p1;
  std::vector<double> K{1.3, -0.7};
  double rho = 1.2;
  int n = 3;
};

/// Three bodies and two vortices; (q1, p1) a step away whose momenta miss J by ~1e-8 (a sub-step's residual).
ProjectionScene projectionScene() {
  ProjectionScene s;
  const int d = 3 * s.n + 2 * static_cast<int>(s.K.size());
  s.q0 = Eigen::VectorXd::LinSpaced(d, -1.5, 2.5);
  s.p0 = Eigen::VectorXd::LinSpaced(d, 0.7, -0.4);
  s.q1 = s.q0 + 0.01 * Eigen::VectorXd::LinSpaced(d, 1.0, -1.0);
  s.p1 = s.p0 + 1e-8 * Eigen::VectorXd::LinSpaced(d, -3.0, 2.0);
  return s;
}

}  // namespace

TEST(MomentumProjection, RestoresTheMomentumMapToRoundOff) {
  ProjectionScene s = projectionScene();
  const Eigen::Vector3d J0 = discreteMomentumMap(s.q0, s.p0, s.n, s.K, s.rho);
  const Eigen::Vector3d before = discreteMomentumMap(s.q1, s.p1, s.n, s.K, s.rho) - J0;
  ASSERT_GT(before.cwiseAbs().maxCoeff(), 1e-9);
  const Eigen::VectorXd p = s.p1;
  restoreMomentumMap(s.q0, s.p0, s.q1, s.p1, s.n, s.K, s.rho);
  const Eigen::Vector3d after = discreteMomentumMap(s.q1, s.p1, s.n, s.K, s.rho) - J0;
  EXPECT_LT(after.cwiseAbs().maxCoeff(), 4e-16 * J0.cwiseAbs().maxCoeff());
  EXPECT_EQ(s.p1.tail(4), p.tail(4));  // the vortices' momenta
  EXPECT_LT((s.p1 - p).norm(), 10 * before.norm());
}

TEST(MomentumProjection, TheChangeIsTheLeastNormOne) {
  // A change of the bodies' momenta that leaves J alone (p_theta of body 0 up, of body 1 down; p_y of body 2 along
  // x, balanced by body 0 with the rotation compensated) is orthogonal to the change made.
  ProjectionScene s = projectionScene();
  const Eigen::VectorXd p = s.p1;
  restoreMomentumMap(s.q0, s.p0, s.q1, s.p1, s.n, s.K, s.rho);
  const Eigen::VectorXd delta = (s.p1 - p).head(9);
  Eigen::VectorXd z1 = Eigen::VectorXd::Zero(9), z2 = Eigen::VectorXd::Zero(9);
  z1[0] = 1.0;
  z1[3] = -1.0;
  const double y0y = s.q1[2], y2y = s.q1[8];
  z2[7] = 1.0;                // p_y,x of body 2
  z2[1] = -1.0;               // p_y,x of body 0
  z2[0] = y2y - y0y;          // J_rot: -y_y p_x terms of both, compensated on p_theta of body 0
  for (const Eigen::VectorXd& z : {z1, z2}) {
    Eigen::VectorXd pz = s.p1;
    pz.head(9) += z;
    const Eigen::Vector3d dJ = discreteMomentumMap(s.q1, pz, s.n, s.K, s.rho) - discreteMomentumMap(s.q1, s.p1, s.n, s.K, s.rho);
    ASSERT_LT(dJ.cwiseAbs().maxCoeff(), 1e-14);  // z leaves J alone
    // delta (~1e-9) is read off p1 (~1) to 1e-16: round-off of the difference, not a component along z.
    EXPECT_LT(std::abs(delta.dot(z)), 1e-6 * delta.norm() * z.norm());
  }
}

TEST(MomentumProjection, AStepThatKeepsJIsNotChanged) {
  ProjectionScene s = projectionScene();
  s.p1 = s.p0;
  s.q1 = s.q0;
  const Eigen::VectorXd p = s.p1;
  restoreMomentumMap(s.q0, s.p0, s.q1, s.p1, s.n, s.K, s.rho);
  EXPECT_EQ(s.p1, p);
}
