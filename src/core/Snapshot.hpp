// A model's picture of its state for trajectory output (body polygons, vortices, a free surface):
// plain geometry the io/SnapshotWriter stores in HDF5 with an XDMF index for ParaView.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "core/Quantity.hpp"

namespace kirchhoff {

/// One geometric object set: points in 2D or 3D, grouped into cells of one topology.
struct SnapshotMesh {
  enum class Topology { Points, Polyline, Polygon };
  std::string name;                 ///< e.g. "bodies", "vortices", "surface"
  Topology topology = Topology::Points;
  int dim = 2;                      ///< 2 or 3 coordinates per point
  std::vector<double> coordinates;  ///< dim * npoints, interleaved
  std::vector<int> cellSizes;       ///< points per cell (Polyline / Polygon); empty for Points
  /// Per-point attributes (name, one value per point).
  std::vector<std::pair<std::string, std::vector<double>>> attributes;
  /// Per-point vectors (name, dim values per point, interleaved), e.g. velocities.
  std::vector<std::pair<std::string, std::vector<double>>> vectors;
  /// Optional names of the cells (e.g. the deck's body names), one per cell.
  std::vector<std::string> cellNames;

  int pointCount() const { return static_cast<int>(coordinates.size()) / dim; }
};

/// All meshes of one snapshot. Only rank 0's snapshot is written: models gather to rank 0.
struct Snapshot {
  std::vector<SnapshotMesh> meshes;
  /// What the point attributes and vectors are, by name (and `coordinates` when they are not
  /// plain positions): the datasets' units, description and kind, from the model's table.
  std::vector<Quantity> quantities;
};

}  // namespace kirchhoff
