// The vortex terms of the matrix-free path through a cluster tree over the bodies and groups of vortices
// (docs/fluidbody.md (FB-61), (FB-62)): G s, dG s, G^T K, the image data b_I, W_vv, the Biot–Savart velocities
// and the pose gradients of K^T G s, lambda^T b_I and W_vv, without any m x N matrix; near pairs exact.
#pragma once

#include <mpi.h>

#include <complex>
#include <memory>
#include <vector>

#include <Eigen/Dense>

#include "fluid/fast/BodyMoments.hpp"
#include "fluid/fast/ClusterTree.hpp"
#include "fluid/discretization/Discretization.hpp"
#include "fluid/discretization/NodeLayout.hpp"
#include "fluid/geometry/PointVortices.hpp"
#include "fluid/fast/VortexClusters.hpp"

namespace kirchhoff::fluid {

/// Most vortices per leaf group (measured: docs/fluidbody.md (FB-62)).
constexpr int kVortexLeafSize = 16;

class VortexTerms {
 public:
  /// The bodies [bodyBegin, bodyEnd) and their moments are this rank's (those of the body-cluster operator);
  /// the vortex groups are shared out in contiguous blocks. `order`, `eta` as the operator's.
  VortexTerms(MPI_Comm comm, const Discretization& disc, const NodeLayout& layout, const BodyMoments& moments,
              int bodyBegin, int bodyEnd, int order, double eta, int leafSize = kVortexLeafSize);

  /// A new configuration: the groups and the tree, the exact near blocks, the free vortices' field (b_I, W_vv,
  /// Phi' at the vortices) and G^T K. `nodes`, `normals`: world positions and normals of all nodes. Collective.
  void update(const std::vector<lie::Pose>& poses, const Vortices& v, const std::vector<Complex>& nodes,
              const std::vector<Complex>& normals);

  /// b_I,p = -<u_gamma(x_p), n_p> at every node.
  const Eigen::VectorXd& imageData() const { return bI_; }
  /// G^T K (G_iq = psi_q(gamma_i)) at every node.
  const Eigen::VectorXd& adjointData() const { return GtK_; }
  /// W_vv = sum_{i<j} K_i K_j / (2 pi) log|gamma_i - gamma_j|.
  double routh() const { return wvv_; }
  /// sum_q s_q dOmega_q(gamma_i) at every vortex (u - i v for densities with zero net source per body). Collective.
  std::vector<Complex> bodyField(const Eigen::VectorXd& s) const;
  /// Biot–Savart velocities of the free vortices at every vortex (the self term left out).
  const std::vector<Vec2>& freeVelocities() const { return free_; }
  /// This rank's share of d/dq [K^T G sbar + lambda^T b_I + W_vv] at fixed sbar, lambda (3n + 2m entries of
  /// grad, bodies then vortices). Collective.
  void addGradient(const Eigen::VectorXd& sbar, const Eigen::VectorXd& lambda, Eigen::VectorXd& grad) const;

  /// Leaf groups, cell pairs through M2L, and the exact vortex–node pairs this rank evaluates.
  int groups() const { return groups_ ? groups_->size() : 0; }
  const ClusterTree& tree() const { return tree_; }
  long nearVortexNodes() const;

 private:
  struct NearBlock {  // the members of an owned group against the nodes of a near body
    int Q = 0;
    Eigen::MatrixXd psi;   // members x N_Q
    Eigen::MatrixXcd dO;
  };
  bool ownsGroup(int g) const { return g >= g0_ && g < g1_; }
  int leafOf(int g) const { return n_ + g; }
  void buildTree();
  void nearBlocks();
  /// The pass of the free vortices (strengths K): b_I at the owned bodies, Phi and Phi' at the owned vortices.
  void freeField();
  void adjoint();
  /// sum_q s_q dOmega_q at the vortices of the owned groups (other entries zero), the near pairs too or not.
  std::vector<Complex> bodyFieldOwned(const Eigen::VectorXd& s, bool near) const;
  /// The tree's passes (timed as VortexMultipole).
  Eigen::MatrixXcd forward(const ClusterTree::Plan& plan, const Eigen::MatrixXcd& a) const;
  Eigen::MatrixXcd transpose(const ClusterTree::Plan& plan, const Eigen::MatrixXcd& c) const;
  /// Referenced (a_0 = 0), rotated multipoles of the owned bodies for density s.
  Eigen::MatrixXcd referencedMultipoles(const Eigen::VectorXd& s) const;
  void addStreamGradient(const Eigen::VectorXd& sbar, Eigen::VectorXd& grad) const;
  void addImageGradient(const Eigen::VectorXd& lambda, Eigen::VectorXd& grad) const;
  /// Sums `count` doubles over the ranks (each entry computed by one rank, zero on the others).
  void sumOverRanks(double* data, std::size_t count) const;

  MPI_Comm comm_;
  const Discretization& disc_;
  NodeLayout layout_;
  const BodyMoments& moments_;
  int n_ = 0, b0_ = 0, b1_ = 0, p_ = 0, leafSize_ = 0, ranks_ = 1, rank_ = 0, g0_ = 0, g1_ = 0;
  ClusterTree tree_;
  ClusterTree::Plan fromBodies_, fromVortices_;
  std::vector<lie::Pose> poses_;
  Vortices v_;
  std::vector<Complex> z_, K_, iK_, nodes_, normals_;
  std::unique_ptr<VortexClusters> groups_;
  std::vector<std::vector<NearBlock>> nearBodies_;   // owned groups
  std::vector<std::vector<int>> nearGroups_;         // owned bodies: near groups
  std::vector<std::vector<int>> nearVortexGroups_;   // owned groups: near groups, itself included
  Eigen::VectorXd bI_, GtK_;
  double wvv_ = 0.0;
  Eigen::MatrixXcd freeLocals_, adjoint_;            // pass of the free vortices at the owned bodies; G^T K's body adjoints
  std::vector<Complex> dPhi_;                        // Phi' at the owned vortices
  std::vector<Vec2> free_;
};

}  // namespace kirchhoff::fluid
