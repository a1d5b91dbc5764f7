// Trajectory snapshots: OUTDIR/snapshots.h5 (one group per snapshot step) and the XDMF index
// OUTDIR/snapshots.xmf, so ParaView opens a run as an animation. Rank 0 writes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/Snapshot.hpp"

namespace kirchhoff::io {

class SnapshotWriter {
 public:
  /// `restartStep` < 0: a fresh file; otherwise the existing file is kept up to that step.
  SnapshotWriter(std::string h5path, std::string xmfPath, std::int64_t restartStep);
  void write(std::int64_t step, double time, const Snapshot& snap);

 private:
  /// Sizes and names of one stored mesh: all the XDMF text needs.
  struct MeshLayout {
    std::string name;
    int dim = 2;
    long points = 0, cells = 0, topologyLength = 0;
    std::vector<std::string> attributes;
  };
  struct Entry {
    std::int64_t step;
    double time;
    std::vector<MeshLayout> meshes;
  };
  void writeXdmf() const;
  std::string h5_, xmf_;
  std::vector<Entry> entries_;
};

}  // namespace kirchhoff::io
