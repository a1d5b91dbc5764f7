// The dissipative free rigid body (docs/damped.md Sec. 2): vector field, Jacobian, energy rate and
// the distance to its limit set (minimum of H on the coadjoint orbit |M| = const).
#include "models/damped/RigidBody.hpp"

#include <cmath>

#include "core/Error.hpp"
#include "lie/SO3.hpp"

namespace kirchhoff::damped {

using lie::hat;

DissipativeRigidBody::DissipativeRigidBody(const Mat3& inertia, double alpha)
    : I_(inertia), alpha_(alpha) {
  if ((I_ - I_.transpose()).cwiseAbs().maxCoeff() > 1e-14 * I_.cwiseAbs().maxCoeff())
    throw ConfigurationError("rigid body: inertia tensor must be symmetric");
  Eigen::SelfAdjointEigenSolver<Mat3> es(I_);
  const Vec3 ev = es.eigenvalues();  // ascending
  if (!(ev(0) > 0.0)) throw ConfigurationError("rigid body: inertia tensor must be positive definite");
  if (!(alpha_ >= 0.0)) throw ConfigurationError("rigid body: alpha must be >= 0");
  Iinv_ = I_.inverse();
  // Moments equal to the largest within a relative 1e-12 span the limit eigenspace.
  int dim = 1;
  while (dim < 3 && ev(2) - ev(2 - dim) <= 1e-12 * ev(2)) ++dim;
  E_ = es.eigenvectors().rightCols(dim);
}

double DissipativeRigidBody::dissipationRate(const Vec3& M) const {
  return alpha_ * M.cross(omega(M)).squaredNorm();
}

Mat3 DissipativeRigidBody::phiJacobian(const Vec3& M) const {
  return alpha_ * (hat(M) * Iinv_ - hat(omega(M)));
}

Vec3 DissipativeRigidBody::rhs(const Vec3& M) const {
  const Vec3 c = M.cross(omega(M));
  return c + alpha_ * M.cross(c);
}

Mat3 DissipativeRigidBody::jacobian(const Vec3& M) const {
  // d(M x Omega) = (hat(M) I^-1 - hat(Omega)) dM =: C dM;  d(M x c) = -hat(c) dM + hat(M) C dM.
  const Vec3 W = omega(M);
  const Mat3 C = hat(M) * Iinv_ - hat(W);
  return C + alpha_ * (hat(M) * C - hat(M.cross(W)));
}

double DissipativeRigidBody::distanceToLimitSet(const Vec3& M, double radius) const {
  const Vec3 PM = E_ * (E_.transpose() * M);
  const double t = PM.norm() - radius;
  return std::sqrt((M - PM).squaredNorm() + t * t);
}

}  // namespace kirchhoff::damped
