// Tests of the heavy-top Model (models/top/TopModel.hpp) for the run loop: state fields, invariant
// columns at t = 0 (docs/heavytop.md values), failure semantics, restore checks, replay from a
// copied State (what a checkpoint holds) and the DOP853 error column.
#include <gtest/gtest.h>

#include <cmath>

#include "core/Error.hpp"
#include "models/top/Reference.hpp"
#include "models/top/TopModel.hpp"

namespace {

using namespace kirchhoff;
using namespace kirchhoff::top;

TopConfig kovalevskayaConfig(TopScheme s, bool reference) {
  TopConfig c;
  c.top.inertia = Vec3(2.0, 2.0, 1.0);
  c.top.c = Vec3(1.0, 0.0, 0.0);
  c.top.mgl = 1.0;
  c.scheme = s;
  c.dt = 0.02;
  c.initial.Pi = Vec3(2.0, 0.0, 4.0);
  c.initial.Gamma = Vec3(0.5, 0.0, std::sqrt(3.0) / 2.0);
  c.initial.fixQ1 = true;
  c.initial.q1Target = 1.0;
  c.reference = reference;
  return c;
}

// Fields: z (8) for collective schemes, Pi and Gamma (3 + 3) for direct ones, plus reference (6).
TEST(TopModel, StateFields) {
  TopModel cim(kovalevskayaConfig(TopScheme::CollectiveImplicitMidpoint, true));
  const State s = cim.initialState();
  ASSERT_EQ(s.fields.size(), 2u);
  EXPECT_EQ(s.fields[0].name, "z");
  EXPECT_EQ(s.fields[0].data.size(), 8u);
  EXPECT_EQ(s.fields[1].name, "reference");
  EXPECT_EQ(s.fields[1].data.size(), 6u);
  EXPECT_DOUBLE_EQ(s["z"][0], 1.0);  // the q1 normalization
  TopModel dim(kovalevskayaConfig(TopScheme::DirectImplicitMidpoint, false));
  const State d = dim.initialState();
  ASSERT_EQ(d.fields.size(), 2u);
  EXPECT_EQ(d.fields[0].name, "Pi");
  EXPECT_EQ(d.fields[1].name, "Gamma");
  EXPECT_EQ(d["Pi"][2], 4.0);
}

// Invariants at t = 0: h = 9.5, f1 = 1, f2 = 1 + 2 sqrt 3, K = 4, Pi3 = 4, J1 = 1/2,
// J2 = f2 / J1, no Newton, error 0 (round-off: 1e-14), identical for the collective and direct
// state representations (the J's of a direct scheme are the images sqrt(f1)/2, 2 f2/sqrt(f1)).
TEST(TopModel, InitialInvariants) {
  const double f2 = 1.0 + 2.0 * std::sqrt(3.0);
  const std::vector<double> expected = {9.5, 1.0, f2, 4.0, 4.0, 0.5, 2.0 * f2, 0.0, 0.0, 0.0};
  for (TopScheme s : {TopScheme::CollectiveImplicitMidpoint, TopScheme::DirectExplicitMidpoint}) {
    TopModel m(kovalevskayaConfig(s, true));
    const LogRow row = m.logRow(m.initialState(), StepReport{});
    const auto names = row.names();
    ASSERT_EQ(names.size(), expected.size());
    EXPECT_EQ(names[0], "energy");  // the run loop's progress column
    EXPECT_EQ(names[3], "kovalevskaya");
    EXPECT_EQ(names.back(), "error");
    // K is conserved for this Kovalevskaya top, Pi3 only for a Lagrange top.
    EXPECT_EQ(row.quantities()[3].kind, "conserved");
    EXPECT_EQ(row.quantities()[4].kind, "diagnostic");
    const auto v = row.values();
    for (std::size_t i = 0; i < v.size(); ++i)
      EXPECT_NEAR(v[i], expected[i], 1e-14 * (1.0 + std::abs(expected[i]))) << names[i];
  }
  // Not a Kovalevskaya top: the K column is 0 (documented), no error column without reference.
  TopConfig lag = kovalevskayaConfig(TopScheme::CollectiveImplicitMidpoint, false);
  lag.top.inertia = Vec3(1.0, 1.0, 0.5);
  lag.top.c = Vec3(0.0, 0.0, 1.0);
  TopModel m(lag);
  const LogRow row = m.logRow(m.initialState(), StepReport{});
  EXPECT_EQ(row.size(), 9u);
  EXPECT_EQ(row.values()[3], 0.0);
  // A Lagrange top (I1 = I2, c = e3): Pi3 is its integral, K is not.
  EXPECT_EQ(row.quantities()[3].kind, "diagnostic");
  EXPECT_EQ(row.quantities()[4].kind, "conserved");
}

// A failed Newton solve throws NumericalError carrying the step and leaves the state unchanged.
TEST(TopModel, FailedStepThrowsAndKeepsState) {
  TopConfig c = kovalevskayaConfig(TopScheme::CollectiveImplicitMidpoint, true);
  c.newton.maxIterations = 0;
  TopModel m(c);
  State s = m.initialState();
  s.step = 7;
  const State before = s;
  try {
    m.step(s);
    FAIL() << "expected NumericalError";
  } catch (const NumericalError& e) {
    EXPECT_EQ(e.step(), 7);
    EXPECT_FALSE(e.checkpointState());
  }
  EXPECT_EQ(s["z"], before["z"]);
  EXPECT_EQ(s["reference"], before["reference"]);
}

// Invalid configurations are ConfigurationErrors (exit 65): non-unit c, dt <= 0, Gamma = 0.
TEST(TopModel, InvalidConfigurations) {
  TopConfig c = kovalevskayaConfig(TopScheme::CollectiveImplicitMidpoint, false);
  c.top.c = Vec3(2.0, 0.0, 0.0);
  EXPECT_THROW(TopModel{c}, ConfigurationError);
  c = kovalevskayaConfig(TopScheme::CollectiveImplicitMidpoint, false);
  c.dt = 0.0;
  EXPECT_THROW(TopModel{c}, ConfigurationError);
  c = kovalevskayaConfig(TopScheme::DirectImplicitMidpoint, false);
  c.initial.Gamma = Vec3::Zero();
  EXPECT_THROW(TopModel{c}, ConfigurationError);
}

// restore() accepts the model's own state and rejects missing, extra or wrong-size fields.
TEST(TopModel, RestoreChecksFields) {
  TopModel m(kovalevskayaConfig(TopScheme::CollectiveImplicitMidpoint, true));
  State s = m.initialState();
  EXPECT_NO_THROW(m.restore(s));
  State wrong = s;
  wrong["z"].pop_back();
  EXPECT_THROW(m.restore(wrong), CheckpointError);
  State missing;
  missing.add("z", s["z"]);
  EXPECT_THROW(m.restore(missing), CheckpointError);
  State extra = s;
  extra.add("Pi", {1.0, 2.0, 3.0});
  EXPECT_THROW(m.restore(extra), CheckpointError);
  TopModel d(kovalevskayaConfig(TopScheme::DirectImplicitMidpoint, false));
  EXPECT_THROW(d.restore(s), CheckpointError);
}

// The State is the whole history: continuing from a copy at step 100 reproduces the uninterrupted
// run bit for bit (fields and invariants) at step 200, for every scheme (with the reference), and
// for composed and Gauss–Legendre steps (a step is the whole composition; docs/composition.md).
TEST(TopModel, ReplayFromCopiedStateIsBitwise) {
  std::vector<TopConfig> configs;
  for (int si = 0; si < 4; ++si) configs.push_back(kovalevskayaConfig(static_cast<TopScheme>(si), true));
  for (TopScheme s : {TopScheme::CollectiveImplicitMidpoint, TopScheme::DirectImplicitMidpoint}) {
    configs.push_back(kovalevskayaConfig(s, true));
    configs.back().composition = Composition::KahanLi8;
  }
  configs.push_back(kovalevskayaConfig(TopScheme::CollectiveGaussLegendre, true));
  configs.back().stages = 3;
  configs.back().composition = Composition::TripleJump;
  for (std::size_t si = 0; si < configs.size(); ++si) {
    TopModel m(configs[si]);
    State s = m.initialState();
    auto advance = [&m](State& st, int n) {
      StepReport r;
      for (int k = 0; k < n; ++k) {
        r = m.step(st);
        st.step += 1;
        st.time = static_cast<double>(st.step) * m.config().dt;
      }
      return r;
    };
    advance(s, 100);
    State copy = s;
    TopModel fresh(configs[si]);
    fresh.restore(copy);
    const StepReport r1 = advance(s, 100);
    StepReport r2;
    for (int k = 0; k < 100; ++k) {
      r2 = fresh.step(copy);
      copy.step += 1;
      copy.time = static_cast<double>(copy.step) * fresh.config().dt;
    }
    for (std::size_t f = 0; f < s.fields.size(); ++f)
      EXPECT_EQ(s.fields[f].data, copy.fields[f].data) << si << " " << s.fields[f].name;
    EXPECT_EQ(m.invariants(s, r1), fresh.invariants(copy, r2)) << si;
  }
}

// The error column against DOP853 (advanced one dt per step at rtol = atol = 1e-12) after 500
// steps (t = 10) matches an independent DOP853 run to t = 10 within 1e-9, and equals the
// convergence-study error at dt = 1/50 (2.07e-2, tests/top/test_top_schemes.cpp) within 1%.
TEST(TopModel, ErrorColumnAgainstReference) {
  TopModel m(kovalevskayaConfig(TopScheme::CollectiveImplicitMidpoint, true));
  State s = m.initialState();
  StepReport r;
  for (int k = 0; k < 500; ++k) {
    r = m.step(s);
    s.step += 1;
    s.time = static_cast<double>(s.step) * m.config().dt;
  }
  integrators::Dop853Options opt;
  opt.rtol = opt.atol = 1e-13;
  Vec6 y0;
  y0 << 2.0, 0.0, 4.0, 0.5, 0.0, std::sqrt(3.0) / 2.0;
  const Vec6 ref = heavyTopReference(m.config().top, y0, 0.0, {10.0}, opt)[0];
  EXPECT_LT((Eigen::Map<const Vec6>(s["reference"].data()) - ref).norm(), 1e-9);
  const double err = m.invariants(s, r).back();
  EXPECT_NEAR(err, 2.0742e-2, 2e-4);
  EXPECT_EQ(r.iterations, 2);
}

}  // namespace
