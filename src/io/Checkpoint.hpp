// Checkpoints of a State in OUTDIR/checkpoints/: written collectively (parallel HDF5) to a
// temporary name, flushed, renamed by rank 0; verified on read by a hash of the state values.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <mpi.h>

#include "core/State.hpp"

namespace kirchhoff::io {

/// Metadata of a checkpoint besides the state values.
struct CheckpointInfo {
  std::string path;
  std::int64_t step = 0;
  double time = 0.0;
  double dt = 0.0;
  std::string model;
  std::uint64_t deckHash = 0;
  std::uint64_t stateHash = 0;
  std::string deckText;  ///< the deck the checkpoint was written with ("" in older checkpoints)
  std::string petscOptions;  ///< the PETSc options in effect then ("" in older checkpoints)
  bool hasPetscOptions = false;  ///< false: written before checkpoints stored them
};

/// Hash of every field value, its name and position, and of step and time. Independent of the
/// distribution over ranks (a position-keyed sum), collective on comm.
std::uint64_t stateHash(const State& s, MPI_Comm comm);

class CheckpointStore {
 public:
  CheckpointStore(MPI_Comm comm, std::string directory, int keep);

  /// Writes `s` as checkpoint_<step>.h5 (collective); keeps the `keep` newest. Returns the path.
  /// `deckText` is stored (dataset /deck) and `petscOptions` (attribute petsc_options) so a
  /// restart can name the keys and options that changed. Any
  /// rank's failure throws CheckpointError on every rank; the temporary file is removed and the
  /// older checkpoints are untouched.
  std::string write(const State& s, const std::string& model, double dt, std::uint64_t deckHash,
                    const std::string& deckText = "", const std::string& petscOptions = "");
  /// Reads the checkpoint at `path` into `s`, which must carry the model's field layout
  /// (names, sizes, distributed offsets) from Model::initialState. Throws CheckpointError.
  CheckpointInfo read(const std::string& path, State& s, const std::string& model) const;
  /// Reads the newest valid checkpoint, falling back to older ones; each rejected file adds a
  /// warning. Throws CheckpointError if none is usable.
  CheckpointInfo readNewest(State& s, const std::string& model,
                            std::vector<std::string>* warnings) const;
  /// Checkpoint files, newest first.
  std::vector<std::string> list() const;
  /// Rank-local (rank 0): moves the checkpoints of steps after `step` (and another file of that
  /// step than `restartedFrom`) to the folder retired-<step>/ of the store, so that a plain
  /// --restart after a rewind cannot pick a checkpoint of the abandoned continuation. Returns
  /// the folder ("" if nothing was moved); nothing is deleted.
  std::string retireNewerThan(std::int64_t step, const std::string& restartedFrom) const;
  const std::string& directory() const { return dir_; }

 private:
  void writeFile(const std::string& tmp, const State& s, const std::string& model, double dt,
                 std::uint64_t deckHash, const std::string& deckText, const std::string& petscOptions,
                 std::uint64_t hash) const;
  MPI_Comm comm_;
  std::string dir_;
  int keep_;
};

}  // namespace kirchhoff::io
