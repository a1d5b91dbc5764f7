// SO(3) and its Lie algebra so(3) ~ R^3: hat/vee, cross, the exponential (Rodrigues), the Cayley
// map and the log; the retractions with their differentials are in lie/Retraction.hpp.
#pragma once

#include <algorithm>
#include <cmath>

#include <Eigen/Dense>

namespace kirchhoff::lie {

using Vec3 = Eigen::Vector3d;
using Mat3 = Eigen::Matrix3d;

/// hat(w) v = w x v. Templated on the scalar so complex-step derivatives pass through.
template <class T>
Eigen::Matrix<T, 3, 3> hat(const Eigen::Matrix<T, 3, 1>& w) {
  Eigen::Matrix<T, 3, 3> m;
  m << T(0), -w[2], w[1], w[2], T(0), -w[0], -w[1], w[0], T(0);
  return m;
}

/// hat for double vectors and Eigen expressions (no template deduction needed).
inline Mat3 hat(const Vec3& w) { return hat<double>(w); }

/// a x b without conjugation (Eigen's cross() conjugates complex vectors, which would break
/// complex-step derivatives).
template <class T>
Eigen::Matrix<T, 3, 1> cross(const Eigen::Matrix<T, 3, 1>& a, const Eigen::Matrix<T, 3, 1>& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}

/// Inverse of hat for a skew matrix.
inline Vec3 vee(const Mat3& m) { return Vec3(m(2, 1), m(0, 2), m(1, 0)); }

/// exp(hat(w)) by Rodrigues' formula, with series near w = 0.
inline Mat3 expSO3(const Vec3& w) {
  const double th2 = w.squaredNorm();
  const double th = std::sqrt(th2);
  double a, b;  // sin(th)/th, (1 - cos th)/th^2
  if (th < 1e-4) {
    a = 1.0 - th2 / 6.0 + th2 * th2 / 120.0;
    b = 0.5 - th2 / 24.0 + th2 * th2 / 720.0;
  } else {
    a = std::sin(th) / th;
    b = (1.0 - std::cos(th)) / th2;
  }
  const Mat3 W = hat(w);
  return Mat3::Identity() + a * W + b * W * W;
}

/// Cayley retraction cay(hat(w)) = (I - W/2)^-1 (I + W/2), closed form.
inline Mat3 cayleySO3(const Vec3& w) {
  const Mat3 W = hat(w);
  const double s = 1.0 / (1.0 + 0.25 * w.squaredNorm());
  return Mat3::Identity() + s * (W + 0.5 * W * W);
}

/// Axis-angle log of a rotation (|angle| < pi).
inline Vec3 logSO3(const Mat3& R) {
  const double c = std::clamp(0.5 * (R.trace() - 1.0), -1.0, 1.0);
  const double th = std::acos(c);
  const Vec3 v = vee(R - R.transpose());
  if (th < 1e-6) return 0.5 * (1.0 + th * th / 6.0) * v;
  return th / (2.0 * std::sin(th)) * v;
}

}  // namespace kirchhoff::lie
