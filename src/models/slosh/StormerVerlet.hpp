// Stormer-Verlet step of the particle-path shallow-water + vehicle system (docs/slosh.md (SL-9)-(SL-11),
// after Alemi Ardakani & Bridges 2010 and their report, with the trapezoidal sigma), templated on T.
//
//   p^{n+1/2} = p^n - (nu dt/2) q^n,            w_i^{n+1/2} = w_i^n + (dt/2) F_i(x^n)
//   sigma^{n+1/2} = rho da [c_b w_0 + sum_i e_i h0_i w_i^{n+1/2}],  w_0 = (p^{n+1/2} - sigma)/m_v
//     => p - sigma = (p^{n+1/2} - S) / (1 + beta),  S = rho da sum_i e_i h0_i w_i,  beta = rho da c_b / m_v
//   x_i^{n+1} = x_i^n + dt (w_i^{n+1/2} - q_t),  q^{n+1} = q^n + dt q_t,  q_t = (p - sigma)/m_v
//   p^{n+1} = p^{n+1/2} - (nu dt/2) q^{n+1},    w_i^{n+1} = w_i^{n+1/2} + (dt/2) F_i(x^{n+1})
//   F_i(x) = (g da/(2 h0_i)) [H_{i-1/2}^2/(x_i - x_{i-1})^2 - H_{i+1/2}^2/(x_{i+1} - x_i)^2]
//
// With interior weights e_i = 1 (trapezoid, left, right) this is Stormer-Verlet for the separable
// H = sum pi_i^2/(2 M_i) + (p - sum pi_i)^2/(2 (m_v + rho da c_b)) + V(x) + nu q^2/2, pi_i = M_i w_i,
// M_i = rho da h0_i, hence symplectic for Omega = sum M_i dw_i ^ dx_i + dp ^ dq; Simpson is not.
// The slab kernels work on a ghosted position array xg: xg[0] = x_{first-1}, xg[k+1] = x_{first+k}.
#pragma once

#include <cstddef>
#include <vector>

#include "models/slosh/CompensatedSum.hpp"
#include "models/slosh/Discretization.hpp"
#include "models/slosh/SloshConfig.hpp"

namespace kirchhoff::slosh {

/// H_{j+1/2}^2 / (x_{j+1} - x_j)^2 of slab cell k.
template <class T>
inline T cellForceTerm(const T* xg, const SlabCoefficients& c, std::size_t k) {
  const T dx = xg[k + 1] - xg[k];
  return c.cellHsq[k] / (dx * dx);
}

/// wOut_k = wIn_k + tau F_i(x) for the slab nodes (wIn == wOut allowed).
template <class T>
void kick(const T* xg, const T* wIn, T* wOut, const SlabCoefficients& c, double tau) {
  T left = cellForceTerm(xg, c, 0);
  for (std::size_t k = 0; k < c.n; ++k) {
    const T right = cellForceTerm(xg, c, k + 1);
    wOut[k] = wIn[k] + tau * (c.forceCoef[k] * (left - right));
    left = right;
  }
}

/// This slab's part of S = rho da sum_i e_i h0_i w_i (compensated for double).
template <class T>
Accumulator<T> sigmaPartial(const T* w, const SlabCoefficients& c) {
  Accumulator<T> S;
  for (std::size_t k = 0; k < c.n; ++k) S.add(c.sigmaWeight[k] * w[k]);
  return S;
}

/// The vehicle velocity q_t = (p - sigma)/m_v from p and the interior sum S (sigma solved in closed form).
template <class T>
inline T vehicleVelocity(const T& p, const T& S, const Discretization& d) {
  return (p - S) / (d.onePlusBeta() * d.vehicleMass());
}

/// p - (nu tau) q: the spring half kicks.
template <class T>
inline T springKick(const T& p, const T& q, const Discretization& d, double tau) {
  return p - (d.stiffness() * tau) * q;
}

/// xOut_k = xIn_k + dt (w_k - q_t) (the fluid drift in the vehicle frame).
template <class T>
void drift(const T* xIn, const T* w, T* xOut, std::size_t n, const T& qdot, double dt) {
  for (std::size_t k = 0; k < n; ++k) xOut[k] = xIn[k] + dt * (w[k] - qdot);
}

/// The whole state on one process (tests, small runs, the complex-step Jacobian).
template <class T>
struct SerialState {
  std::vector<T> x, w;  ///< x_i, w_i, i = 1..N
  T q{}, p{};
  T impulse{};  ///< accumulated spring impulse sum (nu dt/2)(q^k + q^{k+1}): p + impulse = p^0
};

/// x(a, 0) = a, w(a, 0) = qdot0, p = m_v q_t + sigma.
template <class T>
SerialState<T> serialInitialState(const Discretization& d, const InitialConditions& ic) {
  const std::size_t N = static_cast<std::size_t>(d.points());
  const SlabCoefficients c = d.slab(1, N);
  SerialState<T> s;
  for (std::size_t i = 1; i <= N; ++i) {
    s.x.push_back(T(d.label(i)));
    s.w.push_back(T(ic.qdot0));
  }
  s.q = T(ic.q0);
  s.p = T(d.effectiveVehicleMass() * ic.qdot0) + sigmaPartial(s.w.data(), c).value();
  return s;
}

/// Fills the ghosted array [0, x_1..x_N, L].
template <class T>
void ghostedPositions(const std::vector<T>& x, const Discretization& d, std::vector<T>& xg) {
  xg.resize(x.size() + 2);
  xg[0] = T(0.0);
  for (std::size_t k = 0; k < x.size(); ++k) xg[k + 1] = x[k];
  xg[x.size() + 1] = T(d.length());
}

/// One Stormer-Verlet step of the serial state. `c` = d.slab(1, N); xg is scratch.
template <class T>
void stormerVerletStep(SerialState<T>& s, const Discretization& d, const SlabCoefficients& c,
                       std::vector<T>& xg) {
  const double dt = d.dt(), half = 0.5 * d.dt();
  const T pHalf = springKick(s.p, s.q, d, half);
  ghostedPositions(s.x, d, xg);
  kick(xg.data(), s.w.data(), s.w.data(), c, half);
  const T qdot = vehicleVelocity(pHalf, sigmaPartial(s.w.data(), c).value(), d);
  drift(s.x.data(), s.w.data(), s.x.data(), s.x.size(), qdot, dt);
  const T qNew = s.q + dt * qdot;
  s.impulse += (d.stiffness() * half) * (s.q + qNew);
  s.q = qNew;
  s.p = springKick(pHalf, s.q, d, half);
  ghostedPositions(s.x, d, xg);
  kick(xg.data(), s.w.data(), s.w.data(), c, half);
}

}  // namespace kirchhoff::slosh
