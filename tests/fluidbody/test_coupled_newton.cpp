// The coupled chord Newton solve (-del_jacobian coupled, docs/fluidbody.md (FB-90)-(FB-92), the default from 12
// bodies): a few residual evaluations per step whatever n, the trajectory of the lagged and newton_krylov solves,
// the discrete momentum map (FB-27) kept, and the hand-over to GMRES when the chord contracts slowly.
#include <gtest/gtest.h>

#include <numeric>
#include <petscsys.h>

#include "DiskGrid.hpp"
#include "core/Error.hpp"

using namespace kirchhoff;
using namespace kirchhoff::fluidbody;

namespace {

using test::diskGrid;
using test::momentumMapDrift;
using test::panelModel;
using test::stepEvaluations;
using test::ScopedOptions;
using test::stateField;

/// q after `steps` steps with the model's options; the largest evaluation count of a step in `evaluations`.
Eigen::VectorXd trajectoryEnd(const FluidBodyConfig& c, int steps, int* evaluations = nullptr) {
  auto m = panelModel(c);
  State s = m->initialState();
  for (int k = 0; k < steps; ++k, s.step += 1) {
    const StepReport r = m->step(s);
    if (evaluations) *evaluations = std::max(*evaluations, r.evaluations);
  }
  return stateField(s, "q");
}

}  // namespace

TEST(CoupledNewton, DefaultFromTwelveBodies) {
  EXPECT_EQ(panelModel(diskGrid(12, 8))->delSolver().mode(), integrators::JacobianMode::Coupled);
  EXPECT_EQ(panelModel(diskGrid(11, 8))->delSolver().mode(), integrators::JacobianMode::Lagged);
}

TEST(CoupledNewton, FewEvaluationsPerStepWhateverTheBodyCount) {
  // (FB-92): the extrapolated predictor leaves |F| <= ~1e-3; each chord iteration contracts by |E| <~ 1e-3 (measured
  // 3e-4 at rest, 1e-3 at speed 0.3: the velocity-dependent pair coupling d(A Xi)/dg that Jt leaves out), so three
  // iterations reach round-off and a fourth sees the stall: at most 1 + 4 = 5 evaluations, whatever n, on the direct
  // path (8 bodies, the full A(g) by LU) and on the bordered system (32 bodies, fast operator).
  double mean[2];
  int k = 0;
  for (int n : {8, 32}) {
    const ScopedOptions o{{"-del_jacobian", "coupled"}};
    auto m = panelModel(diskGrid(n, 8));
    const std::vector<int> evals = stepEvaluations(*m, 3);
    for (std::size_t i = 0; i < evals.size(); ++i) EXPECT_LE(evals[i], 5) << n << " bodies, step " << i;
    mean[k++] = std::accumulate(evals.begin(), evals.end(), 0.0) / static_cast<double>(evals.size());
  }
  std::printf("coupled evaluations per step: %.1f at 8 bodies, %.1f at 32 bodies\n", mean[0], mean[1]);
}

TEST(CoupledNewton, SameTrajectoryAsLaggedAndNewtonKrylov) {
  // The same DEL equations (FB-25) to round-off: 20 steps of 4 bodies agree to 1e-10 relative, on the direct path
  // and on the bordered system (-panel_solver ksp).
  const FluidBodyConfig c = diskGrid(4, 16);
  Eigen::VectorXd lagged;
  {
    const ScopedOptions o{{"-del_jacobian", "lagged"}};
    lagged = trajectoryEnd(c, 20);
  }
  for (const char* solver : {"direct", "ksp"})
    for (const char* mode : {"coupled", "newton_krylov"}) {
      const ScopedOptions o{{"-del_jacobian", mode}, {"-panel_solver", solver}};
      const double rel = (trajectoryEnd(c, 20) - lagged).norm() / lagged.norm();
      std::printf("|q_%s - q_lagged| / |q| = %.2e after 20 steps (%s panel solves)\n", mode, rel, solver);
      EXPECT_LT(rel, 1e-10) << mode << ", " << solver;
    }
}

