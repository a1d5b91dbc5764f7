// The momentum map restored after a DEL step (docs/fluidbody.md (FB-29c)): J(q1, p1) = J(q0, p0) exactly, by the
// least-norm change of the bodies' momenta; the vortices' momenta are not touched. Whole steps hold the run's
// reference J once it has drifted by more than kMomentumDrift (FB-29g).
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "DiskGrid.hpp"
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

TEST(MomentumProjection, DriftIsHeldOnlyAboveTheBound) {
  // (FB-29g): J(q1, p1) within kMomentumDrift max(|J_ref|, sum_j |p_y_j|) of J_ref is left alone (round-off of a whole
  // step, e.g. an unstable symmetric motion, is not moved around); beyond it J_ref is restored exactly.
  ProjectionScene s = projectionScene();
  const Eigen::Vector3d J1 = discreteMomentumMap(s.q1, s.p1, s.n, s.K, s.rho);
  double bodies = 0.0;
  for (int j = 0; j < s.n; ++j) bodies += s.p1.segment<2>(3 * j + 1).norm();
  const double bound = kMomentumDrift * std::max(J1.cwiseAbs().maxCoeff(), bodies);
  for (int a = 0; a < 3; ++a) {
    Eigen::Vector3d near = J1, far = J1;
    near[a] += 0.5 * bound;
    far[a] += 2.0 * bound;
    EXPECT_FALSE(momentumMapDrifted(near, s.q1, s.p1, s.n, s.K, s.rho)) << a;
    EXPECT_TRUE(momentumMapDrifted(far, s.q1, s.p1, s.n, s.K, s.rho)) << a;
    Eigen::VectorXd p = s.p1;
    restoreMomentumMap(far, s.q1, p, s.n, s.K, s.rho);
    EXPECT_LT((discreteMomentumMap(s.q1, p, s.n, s.K, s.rho) - far).cwiseAbs().maxCoeff(), 1e-15 * bodies) << a;
  }
}

TEST(MomentumProjection, WholeStepsHoldTheStatesMomentumMap) {
  // A model step holds the state's momentum_map (FB-29g): 9 moving disks and four vortices whose reference is moved
  // by 1e-9 come back to it after one step (to round-off), and then stay within the bound for 50 steps.
  auto m = fluidbody::test::panelModel(fluidbody::test::diskGrid(9, 32));
  State st = m->initialState();
  const auto K = std::vector<double>{1.0, -1.0, 1.0, -1.0};
  auto J = [&](const State& x) {
    const Eigen::VectorXd q = Eigen::Map<const Eigen::VectorXd>(x.find("q")->data.data(), x.find("q")->data.size());
    const Eigen::VectorXd p = Eigen::Map<const Eigen::VectorXd>(x.find("p")->data.data(), x.find("p")->data.size());
    return discreteMomentumMap(q, p, 9, K, 1.0);
  };
  const Eigen::Vector3d J0 = J(st);
  ASSERT_EQ(st["momentum_map"], (std::vector<double>{J0[0], J0[1], J0[2]}));
  const Eigen::Vector3d target = J0 + Eigen::Vector3d(1e-9, -1e-9, 2e-9);
  st["momentum_map"] = {target[0], target[1], target[2]};
  m->step(st);
  st.step += 1;
  EXPECT_LT((J(st) - target).cwiseAbs().maxCoeff(), 1e-14 * J0.norm() + 1e-15);
  double worst = 0.0;
  for (int k = 0; k < 50; ++k) {
    m->step(st);
    st.step += 1;
    worst = std::max(worst, (J(st) - target).cwiseAbs().maxCoeff());
  }
  std::printf("9 disks: |J - J_ref| <= %.2e over 50 steps (|J_ref| %.3f)\n", worst, target.norm());
  EXPECT_LT(worst, 4.0 * kMomentumDrift * std::max(target.norm(), 10.0));
}
