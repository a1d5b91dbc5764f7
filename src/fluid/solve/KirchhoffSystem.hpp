// The bordered boundary system of docs/fluidbody.md (FB-91): the Kirchhoff tensor solve (M_b + A(g)) delta = r of
// the coupled Newton direction (FB-90) as one Krylov solve over the densities and the body velocities together.
#pragma once

#include <petscksp.h>

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <Eigen/Dense>

#include "fluid/solve/BodyBlocks.hpp"
#include "fluid/solve/BoundarySystem.hpp"
#include "fluid/solve/ReplicatedVector.hpp"

namespace kirchhoff::fluid {

/// Unknowns body by body: body j's node densities sigma_j, its multiplier mu_j, its three velocities delta_j, so that
/// the rows of BoundarySystem keep their ranks (the three velocity rows of body j go with its constraint row):
///   [M  -B] [sigma]   [0]      M the augmented boundary matrix, B the rigid data (N x 3n, zero constraint rows),
///   [C  Mb] [delta] = [r],     C = -rho B^T W S (3n x N), Mb = diag(bodyMass).
/// Eliminating sigma = M^-1 B delta gives (Mb + A_raw) delta = r with A_raw = -rho B^T W S M^-1 B, the added mass
/// before its symmetrization (FB-21). GMRES, right-preconditioned by the exact LU of every body's isolated bordered
/// block (FB-91); prefix -<prefix>kirchhoff_ (e.g. -panel_kirchhoff_ksp_monitor).
class KirchhoffSystem {
 public:
  /// `rigidPotential(s, tol)`: this rank's share of rho B^T W S s (3n entries, summed over the ranks here) for node
  /// densities s (all nodes), to relative accuracy tol (0: full); `selfBlocks[j]`: body j's augmented self-block of `system`; `selfPotential[j]`: rho
  /// B_j^T W_j S_jj (3 x N_j); `rigid`: the rows of B (N x 3, body frame). All constant but rigidPotential.
  KirchhoffSystem(MPI_Comm comm, const BoundarySystem& system, const std::vector<Eigen::MatrixXd>& selfBlocks,
                  const std::vector<Eigen::MatrixXd>& selfPotential, Eigen::Matrix<double, Eigen::Dynamic, 3> rigid,
                  std::function<Eigen::VectorXd(const Eigen::VectorXd&, double)> rigidPotential, const std::string& prefix);
  ~KirchhoffSystem();
  KirchhoffSystem(const KirchhoffSystem&) = delete;
  KirchhoffSystem& operator=(const KirchhoffSystem&) = delete;

  struct Solution {
    Eigen::VectorXd delta;  ///< 3n body velocities
    Eigen::VectorXd sigma;  ///< N node densities M^-1 B delta (the multipliers dropped)
    Eigen::VectorXd augmented;  ///< M^-1 B delta with the multipliers, in the rows of the boundary system
    int iterations = 0;
  };
  /// Solves (FB-91) for body masses `bodyMass` (3n: i_j, m_j, m_j) and right-hand side r (3n) to relative residual
  /// rtol. Throws NumericalError if GMRES diverges. Collective.
  Solution solve(const Eigen::VectorXd& bodyMass, const Eigen::VectorXd& r, double rtol) const;

  /// Bordered index of body j's first velocity (its multiplier's index + 1), of augmented index i.
  int velocityIndex(int j) const { return system_.constraintIndex(j) + 3 * j + 1; }
  int borderedIndex(int i) const { return bordered_[static_cast<std::size_t>(i)]; }
  int size() const { return size_; }
  /// GMRES iterations and operator applications of all solves so far.
  long totalIterations() const { return totalIterations_; }
  long operatorApplications() const { return applications_; }

 private:
  static PetscErrorCode shellMult(Mat A, Vec x, Vec y);
  static PetscErrorCode shellPC(PC pc, Vec x, Vec y);
  /// LU of the bordered blocks of the bodies whose rows meet the owned rows, for these masses.
  void factorBlocks(const Eigen::VectorXd& bodyMass) const;

  MPI_Comm comm_;
  const BoundarySystem& system_;
  NodeLayout layout_;
  Eigen::Matrix<double, Eigen::Dynamic, 3> rigid_;
  std::function<Eigen::VectorXd(const Eigen::VectorXd&, double)> rigidPotential_;
  std::vector<Eigen::MatrixXd> selfBlocks_, selfPotential_;  // of the bodies meeting the owned rows
  std::vector<int> blockBody_;
  std::vector<int> bordered_;           // bordered index of every augmented index
  int size_ = 0, begin_ = 0, end_ = 0;  // bordered size and owned rows
  mutable Eigen::VectorXd mass_;        // masses of the factored blocks
  mutable double tol_ = 0.0;            // operator accuracy of the current solve (FB-93)
  mutable BodyBlocks blockInverses_;   // of the bordered blocks, for mass_
  mutable Eigen::VectorXd augmented_, ownedRows_;
  mutable long totalIterations_ = 0, applications_ = 0;
  Mat A_ = nullptr;
  KSP ksp_ = nullptr;
  Vec x_ = nullptr, b_ = nullptr;
  mutable std::optional<ReplicatedVector> replicated_;  // the bordered vector on every rank
};

}  // namespace kirchhoff::fluid
