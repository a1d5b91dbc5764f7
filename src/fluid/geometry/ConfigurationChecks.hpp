// Physical validity of a fluidbody configuration (fluidbody.md "Conventions": vortices in the
// fluid, bodies disjoint): overlapping bodies, vortices inside or too close to a body.
#pragma once

#include <string>
#include <vector>

#include "fluid/geometry/PointVortices.hpp"
#include "fluid/geometry/Polygon.hpp"
#include "lie/SE2.hpp"

namespace kirchhoff::fluid {

/// Empty if the bodies (at their poses) are pairwise disjoint and every vortex lies outside every
/// body at a distance of at least one panel length (the length of the nearest edge) times
/// `panelLengths`; else a message naming the bodies / the vortex index and the body.
std::string configurationProblem(const std::vector<Polygon>& bodies,
                                 const std::vector<lie::Pose>& poses, const Vortices& vortices,
                                 double panelLengths = 1.0);

/// Throws ConfigurationError with configurationProblem's message (for initial data).
void checkConfiguration(const std::vector<Polygon>& bodies, const std::vector<lie::Pose>& poses,
                        const Vortices& vortices, double panelLengths = 1.0);

}  // namespace kirchhoff::fluid
