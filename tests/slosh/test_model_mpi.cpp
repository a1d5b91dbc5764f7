// The distributed slosh model on 2 and 3 ranks (docs/slosh.md): the same result as one process
// (1e-12), bitwise repeatable runs, invariants identical on every rank, the snapshot gathered to rank 0.
#include <gtest/gtest.h>

#include <mpi.h>

#include <algorithm>
#include <cmath>

#include "SloshFixtures.hpp"
#include "models/slosh/SloshModel.hpp"

using namespace kirchhoff;
using namespace kirchhoff::slosh;
namespace st = kirchhoff::slosh::fixtures;

namespace {

Config mpiConfig() {
  Config cfg = st::baseConfig(1001, 0.1);  // 10 % bump: nonlinear, N not divisible by 2 or 3
  cfg.depth.add(ProfileTerm::cosine(0.005, 3));
  cfg.init.q0 = 0.01;
  cfg.init.qdot0 = -0.02;
  return cfg;
}

State run(SloshModel& m, long steps) {
  State s = m.initialState();
  for (long n = 0; n < steps; ++n) {
    m.step(s);
    ++s.step;
    s.time += m.discretization().dt();
  }
  return s;
}

int rank() {
  int r = 0;
  MPI_Comm_rank(PETSC_COMM_WORLD, &r);
  return r;
}

}  // namespace

// 400 steps at 0.5 CFL (t ~ 0.62 s); each rank compares its slab with the serial kernel on the whole
// grid. Bound: 1e-12 absolute on x (m, L = 1) and w (m/s, |w| ~ 0.1), 1e-12 relative on q, p.
TEST(SloshModelMpi, SameResultAsOneProcess) {
  const Config cfg = mpiConfig();
  const double dt = st::cflStep(cfg, 0.5);
  SloshModel m(cfg, dt, PETSC_COMM_WORLD);
  int size = 1;
  MPI_Comm_size(PETSC_COMM_WORLD, &size);
  if (size > 1) {
    EXPECT_LT(m.ownedNodes(), 1001u);
  }
  const State s = run(m, 400);
  Discretization d(cfg.par, cfg.depth, dt);
  const SerialState<double> r = st::runSerial(d, cfg.init, 400);
  double dx = 0.0, dw = 0.0;
  for (std::size_t k = 0; k < m.ownedNodes(); ++k) {
    dx = std::max(dx, std::abs(s["x"][k] - r.x[m.firstNode() - 1 + k]));
    dw = std::max(dw, std::abs(s["w"][k] - r.w[m.firstNode() - 1 + k]));
  }
  double all[2] = {dx, dw}, worst[2];
  MPI_Allreduce(all, worst, 2, MPI_DOUBLE, MPI_MAX, PETSC_COMM_WORLD);
  if (rank() == 0)
    std::printf("[ slosh ] %d ranks vs serial: max |dx| = %.2e m, max |dw| = %.2e m/s, dq = %.2e\n", size,
                worst[0], worst[1], std::abs(s["q"][0] - r.q));
  EXPECT_LT(worst[0], 1e-12);
  EXPECT_LT(worst[1], 1e-12);
  EXPECT_NEAR(s["q"][0], r.q, 1e-12 * std::abs(r.q));
  EXPECT_NEAR(s["p"][0], r.p, 1e-12 * std::abs(r.p));

  // Invariants: the same on every rank, equal to the serial ones to rounding.
  const std::vector<double> inv = m.invariants(s, StepReport{});
  const SloshInvariants ref = serialInvariants(r, d, d.slab(1, 1001));
  std::vector<double> maxInv(inv.size()), minInv(inv.size());
  MPI_Allreduce(inv.data(), maxInv.data(), static_cast<int>(inv.size()), MPI_DOUBLE, MPI_MAX, PETSC_COMM_WORLD);
  MPI_Allreduce(inv.data(), minInv.data(), static_cast<int>(inv.size()), MPI_DOUBLE, MPI_MIN, PETSC_COMM_WORLD);
  const std::vector<std::string> names = m.logRow(s, StepReport{}).names();
  for (std::size_t k = 0; k < inv.size(); ++k) EXPECT_EQ(maxInv[k], minInv[k]) << names[k];
  EXPECT_NEAR(inv[0], ref.energy, 1e-12 * std::abs(ref.energy));
  EXPECT_NEAR(inv[5], ref.mass, 1e-12 * ref.mass);
  EXPECT_NEAR(inv[6], ref.minDepth, 1e-12 * ref.minDepth);
}

// Fixed reduction order: two runs on the same communicator are bitwise identical.
TEST(SloshModelMpi, RepeatedRunsAreBitwiseIdentical) {
  const Config cfg = mpiConfig();
  const double dt = st::cflStep(cfg, 0.5);
  SloshModel a(cfg, dt, PETSC_COMM_WORLD), b(cfg, dt, PETSC_COMM_WORLD);
  const State sa = run(a, 150), sb = run(b, 150);
  int same = sa["x"] == sb["x"] && sa["w"] == sb["w"] && sa["q"] == sb["q"] && sa["p"] == sb["p"];
  int all = 0;
  MPI_Allreduce(&same, &all, 1, MPI_INT, MPI_MIN, PETSC_COMM_WORLD);
  EXPECT_EQ(all, 1);
}

// The snapshot is gathered on rank 0: all N + 2 nodes in order, equal to the serial positions.
TEST(SloshModelMpi, SnapshotGathersTheWholeSurface) {
  const Config cfg = mpiConfig();
  const double dt = st::cflStep(cfg, 0.5);
  SloshModel m(cfg, dt, PETSC_COMM_WORLD);
  const State s = run(m, 50);
  Snapshot snap;
  EXPECT_TRUE(m.snapshot(s, snap));
  if (rank() != 0) {
    EXPECT_TRUE(snap.meshes.empty());
    return;
  }
  ASSERT_EQ(snap.meshes.size(), 1u);
  const SnapshotMesh& surf = snap.meshes[0];
  ASSERT_EQ(surf.pointCount(), 1003);
  Discretization d(cfg.par, cfg.depth, dt);
  const SerialState<double> r = st::runSerial(d, cfg.init, 50);
  double err = 0.0;
  for (std::size_t i = 0; i < 1001; ++i) err = std::max(err, std::abs(surf.coordinates[2 * (i + 1)] - r.x[i]));
  EXPECT_LT(err, 1e-12);
  for (int k = 0; k + 1 < surf.pointCount(); ++k) EXPECT_LT(surf.coordinates[2 * k], surf.coordinates[2 * k + 2]);
}
