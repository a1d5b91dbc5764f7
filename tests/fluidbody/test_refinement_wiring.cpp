// The fluid's refinement between steps as the model drives it (docs/fluidbody.md (FB-87)): refineFor at
// q_k with the margin 2 x the last step's motion before every step, the step solved again when it went
// farther, a refinement that cannot resolve or an error estimate above the tolerance stopping the run
// with the state of the step kept, and the log's fluid_unknowns / fluid_error_estimate from resolution().
#include <gtest/gtest.h>

#include <cstdio>
#include <vector>

#include "ContactScene.hpp"
#include "core/Error.hpp"

using namespace kirchhoff;
using namespace kirchhoff::fluidbody;
using namespace kirchhoff::fluidbody::test;
using lie::Vec2;

namespace {

/// A fluid that delegates to a real one and records the refinement calls; it reports a refinement when
/// told to, throws when told to, and reports the resolution it is given.
class RecordingFluid : public fluid::Fluid {
 public:
  explicit RecordingFluid(std::unique_ptr<fluid::Fluid> f) : f_(std::move(f)) {}
  struct Call {
    std::vector<lie::Pose> poses;
    double margin;
  };
  std::vector<Call> calls;
  bool changes = false;        // refineFor reports a change
  int throwAtCall = -1;        // refineFor throws at this call (0-based)
  fluid::Resolution reported;  // what resolution() returns
  int configurations = 0;      // setConfiguration calls (fluid solves)

  int bodyCount() const override { return f_->bodyCount(); }
  void setConfiguration(const std::vector<lie::Pose>& g, const fluid::Vortices& v) override {
    ++configurations;
    f_->setConfiguration(g, v);
  }
  Eigen::MatrixXd addedMass() const override { return f_->addedMass(); }
  Eigen::VectorXd vortexMomentum() const override { return f_->vortexMomentum(); }
  Eigen::VectorXd addedMassAction(const Eigen::VectorXd& Xi) override { return f_->addedMassAction(Xi); }
  double lagrangianValue(const Eigen::VectorXd& Xi) override { return f_->lagrangianValue(Xi); }
  double kirchhoffRouth() const override { return f_->kirchhoffRouth(); }
  Eigen::VectorXd lagrangianGradient(const Eigen::VectorXd& Xi) override { return f_->lagrangianGradient(Xi); }
  std::vector<Vec2> vortexVelocities(const Eigen::VectorXd& Xi) const override { return f_->vortexVelocities(Xi); }
  void forgetSolutions() override { f_->forgetSolutions(); }
  bool refineFor(const std::vector<lie::Pose>& poses, const fluid::Vortices&, double margin) override {
    calls.push_back({poses, margin});
    if (static_cast<int>(calls.size()) - 1 == throwAtCall)
      throw NumericalError("no refinement resolves bodies 'left' and 'right' at gap 0.001");
    return changes;
  }
  fluid::Resolution resolution() const override { return reported; }
  std::vector<std::vector<int>> starts;  // setSharpeningStart calls
  std::vector<int> used;                 // what sharpeningUsed() reports
  void setSharpeningStart(std::vector<int> start) override { starts.push_back(std::move(start)); }
  std::vector<int> sharpeningUsed() const override { return used; }

 private:
  std::unique_ptr<fluid::Fluid> f_;
};

struct Scene {
  RecordingFluid* fluid;
  std::unique_ptr<FluidBodyModel> model;
};

/// Two disks passing each other (no impact) and a vortex: every body and the vortex move.
Scene scene() {
  FluidBodyConfig c = headOn(0.01, 64, 1.0, 0.2, 0.1);
  c.bodies[0].pose.y = Vec2(-1.0, 0.7);
  c.bodies[0].omega = 0.5;
  c.vortices.push_back({Vec2(0.0, -1.5), 1.0});
  auto f = std::make_unique<RecordingFluid>(setup::makeBoundaryFluid(c, MPI_COMM_WORLD));
  RecordingFluid* raw = f.get();
  return {raw, std::make_unique<FluidBodyModel>(c, std::move(f), MPI_COMM_WORLD)};
}

/// max over bodies of |dy| + reach |dtheta| and over vortices of |dgamma| (FB-87).
double motion(const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
  double d = 0.0;
  for (int j = 0; j < 2; ++j)
    d = std::max(d, (b.segment<2>(3 * j + 1) - a.segment<2>(3 * j + 1)).norm() + 0.5 * std::abs(b[3 * j] - a[3 * j]));
  return std::max(d, (b.segment<2>(6) - a.segment<2>(6)).norm());
}

}  // namespace

