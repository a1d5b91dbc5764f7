// A discrete Lagrangian L_d(q_k, q_k+1) seen by the position–momentum DEL solver: its value and
// both slot derivatives D1 L_d, D2 L_d (Marsden & West 2001, eqs. (1.5.6)-(1.5.7) in (q, p) form).
#pragma once

#include <vector>

#include <Eigen/Dense>

namespace kirchhoff::integrators {

class DiscreteLagrangian {
 public:
  virtual ~DiscreteLagrangian() = default;
  /// Number of configuration coordinates.
  virtual int dimension() const = 0;
  /// L_d(q0, q1) (collective over the solver's communicator; same value on every rank).
  virtual double value(const Eigen::VectorXd& q0, const Eigen::VectorXd& q1) = 0;
  /// D1 L_d(q0, q1) and D2 L_d(q0, q1); either pointer may be null (collective).
  virtual void slotDerivatives(const Eigen::VectorXd& q0, const Eigen::VectorXd& q1,
                               Eigen::VectorXd* d1, Eigen::VectorXd* d2) = 0;
  /// An approximation of d(D1 L_d)/d q1 at (q0, q1) for preconditioning or a chord Jacobian;
  /// empty if the Lagrangian has none (then finite differences are used).
  virtual Eigen::MatrixXd approximateJacobian(const Eigen::VectorXd& /*q0*/,
                                              const Eigen::VectorXd& /*q1*/) {
    return {};
  }
  /// Diagonal blocks (in order, sizes summing to dimension()) of a configuration-size-independent
  /// approximation of d(D1 L_d)/d q1 at (q0, q1), costing no fluid solve: the preconditioner of a
  /// matrix-free Newton-Krylov solve. Empty if the Lagrangian has none.
  virtual std::vector<Eigen::MatrixXd> jacobianDiagonalBlocks(const Eigen::VectorXd& /*q0*/,
                                                              const Eigen::VectorXd& /*q1*/) const {
    return {};
  }
  /// x = Jt^-1 r for an approximation Jt of d(D1 L_d)/d q1 at (q0, q1) that the Lagrangian solves itself (the
  /// direction of a chord iteration, or a preconditioner); rtol: the relative accuracy asked of its inner solves.
  /// Empty if the Lagrangian has none. Collective.
  virtual Eigen::VectorXd solveApproximateJacobian(const Eigen::VectorXd& /*q0*/, const Eigen::VectorXd& /*q1*/,
                                                   const Eigen::VectorXd& /*r*/, double /*rtol*/) {
    return {};
  }
};

}  // namespace kirchhoff::integrators
