// The dissipative free rigid body (Bloch–Krishnaprasad–Marsden–Ratiu 1996; docs/damped.md Sec. 2):
//   dM/dt = M x Omega + alpha M x (M x Omega), Omega = I^-1 M;  dH/dt = -alpha |M x Omega|^2, |M| constant.
#pragma once

#include <Eigen/Dense>

namespace kirchhoff::damped {

using Vec3 = Eigen::Vector3d;
using Mat3 = Eigen::Matrix3d;

class DissipativeRigidBody {
 public:
  /// I symmetric positive definite (body frame), alpha >= 0. Throws ConfigurationError.
  DissipativeRigidBody(const Mat3& inertia, double alpha);

  const Mat3& inertia() const { return I_; }
  const Mat3& inertiaInverse() const { return Iinv_; }
  double alpha() const { return alpha_; }

  Vec3 omega(const Vec3& M) const { return Iinv_ * M; }
  double energy(const Vec3& M) const { return 0.5 * M.dot(Iinv_ * M); }
  /// alpha |M x Omega|^2 = -dH/dt.
  double dissipationRate(const Vec3& M) const;
  /// phi = alpha M x Omega, the dissipative velocity: dM/dt = M x Omega + M x phi.
  Vec3 phi(const Vec3& M) const { return alpha_ * M.cross(omega(M)); }
  /// d phi / dM = alpha (hat(M) I^-1 - hat(Omega)).
  Mat3 phiJacobian(const Vec3& M) const;
  Vec3 rhs(const Vec3& M) const;
  Mat3 jacobian(const Vec3& M) const;

  /// Distance from M to the limit set {minimizers of H on the sphere |M| = radius}: the sphere's
  /// intersection with the eigenspace E of the largest principal moment (a pair of points, or a
  /// great circle when the two largest moments are equal). With P the projection onto E,
  /// dist = sqrt(|M - P M|^2 + (|P M| - radius)^2).
  double distanceToLimitSet(const Vec3& M, double radius) const;
  /// Dimension of E (1: isolated equilibria, scenario A; 2: a circle, scenario B).
  int limitSetDimension() const { return static_cast<int>(E_.cols()); }

 private:
  Mat3 I_, Iinv_;
  double alpha_;
  Eigen::MatrixXd E_;  ///< orthonormal basis of the largest-moment eigenspace (3 x dim)
};

}  // namespace kirchhoff::damped