TEST(RefinementWiring, EveryStepRefinesAtItsStartForTwiceTheLastMotion) {
  Scene sc = scene();
  State s = sc.model->initialState();
  ASSERT_EQ(sc.fluid->calls.size(), 1u);  // the initial configuration, margin 0
  EXPECT_EQ(sc.fluid->calls[0].margin, 0.0);
  std::vector<Eigen::VectorXd> q = {field(s, "q")};
  const Eigen::VectorXd qprev = field(s, "q_previous").head(q[0].size());  // q_k-1 of (q_k-1, q_k-2)
  for (int k = 0; k < 12; ++k) {
    sc.model->step(s);
    s.step += 1;
    q.push_back(field(s, "q"));
  }
  ASSERT_EQ(sc.fluid->calls.size(), 13u);  // no redo: refineFor reported no change
  for (int k = 0; k < 12; ++k) {
    const auto& call = sc.fluid->calls[static_cast<std::size_t>(k) + 1];
    const Eigen::VectorXd& before = k == 0 ? qprev : q[static_cast<std::size_t>(k) - 1];
    EXPECT_NEAR(call.margin, kMarginSafety * motion(before, q[static_cast<std::size_t>(k)]), 1e-15) << k;
    EXPECT_GE(call.margin, motion(q[static_cast<std::size_t>(k)], q[static_cast<std::size_t>(k) + 1])) << k;
    EXPECT_EQ(call.poses[0].y, Vec2(q[static_cast<std::size_t>(k)].segment<2>(1))) << k;
  }
}

TEST(RefinementWiring, TheSharpeningIsCarriedInTheStateAndStartsFromNoneEveryTenSteps) {
  // (FB-66a): each step's refinement starts from the sharpening the previous one ended with (state field
  // fluid_sharpening), from none at the steps k = 0 mod kSharpeningRetry; a state without the field (an older
  // checkpoint) starts from none.
  Scene sc = scene();
  State s = sc.model->initialState();
  ASSERT_EQ(sc.fluid->starts.size(), 1u);
  EXPECT_TRUE(sc.fluid->starts[0].empty());
  EXPECT_EQ(s["fluid_sharpening"], std::vector<double>({0.0, 0.0}));
  sc.fluid->used = {2, 1};
  for (int k = 0; k < 12; ++k) {
    sc.model->step(s);
    s.step += 1;
  }
  ASSERT_EQ(sc.fluid->starts.size(), 13u);
  for (int k = 0; k < 12; ++k) {
    const std::vector<int>& start = sc.fluid->starts[static_cast<std::size_t>(k) + 1];
    if (k % kSharpeningRetry == 0) EXPECT_TRUE(start.empty()) << k;
    else EXPECT_EQ(start, std::vector<int>({2, 1})) << k;
  }
  EXPECT_EQ(s["fluid_sharpening"], std::vector<double>({2.0, 1.0}));
  State older = s;
  older["fluid_sharpening"].clear();
  sc.model->restore(older);
  EXPECT_EQ(older["fluid_sharpening"], std::vector<double>({0.0, 0.0}));
  State carried = s;
  sc.model->restore(carried);  // the restart's refinement starts where the run was (step 12: 12 mod 10 != 0)
  EXPECT_EQ(sc.fluid->starts.back(), std::vector<int>({2, 1}));
}

TEST(RefinementWiring, AStepThatWentFartherIsSolvedAgainOnTheRefinedFluid) {
  // q_previous = q_k plans a margin of 0; the step moves, so the fluid is refined for 2x its motion and
  // the step solved again (here on the same fluid: the same numbers).
  Scene plain = scene(), redo = scene();
  redo.fluid->changes = true;
  State a = plain.model->initialState(), b = redo.model->initialState();
  for (State* s : {&a, &b}) (*s)["q_previous"] = (*s)["q"];
  const int before[2] = {plain.fluid->configurations, redo.fluid->configurations};
  plain.model->step(a);
  redo.model->step(b);
  for (const Scene* sc : {&plain, &redo}) {
    ASSERT_EQ(sc->fluid->calls.size(), 3u);  // initial, before the step (margin 0), after it
    EXPECT_EQ(sc->fluid->calls[1].margin, 0.0);
    const double moved = motion(field(a, "q_previous").head(field(a, "q").size()), field(a, "q"));
    EXPECT_NEAR(sc->fluid->calls[2].margin, kMarginSafety * moved, 1e-15);
  }
  EXPECT_EQ(redo.model->lastMargin(), redo.fluid->calls[2].margin);
  EXPECT_EQ(plain.model->lastMargin(), 0.0);
  // No change reported: one solve; a change: the step again (twice the fluid solves).
  const int solves[2] = {plain.fluid->configurations - before[0], redo.fluid->configurations - before[1]};
  EXPECT_EQ(solves[1], 2 * solves[0]);
  EXPECT_EQ(a["q"], b["q"]);
  EXPECT_EQ(a["p"], b["p"]);
}

