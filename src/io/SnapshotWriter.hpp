// Trajectory snapshots: OUTDIR/snapshots.h5 (per mesh, extendible datasets of frames) and one XDMF
// index per mesh, OUTDIR/snapshots_<mesh>.xmf, for ParaView (docs/output.md "Snapshots"). Rank 0.
#pragma once

#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "core/Quantity.hpp"
#include "core/Snapshot.hpp"
#include "io/Hdf5.hpp"

namespace kirchhoff::io {

/// Each snapshot costs O(1) in the number of earlier ones: the file stays open, every dataset
/// grows by one row and the topology is written once. The file is flushed (and each .xmf
/// extended by the frames since, written before its closing tags, which are rewritten behind
/// them) at most once a second, at flush() (the run loop calls it at every checkpoint, so a
/// restart finds every frame up to its step) and at the end: HDF5's flush visits its whole
/// cache, so a flush per frame would grow with the file. The layout of the meshes (names,
/// point counts, cells, attributes) is fixed by the first snapshot.
class SnapshotWriter {
 public:
  /// `restartStep` < 0: a fresh file (old snapshots and .xmf files removed); otherwise the
  /// existing file is cut back to the frames at or before that step (a frame written only
  /// because a run ended there is dropped too, so a continued run equals an uninterrupted one)
  /// and the .xmf files are rebuilt from it. An unreadable file is set aside as
  /// snapshots.h5.unreadable-<restartStep> and a fresh one started; `warning` then says so. `provenance`
  /// (model, code_version, git_sha, deck, ...) becomes root attributes (the deck a dataset);
  /// `time` describes the time dataset (the model's units). The model's Snapshot describes the rest.
  SnapshotWriter(std::string h5path, std::string xmfPrefix, std::int64_t restartStep,
                 const std::map<std::string, std::string>& provenance = {},
                 std::string* warning = nullptr, Quantity time = timeQuantity());
  SnapshotWriter(SnapshotWriter&&) noexcept;
  SnapshotWriter& operator=(SnapshotWriter&&) noexcept;
  SnapshotWriter(const SnapshotWriter&) = delete;
  SnapshotWriter& operator=(const SnapshotWriter&) = delete;
  ~SnapshotWriter();

  /// Appends one frame; `endOfRun`: a final state off the snapshot grid (see the constructor).
  /// Writing a step at or before the last stored one is ignored.
  void write(std::int64_t step, double time, const Snapshot& snap, bool endOfRun = false);
  /// Writes everything to disk: the HDF5 file and the .xmf frames since the last flush.
  void flush();
  /// Number of frames stored and the step of the last one (-1 if none).
  std::int64_t frames() const { return frames_; }
  std::int64_t lastStep() const { return lastStep_; }

 private:
  struct MeshLayout {
    std::string name;
    int dim = 2, topology = 0;
    long points = 0, cells = 0, topologyLength = 0;
    std::vector<std::string> scalars, vectors, integers;  ///< integers: a subset of scalars
    std::vector<h5::Handle> sets;  ///< open datasets: coordinates, scalars, vectors (in order)
  };
  void createFile(const std::map<std::string, std::string>& provenance);
  bool reopen(std::int64_t restartStep, std::string* why);
  void defineMeshes(const Snapshot& snap);
  void checkLayout(const Snapshot& snap, std::int64_t step) const;
  void openSets();
  void openXdmf(bool rebuild);
  void appendXdmfFrame(std::size_t mesh, std::int64_t frame, double time);
  std::string frameText(const MeshLayout& m, std::int64_t frame, double time) const;

  std::string h5_, xmfPrefix_;
  Quantity time_;
  h5::Handle file_, stepSet_, timeSet_, endSet_;
  std::vector<MeshLayout> meshes_;
  std::vector<double> times_;
  std::int64_t frames_ = 0, lastStep_ = -1, indexed_ = 0;  ///< indexed_: frames in the .xmf
  double lastFlush_ = 0.0;                                   ///< steady-clock seconds
  struct Xdmf {
    std::FILE* file = nullptr;
    long bodyEnd = 0;
  };
  std::vector<Xdmf> xmf_;
};

}  // namespace kirchhoff::io