TEST(CoupledNewton, MomentumMapConserved) {
  // (FB-27) to the solver tolerance: relative change over 300 steps of 3 bodies with 4 vortices below 1e-10, the
  // chord's last residual at round-off like Newton's.
  const ScopedOptions o{{"-del_jacobian", "coupled"}, {"-panel_solver", "ksp"}};
  auto m = panelModel(diskGrid(3, 16));
  const double drift = momentumMapDrift(*m, 300);
  std::printf("coupled: momentum map drift %.2e relative over 300 steps\n", drift);
  EXPECT_LT(drift, 1e-10);
}

TEST(CoupledNewton, LooseKirchhoffSolveKeepsTheTrajectory) {
  // The Kirchhoff solve sets only the chord's rate (FB-92): at -del_coupled_rtol 0.3 the chord needs more
  // evaluations (or hands over to GMRES) and ends on the default's trajectory (1e-10 after 5 steps of 12 bodies).
  const FluidBodyConfig c = diskGrid(12, 8);
  int loose = 0, tight = 0;
  const ScopedOptions ksp{{"-panel_solver", "ksp"}};  // the bordered system (the direct path solves exactly)
  const Eigen::VectorXd reference = trajectoryEnd(c, 5, &tight);
  Eigen::VectorXd q;
  {
    const ScopedOptions o{{"-del_coupled_rtol", "0.3"}};
    q = trajectoryEnd(c, 5, &loose);
  }
  const double rel = (q - reference).norm() / reference.norm();
  std::printf("coupled_rtol 0.3: %d evaluations per step at most (default %d), |q - q_default| / |q| = %.2e\n", loose,
              tight, rel);
  EXPECT_GT(loose, tight);
  EXPECT_LT(rel, 1e-10);
}

TEST(CoupledNewton, QuadraticPredictorSavesAnEvaluation) {
  // (FB-95): from q_k, q_k-1, q_k-2 the predictor's residual is O(h^3), and 16 disks at rest need 3 evaluations per
  // step (a chord iteration from ~1e-7 to ~1e-10, one to round-off, the stall); the same state with its history cut
  // to q_k-1 (a checkpoint of an older version) extrapolates linearly, |F| ~1e-4, and needs 4. The history restores.
  test::DiskGrid g;
  g.speed = 0.0;
  g.spin = 0.0;
  const FluidBodyConfig c = g.config(16, 8);
  const ScopedOptions o{{"-del_jacobian", "coupled"}};
  auto m = panelModel(c);
  State s = m->initialState();
  for (int k = 0; k < 3; ++k, s.step += 1) m->step(s);
  const std::size_t d = s["q"].size();
  ASSERT_EQ(s["q_previous"].size(), 2 * d);
  State linear = s;
  linear["q_previous"].resize(d);
  auto restored = panelModel(c);
  restored->restore(linear);
  const int quadratic = m->step(s).evaluations, extrapolated = restored->step(linear).evaluations;
  std::printf("16 disks at rest: %d evaluations from the quadratic predictor, %d from the linear one\n", quadratic,
              extrapolated);
  EXPECT_LE(quadratic, 3);
  EXPECT_GT(extrapolated, quadratic);
  EXPECT_EQ(linear["q_previous"].size(), 2 * d);
  EXPECT_LT((stateField(linear, "q") - stateField(s, "q")).norm(), 1e-12 * stateField(s, "q").norm());
}

TEST(CoupledNewton, CoupledRtolOutOfRangeIsADeckError) {
  for (const char* bad : {"1.5", "0", "x"}) {
    const ScopedOptions o{{"-del_coupled_rtol", bad}};
    try {
      panelModel(diskGrid(12, 8));
      ADD_FAILURE() << bad << " accepted";
    } catch (const DeckError& e) {
      EXPECT_NE(std::string(e.what()).find("-del_coupled_rtol"), std::string::npos) << e.what();
    }
  }
}
