// Trajectory snapshots: OUTDIR/snapshots.h5 (per mesh, extendible datasets of frames) and one XDMF
// index per mesh, OUTDIR/snapshots_<mesh>.xmf, for ParaView (docs/output.md "Snapshots"). Rank 0.
#pragma once

#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "core/Snapshot.hpp"
#include "io/Hdf5.hpp"

namespace kirchhoff::io {

/// Each snapshot costs O(1) in the number of earlier ones: the file stays open, every dataset
/// grows by one row, the topology is written once, and each .xmf grows by one frame (written
/// before its closing tags, which are rewritten behind it). The layout of the meshes (names,
/// point counts, cells, attributes) is fixed by the first snapshot.
class SnapshotWriter {
 public:
  /// `restartStep` < 0: a fresh file (old snapshots and .xmf files removed); otherwise the
  /// existing file is cut back to the frames at or before that step (a frame written only
  /// because a run ended there is dropped too, so a continued run equals an uninterrupted one)
  /// and the .xmf files are rebuilt from it. An unreadable file is set aside as
  /// snapshots.h5.damaged and a fresh one started; `warning` then says so. `provenance`
  /// (model, code_version, git_sha, deck, ...) becomes root attributes (the deck a dataset).
  SnapshotWriter(std::string h5path, std::string xmfPrefix, std::int64_t restartStep,
                 const std::map<std::string, std::string>& provenance = {},
                 std::string* warning = nullptr);
  SnapshotWriter(SnapshotWriter&&) noexcept;
  SnapshotWriter& operator=(SnapshotWriter&&) noexcept;
  SnapshotWriter(const SnapshotWriter&) = delete;
  SnapshotWriter& operator=(const SnapshotWriter&) = delete;
  ~SnapshotWriter();

  /// Appends one frame; `endOfRun`: a final state off the snapshot grid (see the constructor).
  /// Writing a step at or before the last stored one is ignored.
  void write(std::int64_t step, double time, const Snapshot& snap, bool endOfRun = false);
  /// Number of frames stored and the step of the last one (-1 if none).
  std::int64_t frames() const { return frames_; }
  std::int64_t lastStep() const { return lastStep_; }

 private:
  struct MeshLayout {
    std::string name;
    int dim = 2, topology = 0;
    long points = 0, cells = 0, topologyLength = 0;
    std::vector<std::string> scalars, vectors, integers;  ///< integers: a subset of scalars
  };
  void createFile(const std::map<std::string, std::string>& provenance);
  bool reopen(std::int64_t restartStep, std::string* why);
  void defineMeshes(const Snapshot& snap);
  void checkLayout(const Snapshot& snap, std::int64_t step) const;
  void openXdmf(bool rebuild);
  void appendXdmfFrame(std::size_t mesh, std::int64_t frame, double time);
  std::string frameText(const MeshLayout& m, std::int64_t frame, double time) const;

  std::string h5_, xmfPrefix_, model_;
  h5::Handle file_;
  std::vector<MeshLayout> meshes_;
  std::vector<double> times_;
  std::int64_t frames_ = 0, lastStep_ = -1;
  struct Xdmf {
    std::FILE* file = nullptr;
    long bodyEnd = 0;
  };
  std::vector<Xdmf> xmf_;
};

}  // namespace kirchhoff::io
