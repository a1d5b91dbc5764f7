// Numerical guards of the run loop (run/Simulation.cpp; never a silently wrong number): NaN/Inf in the state,
// a non-finite invariant, a failed step (SNES divergence) and a physical stop each end the run at
// that step with exit 1, a message naming the step, and the last good checkpoint kept.
#include <gtest/gtest.h>

#include <cmath>

#include "GuardHarness.hpp"

using namespace kirchhoff;
using namespace kirchhoff::test;

// The harness itself: without a fault the guard model runs to step 20, exits 0, and its final
// checkpoint is the exact oscillator state (|error| < 1e-14), so the fault tests below compare
// against a reference that is known to be right.
TEST(Guards, CleanRunFinishes) {
  const std::string out = freshOutdir("clean");
  const run::RunResult r = runGuard(guardDeck("none", 1), out);
  EXPECT_EQ(r.exitCode, kExitOk) << r.message;
  EXPECT_EQ(r.step, kGuardSteps);
  EXPECT_TRUE(r.message.empty()) << r.message;
  const std::string ck = newestCheckpoint(out);
  EXPECT_TRUE(contains(ck, checkpointName(kGuardSteps))) << ck;
  expectCleanState(readGuardCheckpoint(ck));
  const auto steps = loggedSteps(out);
  ASSERT_EQ(steps.size(), static_cast<std::size_t>(kGuardSteps + 1));
  EXPECT_EQ(steps.back(), kGuardSteps);
}

// NaN written into a replicated state field by step 7: exit 1, "step 7: non-finite value ... in
// state field 'p'[1]", the newest checkpoint is step 5 (the last good one) and holds the clean
// state; the log ends at step 6 (nothing of the bad state 7 was written).
TEST(Guards, NanInStateStopsAtThatStep) {
  const std::string out = freshOutdir("nan_state");
  const run::RunResult r = runGuard(guardDeck("nan_state", 7), out);
  EXPECT_EQ(r.exitCode, kExitNumerical);
  EXPECT_EQ(r.step, 7);
  EXPECT_TRUE(contains(r.message, "step 7: non-finite value (NaN/Inf) in state field 'p'[1]")) << r.message;
  EXPECT_TRUE(contains(r.message, "last good checkpoint kept: ")) << r.message;
  EXPECT_TRUE(contains(r.message, checkpointName(5))) << r.message;
  const std::string ck = newestCheckpoint(out);
  EXPECT_TRUE(contains(ck, checkpointName(5))) << ck;
  const State s = readGuardCheckpoint(ck);
  EXPECT_EQ(s.step, 5);
  expectCleanState(s);
  EXPECT_EQ(loggedSteps(out).back(), 6);
}

// +Inf in a distributed field: the message gives the global index (offset + local index).
TEST(Guards, InfInDistributedFieldStops) {
  const std::string out = freshOutdir("inf_state");
  const run::RunResult r = runGuard(guardDeck("inf_state", 12), out);
  EXPECT_EQ(r.exitCode, kExitNumerical);
  EXPECT_EQ(r.step, 12);
  EXPECT_TRUE(contains(r.message, "step 12: non-finite value (NaN/Inf) in state field 'w'[1]")) << r.message;
  EXPECT_TRUE(contains(r.message, checkpointName(10))) << r.message;
  const State s = readGuardCheckpoint(newestCheckpoint(out));
  EXPECT_EQ(s.step, 10);
  expectCleanState(s);
}

// A finite state whose invariant is NaN (e.g. an energy that overflows): exit 1, the message
// names the step and the invariant; last good checkpoint kept, no row for step 8 in the log.
TEST(Guards, NanInvariantStops) {
  const std::string out = freshOutdir("nan_invariant");
  const run::RunResult r = runGuard(guardDeck("nan_invariant", 8), out);
  EXPECT_EQ(r.exitCode, kExitNumerical);
  EXPECT_EQ(r.step, 8);
  EXPECT_TRUE(contains(r.message, "step 8: invariant 'energy' is not finite (NaN/Inf)")) << r.message;
  EXPECT_TRUE(contains(r.message, "last good checkpoint kept: ")) << r.message;
  const State s = readGuardCheckpoint(newestCheckpoint(out));
  EXPECT_EQ(s.step, 5);
  expectCleanState(s);
  EXPECT_EQ(loggedSteps(out).back(), 7);
}

