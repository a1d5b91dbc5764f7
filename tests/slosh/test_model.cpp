// The slosh Model on one rank (docs/slosh.md): the DMDA step equals the serial kernel bitwise, the
// invariant columns, the stop conditions (bore / dry point) before x_a <= 0, snapshots, restore checks.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "SloshFixtures.hpp"
#include "core/Error.hpp"
#include "models/slosh/SloshModel.hpp"

using namespace kirchhoff;
using namespace kirchhoff::slosh;
namespace st = kirchhoff::slosh::fixtures;

namespace {

Config movingConfig(int N) {
  Config cfg = st::baseConfig(N, 0.05);
  cfg.init.q0 = 0.01;
  cfg.init.qdot0 = 0.03;
  return cfg;
}

void advance(SloshModel& m, State& s, long steps) {
  for (long n = 0; n < steps; ++n) {
    m.step(s);
    ++s.step;
    s.time += m.discretization().dt();
  }
}

}  // namespace

TEST(SloshModel, InitialStateFields) {
  const Config cfg = movingConfig(30);
  SloshModel m(cfg, st::cflStep(cfg, 0.5), PETSC_COMM_SELF);
  State s = m.initialState();
  ASSERT_NE(s.find("x"), nullptr);
  EXPECT_TRUE(s.find("x")->distributed);
  EXPECT_EQ(s.find("x")->global, 30u);
  EXPECT_EQ(s["w"].size(), 30u);
  EXPECT_FALSE(s.find("q")->distributed);
  EXPECT_DOUBLE_EQ(s["x"][4], 5.0 / 31.0);  // x(a, 0) = a
  EXPECT_DOUBLE_EQ(s["q"][0], 0.01);
  // p = m_v q_t + sigma = (m_v + rho da c_b) q_t + rho da sum h0_i w_i = (m_v + m_f) q_t for w = q_t
  // (the trapezoid integrates h0 to sum H: 1e-12 relative).
  EXPECT_NEAR(s["p"][0], (100.0 + m.discretization().fluidMass()) * 0.03, 1e-12 * 6.0);
  EXPECT_EQ(m.logRow(s, {}).names().front(), "energy");
}

// The Model's DMDA step and the serial template kernel execute the same arithmetic: bitwise equal.
TEST(SloshModel, StepEqualsTheSerialKernel) {
  const Config cfg = movingConfig(40);
  const double dt = st::cflStep(cfg, 0.5);
  SloshModel m(cfg, dt, PETSC_COMM_SELF);
  State s = m.initialState();
  advance(m, s, 200);
  Discretization d(cfg.par, cfg.depth, dt);
  const SerialState<double> r = st::runSerial(d, cfg.init, 200);
  for (std::size_t i = 0; i < 40; ++i) {
    EXPECT_EQ(s["x"][i], r.x[i]) << i;
    EXPECT_EQ(s["w"][i], r.w[i]) << i;
  }
  EXPECT_EQ(s["q"][0], r.q);
  EXPECT_EQ(s["p"][0], r.p);
  EXPECT_EQ(s["impulse"][0], r.impulse);
  const std::vector<double> inv = m.invariants(s, StepReport{});
  const SloshInvariants ref = serialInvariants(r, d, d.slab(1, 40));
  EXPECT_EQ(inv[0], ref.energy);
  EXPECT_EQ(inv[2], ref.momentumBalance);
  EXPECT_EQ(inv[4], ref.qdot);
  EXPECT_EQ(inv.size(), m.logRow(s, {}).names().size());
}

// A 30 % standing wave steepens into a bore: the x_a jump between neighbouring cells passes 0.03 at
// t = 0.53, 0.73, 0.89, 0.95 s and 0.1 at 1.09, 1.13, 1.14, 1.14 s for N = 100, 200, 400, 800 (a shock,
// not a grid effect).
// check() must stop with checkpointState = true while every cell is still ordered (x_a > 0) and name
// the key.
TEST(SloshModel, CheckStopsAtTheBoreBeforeTheGridFolds) {
  Config cfg = st::baseConfig(100, 0.0);
  cfg.depth.add(ProfileTerm::cosine(0.03, 1));
  SloshModel m(cfg, st::cflStep(cfg, 0.5), PETSC_COMM_SELF);
  State s = m.initialState();
  bool stopped = false;
  for (long n = 0; n < 4000 && !stopped; ++n) {
    try {
      m.check(s);
    } catch (const NumericalError& e) {
      stopped = true;
      std::printf("[ slosh ] %s\n", e.what());
      EXPECT_TRUE(e.checkpointState());
      EXPECT_EQ(e.step(), s.step);
      EXPECT_NE(std::string(e.what()).find("stop.max_jump"), std::string::npos) << e.what();
      EXPECT_GT(m.measure(s).minStretch, 0.0);
      EXPECT_GT(s.time, 0.4);
      EXPECT_LT(s.time, 1.2);
    }
    if (!stopped) advance(m, s, 1);
  }
  EXPECT_TRUE(stopped);
}

