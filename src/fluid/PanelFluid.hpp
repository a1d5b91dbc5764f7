// The Fluid of docs/fluidbody.md by constant-strength source panels ("Panel method"): the boundary
// fluid algebra of fluid/BoundaryFluid on the panel discretization of fluid/PanelDiscretization.
#pragma once

#include <string>
#include <vector>

#include "fluid/BoundaryFluid.hpp"
#include "fluid/PanelDiscretization.hpp"

namespace kirchhoff::fluid {

struct PanelOptions {
  PanelCorrection correction = PanelCorrection::Auto;
  PanelSolver solver = PanelSolver::Auto;
  int directMax = 2048;  ///< largest N + n solved by dense LU on one rank (Auto)
  /// W' of the inter-body influence entries (two doubles per entry) is stored at setConfiguration
  /// while the stored entries stay <= cacheMax, else recomputed (log, atan2) in the gradient.
  long cacheMax = 1L << 20;
  /// Reads -<prefix>correction auto|none|turning|flux, -<prefix>solver auto|direct|ksp,
  /// -<prefix>direct_max N, -<prefix>cache_max N from the PETSc options database (listed by
  /// -help; a bad value throws a one-line DeckError).
  static PanelOptions fromOptions(MPI_Comm comm, const std::string& prefix);
};

class PanelFluid : public BoundaryFluid {
 public:
  /// Options from the PETSc database with `prefix` (KSP: -<prefix>ksp_*, -<prefix>pc_*).
  PanelFluid(MPI_Comm comm, std::vector<Polygon> bodies, double fluidDensity = 1.0,
             const std::string& prefix = "panel_");
  PanelFluid(MPI_Comm comm, std::vector<Polygon> bodies, double fluidDensity,
             const PanelOptions& options, const std::string& prefix = "panel_");

  const PanelDiscretization& panels() const { return static_cast<const PanelDiscretization&>(discretization()); }
  const PanelGeometry& geometry() const { return panels().geometry(); }
  PanelCorrection correction(int body) const { return panels().correction(body); }
};

}  // namespace kirchhoff::fluid
