// fluidbody on the matrix-free fast operator (docs/fluidbody.md "Many bodies", (FB-41)-(FB-46)): the
// discrete momentum map (FB-27) kept over 10^3 steps, and the trajectory of 16 bodies equal to the dense
// path's over 100 steps (1e-9 relative: the fast path must not change the physics).
#include <gtest/gtest.h>

#include "DiskGrid.hpp"

using namespace kirchhoff;
using namespace kirchhoff::fluidbody;

namespace {

using test::panelModel;
using test::stateField;
using Options = test::ScopedOptions;

/// n moving disks (radius 0.5, `edges` edges) on a jittered grid of spacing 1.8 (gaps 0.8: near and far
/// pairs both occur), four vortices K = +-0.3 in the cells around the first body; dt 0.01.
FluidBodyConfig scene(int n, int edges) {
  test::DiskGrid g;
  g.spacing = 1.8;
  g.jitter = 0.05;
  g.angleStep = 0.3;
  g.densityStep = 0.1;
  g.speed = 0.05;
  g.spin = 0.2;
  g.K = 0.3;
  return g.config(n, edges);
}

}  // namespace

TEST(FastPath, MomentumMapConservedOverThousandSteps) {
  // (FB-27) is conserved by the DEL map to the solver tolerance whatever evaluates the fluid: 6 bodies
  // on the fast operator (near and far pairs), relative change over 10^3 steps below 1e-10 (measured
  // 1.1e-11; the dense path 9.3e-12).
  const Options o{{"-panel_operator", "fast"}, {"-panel_solver", "ksp"}};
  auto m = panelModel(scene(6, 8));
  State s = m->initialState();
  const auto J0 = m->invariants(s, {});
  const double scale = std::abs(J0[1]) + std::abs(J0[2]) + std::abs(J0[3]);
  ASSERT_GT(scale, 0.1);
  double drift = 0.0;
  for (int k = 0; k < 1000; ++k, s.step += 1) {
    m->step(s);
    if (k % 100 == 99) {
      const auto J = m->invariants(s, {});
      for (int i : {1, 2, 3}) drift = std::max(drift, std::abs(J[i] - J0[i]) / scale);
    }
  }
  std::printf("fast operator: momentum map drift %.2e relative over 1000 steps\n", drift);
  EXPECT_LT(drift, 1e-10);
}

TEST(FastPath, SixteenBodiesFollowTheDensePathOverHundredSteps) {
  // The fast operator changes the fluid's values at its truncation level (~1e-13 relative): 16 bodies
  // over 100 steps stay within 1e-9 relative of the dense path (both on GMRES, tolerance 1e-14).
  const FluidBodyConfig c = scene(16, 8);
  Eigen::VectorXd q[2];
  int k = 0;
  for (const char* op : {"dense", "fast"}) {
    const Options o{{"-panel_operator", op}, {"-panel_solver", "ksp"}};
    auto m = panelModel(c);
    State s = m->initialState();
    for (int i = 0; i < 100; ++i, s.step += 1) m->step(s);
    q[k++] = stateField(s, "q");
  }
  const double rel = (q[1] - q[0]).norm() / q[0].norm();
  std::printf("16 bodies, 100 steps: |q_fast - q_dense| / |q| = %.2e\n", rel);
  EXPECT_LT(rel, 1e-9);
}
