// The `--added-mass` tool's text (fluidbody.md "Fluid quantities", "Analytic checks"): added mass
// A(g), mass M and Kirchhoff tensor K = M + A of the configured bodies, closed forms where known.
#pragma once

#include <mpi.h>

#include <string>
#include <vector>

#include "fluid/BoundaryFluid.hpp"
#include "fluid/geometry/Polygon.hpp"
#include "lie/SE2.hpp"

namespace kirchhoff::fluid {

/// The table of a fluid after setConfiguration (any discretization), entries with 17 significant
/// digits. Collective only through nothing: the fluid holds the replicated A(g).
std::string addedMassReport(const BoundaryFluid& fluid, const std::vector<double>& bodyDensity);

/// Solves the panel problem for `bodies` at `poses` (densities `bodyDensity`, fluid density
/// `rho`, PETSc options with `prefix`) and returns a table: per body shape, edges, area, polar
/// moment, the 3n x 3n A(g), M and K, and for circles/ellipses the closed-form single-body
/// values with relative errors (meaningful for isolated bodies). Collective; same text on every rank.
std::string addedMassReport(MPI_Comm comm, const std::vector<Polygon>& bodies,
                            const std::vector<lie::Pose>& poses,
                            const std::vector<double>& bodyDensity, double rho = 1.0,
                            const std::string& prefix = "panel_");

}  // namespace kirchhoff::fluid
