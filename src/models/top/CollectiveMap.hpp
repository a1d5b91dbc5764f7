// The collective Poisson map M: T*R^4 -> se(3)*, z = (q, p) -> (Pi, Gamma) (Ohsawa 2019, eq. (4.1);
// docs/heavytop.md "Collective map", reconstructed there and re-derived/tested here):
//   Pi = A(p) q,  A(p) = 1/2 [[p4,-p3,p2,-p1],[-p3,-p4,p1,p2],[p2,-p1,-p4,p3]]  (A A^T = |p|^2/4 I, A p = 0)
//   Gamma = (2(p1 p3 + p2 p4), 2(p1 p4 - p2 p3), p1^2 + p2^2 - p3^2 - p4^2),
// its inverse for initial data (Theorem 4.1 (i)), and the Noether quantities of Sec. 4.2:
//   J1 = |p|^2 / 2 (R-action chi -> chi + b psi; f1 = 4 J1^2),
//   J2 = p2 q1 - p1 q2 + p4 q3 - p3 q4 (S^1-action; f2 = J1 J2), and Pi3 (Lagrange top, Sec. 4.3).
#pragma once

#include <algorithm>
#include <cmath>
#include <string>

#include <Eigen/Dense>

#include "core/Error.hpp"
#include "models/top/HeavyTop.hpp"

namespace kirchhoff::top {

template <class T>
using Vec4T = Eigen::Matrix<T, 4, 1>;
template <class T>
using Vec8T = Eigen::Matrix<T, 8, 1>;
template <class T>
using Mat8T = Eigen::Matrix<T, 8, 8>;
template <class T>
using Mat34T = Eigen::Matrix<T, 3, 4>;
using Vec4 = Vec4T<double>;
using Vec8 = Vec8T<double>;
using Mat8 = Mat8T<double>;
using Mat68 = Eigen::Matrix<double, 6, 8>;

/// A(p): Pi = A(p) q, i.e. dPi/dq.
template <class T>
Mat34T<T> collectiveA(const Vec4T<T>& p) {
  Mat34T<T> A;
  A << p[3], -p[2], p[1], -p[0],  //
      -p[2], -p[3], p[0], p[1],   //
      p[1], -p[0], -p[3], p[2];
  return T(0.5) * A;
}

/// dPi/dp (Pi is bilinear: Pi = A(p) q = Bq(q) p).
template <class T>
Mat34T<T> collectiveBq(const Vec4T<T>& q) {
  Mat34T<T> B;
  B << -q[3], q[2], -q[1], q[0],  //
      q[2], q[3], -q[0], -q[1],   //
      -q[1], q[0], q[3], -q[2];
  return T(0.5) * B;
}

/// Gamma(p), the Hopf map (3.1b).
template <class T>
Vec3T<T> collectiveGamma(const Vec4T<T>& p) {
  return Vec3T<T>(T(2) * (p[0] * p[2] + p[1] * p[3]), T(2) * (p[0] * p[3] - p[1] * p[2]),
                  p[0] * p[0] + p[1] * p[1] - p[2] * p[2] - p[3] * p[3]);
}

/// dGamma/dp.
template <class T>
Mat34T<T> collectiveDGamma(const Vec4T<T>& p) {
  Mat34T<T> D;
  D << p[2], p[3], p[0], p[1],  //
      p[3], -p[2], -p[1], p[0],  //
      p[0], p[1], -p[2], -p[3];
  return T(2) * D;
}

/// M(z) = (Pi, Gamma).
template <class T>
Vec6T<T> collectiveMap(const Vec8T<T>& z) {
  const Vec4T<T> q = z.template head<4>(), p = z.template tail<4>();
  Vec6T<T> y;
  y.template head<3>() = collectiveA<T>(p) * q;
  y.template tail<3>() = collectiveGamma<T>(p);
  return y;
}

/// DM(z) (6 x 8).
inline Mat68 collectiveMapJacobian(const Vec8& z) {
  const Vec4 q = z.head<4>(), p = z.tail<4>();
  Mat68 D = Mat68::Zero();
  D.block<3, 4>(0, 0) = collectiveA<double>(p);
  D.block<3, 4>(0, 4) = collectiveBq<double>(q);
  D.block<3, 4>(3, 4) = collectiveDGamma<double>(p);
  return D;
}

/// The canonical Poisson tensor Omega = [[0, I], [-I, 0]] ({F, H} = F_q H_p - F_p H_q).
inline Mat8 canonicalOmega() {
  Mat8 O = Mat8::Zero();
  O.block<4, 4>(0, 4).setIdentity();
  O.block<4, 4>(4, 0) = -Eigen::Matrix4d::Identity();
  return O;
}

/// psi(Gamma) with phase a: sqrt|Gamma| e^{ia} (cos(t/2), sin(t/2) e^{if}), Gamma/|Gamma| =
/// (sin t cos f, sin t sin f, cos t), in real coordinates (p1..p4). Gamma must be nonzero.
inline Vec4 collectiveLiftP(const Vec3& Gamma, double phase) {
  const double r = Gamma.norm();
  if (!(r > 0.0) || !std::isfinite(r))
    throw ConfigurationError("collective lift: Gamma must be nonzero and finite (|Gamma| = " +
                             std::to_string(r) + ")");
  const double theta = std::acos(std::clamp(Gamma[2] / r, -1.0, 1.0));
  const double phi = std::atan2(Gamma[1], Gamma[0]);
  const double s = std::sqrt(r);
  const double c1 = s * std::cos(0.5 * theta), c2 = s * std::sin(0.5 * theta);
  return Vec4(c1 * std::cos(phase), c1 * std::sin(phase), c2 * std::cos(phase + phi),
              c2 * std::sin(phase + phi));
}

/// z with M(z) = (Pi, Gamma): p = psi(Gamma, phase), q = (4/|p|^2) A(p)^T Pi + shift p.
inline Vec8 collectiveLift(const Vec3& Pi, const Vec3& Gamma, double phase, double shift) {
  const Vec4 p = collectiveLiftP(Gamma, phase);
  Vec8 z;
  z.head<4>() = (4.0 / p.squaredNorm()) * collectiveA<double>(p).transpose() * Pi + shift * p;
  z.tail<4>() = p;
  return z;
}

/// The shift s for which the lift has q1 = target (the paper's normalization Re chi1 = 1).
inline double collectiveShiftForQ1(const Vec3& Pi, const Vec3& Gamma, double phase, double target) {
  const Vec8 z0 = collectiveLift(Pi, Gamma, phase, 0.0);
  if (std::abs(z0[4]) < 1e-12 * z0.tail<4>().norm())
    throw ConfigurationError("collective lift: q1 cannot be prescribed when p1 = 0 "
                             "(choose another phase or give the shift)");
  return (target - z0[0]) / z0[4];
}

/// Noether quantity of the R-action (chi, psi) -> (chi + b psi, psi): J1 = |p|^2 / 2.
inline double noetherJ1(const Vec8& z) { return 0.5 * z.tail<4>().squaredNorm(); }

/// Noether quantity of the S^1-action (e^{it} chi, e^{it} psi): J2 = -Im(psi^* chi).
inline double noetherJ2(const Vec8& z) {
  return z[5] * z[0] - z[4] * z[1] + z[7] * z[2] - z[6] * z[3];
}

}  // namespace kirchhoff::top
