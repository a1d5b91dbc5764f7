// Configuration checks (fluidbody.md "Conventions"): bodies disjoint (edge crossings or one body
// inside another), vortices in the fluid and at least one panel length from every boundary.
#include "fluid/ConfigurationChecks.hpp"

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

bool overlap(const Polygon& pa, const std::vector<Vec2>& a, const lie::Pose& ga, const Polygon& pb,
             const std::vector<Vec2>& b, const lie::Pose& gb) {
  const int na = static_cast<int>(a.size()), nb = static_cast<int>(b.size());
  // Bounding boxes first.
  Eigen::Vector2d la = a[0], ua = a[0], lb = b[0], ub = b[0];
  for (const Vec2& v : a) la = la.cwiseMin(v), ua = ua.cwiseMax(v);
  for (const Vec2& v : b) lb = lb.cwiseMin(v), ub = ub.cwiseMax(v);
  if ((la.array() > ub.array()).any() || (lb.array() > ua.array()).any()) return false;
  for (int i = 0; i < na; ++i)
    for (int k = 0; k < nb; ++k)
      if (segmentsIntersect(a[i], a[(i + 1) % na], b[k], b[(k + 1) % nb])) return true;
  // No crossing: overlap only if one contains the other.
  return contains(pb, gb.applyInverse(a[0])) || contains(pa, ga.applyInverse(b[0]));
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
  for (int j = 0; j < n; ++j) outline[j] = placed(bodies[j], poses[j]);
  for (int j = 0; j < n; ++j)
    for (int k = j + 1; k < n; ++k)
      if (overlap(bodies[j], outline[j], poses[j], bodies[k], outline[k], poses[k])) {
        os << "bodies " << j << " (" << bodies[j].name << ") and " << k << " (" << bodies[k].name
           << ") overlap";
        return os.str();
      }
  for (int i = 0; i < vortices.size(); ++i)
    for (int j = 0; j < n; ++j) {
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
