// The matrix-free operator at the accuracy each application needs (docs/fluidbody.md (FB-93)): the capped-order
// passes of the cluster tree against the full order, and the relaxed Krylov solves against the unrelaxed ones.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "FastOperatorScene.hpp"

namespace kirchhoff::fluid {
namespace {

using test::ClusterScene;
using test::sceneFluid;

TEST(RelaxedOperator, CappedOrderErrorFallsLikeEtaToTheMinusOrder) {
  // An order-q pass is the FMM of order q: its relative error against the full order p stays below eta^-q (the
  // truncation (FB-44) with its margin), falls with q, and its M2L work is (q + 1)^2 per pair at most.
  const int n = 20;
  const ClusterScene s(n);
  SolverOptions o;
  o.op = PanelOperator::Fast;
  auto f = sceneFluid(PETSC_COMM_SELF, "panel", s, o);
  const BodyClusterOperator& op = *f->clusterOperator();
  Eigen::VectorXd x(f->nodeCount());
  for (int i = 0; i < x.size(); ++i) x[i] = std::sin(0.7 + 1.3 * i);
  for (auto kind : {BodyClusterOperator::Kind::Normal, BodyClusterOperator::Kind::Potential}) {
    Eigen::VectorXd full = Eigen::VectorXd::Zero(x.size()), yt, ut = x.reverse();
    op.apply(kind, x, full);
    Eigen::VectorXd fullT;
    op.applyTranspose(kind, ut, fullT);
    double last = 1.0;
    for (int q : {8, 12, 16, 24}) {
      Eigen::VectorXd y = Eigen::VectorXd::Zero(x.size());
      op.apply(kind, x, y, q);
      op.applyTranspose(kind, ut, yt, q);
      const double err = (y - full).cwiseAbs().maxCoeff() / full.cwiseAbs().maxCoeff();
      const double errT = (yt - fullT).cwiseAbs().maxCoeff() / fullT.cwiseAbs().maxCoeff();
      std::printf("%s, order %d of %d: relative error %.2e (transpose %.2e), bound %.2e; M2L work %ld of %ld\n",
                  kind == BodyClusterOperator::Kind::Normal ? "M" : "S", q, op.order(), err, errT,
                  std::pow(op.eta(), -q), op.tree().cappedPlan(q).work, op.tree().m2lWork());
      EXPECT_LT(err, std::pow(op.eta(), -q)) << q;
      EXPECT_LT(errT, std::pow(op.eta(), -q)) << q;
      EXPECT_LT(err, last) << q;
      EXPECT_LT(op.tree().cappedPlan(q).work, op.tree().m2lWork());
      last = err;
    }
  }
}

TEST(RelaxedOperator, RelaxedSolvesAgreeWithFullAccuracySolves) {
  // Relaxed Krylov steps (kRelaxation rtol |b| / |r_k|) keep the solves' accuracy: A Xi, M_C, W_G, F, dF/dq and the
  // vortex velocities equal the unrelaxed ones to 1e-12 relative, with a third of the applications or more at a
  // lowered order.
  const int n = 12;
  const ClusterScene s(n, 30);
  double worst = 0.0;
  long relaxed[2], applied[2];
  for (const char* kind : {"panel", "nystrom"}) {
    std::unique_ptr<BoundaryFluid> f[2];
    for (int r : {0, 1}) {
      SolverOptions o;
      o.op = PanelOperator::Fast;
      o.relaxation = r == 1;
      f[r] = sceneFluid(PETSC_COMM_SELF, kind, s, o);
    }
    const double d[] = {test::relDiff(f[1]->addedMassAction(s.Xi), f[0]->addedMassAction(s.Xi)),
                        test::relDiff(f[1]->vortexMomentum(), f[0]->vortexMomentum()),
                        std::abs(f[1]->kirchhoffRouth() - f[0]->kirchhoffRouth()) / std::abs(f[0]->kirchhoffRouth()),
                        std::abs(f[1]->lagrangianValue(s.Xi) - f[0]->lagrangianValue(s.Xi)) /
                            std::abs(f[0]->lagrangianValue(s.Xi)),
                        test::relDiff(f[1]->lagrangianGradient(s.Xi), f[0]->lagrangianGradient(s.Xi))};
    const auto u1 = f[1]->vortexVelocities(s.Xi), u0 = f[0]->vortexVelocities(s.Xi);
    double du = 0.0;
    for (std::size_t i = 0; i < u0.size(); ++i) du = std::max(du, (u1[i] - u0[i]).norm() / u0[i].norm());
    for (double v : d) worst = std::max(worst, v);
    worst = std::max(worst, du);
    for (int r : {0, 1}) relaxed[r] = f[r]->relaxedApplications(), applied[r] = f[r]->operatorApplications();
    std::printf("%s: relaxed against full accuracy: A Xi %.1e, M_C %.1e, W_G %.1e, F %.1e, dF/dq %.1e, u %.1e; "
                "%ld of %ld applications relaxed (%ld applications unrelaxed)\n",
                kind, d[0], d[1], d[2], d[3], d[4], du, relaxed[1], applied[1], applied[0]);
    EXPECT_EQ(relaxed[0], 0);
    EXPECT_GT(3 * relaxed[1], applied[1]);
  }
  EXPECT_LT(worst, 1e-12);
}

}  // namespace
}  // namespace kirchhoff::fluid
