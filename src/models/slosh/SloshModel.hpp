// The slosh model on a distributed grid: particle paths x_i, velocities w_i on a 1-D PETSc DMDA
// (one ghost each side), vehicle q, p replicated; Stormer-Verlet of docs/slosh.md (SL-10).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <mpi.h>
#include <petscdmda.h>

#include "core/Model.hpp"
#include "models/slosh/Discretization.hpp"
#include "models/slosh/Measures.hpp"
#include "models/slosh/SloshConfig.hpp"

namespace kirchhoff::slosh {

/// State fields: "x", "w" (distributed, node i = 1..N at global index i - 1), "q", "p" and
/// "impulse" (replicated, one value each; impulse = accumulated spring impulse, so p + impulse = p^0).
/// Sums (sigma, energies) are compensated per rank and combined in rank order on every rank, so a
/// run is bitwise reproducible on a given rank count and agrees with other rank counts to rounding.
class SloshModel final : public Model {
 public:
  /// Throws ConfigurationError (bad parameters, fewer points than ranks).
  SloshModel(const Config& cfg, double dt, MPI_Comm comm);
  ~SloshModel() override;
  SloshModel(const SloshModel&) = delete;
  SloshModel& operator=(const SloshModel&) = delete;

  std::string name() const override { return "slosh"; }
  State initialState() override;
  void restore(State& s) override;
  StepReport step(State& s) override;
  /// energy (E - E_rest), vehicle_energy, momentum_balance (p + impulse), q, qdot, mass, min_depth,
  /// min_stretch.
  LogRow logRow(const State& s, const StepReport& last) override;
  /// Every column the log can have, and its time in seconds (docs/output.md "The invariant log").
  static const std::vector<Column>& logColumns();
  /// Stops (NumericalError with checkpointState) before x_a <= 0: when x_a jumps by more than the
  /// fraction stop.maxJump between neighbouring cells (a bore), min x_a < stop.minStretch, or a depth
  /// falls below stop.minDepthFraction * mean depth (a dry point). The message names the particle, the
  /// measured value and the deck key.
  void check(const State& s) override;
  /// "surface": Polyline (x, h) of the N + 2 nodes in the tank frame, gathered to rank 0, with
  /// attributes label a, depth h, velocity (relative to the tank) and lab_x = q + x.
  bool snapshot(const State& s, Snapshot& out) override;
  std::string summary(const State& s) override;

  const Discretization& discretization() const { return disc_; }
  const Config& config() const { return cfg_; }
  std::size_t firstNode() const { return c_.first; }  ///< 1-based index of this rank's first node
  std::size_t ownedNodes() const { return c_.n; }
  /// Collective: all invariants of s (the same on every rank).
  SloshInvariants measure(const State& s);

 private:
  PetscErrorCode createGrid();
  /// ghosted = [v_{first-1}, slab of v, v_{first+n}] (physical-boundary ghosts left untouched).
  PetscErrorCode scatterGhosts(const double* v, double* ghosted);
  void ghosts(const std::vector<double>& x);
  double sumOverRanks(const CompensatedSum& local) const;
  SlabMeasures combineOverRanks(const SlabMeasures& local) const;
  void checkFields(const State& s) const;

  Config cfg_;
  Discretization disc_;
  MPI_Comm comm_;
  int rank_ = 0, size_ = 1;
  DM dm_ = nullptr;
  Vec global_ = nullptr, local_ = nullptr;
  SlabCoefficients c_;
  std::vector<double> xg_, xNew_, wNew_;
  std::vector<double> lastInvariants_;
  PetscLogStage stepStage_ = 0, measureStage_ = 0;
};

}  // namespace kirchhoff::slosh
