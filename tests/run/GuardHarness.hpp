// Helpers for the run-loop guard tests: a deck for the guard model, one run through
// run::runSimulation, the newest checkpoint read back, and the clean reference state at step k.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include <mpi.h>

#include "GuardModel.hpp"
#include "io/Checkpoint.hpp"
#include "io/Deck.hpp"
#include "io/Hdf5.hpp"
#include "run/Simulation.hpp"

namespace kirchhoff::test {

constexpr double kGuardDt = 0.1;
constexpr int kGuardSteps = 20;
constexpr int kGuardCheckpointInterval = 5;

/// Deck text: 20 steps of dt 0.1, checkpoints every 5 steps, the given fault.
inline std::string guardDeck(const std::string& fault, int atStep, int onRank = -1) {
  return "model: guard\n"
         "time: {dt: 0.1, steps: 20}\n"
         "output: {checkpoint_interval: 5, keep_checkpoints: 2, progress_interval: 0, flush_interval: 3}\n"
         "guard: {fault: " + fault + ", at_step: " + std::to_string(atStep) +
         ", on_rank: " + std::to_string(onRank) + "}\n";
}

inline int commRank(MPI_Comm c = MPI_COMM_WORLD) {
  int r = 0;
  MPI_Comm_rank(c, &r);
  return r;
}

/// A fresh output folder (removed by rank 0, then every rank waits).
inline std::string freshOutdir(const std::string& name) {
  const std::string d = "tmp_run_" + name;
  if (commRank() == 0) std::filesystem::remove_all(d);
  MPI_Barrier(MPI_COMM_WORLD);
  return d;
}

/// Runs the guard model on MPI_COMM_WORLD.
inline run::RunResult runGuard(const std::string& deckText, const std::string& outdir,
                               bool restart = false) {
  static const run::Driver driver = guardDriver();
  static const io::Schema schema = run::driverSchema(driver);
  const io::Deck deck(deckText, "guard.yaml", schema);
  run::RunOptions o;
  o.outdir = outdir;
  o.restart = restart;
  o.startTime = MPI_Wtime();
  return run::runSimulation(MPI_COMM_WORLD, driver, deck, o);
}

/// The state of a clean run after k steps (same arithmetic as the run loop: step, then time).
inline State cleanState(std::int64_t k) {
  GuardModel m(MPI_COMM_WORLD, kGuardDt, "none", 0, -1);
  State s = m.initialState();
  for (std::int64_t i = 0; i < k; ++i) {
    m.step(s);
    s.step += 1;
    s.time = static_cast<double>(s.step) * kGuardDt;
  }
  return s;
}

/// Newest checkpoint file in OUTDIR/checkpoints ("" if none).
inline std::string newestCheckpoint(const std::string& outdir) {
  io::CheckpointStore store(MPI_COMM_WORLD, outdir + "/checkpoints", 2);
  const auto files = store.list();
  return files.empty() ? "" : files.front();
}

/// Reads a checkpoint of the guard model (throws CheckpointError if it is not readable).
inline State readGuardCheckpoint(const std::string& path) {
  io::CheckpointStore store(MPI_COMM_WORLD, std::filesystem::path(path).parent_path().string(), 2);
  GuardModel m(MPI_COMM_WORLD, kGuardDt, "none", 0, -1);
  State s = m.initialState();
  store.read(path, s, "guard");
  return s;
}

/// Expects `s` bitwise equal to the clean state at its step, and within 1e-14 of the exact
/// oscillator (q, p) = (cos t, -sin t): k exact rotations accumulate ~ k ulp of rounding.
inline void expectCleanState(const State& s) {
  const State ref = cleanState(s.step);
  EXPECT_EQ(s.time, ref.time);
  for (const auto& f : ref.fields) {
    const Field* g = s.find(f.name);
    ASSERT_NE(g, nullptr) << f.name;
    ASSERT_EQ(g->data.size(), f.data.size()) << f.name;
    for (std::size_t i = 0; i < f.data.size(); ++i) EXPECT_EQ(g->data[i], f.data[i]) << f.name << "[" << i << "]";
  }
  const double t = static_cast<double>(s.step) * kGuardDt;
  EXPECT_NEAR(s["q"][0], std::cos(t), 1e-14);
  EXPECT_NEAR(s["p"][0], -std::sin(t), 1e-14);
}

/// Steps in OUTDIR/invariants.h5 (read on every rank; the file is closed between flushes).
inline std::vector<std::int64_t> loggedSteps(const std::string& outdir) {
  io::h5::silenceErrors();
  io::h5::Handle f(io::h5::check(H5Fopen((outdir + "/invariants.h5").c_str(), H5F_ACC_RDONLY, H5P_DEFAULT),
                                 "open log"));
  io::h5::Handle g(io::h5::check(H5Gopen2(f, "invariants", H5P_DEFAULT), "open /invariants"));
  return io::h5::readInt64s(g, "step");
}

inline std::string checkpointName(std::int64_t step) {
  char b[64];
  std::snprintf(b, sizeof b, "checkpoint_%010lld.h5", static_cast<long long>(step));
  return b;
}

inline bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace kirchhoff::test
