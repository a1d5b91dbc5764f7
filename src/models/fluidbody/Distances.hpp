// Smallest body–vortex and body–body distances of a configuration (diagnostics of the invariant
// log; fluidbody stops before a vortex reaches a body or bodies touch, see FluidBodyModel::check).
#pragma once

#include <limits>
#include <vector>

#include "fluid/Polygon.hpp"
#include "models/fluidbody/MidpointLagrangian.hpp"

namespace kirchhoff::fluidbody {

/// min over vortices i and bodies j of the distance from gamma_i to the boundary of body j.
inline double minBodyVortexDistance(const std::vector<fluid::Polygon>& shapes, const Configuration& c) {
  double d = std::numeric_limits<double>::infinity();
  for (std::size_t j = 0; j < shapes.size(); ++j)
    for (const auto& g : c.vortices.gamma)
      d = std::min(d, fluid::boundaryDistance(shapes[j], c.poses[j].applyInverse(g)));
  return d;
}

/// min over body pairs of their boundary distance (attained at a vertex of one of the two).
inline double minBodyBodyDistance(const std::vector<fluid::Polygon>& shapes, const Configuration& c) {
  double d = std::numeric_limits<double>::infinity();
  for (std::size_t a = 0; a < shapes.size(); ++a)
    for (std::size_t b = 0; b < shapes.size(); ++b) {
      if (a == b) continue;
      for (const auto& Z : shapes[a].vertices)
        d = std::min(d, fluid::boundaryDistance(shapes[b], c.poses[b].applyInverse(c.poses[a].apply(Z))));
    }
  return d;
}

}  // namespace kirchhoff::fluidbody
