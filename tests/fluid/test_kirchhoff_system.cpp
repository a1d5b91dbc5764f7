// The Kirchhoff tensor solve of the coupled Newton direction (docs/fluidbody.md (FB-90), (FB-91)): the bordered
// system's delta against the full tensor M_b + A(g), the vortex gradient d<M_C, delta>/d gamma against central
// differences, and the warm start of sigma_X from the solved increment (FB-94).
#include <gtest/gtest.h>

#include <cstdio>

#include "FastOperatorScene.hpp"

namespace kirchhoff::fluid {
namespace {

using test::ClusterScene;
using test::sceneFluid;

/// Body masses (i_j, m_j, m_j) of density-1 bodies of the scene's shapes: of the order of their added masses.
Eigen::VectorXd masses(const BoundaryFluid& f) {
  Eigen::VectorXd m(3 * f.bodyCount());
  for (int j = 0; j < f.bodyCount(); ++j) {
    const Polygon& b = f.bodies()[static_cast<std::size_t>(j)];
    m.segment<3>(3 * j) << b.inertia(1.0), b.mass(1.0), b.mass(1.0);
  }
  return m;
}

Eigen::VectorXd rightHandSide(int n) {
  Eigen::VectorXd r(3 * n);
  for (int k = 0; k < 3 * n; ++k) r[k] = std::cos(0.3 + 1.7 * k);
  return r;
}

/// M_b + A(g) of the fluid's configuration (3n solves).
Eigen::MatrixXd kirchhoffTensor(const BoundaryFluid& f, const Eigen::VectorXd& mass) {
  Eigen::MatrixXd K = f.addedMass();
  K.diagonal() += mass;
  return K;
}

void expectBorderedSolveMatchesTheTensor(const std::string& kind, PanelOperator op) {
  // (FB-91) solves with A_raw, whose antisymmetric part is the discretization's: so delta^T r = delta^T (M_b + A)
  // delta exactly (the antisymmetric form vanishes), and (M_b + A) delta = r to the asymmetry of A_raw.
  const int n = 9;
  const ClusterScene s(n);
  SolverOptions o;
  o.solver = PanelSolver::Ksp;
  o.op = op;
  auto f = sceneFluid(PETSC_COMM_SELF, kind, s, o);
  const Eigen::VectorXd m = masses(*f), r = rightHandSide(n);
  const Fluid::KirchhoffSolution k = f->kirchhoffSolve(m, r, 1e-12);
  const Eigen::MatrixXd K = kirchhoffTensor(*f, m);
  const double asym = f->addedMassAsymmetry(), scale = K.norm() * k.delta.norm();
  const double energy = std::abs(k.delta.dot(r) - k.delta.dot(K * k.delta)) / scale;
  const double residual = (K * k.delta - r).norm() / scale;
  std::printf("%s, %s operator: delta^T (r - K delta) %.2e, |K delta - r| %.2e relative, asymmetry of A %.2e, "
              "%ld GMRES iterations\n", kind.c_str(), op == PanelOperator::Fast ? "fast" : "dense", energy, residual,
              asym, f->kirchhoffIterations());
  EXPECT_EQ(f->kirchhoffSolves(), 1);
  EXPECT_LT(energy, 1e-11) << kind;
  EXPECT_LT(residual, 2.0 * asym + 1e-11) << kind;
  EXPECT_GT(f->kirchhoffIterations(), 0);
}

TEST(KirchhoffSystem, BorderedSolveMatchesTheKirchhoffTensorDenseOperator) {
  expectBorderedSolveMatchesTheTensor("panel", PanelOperator::Dense);
}

TEST(KirchhoffSystem, BorderedSolveMatchesTheKirchhoffTensorFastOperator) {
  expectBorderedSolveMatchesTheTensor("panel", PanelOperator::Fast);
  expectBorderedSolveMatchesTheTensor("nystrom", PanelOperator::Fast);
}

TEST(KirchhoffSystem, DirectPathSolvesTheSymmetricTensor) {
  // The direct path forms A(g) with its LU: (M_b + A) delta = r to round-off.
  const int n = 4;
  const ClusterScene s(n);
  SolverOptions o;
  o.solver = PanelSolver::Direct;
  auto f = sceneFluid(PETSC_COMM_SELF, "panel", s, o);
  const Eigen::VectorXd m = masses(*f), r = rightHandSide(n);
  const Fluid::KirchhoffSolution k = f->kirchhoffSolve(m, r, 1e-4);
  EXPECT_LT((kirchhoffTensor(*f, m) * k.delta - r).norm(), 1e-12 * r.norm());
  EXPECT_EQ(f->kirchhoffSolves(), 0);  // no bordered solve on the direct path
}

TEST(KirchhoffSystem, VortexGradientMatchesCentralDifferences) {
  // d<M_C, delta>/d gamma_i at fixed delta (FB-90) against central differences of M_C(gamma) . delta, step 1e-5, on
  // the dense and the fast operator (vortex tree), the KSP and the direct path.
  const int n = 6;
  for (PanelSolver solver : {PanelSolver::Ksp, PanelSolver::Direct})
    for (PanelOperator op : {PanelOperator::Dense, PanelOperator::Fast}) {
      if (solver == PanelSolver::Direct && op == PanelOperator::Fast) continue;  // matrix-free: KSP only
      const ClusterScene s(n, 12);
      SolverOptions o;
      o.solver = solver;
      o.op = op;
      auto f = sceneFluid(PETSC_COMM_SELF, "panel", s, o);
      const Eigen::VectorXd m = masses(*f), r = rightHandSide(n);
      const Fluid::KirchhoffSolution k = f->kirchhoffSolve(m, r, 1e-12);
      const int nv = s.vortices.size();
      ASSERT_EQ(k.vortexGradient.size(), 2 * nv);
      double err = 0.0, ref = 0.0;
      const double h = 1e-5;
      for (int i = 0; i < nv; ++i)
        for (int c = 0; c < 2; ++c) {
          Vortices a = s.vortices, b = s.vortices;
          a.gamma[i][c] += h;
          b.gamma[i][c] -= h;
          f->setConfiguration(s.poses, a);
          const double Fa = f->vortexMomentum().dot(k.delta);
          f->setConfiguration(s.poses, b);
          const double Fb = f->vortexMomentum().dot(k.delta);
          err = std::max(err, std::abs((Fa - Fb) / (2.0 * h) - k.vortexGradient[2 * i + c]));
          ref = std::max(ref, std::abs(k.vortexGradient[2 * i + c]));
        }
      std::printf("vortex gradient (%s, %s operator): %.2e relative to central differences\n",
                  solver == PanelSolver::Direct ? "direct" : "KSP", op == PanelOperator::Fast ? "fast" : "dense",
                  err / ref);
      EXPECT_GT(ref, 1e-3);
      EXPECT_LT(err, 1e-7 * ref);
    }
}

TEST(KirchhoffSystem, SolvedIncrementWarmStartsTheMotionSolve) {
  // (FB-94): after a Kirchhoff solve for delta, sigma_X at Xi + delta starts from sigma_X(Xi) + M^-1 B delta: the
  // same gradient (1e-12 relative) in fewer GMRES iterations than the warm start from sigma_X(Xi) alone.
  const int n = 9;
  const ClusterScene s(n);
  SolverOptions o;
  o.solver = PanelSolver::Ksp;
  o.op = PanelOperator::Fast;
  long iterations[2];
  Eigen::VectorXd gradient[2];
  for (int offered : {0, 1}) {
    auto f = sceneFluid(PETSC_COMM_SELF, "panel", s, o);
    f->lagrangianGradient(s.Xi);
    Eigen::VectorXd delta = 0.3 * rightHandSide(n);
    if (offered) delta = f->kirchhoffSolve(masses(*f), rightHandSide(n), 1e-6).delta;
    const long before = f->totalIterations();
    // The other run moves Xi by the same delta without offering it (same right-hand sides, different guess).
    if (!offered) {
      auto g = sceneFluid(PETSC_COMM_SELF, "panel", s, o);
      delta = g->kirchhoffSolve(masses(*g), rightHandSide(n), 1e-6).delta;
    }
    gradient[offered] = f->lagrangianGradient(s.Xi + delta);
    iterations[offered] = f->totalIterations() - before;
  }
  std::printf("motion solves at Xi + delta: %ld GMRES iterations with the offered increment, %ld without\n",
              iterations[1], iterations[0]);
  EXPECT_LT(iterations[1], iterations[0]);
  EXPECT_LT((gradient[1] - gradient[0]).norm(), 1e-12 * gradient[0].norm());
}

}  // namespace
}  // namespace kirchhoff::fluid
