// The evaluation path of several bodies (docs/fluidbody.md (FB-22a)): four solves per evaluation
// whatever n, and A Xi, M_C, F and its gradient equal to those of the full 3n-solve tensor.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "FluidTestUtil.hpp"

namespace kirchhoff::fluid {
namespace {

/// n disks of radius 0.5 on a grid of spacing 1.7, slightly turned, and two vortices between them.
struct Scene {
  std::vector<Polygon> bodies;
  std::vector<lie::Pose> poses;
  Vortices vortices;
  Eigen::VectorXd Xi;
};

Scene grid(int n) {
  Scene s;
  const int side = static_cast<int>(std::ceil(std::sqrt(static_cast<double>(n))));
  for (int j = 0; j < n; ++j) {
    s.bodies.push_back(j % 2 ? ellipse(0.55, 0.35, 32) : circle(0.5, 32));
    s.poses.push_back(lie::Pose{0.1 * j, Vec2(1.7 * (j % side), 1.7 * (j / side) + 0.05 * j)});
  }
  s.vortices.gamma = {Vec2(0.85, 0.8), Vec2(0.9, -0.9)};
  s.vortices.K = {1.3, -0.7};
  s.Xi.resize(3 * n);
  for (int k = 0; k < 3 * n; ++k) s.Xi[k] = std::sin(1.0 + 0.7 * k);
  return s;
}

TEST(MotionSolves, ConstantNumberOfSolvesPerEvaluation) {
  // setConfiguration: sigma_I and t_K; value, gradient and A Xi at one Xi: sigma_X and t_1.
  for (int n : {2, 4, 9}) {
    const Scene s = grid(n);
    PanelFluid f(PETSC_COMM_SELF, s.bodies, 1.0);
    f.setConfiguration(s.poses, s.vortices);
    f.lagrangianValue(s.Xi);
    f.lagrangianGradient(s.Xi);
    f.addedMassAction(s.Xi);
    f.vortexVelocities(s.Xi);
    EXPECT_EQ(f.solvedColumns(), 4) << n << " bodies";
    f.addedMass();  // the full tensor: 3n more
    EXPECT_EQ(f.solvedColumns(), 4 + 3 * n) << n << " bodies";
  }
}

TEST(MotionSolves, AgreeWithTheFullTensor) {
  const Scene s = grid(4);
  PanelFluid f(PETSC_COMM_SELF, s.bodies, 1.3);
  f.setConfiguration(s.poses, s.vortices);
  const double F = f.lagrangianValue(s.Xi);
  const Eigen::VectorXd AXi = f.addedMassAction(s.Xi), MC = f.vortexMomentum();
  const Eigen::MatrixXd A = f.addedMass();
  const int n = f.bodyCount();
  const double scale = A.cwiseAbs().maxCoeff();
  EXPECT_LT((AXi - A * s.Xi).cwiseAbs().maxCoeff(), 1e-12 * scale * s.Xi.cwiseAbs().maxCoeff());
  EXPECT_NEAR(F, 0.5 * s.Xi.dot(A * s.Xi) + f.kirchhoffRouth() + MC.dot(s.Xi), 1e-12 * std::abs(F));
  // M_C against central differences of F in Xi: dF/dXi = A Xi + M_C.
  for (int k = 0; k < 3 * n; ++k) {
    Eigen::VectorXd e = Eigen::VectorXd::Zero(3 * n);
    e[k] = 1e-4;
    PanelFluid fp(PETSC_COMM_SELF, s.bodies, 1.3);
    fp.setConfiguration(s.poses, s.vortices);
    const double dF = (fp.lagrangianValue(s.Xi + e) - fp.lagrangianValue(s.Xi - e)) / 2e-4;
    EXPECT_NEAR(dF, AXi[k] + MC[k], 1e-9 * (std::abs(dF) + 1.0)) << "dof " << k;
  }
}

TEST(MotionSolves, GradientMatchesCentralDifferences) {
  // The adjoint gradient built from t_1 and t_K (no 3n solves) against central differences of F.
  const Scene s = grid(3);
  const std::vector<double> K = s.vortices.K;
  PanelFluid f(PETSC_COMM_SELF, s.bodies, 1.0);
  const Eigen::VectorXd q = test::pack(s.poses, s.vortices);
  f.setConfiguration(s.poses, s.vortices);
  const Eigen::VectorXd g = f.lagrangianGradient(s.Xi);
  EXPECT_EQ(f.solvedColumns(), 4);
  const double h = 1e-5;
  for (int k = 0; k < q.size(); ++k) {
    Eigen::VectorXd e = Eigen::VectorXd::Zero(q.size());
    e[k] = h;
    const double d = (test::lagrangianAt(f, q + e, K, s.Xi) - test::lagrangianAt(f, q - e, K, s.Xi)) / (2 * h);
    EXPECT_NEAR(g[k], d, 1e-7 * (1.0 + std::abs(d))) << "coordinate " << k;
  }
}

TEST(MotionSolves, WarmStartsAgreeWithColdStartsInFewerIterations) {
  // (FB-47a): a sequence of nearby configurations, as in the SNES iterations of a step. Warm KSP
  // starts give the same value and gradient to the solver tolerance (GMRES rtol 1e-14), the first
  // configuration (no guess yet) bitwise, with fewer iterations in total.
  const Scene s = grid(9);
  PanelOptions cold;
  cold.solver = PanelSolver::Ksp;
  cold.warmStart = false;
  PanelOptions warm = cold;
  warm.warmStart = true;
  PanelFluid a(PETSC_COMM_SELF, s.bodies, 1.0, cold), b(PETSC_COMM_SELF, s.bodies, 1.0, warm);
  ASSERT_FALSE(a.directSolver());
  for (int step = 0; step < 6; ++step) {
    std::vector<lie::Pose> poses = s.poses;
    for (std::size_t j = 0; j < poses.size(); ++j)
      poses[j] = lie::Pose{poses[j].theta + 1e-3 * step * std::cos(1.0 * j),
                           poses[j].y + Vec2(2e-3 * step * std::sin(0.5 * j), 1e-3 * step)};
    Eigen::VectorXd Xi = s.Xi;
    for (int k = 0; k < Xi.size(); ++k) Xi[k] += 1e-3 * step * std::cos(0.3 * k);
    a.setConfiguration(poses, s.vortices);
    b.setConfiguration(poses, s.vortices);
    const double Fa = a.lagrangianValue(Xi), Fb = b.lagrangianValue(Xi);
    const Eigen::VectorXd ga = a.lagrangianGradient(Xi), gb = b.lagrangianGradient(Xi);
    const std::vector<Vec2> ua = a.vortexVelocities(Xi), ub = b.vortexVelocities(Xi);
    const double scale = ga.cwiseAbs().maxCoeff();
    if (step == 0) {
      EXPECT_EQ(Fa, Fb);
      EXPECT_EQ((ga - gb).cwiseAbs().maxCoeff(), 0.0);
    }
    EXPECT_NEAR(Fa, Fb, 1e-12 * std::abs(Fa)) << "step " << step;
    EXPECT_LT((ga - gb).cwiseAbs().maxCoeff(), 1e-11 * scale) << "step " << step;
    for (std::size_t i = 0; i < ua.size(); ++i) EXPECT_LT((ua[i] - ub[i]).norm(), 1e-11 * ua[i].norm()) << "step " << step;
  }
  std::printf("KSP iterations over 6 configurations: cold %ld, warm %ld\n", a.totalIterations(), b.totalIterations());
  EXPECT_LT(b.totalIterations(), a.totalIterations());
}

TEST(MotionSolves, ForgottenGuessesMakeAStepBitwiseAFreshStart) {
  // What a time step sees does not depend on earlier steps: after forgetSolutions() (called at every
  // step, (FB-47a)) a warm-started fluid gives bitwise the values and gradient of a fresh one, which is
  // what keeps restarts on the KSP path bitwise. Without it, the remembered guesses change the bits.
  const Scene s = grid(9);
  PanelOptions o;
  o.solver = PanelSolver::Ksp;
  ASSERT_TRUE(o.warmStart) << "warm starts are the default";
  PanelFluid used(PETSC_COMM_SELF, s.bodies, 1.0, o), fresh(PETSC_COMM_SELF, s.bodies, 1.0, o);
  std::vector<lie::Pose> moved = s.poses;
  for (auto& g : moved) g.y += Vec2(1e-3, -2e-3);
  used.setConfiguration(s.poses, s.vortices);
  used.lagrangianGradient(s.Xi);
  used.setConfiguration(moved, s.vortices);
  const Eigen::VectorXd remembered = used.lagrangianGradient(s.Xi);
  used.forgetSolutions();
  used.setConfiguration(moved, s.vortices);
  const double F = used.lagrangianValue(s.Xi);
  const Eigen::VectorXd g = used.lagrangianGradient(s.Xi);
  fresh.setConfiguration(moved, s.vortices);
  EXPECT_EQ(F, fresh.lagrangianValue(s.Xi));
  EXPECT_EQ((g - fresh.lagrangianGradient(s.Xi)).cwiseAbs().maxCoeff(), 0.0);
  EXPECT_GT((remembered - g).cwiseAbs().maxCoeff(), 0.0) << "the guesses should have changed the bits";
}

}  // namespace
}  // namespace kirchhoff::fluid
