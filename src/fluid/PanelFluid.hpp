// The Fluid of docs/fluidbody.md by constant-strength source panels ("Panel method"): the boundary
// fluid algebra of fluid/BoundaryFluid on the panel discretization of fluid/discretization/PanelDiscretization.
#pragma once

#include <string>
#include <vector>

#include "fluid/BoundaryFluid.hpp"
#include "fluid/discretization/PanelDiscretization.hpp"

namespace kirchhoff::fluid {

struct PanelOptions {
  PanelCorrection correction = PanelCorrection::Auto;
  PanelSolver solver = PanelSolver::Auto;
  int directMax = 2048;  ///< largest N + n solved by dense LU on one rank (Auto)
  /// Direct path, several ranks and bodies: redundant Eigen LU on every rank, or distributed.
  DirectFactorization factorization = DirectFactorization::Redundant;
  /// W' of the inter-body influence entries (two doubles per entry) is stored at setConfiguration
  /// while the stored entries stay <= cacheMax, else recomputed (log, atan2) in the gradient.
  long cacheMax = 1L << 20;
  PanelOperator op = PanelOperator::Auto;  ///< -<prefix>operator dense|fast|auto
  int multipoleOrder = 0;                   ///< -<prefix>multipole_order (0: from eta)
  double multipoleEta = 2.0;                ///< -<prefix>multipole_eta
  double multipoleTol = kMultipoleTol;      ///< -<prefix>multipole_tol
  int vortexLeafSize = kVortexLeafSize;     ///< -<prefix>vortex_leaf_size
  bool warmStart = true;                    ///< -<prefix>warm_start (KSP path, within a time step)
  bool relaxation = true;                   ///< -<prefix>relaxation (matrix-free path, (FB-93))
  SolverOptions solverOptions() const {
    return SolverOptions{solver,   directMax,    factorization,  op,        multipoleOrder,
                         multipoleEta, warmStart, multipoleTol, vortexLeafSize, relaxation};
  }
  /// Reads -<prefix>correction auto|none|turning|flux, -<prefix>solver auto|direct|ksp,
  /// -<prefix>direct_max N, -<prefix>direct_factorization redundant|scalapack|mumps,
  /// -<prefix>cache_max N, -<prefix>operator, -<prefix>multipole_order p,
  /// -<prefix>multipole_eta eta, -<prefix>multipole_tol tol, -<prefix>vortex_leaf_size, -<prefix>warm_start,
  /// -<prefix>relaxation from the PETSc options database (listed by
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

  /// Constant panels cannot be refined toward a neighbour (second order, they cannot meet a set
  /// tolerance): refineFor stops (NumericalError naming the pair and the gap) where two bodies are closer
  /// than kMinGapPanels panel lengths of the longer edge, the gap-to-spacing rule of docs/fluidbody.md
  /// "Close gaps" (measured table in tests/fluid/test_close_gaps.cpp), and reports the closest pairs.
  bool refineFor(const std::vector<lie::Pose>& poses, const Vortices& vortices, double margin) override;
  Resolution resolution() const override { return resolution_; }
  static constexpr double kMinGapPanels = 1.0;

  const PanelDiscretization& panels() const { return static_cast<const PanelDiscretization&>(discretization()); }
  const PanelGeometry& geometry() const { return panels().geometry(); }
  PanelCorrection correction(int body) const { return panels().correction(body); }

 private:
  Resolution resolution_;
};

}  // namespace kirchhoff::fluid
