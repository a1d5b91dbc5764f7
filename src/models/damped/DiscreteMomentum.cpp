// DDB step 1 (damped.md Sec. 2): M = (dtau^-1_{h Om})^T I Om for the exp and Cayley retractions,
// in closed form, and its derivative in Om for Newton's method.
#include "models/damped/DiscreteMomentum.hpp"

#include <cmath>

#include "lie/SO3.hpp"

namespace kirchhoff::damped {

using lie::dexpInvCoefficient;
using lie::dexpInvCoefficientSlope;
using lie::hat;
using lie::requireExpDomain;

Vec3 discreteMomentum(Retraction r, double h, const Mat3& I, const Vec3& Om) {
  const Vec3 y = I * Om;
  const Vec3 m1 = y + 0.5 * h * Om.cross(y);
  if (r == Retraction::Cayley) return m1 + 0.25 * h * h * Om.dot(y) * Om;
  const double th = h * Om.norm();
  requireExpDomain(th);
  return m1 + dexpInvCoefficient(th) * h * h * Om.cross(Om.cross(y));
}

Mat3 discreteMomentumJacobian(Retraction r, double h, const Mat3& I, const Vec3& Om) {
  const Vec3 y = I * Om;
  Mat3 J = I + 0.5 * h * (hat(Om) * I - hat(y));
  if (r == Retraction::Cayley) {
    J += 0.25 * h * h * (Om.dot(y) * Mat3::Identity() + 2.0 * Om * y.transpose());
    return J;
  }
  const double th = h * Om.norm();
  requireExpDomain(th);
  // g = Om x (Om x I Om) = Om (Om . y) - y |Om|^2,  dg/dOm = (Om.y) 1 + 2 Om y^T - |Om|^2 I - 2 y Om^T.
  const Vec3 g = Om.cross(Om.cross(y));
  const Mat3 Jg = Om.dot(y) * Mat3::Identity() + 2.0 * Om * y.transpose() -
                  Om.squaredNorm() * I - 2.0 * y * Om.transpose();
  J += h * h * dexpInvCoefficient(th) * Jg;
  J += std::pow(h, 4) * dexpInvCoefficientSlope(th) * g * Om.transpose();
  return J;
}

}  // namespace kirchhoff::damped
