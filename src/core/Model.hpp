// The interface between physics and the generic run loop (run/Simulation): a model maps the
// one-step state k to k+1 and reports its invariants; it knows nothing of files, decks or signals.
#pragma once

#include <string>
#include <vector>

#include "core/LogColumns.hpp"
#include "core/Snapshot.hpp"
#include "core/State.hpp"

namespace kirchhoff {

/// What one step did (nonlinear iterations, final residual). Logged by the loop.
struct StepReport {
  int iterations = 0;
  double residualNorm = 0.0;
  int evaluations = 0;  ///< residual (function) evaluations, where the scheme counts them
};

class Model {
 public:
  virtual ~Model() = default;

  /// Model name as in the deck's `model:` key and the log's `model` attribute.
  virtual std::string name() const = 0;
  /// State at step 0 built from the configuration.
  virtual State initialState() = 0;
  /// Called after a checkpoint was read: checks field names and sizes (throws CheckpointError)
  /// and rebuilds caches. Must not change the state values.
  virtual void restore(State& s) = 0;
  /// Advances the fields of `s` from step k to k+1. Throws NumericalError on failure and then
  /// leaves `s` unchanged. The loop advances s.step and s.time afterwards.
  virtual StepReport step(State& s) = 0;
  /// The invariant-log row at `s` (the columns after `step` and `time`): each value beside the
  /// column the model declares for it (core/LogColumns.hpp), the same columns at every step of a
  /// run; `last` is the report of the step that produced `s` (zeros at step 0). Collective over
  /// the model's communicator; the result is the same on every rank.
  virtual LogRow logRow(const State& s, const StepReport& last) = 0;
  /// The row's values alone.
  std::vector<double> invariants(const State& s, const StepReport& last) { return logRow(s, last).values(); }
  /// Physical stop conditions checked on a valid state (a vortex too close to a body, a dry
  /// point, ...). Throws NumericalError(..., checkpointState = true) to stop with a checkpoint.
  virtual void check(const State& /*s*/) {}
  /// The invariant whose relative change the progress line shows ("energy" by default; a damped
  /// model shows its energy balance instead, since its energy decays by design).
  virtual std::string monitoredInvariant() const { return "energy"; }
  /// Fills a snapshot for the trajectory output; returns false if the model has none.
  virtual bool snapshot(const State& /*s*/, Snapshot& /*out*/) { return false; }
  /// One line for the sweep summary table (final state).
  virtual std::string summary(const State& /*s*/) { return ""; }
};

}  // namespace kirchhoff
