// fluidbody on the matrix-free fast operator (docs/fluidbody.md "Many bodies", (FB-41)-(FB-46)): the
// discrete momentum map (FB-27) kept over 10^3 steps, and the trajectory of 16 bodies equal to the dense
// path's over 100 steps (issue 12: 1e-9 relative).
#include <gtest/gtest.h>
#include <petscsys.h>

#include <cmath>
#include <string>

#include "fluid/PanelFluid.hpp"
#include "fluid/Shapes.hpp"
#include "models/fluidbody/FluidBodyModel.hpp"

using namespace kirchhoff;
using namespace kirchhoff::fluidbody;
using lie::Vec2;

namespace {

/// PETSc options for the models built in its scope.
struct Options {
  std::vector<std::string> names;
  Options(std::initializer_list<std::pair<const char*, const char*>> o) {
    for (const auto& [k, v] : o) {
      PetscOptionsSetValue(nullptr, k, v);
      names.emplace_back(k);
    }
  }
  ~Options() {
    for (const auto& k : names) PetscOptionsClearValue(nullptr, k.c_str());
  }
};

/// n moving disks (radius 0.5, `edges` edges) on a jittered grid of spacing 1.8 (gaps 0.8: near and far
/// pairs both occur), four vortices K = +-0.3 in the cells around the first body; dt 0.01.
FluidBodyConfig scene(int n, int edges) {
  FluidBodyConfig c;
  c.dt = 0.01;
  const int side = static_cast<int>(std::ceil(std::sqrt(static_cast<double>(n))));
  for (int j = 0; j < n; ++j) {
    BodyConfig b;
    b.shape = fluid::circle(0.5, edges);
    b.mass = b.shape.mass(1.0 + 0.1 * (j % 3));
    b.inertia = b.shape.inertia(1.0 + 0.1 * (j % 3));
    b.pose = {0.3 * j, Vec2(1.8 * (j % side) + 0.05 * std::sin(j), 1.8 * (j / side) + 0.05 * std::cos(2.0 * j))};
    b.velocity = Vec2(0.05 * std::sin(1.0 + j), 0.05 * std::cos(2.0 + j));
    b.omega = 0.2 * std::sin(3.0 + j);
    c.bodies.push_back(std::move(b));
  }
  const double K[] = {0.3, -0.3, 0.3, -0.3};
  const Vec2 at[] = {Vec2(0.9, 0.9), Vec2(-0.9, 0.9), Vec2(-0.9, -0.9), Vec2(0.9, -0.9)};
  for (int i = 0; i < 4; ++i) c.vortices.push_back({at[i], K[i]});
  return c;
}

std::unique_ptr<FluidBodyModel> model(const FluidBodyConfig& c) {
  std::vector<fluid::Polygon> shapes;
  for (const auto& b : c.bodies) shapes.push_back(b.shape);
  return std::make_unique<FluidBodyModel>(c, std::make_unique<fluid::PanelFluid>(MPI_COMM_WORLD, shapes, 1.0),
                                          MPI_COMM_WORLD);
}

Eigen::VectorXd field(const State& s, const char* name) {
  return Eigen::Map<const Eigen::VectorXd>(s[name].data(), static_cast<Eigen::Index>(s[name].size()));
}

}  // namespace

TEST(FastPath, MomentumMapConservedOverThousandSteps) {
  // (FB-27) is conserved by the DEL map to the solver tolerance whatever evaluates the fluid: 6 bodies
  // on the fast operator (near and far pairs), relative change over 10^3 steps below 1e-10 (measured
  // 1.1e-11; the dense path 9.3e-12).
  const Options o{{"-panel_operator", "fast"}, {"-panel_solver", "ksp"}};
  auto m = model(scene(6, 8));
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
    auto m = model(c);
    State s = m->initialState();
    for (int i = 0; i < 100; ++i, s.step += 1) m->step(s);
    q[k++] = field(s, "q");
  }
  const double rel = (q[1] - q[0]).norm() / q[0].norm();
  std::printf("16 bodies, 100 steps: |q_fast - q_dense| / |q| = %.2e\n", rel);
  EXPECT_LT(rel, 1e-9);
}