TEST(RefinementWiring, AnUnresolvedRefinementStopsWithTheStateKept) {
  Scene sc = scene();
  sc.fluid->throwAtCall = 4;  // before step 4
  State s = sc.model->initialState();
  for (int k = 0; k < 3; ++k) {
    sc.model->step(s);
    s.step += 1;
  }
  const std::vector<double> q = s["q"], p = s["p"];
  try {
    sc.model->step(s);
    FAIL() << "no stop";
  } catch (const NumericalError& e) {
    EXPECT_TRUE(e.checkpointState());
    EXPECT_EQ(e.step(), 3);
    EXPECT_NE(std::string(e.what()).find("bodies 'left' and 'right' at gap 0.001"), std::string::npos) << e.what();
  }
  EXPECT_EQ(s["q"], q);
  EXPECT_EQ(s["p"], p);
}

TEST(RefinementWiring, AnErrorEstimateAboveTheToleranceStopsAndTheLogShowsTheResolution) {
  Scene sc = scene();
  State s = sc.model->initialState();
  sc.fluid->reported.unknowns = 777;
  sc.fluid->reported.errorEstimate = 3e-9;
  sc.fluid->reported.tolerance = 1e-8;
  sc.model->step(s);
  s.step += 1;
  const LogRow row = sc.model->logRow(s, {});
  Record r;
  r.names = row.names();
  const auto inv = row.values();
  EXPECT_EQ(inv.at(column(r, "fluid_unknowns")), 777.0);
  EXPECT_EQ(inv.at(column(r, "fluid_error_estimate")), 3e-9);
  sc.fluid->reported.errorEstimate = 2e-8;
  sc.fluid->reported.gapBodies[0] = 0;
  sc.fluid->reported.gapBodies[1] = 1;
  sc.fluid->reported.minGap = 0.004;
  const std::vector<double> q = s["q"];
  try {
    sc.model->step(s);
    FAIL() << "no stop";
  } catch (const NumericalError& e) {
    EXPECT_TRUE(e.checkpointState());
    EXPECT_EQ(e.step(), 1);
    const std::string m = e.what();
    EXPECT_NE(m.find("error estimate 2e-08 exceeds its tolerance 1e-08"), std::string::npos) << m;
    EXPECT_NE(m.find("'left' and 'right' at gap 0.004"), std::string::npos) << m;
  }
  EXPECT_EQ(s["q"], q);
}

TEST(RefinementWiring, ARestoredStateIsLoggedOnTheFluidRefinedForIt) {
  // Two disks of 32 nodes 1 apart closing at 0.4 each; at a gap below 0.05 the state goes to a new model, as a
  // restart does. Its first log row is that of the refined fluid: the energy of the run at that step to the
  // fluid's tolerance. (Logged on the fluid of the deck's initial configuration, the 64-disk suspension's restart
  // row was 4.2% off.)
  FluidBodyConfig c = headOn(0.05, 32, 1.0, 0.4, 1e-3);
  auto run = contactModel(c);
  State s = run->initialState();
  Record r;
  advance(*run, s, 1, r);
  const std::size_t gap = column(r, "min_body_body_distance"), energy = column(r, "energy"),
                    unknowns = column(r, "fluid_unknowns");
  ASSERT_LT(gap, r.names.size());
  while (r.inv.back()[gap] > 0.05 && r.q.size() < 40) advance(*run, s, 1, r);
  ASSERT_LT(r.inv.back()[gap], 0.05);
  std::printf("restored at step %zu, gap %.3g\n", r.q.size() - 1, r.inv.back()[gap]);
  ASSERT_GT(r.inv.back()[unknowns], r.inv.front()[unknowns]);  // refined toward the gap
  const LogRow continuous = run->logRow(s, {});

  auto restarted = contactModel(c);
  State t = restarted->initialState();
  t = s;
  restarted->restore(t);
  const LogRow row = restarted->logRow(t, {});
  const double e0 = continuous.values()[energy], e1 = row.values()[energy];
  EXPECT_NEAR(e1, e0, 1e-8 * std::abs(e0));
  EXPECT_GT(row.values()[unknowns], r.inv.front()[unknowns]);
}
