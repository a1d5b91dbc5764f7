// Configuration checks (fluidbody.md "Conventions"): bodies disjoint (edge crossings or one body
// inside another), vortices in the fluid and at least one panel length from every boundary.
#include "fluid/geometry/ConfigurationChecks.hpp"

#include <algorithm>
#include <sstream>

#include "core/Error.hpp"

namespace kirchhoff::fluid {

namespace {

std::vector<Vec2> placed(const Polygon& p, const lie::Pose& g) {
  std::vector<Vec2> v;
  v.reserve(p.vertices.size());
  for (const Vec2& Z : p.vertices) v.push_back(g.apply(Z));
  return v;
}

/// Axis-aligned bounding box of placed vertices.
struct Box {
  Eigen::Vector2d lo, hi;
  explicit Box(const std::vector<Vec2>& v) : lo(v[0]), hi(v[0]) {
    for (const Vec2& w : v) lo = lo.cwiseMin(w), hi = hi.cwiseMax(w);
  }
  bool meets(const Box& o) const { return !((lo.array() > o.hi.array()).any() || (o.lo.array() > hi.array()).any()); }
};

bool overlap(const Polygon& pa, const std::vector<Vec2>& a, const lie::Pose& ga, const Polygon& pb,
             const std::vector<Vec2>& b, const lie::Pose& gb) {
  const int na = static_cast<int>(a.size()), nb = static_cast<int>(b.size());
  for (int i = 0; i < na; ++i)
    for (int k = 0; k < nb; ++k)
      if (segmentsIntersect(a[i], a[(i + 1) % na], b[k], b[(k + 1) % nb])) return true;
  // No crossing: overlap only if one contains the other.
  return contains(pb, gb.applyInverse(a[0])) || contains(pa, ga.applyInverse(b[0]));
}

/// Radius of the disk about the body-frame origin holding the outline.
double outlineRadius(const Polygon& p) {
  double r = 0.0;
  for (const Vec2& Z : p.vertices) r = std::max(r, Z.norm());
  return r;
}

}  // namespace

std::string configurationProblem(const std::vector<Polygon>& bodies,
                                 const std::vector<lie::Pose>& poses, const Vortices& vortices,
                                 double panelLengths) {
  std::ostringstream os;
  const int n = static_cast<int>(bodies.size());
  if (static_cast<int>(poses.size()) != n) {
    os << poses.size() << " poses for " << n << " bodies";
    return os.str();
  }
  std::vector<std::vector<Vec2>> outline(n);
  std::vector<Box> box;
  std::vector<double> reach(n);  // a vortex farther than this from the centre passes every check
  for (int j = 0; j < n; ++j) {
    outline[j] = placed(bodies[j], poses[j]);
    box.emplace_back(outline[j]);
    reach[j] = outlineRadius(bodies[j]) + panelLengths * longestEdge(bodies[j]);
  }
  for (int j = 0; j < n; ++j)
    for (int k = j + 1; k < n; ++k)
      if (box[j].meets(box[k]) && overlap(bodies[j], outline[j], poses[j], bodies[k], outline[k], poses[k])) {
        os << "bodies " << j << " (" << bodies[j].name << ") and " << k << " (" << bodies[k].name
           << ") overlap";
        return os.str();
      }
  for (int i = 0; i < vortices.size(); ++i)
    for (int j = 0; j < n; ++j) {
      if ((vortices.gamma[i] - poses[j].y).norm() > reach[j]) continue;
      const Vec2 Z = poses[j].applyInverse(vortices.gamma[i]);
      if (contains(bodies[j], Z)) {
        os << "vortex " << i << " at (" << vortices.gamma[i].x() << ", " << vortices.gamma[i].y()
           << ") is inside body " << j << " (" << bodies[j].name << ")";
        return os.str();
      }
      int edge = 0;
      const double d = boundaryDistance(bodies[j], Z, &edge);
      const double h = (bodies[j].vertices[(edge + 1) % bodies[j].size()] - bodies[j].vertices[edge]).norm();
      if (d < panelLengths * h) {
        os << "vortex " << i << " at (" << vortices.gamma[i].x() << ", " << vortices.gamma[i].y()
           << ") is " << d << " from body " << j << " (" << bodies[j].name
           << "), closer than one panel length (" << h
           << "): the panel fields are not resolved there; refine the body or move the vortex";
        return os.str();
      }
    }
  return "";
}

void checkConfiguration(const std::vector<Polygon>& bodies, const std::vector<lie::Pose>& poses,
                        const Vortices& vortices, double panelLengths) {
  const std::string problem = configurationProblem(bodies, poses, vortices, panelLengths);
  if (!problem.empty()) throw ConfigurationError("configuration: " + problem);
}

}  // namespace kirchhoff::fluid
