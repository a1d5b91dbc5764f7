// The heavy top on se(3)* ~ R^3 x R^3 (Ohsawa 2019, eqs. (1.1)-(1.3); docs/heavytop.md):
//   dPi/dt = Pi x I^-1 Pi + m g l Gamma x c,  dGamma/dt = Gamma x I^-1 Pi,
//   h = 1/2 Pi . I^-1 Pi + m g l Gamma . c,  Casimirs f1 = |Gamma|^2, f2 = Pi . Gamma,
//   (-)-Lie–Poisson tensor B(Pi, Gamma) = [[hat Pi, hat Gamma], [hat Gamma, 0]] (dy/dt = B grad h),
//   Kovalevskaya invariant (I1 = I2 = 2 I3, c = (c1, c2, 0)):
//   K = |(Pi1 + i Pi2)^2 - 2 m g l I1 (c1 + i c2)(Gamma1 + i Gamma2)|^2 (docs/heavytop.md for c = e1).
// Templated on the scalar so that complex-step derivatives pass through the schemes.
#pragma once

#include <cmath>
#include <complex>

#include <Eigen/Dense>

#include "lie/SO3.hpp"

namespace kirchhoff::top {

template <class T>
using Vec3T = Eigen::Matrix<T, 3, 1>;
template <class T>
using Vec6T = Eigen::Matrix<T, 6, 1>;
template <class T>
using Mat3T = Eigen::Matrix<T, 3, 3>;
template <class T>
using Mat6T = Eigen::Matrix<T, 6, 6>;
using Vec3 = Vec3T<double>;
using Vec6 = Vec6T<double>;
using Mat3 = Mat3T<double>;
using Mat6 = Mat6T<double>;

/// I = diag(inertia), c the unit vector pivot -> centre of mass (body frame), mgl = m g l.
struct HeavyTopParameters {
  Vec3 inertia = Vec3(1.0, 1.0, 1.0);
  Vec3 c = Vec3(0.0, 0.0, 1.0);
  double mgl = 1.0;

  /// I1 = I2 = 2 I3 and c in the e1-e2 plane (relative tolerance 1e-12).
  bool isKovalevskaya() const {
    const double s = inertia.cwiseAbs().maxCoeff();
    return std::abs(inertia[0] - inertia[1]) <= 1e-12 * s &&
           std::abs(inertia[0] - 2.0 * inertia[2]) <= 1e-12 * s && std::abs(c[2]) <= 1e-12;
  }
  /// I1 = I2 and c on the symmetry axis e3.
  bool isLagrange() const {
    const double s = inertia.cwiseAbs().maxCoeff();
    return std::abs(inertia[0] - inertia[1]) <= 1e-12 * s && std::abs(c[0]) <= 1e-12 &&
           std::abs(c[1]) <= 1e-12;
  }
};

using lie::cross;
using lie::hat;

/// The heavy-top vector field (1.1) at y = (Pi, Gamma).
template <class T>
Vec6T<T> heavyTopField(const HeavyTopParameters& p, const Vec6T<T>& y) {
  const Vec3T<T> Pi = y.template head<3>(), Gamma = y.template tail<3>();
  const Vec3T<T> Omega = Pi.cwiseQuotient(p.inertia.template cast<T>());
  const Vec3T<T> c = p.c.template cast<T>();
  Vec6T<T> d;
  d.template head<3>() = cross<T>(Pi, Omega) + T(p.mgl) * cross<T>(Gamma, c);
  d.template tail<3>() = cross<T>(Gamma, Omega);
  return d;
}

/// Its Jacobian [[hat(Pi) I^-1 - hat(Omega), -mgl hat(c)], [hat(Gamma) I^-1, -hat(Omega)]].
template <class T>
Mat6T<T> heavyTopJacobian(const HeavyTopParameters& p, const Vec6T<T>& y) {
  const Vec3T<T> Pi = y.template head<3>(), Gamma = y.template tail<3>();
  const Vec3T<T> invI = p.inertia.cwiseInverse().template cast<T>();
  const Vec3T<T> Omega = Pi.cwiseProduct(invI);
  const Mat3T<T> hatOmega = hat<T>(Omega);
  Mat6T<T> J;
  J.template block<3, 3>(0, 0) = hat<T>(Pi) * invI.asDiagonal() - hatOmega;
  J.template block<3, 3>(0, 3) = -T(p.mgl) * hat<T>(Vec3T<T>(p.c.template cast<T>()));
  J.template block<3, 3>(3, 0) = hat<T>(Gamma) * invI.asDiagonal();
  J.template block<3, 3>(3, 3) = -hatOmega;
  return J;
}

/// h (1.3).
inline double hamiltonian(const HeavyTopParameters& p, const Vec6& y) {
  const Vec3 Pi = y.head<3>();
  return 0.5 * Pi.dot(Pi.cwiseQuotient(p.inertia)) + p.mgl * y.tail<3>().dot(p.c);
}

/// f1 = |Gamma|^2.
inline double casimirF1(const Vec6& y) { return y.tail<3>().squaredNorm(); }

/// f2 = Pi . Gamma.
inline double casimirF2(const Vec6& y) { return y.head<3>().dot(y.tail<3>()); }

/// The Kovalevskaya invariant (meaningful when p.isKovalevskaya()).
inline double kovalevskaya(const HeavyTopParameters& p, const Vec6& y) {
  using C = std::complex<double>;
  const C pi(y[0], y[1]), gamma(y[3], y[4]), c(p.c[0], p.c[1]);
  return std::norm(pi * pi - 2.0 * p.mgl * p.inertia[0] * c * gamma);
}

/// The (-)-Lie–Poisson tensor B(y) of se(3)*: {F, G} = grad F^T B grad G.
inline Mat6 poissonTensor(const Vec6& y) {
  Mat6 B = Mat6::Zero();
  B.block<3, 3>(0, 0) = hat<double>(y.head<3>());
  B.block<3, 3>(0, 3) = hat<double>(y.tail<3>());
  B.block<3, 3>(3, 0) = hat<double>(y.tail<3>());
  return B;
}

}  // namespace kirchhoff::top
