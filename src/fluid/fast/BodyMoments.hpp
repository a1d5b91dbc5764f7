// The constant body-frame moments of the body-cluster operator (docs/fluidbody.md (FB-41), (FB-43)): multipole
// moments (P2M) and target moments (L2P) of the owned bodies; bodies with identical moments share one copy.
#pragma once

#include <vector>

#include <Eigen/Dense>

#include "fluid/discretization/Discretization.hpp"
#include "fluid/discretization/NodeLayout.hpp"
#include "lie/SE2.hpp"

namespace kirchhoff::fluid {

/// Body-frame, radius-scaled moments of the owned bodies [bodyBegin, bodyEnd) at order p: source moments
/// A_kq r^-k ((FB-41)) and target moments (X_q / r)^l, l X_q^(l-1) N_q r^-l ((FB-43)). Bodies whose moments are
/// bitwise equal (the same shape and discretization) form one group: one real matrix product per group.
/// Coefficient matrices are (p+1) x n, one body per column (the columns of other bodies untouched).
/// Row l of column j of z times e^{i l theta_j} for the bodies j in [first, last): body-frame multipole moments and
/// target contractions to the world frame, and the factor between a world-frame local expansion and the
/// body-frame target moments ((FB-41), (FB-43)).
void applyRotations(Eigen::MatrixXcd& z, const std::vector<lie::Pose>& poses, int first, int last);

class BodyMoments {
 public:
  BodyMoments(const Discretization& disc, const NodeLayout& layout, int bodyBegin, int bodyEnd, int order);

  /// a(:, Q) = A_Q x_Q (scaled, body frame) for the owned Q.
  void multipoles(const Eigen::VectorXd& x, Eigen::MatrixXcd& a) const;
  /// y_Q = Re(A_Q^T e(:, Q)) for the owned Q (the transpose of multipoles followed by Re).
  void multipolesTranspose(const Eigen::MatrixXcd& e, Eigen::VectorXd& y) const;
  /// y_P = Re(T_P b(:, P)) with the normal (M) or potential (S) target moments T_P, owned P.
  void evaluate(bool normal, const Eigen::MatrixXcd& b, Eigen::VectorXd& y) const;
  /// c(:, P) = T_P^T u_P, owned P (the transpose of evaluate before Re).
  void contract(bool normal, const Eigen::VectorXd& u, Eigen::MatrixXcd& c) const;

  int groups() const { return static_cast<int>(groups_.size()); }
  long storedDoubles() const;

 private:
  struct Moments {
    Eigen::MatrixXd Ar, Ai;          // (p+1) x N_j
    Eigen::MatrixXd Sr, Si, Nr, Ni;  // N_j x (p+1)
    bool operator==(const Moments& o) const;
  };
  struct Group {
    Moments m;
    std::vector<int> bodies;
  };
  /// The node values of the group's bodies side by side (N_j x bodies), and back.
  Eigen::MatrixXd gather(const Group& g, const Eigen::VectorXd& v) const;
  void scatter(const Group& g, const Eigen::MatrixXd& Y, Eigen::VectorXd& v) const;

  NodeLayout layout_;
  std::vector<Group> groups_;
};

}  // namespace kirchhoff::fluid
