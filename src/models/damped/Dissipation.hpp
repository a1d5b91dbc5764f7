// Rayleigh dissipation tensors D(q) (symmetric positive semi-definite), docs/damped.md Sec. 1:
// the force is -eps D(q) M^-1 p and dH/dt = -eps <D p#, p#>. Constant, diagonal, rank-one radial.
#pragma once

#include <string>

#include <Eigen/Dense>

namespace kirchhoff::damped {

using Eigen::MatrixXd;
using Eigen::VectorXd;

class Dissipation {
 public:
  virtual ~Dissipation() = default;
  virtual std::string name() const = 0;
  /// D(q), n x n symmetric PSD.
  virtual MatrixXd matrix(const VectorXd& q) const = 0;
  /// True if D does not depend on q (the exponential sub-flows are then precomputed).
  virtual bool constant() const = 0;
  /// If D(q) = w w^T, sets w and returns true (the sub-flows then use the rank-one closed form).
  virtual bool rankOne(const VectorXd& /*q*/, VectorXd& /*w*/) const { return false; }
};

/// D = D0, any symmetric PSD matrix (checked: throws ConfigurationError otherwise).
class ConstantDissipation final : public Dissipation {
 public:
  explicit ConstantDissipation(MatrixXd D0);
  std::string name() const override { return "constant"; }
  MatrixXd matrix(const VectorXd&) const override { return D0_; }
  bool constant() const override { return true; }

 private:
  MatrixXd D0_;
};

/// D = diag(d), d_i >= 0.
class DiagonalDissipation final : public Dissipation {
 public:
  explicit DiagonalDissipation(VectorXd d);
  std::string name() const override { return "diagonal"; }
  MatrixXd matrix(const VectorXd&) const override { return d_.asDiagonal(); }
  bool constant() const override { return true; }

 private:
  VectorXd d_;
};

/// Radial rank-one damping D = c u u^T, u = q/|q|: damps only the radial velocity, is invariant
/// under every rotation about the origin, and vanishes on tangential motion (relative equilibria).
class RadialDissipation final : public Dissipation {
 public:
  explicit RadialDissipation(double c);
  std::string name() const override { return "radial"; }
  MatrixXd matrix(const VectorXd& q) const override;
  bool constant() const override { return false; }
  bool rankOne(const VectorXd& q, VectorXd& w) const override;  ///< w = sqrt(c) u

 private:
  double c_;
};

}  // namespace kirchhoff::damped
