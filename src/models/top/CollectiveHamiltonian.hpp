// The collective Hamiltonian H = h o M on T*R^4 (Ohsawa 2019, eqs. (4.2), (4.4b)) with its exact
// gradient and Hessian by the chain rule through the bilinear Pi(q, p) = A(p) q and quadratic Gamma(p):
//   grad H = DPi^T Omega + m g l (0, DGamma^T c),   Omega = I^-1 Pi,
//   Hess H = DPi^T I^-1 DPi + sum_i Omega_i Hess Pi_i + m g l sum_j c_j Hess Gamma_j,
// and the canonical vector field X_H = (dH/dp, -dH/dq) (eq. (4.4b)).
#pragma once

#include <Eigen/Dense>

#include "models/top/CollectiveMap.hpp"
#include "models/top/HeavyTop.hpp"

namespace kirchhoff::top {

/// H(z) = h(M(z)).
template <class T>
T collectiveHamiltonian(const HeavyTopParameters& par, const Vec8T<T>& z) {
  const Vec6T<T> y = collectiveMap<T>(z);
  const Vec3T<T> Pi = y.template head<3>();
  const Vec3T<T> invI = par.inertia.cwiseInverse().template cast<T>();
  // cwiseProduct().sum(), not dot(): Eigen's dot conjugates complex vectors.
  return T(0.5) * Pi.cwiseProduct(Pi.cwiseProduct(invI)).sum() +
         T(par.mgl) * y.template tail<3>().cwiseProduct(par.c.template cast<T>()).sum();
}

/// grad H(z) = (dH/dq, dH/dp).
template <class T>
Vec8T<T> collectiveGradient(const HeavyTopParameters& par, const Vec8T<T>& z) {
  const Vec4T<T> q = z.template head<4>(), p = z.template tail<4>();
  const Mat34T<T> A = collectiveA<T>(p);
  const Vec3T<T> Omega = (A * q).cwiseQuotient(par.inertia.template cast<T>());
  Vec8T<T> g;
  g.template head<4>() = A.transpose() * Omega;
  g.template tail<4>() = collectiveBq<T>(q).transpose() * Omega +
                         T(par.mgl) * collectiveDGamma<T>(p).transpose() * par.c.template cast<T>();
  return g;
}

/// grad H and Hess H (8 x 8, symmetric) together, sharing DPi = [A(p), Bq(q)] and Omega.
template <class T>
void collectiveGradientHessian(const HeavyTopParameters& par, const Vec8T<T>& z, Vec8T<T>& grad,
                               Mat8T<T>& Hs) {
  const Vec4T<T> q = z.template head<4>(), p = z.template tail<4>();
  Eigen::Matrix<T, 3, 8> DPi;
  DPi.template leftCols<4>() = collectiveA<T>(p);
  DPi.template rightCols<4>() = collectiveBq<T>(q);
  const Vec3T<T> invI = par.inertia.cwiseInverse().template cast<T>();
  const Vec3T<T> Om = (DPi.template leftCols<4>() * q).cwiseProduct(invI);
  const Vec3T<T> c = par.c.template cast<T>();
  grad = DPi.transpose() * Om;
  grad.template tail<4>() += T(par.mgl) * collectiveDGamma<T>(p).transpose() * c;
  Hs.noalias() = DPi.transpose() * invI.asDiagonal() * DPi;
  // sum_i Omega_i d^2 Pi_i / dq dp: the q-p block is d/dp of A(p)^T Omega (linear in p).
  Eigen::Matrix<T, 4, 4> Cqp;
  Cqp << T(0), Om[2], -Om[1], Om[0],  //
      -Om[2], T(0), -Om[0], -Om[1],   //
      Om[1], Om[0], T(0), -Om[2],     //
      -Om[0], Om[1], Om[2], T(0);
  Cqp *= T(0.5);
  Hs.template block<4, 4>(0, 4) += Cqp;
  Hs.template block<4, 4>(4, 0) += Cqp.transpose();
  // m g l sum_j c_j Hess Gamma_j (p-p block), Hess Gamma_j = 2 G_j.
  const double k = 2.0 * par.mgl;
  const double c1 = par.c[0], c2 = par.c[1], c3 = par.c[2];
  Eigen::Matrix<T, 4, 4> G;
  G << T(k * c3), T(0), T(k * c1), T(k * c2),  //
      T(0), T(k * c3), T(-k * c2), T(k * c1),  //
      T(k * c1), T(-k * c2), T(-k * c3), T(0), //
      T(k * c2), T(k * c1), T(0), T(-k * c3);
  Hs.template block<4, 4>(4, 4) += G;
}

/// Hess H(z) (8 x 8, symmetric).
template <class T>
Mat8T<T> collectiveHessian(const HeavyTopParameters& par, const Vec8T<T>& z) {
  Vec8T<T> g;
  Mat8T<T> Hs;
  collectiveGradientHessian<T>(par, z, g, Hs);
  return Hs;
}

/// X_H(z) = Omega_can grad H = (dH/dp, -dH/dq).
template <class T>
Vec8T<T> collectiveField(const HeavyTopParameters& par, const Vec8T<T>& z) {
  const Vec8T<T> g = collectiveGradient<T>(par, z);
  Vec8T<T> x;
  x.template head<4>() = g.template tail<4>();
  x.template tail<4>() = -g.template head<4>();
  return x;
}

/// D X_H(z) = Omega_can Hess H.
template <class T>
Mat8T<T> collectiveFieldJacobian(const HeavyTopParameters& par, const Vec8T<T>& z) {
  const Mat8T<T> Hs = collectiveHessian<T>(par, z);
  Mat8T<T> D;
  D.template topRows<4>() = Hs.template bottomRows<4>();
  D.template bottomRows<4>() = -Hs.template topRows<4>();
  return D;
}

/// X_H(z) and D X_H(z) in one pass (the Newton residual and Jacobian of the implicit midpoint).
template <class T>
void collectiveFieldAndJacobian(const HeavyTopParameters& par, const Vec8T<T>& z, Vec8T<T>& X,
                                Mat8T<T>& DX) {
  Vec8T<T> g;
  Mat8T<T> Hs;
  collectiveGradientHessian<T>(par, z, g, Hs);
  X.template head<4>() = g.template tail<4>();
  X.template tail<4>() = -g.template head<4>();
  DX.template topRows<4>() = Hs.template bottomRows<4>();
  DX.template bottomRows<4>() = -Hs.template topRows<4>();
}

}  // namespace kirchhoff::top
