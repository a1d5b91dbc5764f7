// c L_d for a constant c > 0: the same DEL solutions (p' + D1 (c L_d) = c (p + D1 L_d) with p' = c p), used
// for the sub-steps of size c h of an impact (docs/fluidbody.md (FB-86)): their residual keeps the full step's scale.
#pragma once

#include <vector>

#include "integrators/DiscreteLagrangian.hpp"

namespace kirchhoff::integrators {

/// A view of a discrete Lagrangian scaled by c. With c = 1 it returns the wrapped values unchanged
/// (bitwise). A sub-step of size c h has a residual floor ~ eps |q| |K| / (c h); scaled by c it is
/// the full step's, so the solver's absolute and round-off tolerances mean the same at every c.
class ScaledLagrangian : public DiscreteLagrangian {
 public:
  explicit ScaledLagrangian(DiscreteLagrangian& ld) : ld_(ld) {}
  void setScale(double c) { c_ = c; }
  double scale() const { return c_; }

  int dimension() const override { return ld_.dimension(); }
  double value(const Eigen::VectorXd& q0, const Eigen::VectorXd& q1) override { return c_ * ld_.value(q0, q1); }
  void slotDerivatives(const Eigen::VectorXd& q0, const Eigen::VectorXd& q1, Eigen::VectorXd* d1,
                       Eigen::VectorXd* d2) override {
    ld_.slotDerivatives(q0, q1, d1, d2);
    if (c_ == 1.0) return;
    if (d1) *d1 *= c_;
    if (d2) *d2 *= c_;
  }
  Eigen::MatrixXd approximateJacobian(const Eigen::VectorXd& q0, const Eigen::VectorXd& q1) override {
    Eigen::MatrixXd J = ld_.approximateJacobian(q0, q1);
    if (c_ != 1.0) J *= c_;
    return J;
  }
  std::vector<Eigen::MatrixXd> jacobianDiagonalBlocks(const Eigen::VectorXd& q0,
                                                      const Eigen::VectorXd& q1) const override {
    std::vector<Eigen::MatrixXd> b = ld_.jacobianDiagonalBlocks(q0, q1);
    if (c_ != 1.0)
      for (auto& m : b) m *= c_;
    return b;
  }
  Eigen::VectorXd solveApproximateJacobian(const Eigen::VectorXd& q0, const Eigen::VectorXd& q1,
                                           const Eigen::VectorXd& r, double rtol) override {
    Eigen::VectorXd x = ld_.solveApproximateJacobian(q0, q1, r, rtol);  // (c Jt)^-1 r = Jt^-1 r / c
    if (c_ != 1.0 && x.size()) x /= c_;
    return x;
  }

 private:
  DiscreteLagrangian& ld_;
  double c_ = 1.0;
};

}  // namespace kirchhoff::integrators
