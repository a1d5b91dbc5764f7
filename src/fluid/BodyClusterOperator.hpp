// The inter-body part of the boundary operators M and S (docs/fluidbody.md (FB-41)-(FB-45)) without a
// dense N x N matrix: every body is a leaf cluster with constant body-frame multipole and target moments;
// far pairs by direct M2L, near pairs by the exact blocks of the discretization; distributed by whole bodies.
#pragma once

#include <mpi.h>

#include <array>
#include <memory>
#include <utility>
#include <vector>

#include <Eigen/Dense>

#include "fluid/Discretization.hpp"
#include "fluid/NodeLayout.hpp"

namespace kirchhoff::fluid {


/// Bodies [first, second) of `rank` out of `ranks`: contiguous, balanced by node count.
std::pair<int, int> balancedBodies(const NodeLayout& layout, int ranks, int rank);

/// Expansion order giving relative truncation error ~ `tol` for pairs separated by more than eta (r_P + r_Q)
/// ((FB-44)).
int multipoleOrder(double eta, double tol = 1e-13);

class BodyClusterOperator {
 public:
  enum class Kind { Normal, Potential };  ///< M_PQ (normal derivative) or S_PQ (potential), P != Q

  /// This rank owns the target bodies [bodyBegin, bodyEnd). `order`: expansion order p; `eta`: pairs with
  /// |c_P - c_Q| > eta (r_P + r_Q) are far.
  BodyClusterOperator(MPI_Comm comm, const Discretization& disc, const NodeLayout& layout, int bodyBegin,
                      int bodyEnd, int order, double eta);

  /// New poses: near-pair lists and their exact blocks (owned target rows only).
  void setPoses(const std::vector<lie::Pose>& poses);

  /// y_p = sum_{Q != P} K_PQ x for the owned rows p (other entries of y untouched); x: all N values
  /// (replicated). Collective.
  void apply(Kind k, const Eigen::VectorXd& x, Eigen::VectorXd& y) const;
  /// y = sum over owned target bodies P of K_P.^T u_P (u read on the owned rows only), summed over the
  /// ranks: y is complete and replicated. Collective.
  void applyTranspose(Kind k, const Eigen::VectorXd& u, Eigen::VectorXd& y) const;

  bool isNear(int P, int Q) const;
  /// Weighted bilinear forms of the far pairs with an owned target P (docs (FB-45)): for each (u, v) in
  /// `normal` (M) and `potential` (S), the gradient of sum u^T K_PQ v over the poses, added to grad
  /// (3 entries per body; target and source sides). u, v: full N-vectors.
  void addFarGradient(const std::vector<std::pair<const Eigen::VectorXd*, const Eigen::VectorXd*>>& normal,
                      const std::vector<std::pair<const Eigen::VectorXd*, const Eigen::VectorXd*>>& potential,
                      Eigen::VectorXd& grad) const;

  int order() const { return p_; }
  double eta() const { return eta_; }
  int bodyBegin() const { return b0_; }
  int bodyEnd() const { return b1_; }
  /// Near pairs (P owned, Q != P) at the current poses, and the doubles their blocks hold.
  long nearPairs() const;
  long storedDoubles() const;

 private:
  struct Near {
    int Q = 0;
    Eigen::MatrixXd M, S;  // N_P x N_Q
  };
  /// World-frame multipole coefficients of every body for density x (owned ones computed, all gathered).
  Eigen::MatrixXcd sourceCoefficients(const Eigen::VectorXd& x) const;
  /// Scaled, rotated target moments of P contracted with u_P: c_l = e^{i l th_P} sum_p Tmat_pl u_p.
  Eigen::VectorXcd targetContraction(Kind k, int P, const Eigen::VectorXd& u) const;
  /// Truncation order of a far pair (FB-44) and the far sources of P sorted by it.
  int pairOrder(int P, int Q) const;
  void farSources(int P);
  /// Scaled multipole inputs of P's far sources, X_ki = s_i^k a_k(Q_i), and their pair powers.
  struct FarPowers {
    Eigen::MatrixXcd t, s, log;  // (p+1) x far sources: t^l, s^k, T_l0 per far pair
  };
  FarPowers farPowers(int P) const;
  Eigen::MatrixXcd farInputs(int P, const Eigen::MatrixXcd& a, const FarPowers& pw) const;
  /// Local coefficients about c_P of all far sources (world frame, scaled): b = sum_Q T(c_P - c_Q) a_Q.
  Eigen::VectorXcd localCoefficients(int P, const Eigen::MatrixXcd& a) const;
  Complex rotation(int j) const { return std::polar(1.0, poses_[static_cast<std::size_t>(j)].theta); }

  MPI_Comm comm_;
  const Discretization& disc_;
  NodeLayout layout_;
  int b0_ = 0, b1_ = 0, p_ = 0, ranks_ = 1;
  double eta_ = 2.0;
  std::vector<double> radius_;
  std::vector<Eigen::MatrixXcd> A_;           // (p+1) x N_j scaled body-frame multipole moments, all bodies
  std::vector<Eigen::MatrixXcd> TS_, TN_;     // N_P x (p+1) scaled target moments, owned bodies
  std::vector<lie::Pose> poses_;
  std::vector<std::vector<Near>> near_;       // owned target bodies
  std::vector<std::vector<int>> far_;         // far sources of the owned target bodies (by pair order)
  std::vector<std::vector<int>> farOrder_;    // their pair orders
  std::vector<std::vector<std::array<int, 3>>> farGroups_;  // (first, count, order) of equal order
  Eigen::MatrixXd C_, CT_;                    // (FB-43) binomial part of the M2L matrix, and its transpose
  std::vector<int> counts_, displs_;          // Allgatherv of the coefficients (doubles)
};

}  // namespace kirchhoff::fluid