// The step itself fails with NumericalError (what DelSolver/FluidBodyModel throw when SNES
// diverges): exit 1, "step 13 failed: <the solver's message>", last good checkpoint (10) kept.
TEST(Guards, FailedStepStops) {
  const std::string out = freshOutdir("step_throws");
  const run::RunResult r = runGuard(guardDeck("step_throws", 13), out);
  EXPECT_EQ(r.exitCode, kExitNumerical);
  EXPECT_EQ(r.step, 12);  // the last state reached
  EXPECT_TRUE(contains(r.message, "step 13 failed: SNES (-del_) did not converge: DIVERGED_FNORM_NAN"))
      << r.message;
  EXPECT_TRUE(contains(r.message, checkpointName(10))) << r.message;
  const State s = readGuardCheckpoint(newestCheckpoint(out));
  EXPECT_EQ(s.step, 10);
  expectCleanState(s);
  EXPECT_EQ(loggedSteps(out).back(), 12);
}

// A plain exception out of a step (a bug) is also caught: exit 1, "internal error", step named.
TEST(Guards, InternalErrorInStepStops) {
  const std::string out = freshOutdir("step_internal");
  const run::RunResult r = runGuard(guardDeck("step_internal", 3), out);
  EXPECT_EQ(r.exitCode, kExitNumerical);
  EXPECT_TRUE(contains(r.message, "step 3 failed: internal error: guard model bug")) << r.message;
  EXPECT_TRUE(contains(r.message, checkpointName(0))) << r.message;
  const State s = readGuardCheckpoint(newestCheckpoint(out));
  EXPECT_EQ(s.step, 0);
  expectCleanState(s);
}

// A physical stop condition (a vortex too close to a body) is raised on a valid state: the run
// writes a checkpoint of that very step (9) and exits 1 naming it.
TEST(Guards, PhysicalStopCheckpointsThatStep) {
  const std::string out = freshOutdir("physical_stop");
  const run::RunResult r = runGuard(guardDeck("physical_stop", 9), out);
  EXPECT_EQ(r.exitCode, kExitNumerical);
  EXPECT_EQ(r.step, 9);
  EXPECT_TRUE(contains(r.message, "step 9: vortex 0 is 0.01 from body 0")) << r.message;
  EXPECT_TRUE(contains(r.message, "checkpoint written: ")) << r.message;
  const std::string ck = newestCheckpoint(out);
  EXPECT_TRUE(contains(ck, checkpointName(9))) << ck;
  const State s = readGuardCheckpoint(ck);
  EXPECT_EQ(s.step, 9);
  expectCleanState(s);
}

// A NaN in the initial state (e.g. from a deck value that overflows in the set-up) that no
// invariant shows is refused before anything is written: exit 1, the message says "initial
// state" and names the field, no checkpoint exists (a NaN checkpoint 0 would be "kept" as good).
TEST(Guards, NanInitialStateIsRefused) {
  const std::string out = freshOutdir("nan_initial");
  const run::RunResult r = runGuard(guardDeck("nan_initial", 0), out);
  EXPECT_EQ(r.exitCode, kExitNumerical);
  EXPECT_EQ(r.step, 0);
  EXPECT_TRUE(contains(r.message, "initial state")) << r.message;
  EXPECT_TRUE(contains(r.message, "non-finite value (NaN/Inf) in state field 'w'[0]")) << r.message;
  EXPECT_EQ(newestCheckpoint(out), "");
}

// The kept checkpoint is usable: after the NaN at step 7, --restart (fault removed) resumes at
// step 5 and ends bitwise equal to a clean run, with the log of a clean run (steps 0..20 once).
TEST(Guards, RestartFromKeptCheckpointMatchesCleanRun) {
  const std::string out = freshOutdir("nan_then_restart");
  ASSERT_EQ(runGuard(guardDeck("nan_state", 7), out).exitCode, kExitNumerical);
  const run::RunResult r = runGuard(guardDeck("none", 7), out, /*restart=*/true);
  EXPECT_EQ(r.exitCode, kExitOk) << r.message;
  EXPECT_EQ(r.step, kGuardSteps);
  const State s = readGuardCheckpoint(newestCheckpoint(out));
  EXPECT_EQ(s.step, kGuardSteps);
  expectCleanState(s);
  const auto steps = loggedSteps(out);
  ASSERT_EQ(steps.size(), static_cast<std::size_t>(kGuardSteps + 1));
  for (std::size_t i = 0; i < steps.size(); ++i) EXPECT_EQ(steps[i], static_cast<std::int64_t>(i));
}