// A dam-break profile (a step in h0 from 0.1 to 0.05 m at a = 0.5 m): x(a, 0) = a is smooth, but the
// pressure jump folds the cells at the step at once; check() stops within the first 10 steps.
TEST(SloshModel, CheckStopsADamBreakAtOnce) {
  Config cfg = st::baseConfig(50, 0.0);
  cfg.depth = Profile({ProfileTerm::table({0.0, 0.5, 0.5 + 1e-9, 1.0}, {0.1, 0.1, 0.05, 0.05})});
  SloshModel m(cfg, st::cflStep(cfg, 0.5), PETSC_COMM_SELF);
  State s = m.initialState();
  bool stopped = false;
  for (int n = 0; n < 10 && !stopped; ++n) {
    try {
      m.check(s);
      advance(m, s, 1);
    } catch (const NumericalError& e) {
      stopped = true;
      EXPECT_TRUE(e.checkpointState());
      EXPECT_NE(std::string(e.what()).find("stop.max_jump"), std::string::npos) << e.what();
    }
  }
  EXPECT_TRUE(stopped);
}

TEST(SloshModel, CheckStopsAtADryPoint) {
  Config cfg = st::baseConfig(50, 0.0);
  cfg.depth.add(ProfileTerm::cosine(0.03, 1));
  cfg.stop.minDepthFraction = 0.9;  // the trough (0.07 m) is already below 0.09 m: a "dry point"
  SloshModel m(cfg, st::cflStep(cfg, 0.5), PETSC_COMM_SELF);
  State s = m.initialState();
  try {
    m.check(s);
    ADD_FAILURE() << "no stop";
  } catch (const NumericalError& e) {
    EXPECT_TRUE(e.checkpointState());
    EXPECT_NE(std::string(e.what()).find("dry point"), std::string::npos) << e.what();
  }
}

// A non-finite step throws NumericalError (checkpointState = false) and leaves the state unchanged.
TEST(SloshModel, NonFiniteStepLeavesTheStateUnchanged) {
  const Config cfg = movingConfig(20);
  SloshModel m(cfg, st::cflStep(cfg, 0.5), PETSC_COMM_SELF);
  State s = m.initialState();
  s["w"][3] = std::numeric_limits<double>::quiet_NaN();
  const State before = s;
  EXPECT_THROW(
      {
        try {
          m.step(s);
        } catch (const NumericalError& e) {
          EXPECT_FALSE(e.checkpointState());
          throw;
        }
      },
      NumericalError);
  for (const char* f : {"x", "q", "p", "impulse"})
    for (std::size_t i = 0; i < s[f].size(); ++i) EXPECT_EQ(s[f][i], before[f][i]) << f;
}

// Snapshot: N + 2 surface points from wall to wall; the trapezoid of the nodal depth over x gives the
// fluid volume m_f / rho to O(da^2) (1e-4 relative for a 5 % bump at N = 60).
TEST(SloshModel, SnapshotIsTheWholeSurface) {
  const Config cfg = movingConfig(60);
  SloshModel m(cfg, st::cflStep(cfg, 0.5), PETSC_COMM_SELF);
  State s = m.initialState();
  advance(m, s, 100);
  Snapshot snap;
  ASSERT_TRUE(m.snapshot(s, snap));
  ASSERT_EQ(snap.meshes.size(), 1u);
  const SnapshotMesh& surf = snap.meshes[0];
  EXPECT_EQ(surf.topology, SnapshotMesh::Topology::Polyline);
  ASSERT_EQ(surf.pointCount(), 62);
  EXPECT_EQ(surf.coordinates[0], 0.0);
  EXPECT_EQ(surf.coordinates[2 * 61], 1.0);
  double volume = 0.0;
  for (int k = 0; k < 61; ++k)
    volume += 0.5 * (surf.coordinates[2 * k + 1] + surf.coordinates[2 * k + 3]) *
              (surf.coordinates[2 * k + 2] - surf.coordinates[2 * k]);
  const double expected = m.discretization().fluidMass() / 1000.0;
  EXPECT_NEAR(volume, expected, 1e-4 * expected);
  EXPECT_EQ(surf.attributes.size(), 4u);
}

TEST(SloshModel, RestoreRejectsAMismatchedState) {
  const Config cfg = movingConfig(20);
  SloshModel m(cfg, st::cflStep(cfg, 0.5), PETSC_COMM_SELF);
  State good = m.initialState();
  EXPECT_NO_THROW(m.restore(good));
  State shortX = good;
  shortX["x"].pop_back();
  EXPECT_THROW(m.restore(shortX), CheckpointError);
  State noImpulse;
  noImpulse.fields = {good.fields[0], good.fields[1], good.fields[2], good.fields[3]};
  EXPECT_THROW(m.restore(noImpulse), CheckpointError);
}

TEST(SloshModel, RejectsMoreRanksThanPointsAndBadLimits) {
  Config cfg = movingConfig(20);
  cfg.stop.minStretch = 1.5;
  EXPECT_THROW(SloshModel(cfg, 1e-3, PETSC_COMM_SELF), ConfigurationError);
}
