// Tests of the damped Models (RayleighModel, RigidBodyModel): state fields, invariants at step 0,
// the dissipated-energy quadrature, failed steps leaving the state unchanged, restore checks.
#include <cmath>

#include <gtest/gtest.h>

#include "DampedCases.hpp"
#include "core/Error.hpp"
#include "models/damped/RayleighModel.hpp"
#include "models/damped/RigidBodyModel.hpp"

namespace {

using namespace kirchhoff;
using namespace kirchhoff::damped;

RayleighConfig pendulumConfig(double dt) {
  RayleighConfig c;
  c.dt = dt;
  c.system = cases::pendulum(0.01);
  c.q0 = VectorXd::Constant(1, 1.5);
  c.p0 = VectorXd::Zero(1);
  c.method = cases::splitting(Splitting::Phi2S);
  return c;
}

TEST(DampedModels, RayleighStepInvariantsAndQuadrature) {
  RayleighModel model(pendulumConfig(0.1));
  State s = model.initialState();
  EXPECT_EQ(model.logRow(s, {}).names(), (std::vector<std::string>{"energy", "dissipated", "energy_balance"}));
  auto v = model.invariants(s, {});
  EXPECT_DOUBLE_EQ(v[0], 1.0 - std::cos(1.5));  // H(q0, p0), p0 = 0
  EXPECT_EQ(v[1], 0.0);
  EXPECT_EQ(v[2], 0.0);
  // Ten steps of the model equal ten rayleighStep calls; W is the trapezoid of eps p^2 (M = D = 1).
  VectorXd q = model.config().q0, p = model.config().p0;
  double W = 0.0;
  for (int k = 0; k < 10; ++k) {
    const double r0 = 0.01 * p(0) * p(0);
    rayleighStep(*model.config().system, model.config().method, q, p, s.time, 0.1);
    W += 0.05 * (r0 + 0.01 * p(0) * p(0));
    model.step(s);
    s.step += 1;
    s.time += 0.1;
  }
  EXPECT_EQ(s["q"][0], q(0));
  EXPECT_EQ(s["p"][0], p(0));
  EXPECT_NEAR(s["dissipated"][0], W, 1e-18);
  v = model.invariants(s, {});
  EXPECT_NEAR(v[2], v[0] + v[1] - (1.0 - std::cos(1.5)), 1e-16);
}

TEST(DampedModels, ElasticColumnsAndFailedStepKeepsState) {
  RayleighConfig c;
  c.dt = 0.1;
  c.system = cases::elasticPendulum(0.1);
  c.relativeEquilibrium = cases::elasticEquilibrium();
  c.q0 = VectorXd::Zero(3);  // bob at the pivot: grad V undefined
  c.p0 = VectorXd::Zero(3);
  c.method = cases::splitting(Splitting::Phi2S);
  RayleighModel model(c);
  State s = model.initialState();
  EXPECT_EQ(model.logRow(s, {}).names(),
            (std::vector<std::string>{"energy", "dissipated", "energy_balance", "J3", "r_minus_rstar"}));
  const State before = s;
  EXPECT_THROW(model.step(s), NumericalError);
  EXPECT_EQ(s["q"], before["q"]);
  EXPECT_EQ(s["p"], before["p"]);
  EXPECT_EQ(s["dissipated"], before["dissipated"]);
}

TEST(DampedModels, RestoreChecksFields) {
  RayleighModel model(pendulumConfig(0.1));
  State s = model.initialState();
  model.restore(s);  // valid
  State bad = s;
  bad["q"].push_back(0.0);
  EXPECT_THROW(model.restore(bad), CheckpointError);
  State missing;
  missing.add("q", {1.0});
  EXPECT_THROW(model.restore(missing), CheckpointError);
}

TEST(DampedModels, RigidBodyInvariantsAndNewtonFailure) {
  RigidBodyConfig c;
  c.dt = 0.1;
  const auto a = cases::scenarioA();
  c.inertia = a.I;
  c.alpha = a.alpha;
  c.M0 = a.M0;
  RigidBodyModel model(c);
  State s = model.initialState();
  const auto v = model.invariants(s, {});
  ASSERT_EQ(v.size(), 7u);
  EXPECT_DOUBLE_EQ(v[0], 0.5 * (1.0 + 0.5 + 1.0 / 3.0));  // H = sum M_i^2 / (2 I_i)
  EXPECT_DOUBLE_EQ(v[2], std::sqrt(3.0));
  // distance from (1,1,1) to {+-sqrt3 e3}: sqrt(2 + (sqrt3 - 1)^2)
  EXPECT_NEAR(v[3], std::sqrt(2.0 + std::pow(std::sqrt(3.0) - 1.0, 2)), 1e-15);
  const StepReport r = model.step(s);
  EXPECT_GT(r.iterations, 0);
  EXPECT_LT(r.residualNorm, 1e-13);
  // A Newton budget of 0 iterations cannot converge: NumericalError, state unchanged.
  c.method.ddb.newton.maxIterations = 0;
  RigidBodyModel strict(c);
  State t = strict.initialState();
  EXPECT_THROW(strict.step(t), NumericalError);
  EXPECT_EQ(t["M"], (std::vector<double>{1.0, 1.0, 1.0}));
}

}  // namespace
