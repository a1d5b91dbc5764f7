// The Fluid of fluidbody.md by constant-strength source panels ("Panel method"): added mass A(g),
// vortex momentum M_C, Kirchhoff–Routh function W_G and the exact adjoint gradient of
// F = 1/2 <A Xi, Xi> + W_G + <M_C, Xi> over q (docs/fluidbody.md (FB-7), (FB-9), (FB-10), (FB-20)-(FB-22)).
#pragma once

#include <mpi.h>

#include <memory>
#include <string>
#include <vector>

#include <Eigen/Dense>

#include "fluid/Fluid.hpp"
#include "fluid/PanelGeometry.hpp"
#include "fluid/PanelSystem.hpp"
#include "fluid/Polygon.hpp"

namespace kirchhoff::fluid {

/// Diagonal of the normal-derivative system, the +1/2 self term and a correction:
///  None:    1/2 (plain flat panels: first order on polygons sampling smooth curves).
///  Turning: 1/2 + (ln 2 / 4 pi)(e_a + e_b), e the turning angles at the panel ends (fluidbody.md).
///  Flux:    1 - sum_{p != q, same body} l_p M_pq / l_q, so that sum_p l_p (M sigma)_p =
///           sum_q l_q sigma_q on each body: the discrete form of the identity
///           int (1/2 + K') sigma = int sigma (Gauss). Second order, about 2x smaller error than Turning.
///  Auto:    Flux on bodies marked smooth (circle, ellipse, plate), None on other polygons.
enum class PanelCorrection { Auto, None, Turning, Flux };

struct PanelOptions {
  PanelCorrection correction = PanelCorrection::Auto;
  PanelSolver solver = PanelSolver::Auto;
  int directMax = 2048;  ///< largest N + n solved by dense LU on one rank (Auto)
  /// W' of the inter-body influence entries (two doubles per entry) is stored at setConfiguration
  /// when (owned rows) x N <= cacheMax, else recomputed (log, atan2) in the gradient.
  long cacheMax = 1L << 20;
  /// Reads -<prefix>correction auto|none|turning|flux, -<prefix>solver auto|direct|ksp,
  /// -<prefix>direct_max N, -<prefix>cache_max N from the PETSc options database.
  static PanelOptions fromOptions(const std::string& prefix);
};

class PanelFluid : public Fluid {
 public:
  /// Options from the PETSc database with `prefix` (KSP: -<prefix>ksp_*, -<prefix>pc_*).
  PanelFluid(MPI_Comm comm, std::vector<Polygon> bodies, double fluidDensity = 1.0,
             const std::string& prefix = "panel_");
  PanelFluid(MPI_Comm comm, std::vector<Polygon> bodies, double fluidDensity,
             const PanelOptions& options, const std::string& prefix = "panel_");
  ~PanelFluid() override;

  int bodyCount() const override { return static_cast<int>(bodies_.size()); }
  void setConfiguration(const std::vector<lie::Pose>& poses, const Vortices& vortices) override;
  Eigen::MatrixXd addedMass() const override { return addedMass_; }
  Eigen::VectorXd vortexMomentum() const override { return momentum_; }
  double kirchhoffRouth() const override { return routh_; }
  Eigen::VectorXd lagrangianGradient(const Eigen::VectorXd& Xi) override;
  std::vector<lie::Vec2> vortexVelocities(const Eigen::VectorXd& Xi) const override;

  /// F(q) = 1/2 <A Xi, Xi> + W_G + <M_C, Xi> at the current configuration.
  double lagrangianValue(const Eigen::VectorXd& Xi) const;

  const std::vector<Polygon>& bodies() const { return bodies_; }
  const std::vector<lie::Pose>& poses() const { return geometry_.poses; }
  const Vortices& vortices() const { return vortices_; }
  double fluidDensity() const { return rho_; }
  int panelCount() const { return geometry_.panels; }
  const PanelGeometry& geometry() const { return geometry_; }
  /// Source densities (unit density, rho not included): column a = 0..3n-1 solves the rigid
  /// data of body dof a, column 3n the image problem phi_I.
  const Eigen::MatrixXd& densities() const { return sigma_; }
  /// Multipliers mu_j of the phi_I solve: the mean normal flux the discrete data -<u_gamma, n>
  /// carries through body j (zero for exact data; a quadrature-error diagnostic).
  std::vector<double> imageFluxDefect() const;
  /// |A_raw - A_raw^T|_max / |A_raw|_max of the discrete added mass before symmetrization
  /// (a discretization-consistency diagnostic; zero in the continuum).
  double addedMassAsymmetry() const { return asymmetry_; }
  /// Wall seconds of the last setConfiguration: influence assembly (inter-body entries and vortex
  /// terms) and factorization + all forward solves; and of the last lagrangianGradient.
  struct Timings {
    double assembly = 0.0, solve = 0.0, gradient = 0.0;
  };
  const Timings& timings() const { return timings_; }
  bool directSolver() const { return system_ ? system_->direct() : true; }
  int lastIterations() const { return system_ ? system_->lastIterations() : 0; }
  PanelCorrection correction(int body) const { return correction_[body]; }
  MPI_Comm comm() const { return comm_; }

 private:
  void buildSelfBlocks(std::vector<Eigen::MatrixXd>& augmented, std::vector<Eigen::MatrixXd>& S);
  void assembleInterBody();
  int maxBodySize() const;
  void assembleVortexTerms();
  void imageData();
  Eigen::MatrixXd rightHandSides(bool rigid, bool image) const;
  void solveDensities(bool rigid, bool image);
  bool samePoses(const std::vector<lie::Pose>& poses) const;
  void addPairGradient(const Eigen::VectorXd& lamX, const Eigen::VectorXd& lamI,
                       const Eigen::VectorXd& sigX, const Eigen::VectorXd& sigI,
                       const Eigen::VectorXd& beta, Eigen::VectorXd& grad) const;

  MPI_Comm comm_;
  std::vector<Polygon> bodies_;
  double rho_;
  PanelOptions options_;
  std::vector<PanelCorrection> correction_;
  PanelGeometry geometry_;
  std::unique_ptr<PanelSystem> system_;
  RowMatrix Srows_;          // owned panel rows of S (self-blocks constant, rest per pose)
  Eigen::MatrixXd B_;              // N x 3n rigid data
  Eigen::VectorXd bI_;             // N: image data -<u_gamma, n> at the midpoints
  Eigen::MatrixXd LBS_;            // 3n x N: B^T L S over the owned rows (with sigma_B, per pose)
  std::vector<lie::Pose> assembledPoses_;  // poses of the assembled inter-body blocks (n > 1; empty: none)
  bool cache_ = false;
  RowMatrix dWre_, dWim_;          // owned panel rows x N: W'_q(m_p) of the inter-body entries
  Vortices vortices_;
  Eigen::MatrixXd sigma_;          // N x (3n + 1)
  Eigen::VectorXd mu_;             // multipliers of the phi_I solve
  Eigen::MatrixXd G_;              // m x N: psi of panel q at vortex i (unit density)
  Eigen::MatrixXcd dG_;            // m x N: dOmega/dz of panel q at vortex i
  Eigen::MatrixXd addedMass_;
  Eigen::VectorXd momentum_;
  double routh_ = 0.0;
  double asymmetry_ = 0.0;
  Timings timings_;
  int ranks_ = 1, rank_ = 0;
};

}  // namespace kirchhoff::fluid
