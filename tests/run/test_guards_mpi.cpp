// Numerical guards on 2 and 3 ranks (run/Simulation.cpp): a fault seen on one rank only stops
// every rank at the same step with the same message and exit code (no hang), last good
// checkpoint kept; distributed fields report the global index of the bad value.
#include <gtest/gtest.h>

#include "GuardHarness.hpp"

using namespace kirchhoff;
using namespace kirchhoff::test;

namespace {

int lastRank() {
  int n = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  return n - 1;
}

/// Every rank got the same exit code, step and message (compared by length and a checksum).
void expectAgreed(const run::RunResult& r) {
  long mine[3] = {r.exitCode, static_cast<long>(r.step), static_cast<long>(r.message.size())};
  long lo[3], hi[3];
  MPI_Allreduce(mine, lo, 3, MPI_LONG, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(mine, hi, 3, MPI_LONG, MPI_MAX, MPI_COMM_WORLD);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(lo[i], hi[i]) << "ranks disagree in result field " << i;
  long sum = 0;
  for (unsigned char c : r.message) sum = sum * 31 % 1000000007 + c;
  long smin = 0, smax = 0;
  MPI_Allreduce(&sum, &smin, 1, MPI_LONG, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(&sum, &smax, 1, MPI_LONG, MPI_MAX, MPI_COMM_WORLD);
  EXPECT_EQ(smin, smax) << "ranks print different messages";
}

}  // namespace

// NaN on the last rank only (in a replicated field): all ranks stop at step 7 with exit 1.
TEST(GuardsMpi, NanOnOneRankStopsAll) {
  const std::string out = freshOutdir("mpi_nan_state");
  const run::RunResult r = runGuard(guardDeck("nan_state", 7, lastRank()), out);
  expectAgreed(r);
  EXPECT_EQ(r.exitCode, kExitNumerical);
  EXPECT_EQ(r.step, 7);
  EXPECT_TRUE(contains(r.message, "step 7: non-finite value (NaN/Inf) in state field 'p'[1]")) << r.message;
  EXPECT_TRUE(contains(r.message, checkpointName(5))) << r.message;
  const State s = readGuardCheckpoint(newestCheckpoint(out));
  EXPECT_EQ(s.step, 5);
  expectCleanState(s);
}

// Inf in the distributed field on the last rank: the message gives the global index
// 2 * rank + 1 (slab offset + local index 1), not the local one.
TEST(GuardsMpi, InfInDistributedFieldNamesGlobalIndex) {
  const std::string out = freshOutdir("mpi_inf_state");
  const run::RunResult r = runGuard(guardDeck("inf_state", 4, lastRank()), out);
  expectAgreed(r);
  EXPECT_EQ(r.exitCode, kExitNumerical);
  EXPECT_EQ(r.step, 4);
  const std::string idx = "'w'[" + std::to_string(2 * lastRank() + 1) + "]";
  EXPECT_TRUE(contains(r.message, "step 4: non-finite value (NaN/Inf) in state field " + idx)) << r.message;
  const State s = readGuardCheckpoint(newestCheckpoint(out));
  EXPECT_EQ(s.step, 0);
  expectCleanState(s);
}

// The step fails (SNES divergence) on the last rank only: no rank hangs in a collective, all
// return exit 1 with the failing rank's message.
TEST(GuardsMpi, FailedStepOnOneRankStopsAll) {
  const std::string out = freshOutdir("mpi_step_throws");
  const run::RunResult r = runGuard(guardDeck("step_throws", 16, lastRank()), out);
  expectAgreed(r);
  EXPECT_EQ(r.exitCode, kExitNumerical);
  EXPECT_EQ(r.step, 15);
  EXPECT_TRUE(contains(r.message, "step 16 failed: SNES (-del_) did not converge")) << r.message;
  EXPECT_TRUE(contains(r.message, checkpointName(15))) << r.message;
  const State s = readGuardCheckpoint(newestCheckpoint(out));
  EXPECT_EQ(s.step, 15);
  expectCleanState(s);
}

// A physical stop seen on rank 0 only: the checkpoint of that step is written collectively.
TEST(GuardsMpi, PhysicalStopOnOneRankCheckpointsThatStep) {
  const std::string out = freshOutdir("mpi_physical_stop");
  const run::RunResult r = runGuard(guardDeck("physical_stop", 11, 0), out);
  expectAgreed(r);
  EXPECT_EQ(r.exitCode, kExitNumerical);
  EXPECT_EQ(r.step, 11);
  EXPECT_TRUE(contains(r.message, "checkpoint written: ")) << r.message;
  const std::string ck = newestCheckpoint(out);
  EXPECT_TRUE(contains(ck, checkpointName(11))) << ck;
  const State s = readGuardCheckpoint(ck);
  EXPECT_EQ(s.step, 11);
  expectCleanState(s);
}

// A NaN invariant on one rank (invariants are collective): every rank stops at step 3.
TEST(GuardsMpi, NanInvariantOnOneRankStopsAll) {
  const std::string out = freshOutdir("mpi_nan_invariant");
  const run::RunResult r = runGuard(guardDeck("nan_invariant", 3, lastRank()), out);
  expectAgreed(r);
  EXPECT_EQ(r.exitCode, kExitNumerical);
  EXPECT_EQ(r.step, 3);
  EXPECT_TRUE(contains(r.message, "step 3: invariant 'energy' is not finite")) << r.message;
}

// A step that stops on its valid start state on the last rank only: every rank writes the
// checkpoint of step 5 (collective) and stops with the same message.
TEST(GuardsMpi, StepStopOnOneRankCheckpointsEverywhere) {
  const std::string out = freshOutdir("mpi_step_stops");
  const run::RunResult r = runGuard(guardDeck("step_stops", 6, lastRank()), out);
  expectAgreed(r);
  EXPECT_EQ(r.exitCode, kExitNumerical);
  EXPECT_EQ(r.step, 5);
  EXPECT_TRUE(contains(r.message, "step 6 failed: the fluid's error estimate")) << r.message;
  EXPECT_TRUE(contains(r.message, "checkpoint of step 5 written")) << r.message;
  const State s = readGuardCheckpoint(newestCheckpoint(out));
  EXPECT_EQ(s.step, 5);
  expectCleanState(s);
}
