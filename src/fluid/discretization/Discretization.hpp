// A boundary discretization of n rigid bodies for the Neumann problems of fluidbody (docs/fluidbody.md
// (FB-20)-(FB-22)): nodes, weights and normals in the body frames, the constant
// self-blocks, the inter-body interaction blocks with their pose derivatives, and point fields.
//
// Every discretization (constant-strength panels, high-order Nystrom, ...) is a set of nodes x_p with
// outward normals n_p and weights w_p carrying a source density sigma_p, and it defines
//   M_pq  normal derivative at node p of the field of unit density at node q (with the 1/2 jump on p = q),
//   S_pq  potential at node p of unit density at node q,
//   psi_q(z), W'_q(z)  stream function (zero-net-source reference at the body centre) and u - i v at z.
// The fluid algebra (added mass -beta^T W S sigma, the adjoint gradient, ...) is written once over these
// (fluid/BoundaryFluid), and an operator (dense, fast multipole) applies them: either discretization runs
// on either operator.
#pragma once

#include <complex>
#include <string>
#include <utility>
#include <vector>

#include <Eigen/Dense>

#include "lie/SE2.hpp"

namespace kirchhoff::fluid {

using Complex = std::complex<double>;

/// Constant body-frame data of one body: N_j nodes with outward unit normals and weights (sum of
/// weights = perimeter; the discrete integral of f is sum_p w_p f(x_p)). The body-frame origin is the
/// centroid of the body, which is also the reference point of the stream function.
struct BodyNodes {
  std::vector<lie::Vec2> x, normal;
  std::vector<double> weight;
  /// Radius of a disk about the origin that holds the whole boundary (not just the nodes): the
  /// multipole expansion of the body converges outside it.
  double radius = 0.0;
  int size() const { return static_cast<int>(x.size()); }
};

/// Weights of the bilinear forms whose pose derivatives the gradient needs, for one body pair
/// (target body P, source body Q): sum_k uM_k^T M_PQ vM_k + sum_k uS_k^T S_PQ vS_k. The u pointers
/// address the target rows' values, the v pointers the N_Q values of the source body.
struct PairWeights {
  std::vector<std::pair<const double*, const double*>> normal, potential;
};

class Discretization {
 public:
  virtual ~Discretization() = default;
  /// "panel", "nystrom": used in messages and the log's attributes.
  virtual std::string name() const = 0;
  virtual int bodyCount() const = 0;
  virtual const BodyNodes& body(int j) const = 0;

  /// Constant self-blocks in the body frame (N_j x N_j): M_jj (with the diagonal term) and S_jj.
  virtual const Eigen::MatrixXd& selfNormal(int j) const = 0;
  virtual const Eigen::MatrixXd& selfPotential(int j) const = 0;

  /// Rows [first, first + count) of the blocks M_PQ and S_PQ (N_P x N_Q, P != Q): source body Q at pose
  /// gQ on those nodes of target body P at pose gP, row-major with leading dimensions ldM, ldS (row 0
  /// of the output is node `first`); M or S may be null. Accurate for any two bodies that do not overlap
  /// (a discretization refines close pairs itself).
  virtual void interaction(int P, const lie::Pose& gP, int first, int count, int Q, const lie::Pose& gQ,
                           double* M, int ldM, double* S, int ldS) const = 0;
  /// Target-side pose derivative (d/dtheta_P, d/dy_P) at fixed gQ of the bilinear forms `w` restricted
  /// to the rows [first, first + count) of P (the u pointers address node `first`). The blocks depend on
  /// the relative pose only, so the source side follows by invariance:
  ///   d/dy_Q = -d/dy_P,  d/dtheta_Q = -d/dtheta_P - (y_P - y_Q) x d/dy_P.
  virtual Eigen::Vector3d interactionGradient(int P, const lie::Pose& gP, int first, int count, int Q,
                                              const lie::Pose& gQ, const PairWeights& w) const = 0;

  /// At a point z outside body Q (pose gQ), for the nodes q = first .. first + count - 1 of body Q
  /// (outputs indexed from 0): psi_q(z), the stream function of unit density at q with the
  /// zero-net-source reference at the body centre (fluidbody.md sign: u = J grad psi); dOmega_q(z), the
  /// z-derivative of the referenced complex potential (grad psi = -(Im, Re) dOmega; for densities with
  /// zero net source on the body, sum sigma_q dOmega_q = u - i v); phi_q(z), the potential. Any output
  /// may be null. Accurate down to the distances the discretization documents (a vortex close to a body).
  virtual void pointField(int Q, const lie::Pose& gQ, const Complex& z, int first, int count, double* psi,
                          Complex* dOmega, double* phi = nullptr) const = 0;

  /// Body-frame multipole moments of unit densities (fast multipole operator): column q holds
  /// a_0..a_order with  Omega_q(Z) = a_0 log Z + sum_{k>=1} a_k Z^-k  for |Z| > radius, where
  /// Omega_q = (1/2 pi) int_{support of q} log(Z - zeta) ds(zeta) is the complex potential of unit
  /// density at q (phi = Re Omega, Omega' = u - i v). a_0 = w_q / (2 pi); the stream function of the
  /// referenced field is the expansion without a_0.
  virtual Eigen::MatrixXcd multipoleMoments(int j, int order) const = 0;
};

}  // namespace kirchhoff::fluid
