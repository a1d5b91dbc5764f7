// Exponential and Cayley retractions on SO(3), their differentials, and the discrete momentum of
// the DDB method (docs/damped.md Sec. 2, step 1). Series branches keep full accuracy near 0.
#include "models/damped/Retraction.hpp"

#include <cmath>

#include "core/Error.hpp"
#include "lie/SO3.hpp"

namespace kirchhoff::damped {

using lie::hat;

Mat3 tau(Retraction r, const Vec3& v) {
  return r == Retraction::Exp ? lie::expSO3(v) : lie::cayleySO3(v);
}

Vec3 tauTransposeApply(Retraction r, const Vec3& v, const Vec3& y) {
  const Vec3 vy = v.cross(y);
  const Vec3 vvy = v.cross(vy);
  const double th2 = v.squaredNorm();
  if (r == Retraction::Cayley) return y + (-vy + 0.5 * vvy) / (1.0 + 0.25 * th2);
  const double th = std::sqrt(th2);
  double a, b;  // sin(th)/th and (1 - cos th)/th^2 = 2 sin^2(th/2)/th^2
  if (th < 1e-4) {
    a = 1.0 - th2 / 6.0 + th2 * th2 / 120.0;
    b = 0.5 - th2 / 24.0 + th2 * th2 / 720.0;
  } else {
    const double s = std::sin(0.5 * th) / (0.5 * th);
    a = std::sin(th) / th;
    b = 0.5 * s * s;
  }
  return y - a * vy + b * vvy;
}

Mat3 dtau(Retraction r, const Vec3& v) {
  const Mat3 V = hat(v);
  const double th2 = v.squaredNorm();
  if (r == Retraction::Cayley) return (Mat3::Identity() + 0.5 * V) / (1.0 + 0.25 * th2);
  const double th = std::sqrt(th2);
  double b, c;  // (1 - cos th)/th^2, (th - sin th)/th^3
  if (th < 1e-2) {
    b = 0.5 - th2 / 24.0 + th2 * th2 / 720.0;
    c = 1.0 / 6.0 - th2 / 120.0 + th2 * th2 / 5040.0;
  } else {
    const double s = std::sin(0.5 * th) / (0.5 * th);
    b = 0.5 * s * s;
    c = (th - std::sin(th)) / (th2 * th);
  }
  return Mat3::Identity() + b * V + c * V * V;
}

double dexpInvCoefficient(double th) {
  const double t2 = th * th;
  if (th < 0.1) return 1.0 / 12.0 + t2 / 720.0 + t2 * t2 / 30240.0 + t2 * t2 * t2 / 1209600.0;
  const double f = 0.5 * th / std::tan(0.5 * th);
  return (1.0 - f) / t2;
}

double dexpInvCoefficientSlope(double th) {
  const double t2 = th * th;
  if (th < 0.1) return 1.0 / 360.0 + t2 / 7560.0 + t2 * t2 / 201600.0;
  const double s = std::sin(0.5 * th);
  const double f = 0.5 * th / std::tan(0.5 * th);
  const double df = 0.5 / std::tan(0.5 * th) - 0.25 * th / (s * s);
  return (-df / t2 - 2.0 * (1.0 - f) / (t2 * th)) / th;
}

namespace {
void requireExpDomain(double th) {
  // cot(th/2) is singular at th = 2 pi: dexp^-1 does not exist there.
  constexpr double kTwoPi = 6.283185307179586476925;
  if (!(th < kTwoPi))
    throw NumericalError("DDB exp retraction: h |Omega| >= 2 pi, outside the domain of dexp^-1");
}
}  // namespace

Mat3 dtauInvTranspose(Retraction r, const Vec3& v) {
  const Mat3 V = hat(v);
  if (r == Retraction::Cayley) return Mat3::Identity() + 0.5 * V + 0.25 * v * v.transpose();
  const double th = v.norm();
  requireExpDomain(th);
  return Mat3::Identity() + 0.5 * V + dexpInvCoefficient(th) * V * V;
}

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
