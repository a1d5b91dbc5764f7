// The slosh one-step map as a function of the phase-space vector z = (x_1..x_N, q, w_1..w_N, p) and its
// complex-step Jacobian (exact to rounding), shared by the symplecticity and linear-mode tests (docs/slosh.md (SL-10)).
#pragma once

#include <Eigen/Dense>
#include <complex>
#include <vector>

#include "models/slosh/StormerVerlet.hpp"

namespace kirchhoff::slosh::fixtures {

template <class T>
std::vector<T> pack(const SerialState<T>& s) {
  std::vector<T> z(s.x);
  z.push_back(s.q);
  z.insert(z.end(), s.w.begin(), s.w.end());
  z.push_back(s.p);
  return z;
}

template <class T>
SerialState<T> unpack(const std::vector<T>& z, std::size_t N) {
  SerialState<T> s;
  s.x.assign(z.begin(), z.begin() + static_cast<long>(N));
  s.q = z[N];
  s.w.assign(z.begin() + static_cast<long>(N) + 1, z.begin() + 2 * static_cast<long>(N) + 1);
  s.p = z[2 * N + 1];
  return s;
}

template <class T>
std::vector<T> stepMap(const std::vector<T>& z, const Discretization& d, const SlabCoefficients& c) {
  SerialState<T> s = unpack(z, static_cast<std::size_t>(d.points()));
  std::vector<T> xg;
  stormerVerletStep(s, d, c, xg);
  return pack(s);
}

/// Complex-step Jacobian: dz'/dz_j = Im f(z + i h e_j) / h, exact to rounding (no subtraction).
inline Eigen::MatrixXd complexStepJacobian(const std::vector<double>& z0, const Discretization& d,
                                           const SlabCoefficients& c) {
  using cd = std::complex<double>;
  const std::size_t n = z0.size();
  Eigen::MatrixXd S(n, n);
  const double h = 1e-30;
  for (std::size_t j = 0; j < n; ++j) {
    std::vector<cd> z(z0.begin(), z0.end());
    z[j] += cd(0.0, h);
    const std::vector<cd> f = stepMap(z, d, c);
    for (std::size_t i = 0; i < n; ++i) S(static_cast<long>(i), static_cast<long>(j)) = f[i].imag() / h;
  }
  return S;
}

}  // namespace kirchhoff::slosh::fixtures
