// SE(2) in coordinates g = (theta, y): group law, exp/log, and the closed-form factors of the
// midpoint discrete Lagrangian (Xi_k = log(g_k^-1 g_k+1)/h, g_k+1/2 = g_k exp(h Xi_k / 2)).
#pragma once

#include <cmath>
#include <complex>

#include <Eigen/Dense>

namespace kirchhoff::lie {

using Vec2 = Eigen::Vector2d;
using Mat2 = Eigen::Matrix2d;
using Complex = std::complex<double>;

/// Rotation by angle t.
inline Mat2 rotation(double t) {
  const double c = std::cos(t), s = std::sin(t);
  Mat2 r;
  r << c, -s, s, c;
  return r;
}

/// J = rotation by +90 degrees.
inline Mat2 Jmat() {
  Mat2 j;
  j << 0.0, -1.0, 1.0, 0.0;
  return j;
}
inline Vec2 Jrot(const Vec2& v) { return Vec2(-v.y(), v.x()); }
/// a x b = a1 b2 - a2 b1.
inline double cross(const Vec2& a, const Vec2& b) { return a.x() * b.y() - a.y() * b.x(); }

inline Complex toComplex(const Vec2& v) { return {v.x(), v.y()}; }
inline Vec2 toVec(const Complex& z) { return Vec2(z.real(), z.imag()); }

/// A pose g = (theta, y): z = R(theta) Z + y.
struct Pose {
  double theta = 0.0;
  Vec2 y = Vec2::Zero();

  Vec2 apply(const Vec2& Z) const { return rotation(theta) * Z + y; }
  Vec2 applyInverse(const Vec2& z) const { return rotation(-theta) * (z - y); }
  Pose operator*(const Pose& o) const { return {theta + o.theta, rotation(theta) * o.y + y}; }
  Pose inverse() const { return {-theta, -(rotation(-theta) * y)}; }
};

/// Left-invariant midpoint factors for the step (theta_k, y_k) -> (theta_k + phi, y_k + dy):
///   V = e^{-i theta_k} v(phi) dy / h,    v(phi) = i phi / (e^{i phi} - 1)
///   y_mid = y_k + w(phi) dy,             w(phi) = 1 / (1 + e^{i phi / 2})
/// and their phi-derivatives, with series near phi = 0.
struct MidpointFactors {
  Complex v, dv, w, dw;
  explicit MidpointFactors(double phi) {
    const double x = 0.5 * phi;
    double s, ds;  // s = x / sin x, ds = d s / d phi
    if (std::abs(x) < 1e-3) {
      const double x2 = x * x;
      s = 1.0 + x2 / 6.0 + 7.0 * x2 * x2 / 360.0;
      ds = 0.5 * (x / 3.0 + 7.0 * x2 * x / 90.0);
    } else {
      const double sx = std::sin(x);
      s = x / sx;
      ds = 0.5 * (sx - x * std::cos(x)) / (sx * sx);
    }
    const Complex e = std::polar(1.0, -x);  // e^{-i phi/2}
    const Complex I(0.0, 1.0);
    v = s * e;
    dv = ds * e - 0.5 * I * s * e;
    const Complex eh = std::polar(1.0, x);  // e^{i phi/2}
    w = 1.0 / (1.0 + eh);
    dw = -0.5 * I * eh / ((1.0 + eh) * (1.0 + eh));
  }
};

/// exp of the body velocity (Omega, V) over time t: the pose increment g_k^-1 g_k+1.
inline Pose expSE2(double omega, const Vec2& V, double t) {
  const double phi = omega * t;
  const MidpointFactors f(phi);
  return {phi, toVec(toComplex(V) * t / f.v)};
}

}  // namespace kirchhoff::lie
