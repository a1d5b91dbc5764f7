// Smallest body–vortex and body–body distances of a configuration (diagnostics of the invariant
// log; fluidbody stops before a vortex reaches a body or bodies touch, see FluidBodyModel::check).
#pragma once

#include <algorithm>
#include <limits>
#include <utility>
#include <vector>

#include "fluid/geometry/Polygon.hpp"
#include "models/fluidbody/MidpointLagrangian.hpp"

namespace kirchhoff::fluidbody {

/// Radius of the disk about the body-frame origin that holds the outline: |Z| - radius is a lower
/// bound of the distance from Z to the boundary of a body it lies outside, which prunes the exact
/// O(edges) distances below to the pairs that can attain the minimum.
inline double outlineRadius(const fluid::Polygon& p) {
  double r = 0.0;
  for (const auto& Z : p.vertices) r = std::max(r, Z.norm());
  return r;
}

/// min over vortices i and bodies j of the distance from gamma_i to the boundary of body j.
inline double minBodyVortexDistance(const std::vector<fluid::Polygon>& shapes, const Configuration& c) {
  double d = std::numeric_limits<double>::infinity();
  for (std::size_t j = 0; j < shapes.size(); ++j) {
    const double r = outlineRadius(shapes[j]);
    for (const auto& g : c.vortices.gamma)
      if ((g - c.poses[j].y).norm() - r < d)
        d = std::min(d, fluid::boundaryDistance(shapes[j], c.poses[j].applyInverse(g)));
  }
  return d;
}

/// min over body pairs of their boundary distance (attained at a vertex of one of the two). Pairs whose
/// bounding disks are farther apart than the smallest distance found so far are skipped, nearest
/// centres first, so a grid of n bodies costs O(n^2) disk tests and O(n) exact pair distances.
inline double minBodyBodyDistance(const std::vector<fluid::Polygon>& shapes, const Configuration& c) {
  const std::size_t n = shapes.size();
  std::vector<double> radius(n);
  for (std::size_t a = 0; a < n; ++a) radius[a] = outlineRadius(shapes[a]);
  std::vector<std::pair<double, std::pair<std::size_t, std::size_t>>> pairs;
  for (std::size_t a = 0; a < n; ++a)
    for (std::size_t b = a + 1; b < n; ++b)
      pairs.push_back({(c.poses[a].y - c.poses[b].y).norm() - radius[a] - radius[b], {a, b}});
  std::sort(pairs.begin(), pairs.end());
  auto oneWay = [&](std::size_t a, std::size_t b, double d) {
    for (const auto& Z : shapes[a].vertices)
      d = std::min(d, fluid::boundaryDistance(shapes[b], c.poses[b].applyInverse(c.poses[a].apply(Z))));
    return d;
  };
  double d = std::numeric_limits<double>::infinity();
  for (const auto& [bound, ab] : pairs) {
    if (bound >= d) break;  // sorted: no later pair can come closer
    d = oneWay(ab.second, ab.first, oneWay(ab.first, ab.second, d));
  }
  return d;
}

}  // namespace kirchhoff::fluidbody
