// Discretizations whose nodes act as point sources of strength w_q sigma_q off their own body
// (docs/fluidbody.md (FB-37)): inter-body blocks, their pose derivatives, node moments and far point
// fields, shared by the Nystrom (smooth curves) and Gauss-panel (piecewise-smooth curves) methods.
#pragma once

#include <map>
#include <utility>
#include <vector>

#include "fluid/discretization/Discretization.hpp"

namespace kirchhoff::fluid {

/// 1/d for complex d, via conj(d)/|d|^2 (the point-source kernel's 1/(z - zeta), also Nystrom's).
inline Complex inverse(const Complex& d) { return std::conj(d) / std::norm(d); }

class PointSourceDiscretization : public Discretization {
 public:
  int bodyCount() const override { return static_cast<int>(nodes_.size()); }
  const BodyNodes& body(int j) const override { return nodes_[static_cast<std::size_t>(j)]; }
  const Eigen::MatrixXd& selfNormal(int j) const override { return selfM_[static_cast<std::size_t>(j)]; }
  const Eigen::MatrixXd& selfPotential(int j) const override { return selfS_[static_cast<std::size_t>(j)]; }
  /// (FB-37): M_pq = (w_q / 2 pi) Re(nu_p / (x_p - x_q)), S_pq = (w_q / 2 pi) log|x_p - x_q|.
  void interaction(int P, const lie::Pose& gP, int first, int count, int Q, const lie::Pose& gQ, double* M,
                   int ldM, double* S, int ldS) const override;
  Eigen::Vector3d interactionGradient(int P, const lie::Pose& gP, int first, int count, int Q,
                                      const lie::Pose& gQ, const PairWeights& w) const override;
  Eigen::MatrixXcd multipoleMoments(int j, int order) const override;

  /// Kernels of source node q of body Q at a body-frame target Z by a rule finer than the point source
  /// (docs/fluidbody.md (FB-65)): W1 = W'_q(Z), W2 = W''_q(Z), S = the potential, all body frame.
  struct NearEntry {
    int q;
    Complex W1, W2;
    double S;
  };
  /// Whether body Q replaces point sources near its boundary (default none: (FB-37) everywhere).
  virtual bool hasNearEntries(int /*Q*/) const { return false; }
  /// The nodes of body Q whose point-source entries at Z are replaced, with their kernels.
  virtual void nearEntries(int /*Q*/, const Complex& /*Z*/, std::vector<NearEntry>& out) const { out.clear(); }

 protected:
  /// Sets the body count (nodes_, selfM_, selfS_ are filled by the derived constructor).
  void resize(int n);
  /// Point-source fields of nodes first..first+count-1 of body Q at the body-frame point Z (FB-37):
  /// psi, dOmega/dZ (body frame), phi; any output may be null.
  void pointSources(int Q, const Complex& Z, int first, int count, double* psi, Complex* dOmegaBody,
                    double* phi) const;

  std::vector<BodyNodes> nodes_;
  std::vector<Eigen::MatrixXd> selfM_, selfS_;

 private:
  void place(int j, const lie::Pose& g) const;
  /// The near entries of body Q at node `row` of body P, both placed: computed once per pair of poses
  /// (the blocks of a configuration and their pose derivatives need the same ones).
  const std::vector<NearEntry>& nearRow(int P, int row, int Q) const;
  // Spatial nodes and normals at the pose of the last call, per body.
  mutable std::vector<std::vector<Complex>> x_, nu_;
  mutable std::vector<lie::Pose> pose_;
  mutable std::vector<bool> placed_;
  /// Near entries per (P, Q) at the poses they were computed for, per row of P (done: computed).
  struct NearRows {
    lie::Pose gP, gQ;
    std::vector<std::vector<NearEntry>> rows;
    std::vector<char> done;
  };
  mutable std::map<std::pair<int, int>, NearRows> near_;
};

}  // namespace kirchhoff::fluid
