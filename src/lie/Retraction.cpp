// Exponential and Cayley retractions on SO(3) and their differentials, with series branches that
// keep full accuracy near 0 (damped.md Sec. 2; the DDB method uses them through models/damped).
#include "lie/Retraction.hpp"

#include <cmath>

#include "core/Constants.hpp"
#include "core/Error.hpp"
#include "lie/SO3.hpp"

namespace kirchhoff::lie {

const Choices<Retraction>& retractions() {
  static const Choices<Retraction> c("retraction", {{"exp", Retraction::Exp}, {"cayley", Retraction::Cayley}});
  return c;
}

Mat3 tau(Retraction r, const Vec3& v) {
  return r == Retraction::Exp ? expSO3(v) : cayleySO3(v);
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

void requireExpDomain(double th) {
  // cot(th/2) is singular at th = 2 pi: dexp^-1 does not exist there.
  if (!(th < kTwoPi))
    throw NumericalError("exp retraction: |v| = " + std::to_string(th) +
                         " >= 2 pi, outside the domain of dexp^-1");
}

Mat3 dtauInvTranspose(Retraction r, const Vec3& v) {
  const Mat3 V = hat(v);
  if (r == Retraction::Cayley) return Mat3::Identity() + 0.5 * V + 0.25 * v * v.transpose();
  const double th = v.norm();
  requireExpDomain(th);
  return Mat3::Identity() + 0.5 * V + dexpInvCoefficient(th) * V * V;
}

}  // namespace kirchhoff::lie
