// fluidbody on 2 and 3 ranks (panel rows, KSP and the DEL Vec distributed) against the same run on
// one rank (PETSC_COMM_SELF, direct LU): trajectories agree to 1e-10 (the ranks only split the work),
// also composed (scheme.composition) and with the coupled Newton solve (docs/fluidbody.md (FB-90)-(FB-93)) on
// the bordered system and the relaxed fast operator.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "DiskGrid.hpp"
#include "fluid/PanelFluid.hpp"
#include "fluid/geometry/Shapes.hpp"
#include "models/fluidbody/FluidBodyModel.hpp"

using namespace kirchhoff;
using namespace kirchhoff::fluidbody;
using lie::Vec2;

namespace {

FluidBodyConfig twoBodiesTwoVortices() {
  FluidBodyConfig c;
  c.dt = 0.02;
  for (auto [shape, y] : {std::pair{fluid::ellipse(1.0, 0.5, 48), Vec2(0.0, 0.0)},
                          std::pair{fluid::circle(0.5, 40), Vec2(2.5, 0.3)}}) {
    BodyConfig b;
    b.mass = shape.mass(1.0);
    b.inertia = shape.inertia(1.0);
    b.shape = shape;
    b.pose = {0.2, y};
    c.bodies.push_back(b);
  }
  c.vortices.push_back({Vec2(0.0, 1.5), 2.0});
  c.vortices.push_back({Vec2(1.5, -1.2), -1.0});
  return c;
}

std::vector<double> trajectory(MPI_Comm comm, int steps,
                               integrators::Composition composition = integrators::Composition::None,
                               const char* jacobian = nullptr) {
  FluidBodyConfig c = twoBodiesTwoVortices();
  c.composition = composition;
  std::vector<fluid::Polygon> shapes;
  for (const auto& b : c.bodies) shapes.push_back(b.shape);
  auto fluid = std::make_unique<fluid::PanelFluid>(comm, shapes, 1.0);
  if (jacobian) PetscOptionsSetValue(nullptr, "-del_jacobian", jacobian);
  FluidBodyModel m(c, std::move(fluid), comm);
  if (jacobian) PetscOptionsClearValue(nullptr, "-del_jacobian");
  State s = m.initialState();
  std::vector<double> out;
  for (int k = 0; k < steps; ++k) {
    m.step(s);
    s.step += 1;
    out.insert(out.end(), s["q"].begin(), s["q"].end());
  }
  return out;
}

/// Largest |par - ser| of two trajectories, printed on rank 0 with `what`.
double maxDifference(const std::vector<double>& par, const std::vector<double>& ser, const char* what) {
  EXPECT_EQ(par.size(), ser.size());
  double err = 0.0;
  for (std::size_t i = 0; i < std::min(par.size(), ser.size()); ++i) err = std::max(err, std::abs(par[i] - ser[i]));
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) std::printf("%s: %.2e\n", what, err);
  return err;
}

}  // namespace

TEST(ParallelFluidBody, SameTrajectoryAsOneRank) {
  const auto par = trajectory(MPI_COMM_WORLD, 100);
  const auto ser = trajectory(PETSC_COMM_SELF, 100);
  EXPECT_LT(maxDifference(par, ser, "max |q_parallel - q_serial| over 100 steps"), 1e-10);
}

TEST(ParallelFluidBody, ComposedSameTrajectoryAsOneRank) {
  // scheme.composition kahan_li6 (docs/composition.md (CM-6)): 9 DEL sub-steps per step, 30 steps.
  const auto par = trajectory(MPI_COMM_WORLD, 30, integrators::Composition::KahanLi6);
  const auto ser = trajectory(PETSC_COMM_SELF, 30, integrators::Composition::KahanLi6);
  EXPECT_LT(maxDifference(par, ser, "kahan_li6: max |q_parallel - q_serial| over 30 steps"), 1e-10);
}

TEST(ParallelFluidBody, NewtonKrylovSameTrajectoryAsOneRankLagged) {
  // -del_jacobian newton_krylov (docs/fluidbody.md (FB-29a)) on 2 and 3 ranks (the DEL Vec split, the
  // block preconditioner applied on every rank) against the default lagged solve on one rank
  // (measured 1.4e-13 on 3 ranks).
  const auto par = trajectory(MPI_COMM_WORLD, 30, integrators::Composition::None, "newton_krylov");
  const auto ser = trajectory(PETSC_COMM_SELF, 30);
  EXPECT_LT(maxDifference(par, ser, "newton_krylov: max |q_parallel - q_serial lagged| over 30 steps"), 1e-10);
}

TEST(ParallelFluidBody, CoupledSameTrajectoryAsOneRankLagged) {
  // -del_jacobian coupled on the ranks (direct path: the full A(g); -panel_solver ksp: the bordered system on row
  // slabs that cut the bodies) against the lagged solve on one rank.
  const auto ser = trajectory(PETSC_COMM_SELF, 30);
  for (const char* solver : {"direct", "ksp"}) {
    PetscOptionsSetValue(nullptr, "-panel_solver", solver);
    const auto par = trajectory(MPI_COMM_WORLD, 30, integrators::Composition::None, "coupled");
    PetscOptionsClearValue(nullptr, "-panel_solver");
    EXPECT_LT(maxDifference(par, ser, "coupled: max |q_parallel - q_serial lagged| over 30 steps"), 1e-10) << solver;
  }
}

TEST(ParallelFluidBody, SixteenBodiesFastOperatorSameTrajectoryAsOneRank) {
  // 16 moving disks: the default coupled solve on the fast operator (relaxed Krylov steps, bodies owned whole)
  // on the ranks against one rank, 10 steps.
  const FluidBodyConfig c = fluidbody::test::DiskGrid{}.config(16, 8);
  std::vector<double> q[2];
  int k = 0;
  for (MPI_Comm comm : {MPI_COMM_WORLD, PETSC_COMM_SELF}) {
    std::vector<fluid::Polygon> shapes;
    for (const auto& b : c.bodies) shapes.push_back(b.shape);
    FluidBodyModel m(c, std::make_unique<fluid::PanelFluid>(comm, shapes, 1.0), comm);
    EXPECT_EQ(m.delSolver().mode(), integrators::JacobianMode::Coupled);
    State s = m.initialState();
    for (int i = 0; i < 10; ++i, s.step += 1) {
      m.step(s);
      q[k].insert(q[k].end(), s["q"].begin(), s["q"].end());
    }
    ++k;
  }
  EXPECT_LT(maxDifference(q[0], q[1], "16 bodies, coupled: max |q_parallel - q_serial| over 10 steps"), 1e-10);
}
