// The inter-body part of the boundary operators M and S (docs/fluidbody.md (FB-41)-(FB-45), (FB-57)-(FB-60))
// without a dense N x N matrix: every body is a leaf of a cluster tree (fluid/fast/ClusterTree) with constant
// body-frame multipole and target moments; far field through the tree's FMM, near pairs by the exact blocks.
#pragma once

#include <mpi.h>

#include <utility>
#include <vector>

#include <Eigen/Dense>

#include "fluid/fast/BodyMoments.hpp"
#include "fluid/fast/ClusterTree.hpp"
#include "fluid/discretization/Discretization.hpp"
#include "fluid/discretization/NodeLayout.hpp"

namespace kirchhoff::fluid {

/// Bodies [first, second) of `rank` out of `ranks`: contiguous, balanced by node count.
std::pair<int, int> balancedBodies(const NodeLayout& layout, int ranks, int rank);

class BodyClusterOperator {
 public:
  enum class Kind { Normal, Potential };  ///< M_PQ (normal derivative) or S_PQ (potential), P != Q

  /// This rank owns the target bodies [bodyBegin, bodyEnd). `order`: expansion order p; `eta`: cells with
  /// |c_A - c_B| > eta (R_A + R_B) interact through M2L, body pairs that no M2L covers are near.
  BodyClusterOperator(MPI_Comm comm, const Discretization& disc, const NodeLayout& layout, int bodyBegin,
                      int bodyEnd, int order, double eta);

  /// New poses: the tree, its near-pair list and the exact near blocks (owned target rows only).
  void setPoses(const std::vector<lie::Pose>& poses);

  /// y_p = sum_{Q != P} K_PQ x for the owned rows p (other entries of y untouched); x: all N values
  /// (replicated). `order` > 0 caps the far field's expansion order (FB-93). Collective.
  void apply(Kind k, const Eigen::VectorXd& x, Eigen::VectorXd& y, int order = 0) const;
  /// y = sum over owned target bodies P of K_P.^T u_P (u read on the owned rows only), summed over the
  /// ranks: y is complete and replicated. `order` as apply's. Collective.
  void applyTranspose(Kind k, const Eigen::VectorXd& u, Eigen::VectorXd& y, int order = 0) const;

  /// The pair (P, Q) is summed exactly (a near pair of the tree's traversal), any two bodies P != Q.
  bool isNear(int P, int Q) const;
  /// The exact block K_PQ (N_P x N_Q) of an owned target body P and a near body Q at the current poses, else null.
  const Eigen::MatrixXd* nearBlock(Kind k, int P, int Q) const;
  /// Near bodies of P (sorted), any body P.
  const std::vector<int>& nearBodies(int P) const { return nearOf_[static_cast<std::size_t>(P)]; }
  /// Weighted bilinear forms of the far pairs (docs (FB-59), (FB-60)): for each (u, v) in `normal` (M) and
  /// `potential` (S), the gradient of sum over far pairs of u_P^T K_PQ v_Q over the poses (3 entries per
  /// body), this rank's share (owned bodies; sum over the ranks for the whole); u, v: full N-vectors.
  /// Collective.
  void addFarGradient(const std::vector<std::pair<const Eigen::VectorXd*, const Eigen::VectorXd*>>& normal,
                      const std::vector<std::pair<const Eigen::VectorXd*, const Eigen::VectorXd*>>& potential,
                      Eigen::VectorXd& grad) const;

  int order() const { return tree_.order(); }
  double eta() const { return tree_.eta(); }
  int bodyBegin() const { return b0_; }
  int bodyEnd() const { return b1_; }
  const ClusterTree& tree() const { return tree_; }
  /// The constant moments of the owned bodies.
  const BodyMoments& moments() const { return moments_; }
  /// Near pairs (P owned, Q != P) at the current poses.
  long nearPairs() const;
  /// Doubles this rank stores: near blocks, moments of the owned bodies (one copy per group of identical
  /// bodies), the tree and its lists.
  long storedDoubles() const;

 private:
  struct Near {
    int Q = 0;
    Eigen::MatrixXd M, S;  // N_P x N_Q
  };
  /// World-frame scaled multipole coefficients of the owned bodies for density x ((FB-41)), (p+1) x n.
  Eigen::MatrixXcd sourceCoefficients(const Eigen::VectorXd& x) const;
  /// Rotated target contractions of the owned bodies: c_l(P) = e^{i l th_P} sum_p T_pl u_p, (p+1) x n.
  Eigen::MatrixXcd targetContractions(Kind k, const Eigen::VectorXd& u) const;
  void setNearBlocks();

  MPI_Comm comm_;
  const Discretization& disc_;
  NodeLayout layout_;
  int b0_ = 0, b1_ = 0, p_ = 0, ranks_ = 1;
  std::vector<double> radius_;
  BodyMoments moments_;                       // owned bodies
  std::vector<lie::Pose> poses_;
  ClusterTree tree_;
  std::vector<std::vector<int>> nearOf_;      // near bodies of every body (sorted)
  std::vector<std::vector<Near>> near_;       // owned target bodies
};

}  // namespace kirchhoff::fluid
