// Panel geometry of the bodies (fluidbody.md "Conventions", "Panel method"): body-frame panels,
// rigid-motion normal data and the spatial placement z = R_j Z + y_j.
#include "fluid/discretization/PanelGeometry.hpp"

#include <cmath>

#include "core/Error.hpp"

namespace kirchhoff::fluid {

PanelGeometry::PanelGeometry(const std::vector<Polygon>& polygons) {
  bodies = static_cast<int>(polygons.size());
  offset.assign(bodies + 1, 0);
  for (int j = 0; j < bodies; ++j) offset[j + 1] = offset[j] + polygons[j].size();
  panels = offset[bodies];
  body.resize(panels);
  next.resize(panels);
  start.resize(panels);
  mid.resize(panels);
  normal.resize(panels);
  length.resize(panels);
  turnStart.resize(panels);
  turnEnd.resize(panels);
  rigidData.resize(3 * panels);
  for (int j = 0; j < bodies; ++j) {
    const auto& v = polygons[j].vertices;
    const int n = polygons[j].size();
    for (int k = 0; k < n; ++k) {
      const int p = offset[j] + k;
      const Vec2 a = v[k], b = v[(k + 1) % n];
      body[p] = j;
      next[p] = offset[j] + (k + 1) % n;
      start[p] = a;
      mid[p] = 0.5 * (a + b);
      length[p] = (b - a).norm();
      const Vec2 t = (b - a) / length[p];
      normal[p] = Vec2(t.y(), -t.x());  // outward for a counter-clockwise polygon
      rigidData[3 * p + 0] = lie::cross(mid[p], normal[p]);
      rigidData[3 * p + 1] = normal[p].x();
      rigidData[3 * p + 2] = normal[p].y();
    }
    for (int k = 0; k < n; ++k) {
      // Turning angle at vertex k: from the direction of edge k-1 to that of edge k.
      const int p = offset[j] + k, prev = offset[j] + (k + n - 1) % n;
      const Vec2 t0 = Vec2(-normal[prev].y(), normal[prev].x());
      const Vec2 t1 = Vec2(-normal[p].y(), normal[p].x());
      const double e = std::atan2(lie::cross(t0, t1), t0.dot(t1));
      turnStart[p] = e;
      turnEnd[prev] = e;
    }
  }
  poses.assign(bodies, lie::Pose{});
  seg.resize(panels);
  m.resize(panels);
  nu.resize(panels);
  centre.resize(bodies);
  ax.resize(panels);
  ay.resize(panels);
  tbarRe.resize(panels);
  tbarIm.resize(panels);
  place(poses);
}

void PanelGeometry::place(const std::vector<lie::Pose>& g) {
  if (static_cast<int>(g.size()) != bodies)
    throw ConfigurationError("panel geometry: " + std::to_string(g.size()) + " poses for " +
                             std::to_string(bodies) + " bodies");
  for (int j = 0; j < bodies; ++j) placeBody(j, g[j]);
}

void PanelGeometry::placeBody(int j, const lie::Pose& g) {
  poses[j] = g;
  const lie::Mat2 R = lie::rotation(g.theta);
  centre[j] = lie::toComplex(g.y);
  for (int p = offset[j]; p < offset[j + 1]; ++p) {
    const Vec2 a = R * start[p] + g.y;
    const Vec2 b = R * start[next[p]] + g.y;
    const Vec2 n = R * normal[p];
    seg[p].a = lie::toComplex(a);
    seg[p].b = lie::toComplex(b);
    seg[p].l = length[p];
    seg[p].tbar = panel::Complex(-n.y(), -n.x());  // t = J n, conj(t)
    m[p] = lie::toComplex(R * mid[p] + g.y);
    nu[p] = lie::toComplex(n);
    ax[p] = a.x();
    ay[p] = a.y();
    tbarRe[p] = seg[p].tbar.real();
    tbarIm[p] = seg[p].tbar.imag();
  }
}

}  // namespace kirchhoff::fluid
