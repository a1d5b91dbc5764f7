// Tests of the adjoint gradient of F = 1/2 <A Xi, Xi> + W_G + <M_C, Xi> (docs/fluidbody.md (FB-22):
// exact dL/dq through the panel solve) against central differences, and the Noether
// identities it must satisfy to round-off (translation and rotation of everything).
#include <gtest/gtest.h>

#include "FluidTestUtil.hpp"

namespace kirchhoff::fluid {
namespace {

using test::centralDifferences;
using test::pack;
using test::rigidMotion;

struct GradientScene {
  std::vector<Polygon> bodies;
  std::vector<lie::Pose> poses;
  Vortices vortices;
  Eigen::VectorXd Xi;
};

GradientScene threeBodies() {
  GradientScene s;
  s.bodies = {ellipse(1.0, 0.5, 40), plate(1.6, 0.2, 40), circle(0.6, 32)};
  s.poses = {lie::Pose{0.3, Vec2(0.1, -0.2)}, lie::Pose{-0.7, Vec2(2.4, 0.9)},
             lie::Pose{1.1, Vec2(-0.4, 2.1)}};
  s.vortices.gamma = {Vec2(1.2, -1.1), Vec2(-1.6, 0.4), Vec2(1.4, 2.4)};
  s.vortices.K = {1.3, -0.7, 2.1};
  s.Xi.resize(9);
  s.Xi << 0.4, -0.3, 0.8, -1.1, 0.5, 0.2, 0.7, 0.9, -0.6;
  return s;
}

void expectGradientMatchesDifferences(const GradientScene& s, const PanelOptions& o) {
  PanelFluid f(PETSC_COMM_SELF, s.bodies, 1.7, o);
  f.setConfiguration(s.poses, s.vortices);
  const Eigen::VectorXd q = pack(s.poses, s.vortices);
  const Eigen::VectorXd g = f.lagrangianGradient(s.Xi);
  const Eigen::VectorXd fd = centralDifferences(f, q, s.vortices.K, s.Xi, 1e-5);
  const double scale = g.cwiseAbs().maxCoeff();
  ASSERT_GT(scale, 1e-2);
  for (int k = 0; k < q.size(); ++k) {
    // Central differences with h = 1e-5: truncation ~h^2 |F'''| ~ 1e-10, round-off ~1e-11 |F| / h.
    // Required: 1e-6 relative to the entry (or to the largest entry for entries near zero).
    EXPECT_NEAR(g[k], fd[k], 1e-6 * std::max(std::abs(fd[k]), 1e-2 * scale)) << "coordinate " << k;
  }
}

TEST(PanelGradient, MatchesCentralDifferencesDirectCached) {
  PanelOptions o;
  o.solver = PanelSolver::Direct;
  expectGradientMatchesDifferences(threeBodies(), o);
}

TEST(PanelGradient, MatchesCentralDifferencesDirectUncached) {
  PanelOptions o;
  o.solver = PanelSolver::Direct;
  o.cacheMax = 0;
  expectGradientMatchesDifferences(threeBodies(), o);
}

TEST(PanelGradient, MatchesCentralDifferencesKsp) {
  PanelOptions o;
  o.solver = PanelSolver::Ksp;
  expectGradientMatchesDifferences(threeBodies(), o);
}

TEST(PanelGradient, MatchesCentralDifferencesSingleBodyTurning) {
  GradientScene s;
  s.bodies = {ellipse(1.0, 0.4, 48)};
  s.poses = {lie::Pose{0.4, Vec2(0.3, -0.1)}};
  s.vortices.gamma = {Vec2(1.9, 0.7), Vec2(-0.5, -1.5)};
  s.vortices.K = {1.0, 0.6};
  s.Xi = Eigen::Vector3d(0.5, -0.8, 0.3);
  PanelOptions o;
  o.correction = PanelCorrection::Turning;
  expectGradientMatchesDifferences(s, o);
}

TEST(PanelGradient, MatchesCentralDifferencesPolygonsNoVortices) {
  GradientScene s;
  s.bodies = {polygon({Vec2(0, 0), Vec2(1, 0), Vec2(1, 0.6), Vec2(0, 0.6)}),
              polygon({Vec2(0, 0), Vec2(0.8, 0.1), Vec2(0.3, 0.7)})};
  s.poses = {lie::Pose{0.2, Vec2(0, 0)}, lie::Pose{-0.5, Vec2(1.5, 0.8)}};
  s.Xi.resize(6);
  s.Xi << 0.3, 1.0, -0.4, -0.6, 0.2, 0.9;
  expectGradientMatchesDifferences(s, PanelOptions{});
}

TEST(PanelGradient, NoBodiesIsPointVortexGradient) {
  GradientScene s;
  s.vortices.gamma = {Vec2(0, 0), Vec2(1, 0.5), Vec2(-0.3, 1.2)};
  s.vortices.K = {1.0, -2.0, 0.5};
  s.Xi.resize(0);
  PanelFluid f(PETSC_COMM_SELF, {}, 2.0, PanelOptions{});
  f.setConfiguration({}, s.vortices);
  // W_G = rho sum_{i<j} K_i K_j / (2 pi) log|gamma_i - gamma_j| (fluidbody.md, no bodies).
  double w = 0.0;
  for (int i = 0; i < 3; ++i)
    for (int j = i + 1; j < 3; ++j)
      w += 2.0 * s.vortices.K[i] * s.vortices.K[j] / kTwoPi *
           std::log((s.vortices.gamma[i] - s.vortices.gamma[j]).norm());
  EXPECT_NEAR(f.kirchhoffRouth(), w, 1e-14);
  const Eigen::VectorXd q = pack({}, s.vortices);
  const Eigen::VectorXd g = f.lagrangianGradient(s.Xi);
  const Eigen::VectorXd fd = centralDifferences(f, q, s.vortices.K, s.Xi, 1e-5);
  EXPECT_LT((g - fd).cwiseAbs().maxCoeff(), 1e-8 * g.cwiseAbs().maxCoeff());
}

/// Sum over bodies and vortices of the translational gradient, and the angular one
/// sum_j (dF/dtheta_j + y_j x dF/dy_j) + sum_i gamma_i x dF/dgamma_i: both vanish identically
/// because F depends on relative positions only.
void expectNoetherIdentities(const GradientScene& s, const PanelOptions& o) {
  PanelFluid f(PETSC_COMM_SELF, s.bodies, 1.0, o);
  f.setConfiguration(s.poses, s.vortices);
  const Eigen::VectorXd g = f.lagrangianGradient(s.Xi);
  const int n = f.bodyCount(), m = s.vortices.size();
  Vec2 trans = Vec2::Zero();
  double rot = 0.0;
  for (int j = 0; j < n; ++j) {
    trans += g.segment<2>(3 * j + 1);
    rot += g[3 * j] + lie::cross(s.poses[j].y, g.segment<2>(3 * j + 1));
  }
  for (int i = 0; i < m; ++i) {
    trans += g.segment<2>(3 * n + 2 * i);
    rot += lie::cross(s.vortices.gamma[i], g.segment<2>(3 * n + 2 * i));
  }
  const double scale = g.cwiseAbs().maxCoeff();
  // Round-off: the gradient sums O(N^2) terms of size ~scale; 1e-12 relative is ~1e4 eps.
  EXPECT_LT(trans.norm(), 1e-12 * scale) << "total translational gradient";
  EXPECT_LT(std::abs(rot), 1e-12 * scale) << "total angular gradient";
}

TEST(PanelGradient, TranslationAndRotationIdentitiesDirect) {
  PanelOptions o;
  o.solver = PanelSolver::Direct;
  expectNoetherIdentities(threeBodies(), o);
  o.cacheMax = 0;
  expectNoetherIdentities(threeBodies(), o);
}

TEST(PanelGradient, TranslationAndRotationIdentitiesKsp) {
  PanelOptions o;
  o.solver = PanelSolver::Ksp;
  expectNoetherIdentities(threeBodies(), o);
}

TEST(PanelGradient, LagrangianInvariantUnderCommonRigidMotion) {
  const GradientScene s = threeBodies();
  PanelFluid f(PETSC_COMM_SELF, s.bodies, 1.0, PanelOptions{});
  const Eigen::VectorXd q = pack(s.poses, s.vortices);
  const double F0 = test::lagrangianAt(f, q, s.vortices.K, s.Xi);
  const Eigen::MatrixXd A0 = f.addedMass();
  const Eigen::VectorXd q1 = rigidMotion(q, 3, 3, 0.83, Vec2(-1.7, 2.9));
  const double F1 = test::lagrangianAt(f, q1, s.vortices.K, s.Xi);
  // Body-frame quantities are invariant: 1e-12 relative (round-off of the rotated geometry).
  EXPECT_NEAR(F1, F0, 1e-12 * std::abs(F0));
  EXPECT_LT((f.addedMass() - A0).cwiseAbs().maxCoeff(), 1e-12 * A0.cwiseAbs().maxCoeff());
}

}  // namespace
}  // namespace kirchhoff::fluid
