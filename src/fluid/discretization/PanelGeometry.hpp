// The panels of all bodies: body-frame geometry (constant), the rigid-motion Neumann data of
// fluidbody.md "Conventions" (Omega: Z x N, V: N), and their spatial placement for given poses.
#pragma once

#include <vector>

#include "fluid/discretization/PanelKernel.hpp"
#include "fluid/geometry/Polygon.hpp"
#include "lie/SE2.hpp"

namespace kirchhoff::fluid {

/// Panels of n bodies, numbered body by body: panel p of body j has offset[j] <= p < offset[j+1];
/// panel p runs from vertex p to vertex next[p] of its polygon (counter-clockwise).
struct PanelGeometry {
  int bodies = 0;
  int panels = 0;
  std::vector<int> offset;  ///< n + 1 entries
  std::vector<int> body;    ///< body of each panel
  std::vector<int> next;    ///< panel starting at this panel's end vertex
  // Body frame (constant):
  std::vector<Vec2> start, mid, normal;  ///< start vertex, midpoint, outward unit normal
  std::vector<double> length;
  std::vector<double> turnStart, turnEnd;  ///< turning angles at the two end vertices
  std::vector<double> rigidData;           ///< 3 per panel: Z x N, N_x, N_y at the midpoint
  // Spatial frame (current poses):
  std::vector<lie::Pose> poses;
  std::vector<panel::Segment> seg;
  std::vector<panel::Complex> m, nu;  ///< midpoints and normals as complex numbers
  std::vector<panel::Complex> centre; ///< branch point c_j = y_j (the body's centroid)
  /// The same, as plain arrays for the vectorized influence loops: start vertex a (x, y) and
  /// tbar = conj(t) (re, im) of every panel.
  std::vector<double> ax, ay, tbarRe, tbarIm;

  explicit PanelGeometry(const std::vector<Polygon>& polygons);
  /// Places the panels for the poses (one per body).
  void place(const std::vector<lie::Pose>& g);
  /// Places body j's panels at pose g.
  void placeBody(int j, const lie::Pose& g);
  int bodySize(int j) const { return offset[j + 1] - offset[j]; }
};

}  // namespace kirchhoff::fluid
