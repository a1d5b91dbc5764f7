// Chooses the boundary discretization of docs/fluidbody.md ("Panel method" or "High-order boundary
// integrals", "Graded Gauss-Legendre panels") for the deck key fluid.discretization and builds the
// BoundaryFluid on it.
#pragma once

#include <mpi.h>

#include <memory>
#include <string>
#include <vector>

#include "core/Choices.hpp"
#include "fluid/BoundaryFluid.hpp"
#include "fluid/discretization/GaussPanelDiscretization.hpp"
#include "fluid/geometry/Polygon.hpp"
#include "fluid/geometry/SmoothCurve.hpp"

namespace kirchhoff::fluid {

enum class DiscretizationKind { Panel, Nystrom, GaussPanels };

/// The deck names (fluid.discretization): "panel", "nystrom", "gauss_panels".
const Choices<DiscretizationKind>& discretizations();
inline std::string discretizationName(DiscretizationKind kind) { return discretizations().name(kind); }

/// Outline j (its vertex count is the panel or node count of body j) and, for Nystrom, curve j.
/// Solver options for either: -<prefix>solver, -<prefix>direct_max, -<prefix>ksp_* (PanelOptions).
/// `tolerance` > 0: Nystrom bodies are refined toward close neighbours by refineFor to this relative
/// accuracy (docs/fluidbody.md "Close gaps"); 0: never refined.
std::unique_ptr<BoundaryFluid> makeBoundaryFluid(MPI_Comm comm, const std::vector<Polygon>& outlines,
                                                 const std::vector<SmoothCurve>& curves,
                                                 DiscretizationKind kind, double fluidDensity,
                                                 const std::string& prefix = "panel_", double tolerance = 0.0);

/// Graded composite Gauss-Legendre panels (docs/fluidbody.md (FB-40)) on the piecewise-smooth
/// curve j of body j (plates, polygons); outline j is only used for the configuration checks.
std::unique_ptr<BoundaryFluid> makeGaussPanelFluid(MPI_Comm comm, const std::vector<Polygon>& outlines,
                                                   const std::vector<PiecewiseCurve>& curves,
                                                   const GaussPanelOptions& options, double fluidDensity,
                                                   const std::string& prefix = "panel_", double tolerance = 0.0);

}  // namespace kirchhoff::fluid
