// s-stage Gauss–Legendre collocation (order 2s, symplectic, symmetric; docs/heavytop.md (HT-16)):
// the Butcher tableau from the Legendre roots, and one step solved by Newton on all stages at once.
#pragma once

#include <cmath>
#include <utility>
#include <vector>

#include <Eigen/Dense>

#include "integrators/DenseNewton.hpp"

namespace kirchhoff::integrators {

/// c_i (roots of the shifted Legendre polynomial P_s(2c - 1)), a_ij = int_0^c_i l_j, b_j = int_0^1 l_j.
struct GaussLegendreTableau {
  int stages = 0;
  Eigen::MatrixXd A;
  Eigen::VectorXd b, c;
};

/// The tableau for s = 1 .. 8 stages (computed in long double, rounded once).
/// Throws ConfigurationError for other s.
const GaussLegendreTableau& gaussLegendreTableau(int stages);

/// P_n(x) and P_n'(x) by the three-term recurrence (double or long double).
template <class T>
std::pair<T, T> legendre(int n, T x) {
  T p0 = 1, p1 = x;
  for (int k = 2; k <= n; ++k) {
    const T p2 = ((2 * k - 1) * x * p1 - (k - 1) * p0) / k;
    p0 = p1;
    p1 = p2;
  }
  if (n == 0) return {T(1), T(0)};
  return {p1, n * (x * p1 - p0) / (x * x - T(1))};
}

/// The n-point Gauss–Legendre quadrature rule on [-1, 1] (the panel rule of docs/fluidbody.md
/// (FB-40)): nodes x ascending and weights w, by Newton on P_n from Chebyshev's guesses (double).
void gaussLegendreRule(int n, std::vector<double>& x, std::vector<double>& w);

/// One step y1 = y0 + h sum_i b_i g(Y_i) with Y_i = y0 + h sum_j a_ij g(Y_j), Newton on the
/// stacked stage values (n s unknowns) with the Jacobian I - h (A (x) I) diag(Dg(Y_j)), from the
/// predictor Y_i = y0 + c_i h g(y0). gdg(y, g, Dg) fills g(y) and Dg(y) (fixed-size V, M);
/// `polish` extra updates after convergence (complex step). y is unchanged unless Newton
/// converged; *evaluations counts the (g, Dg) evaluations. With `increment`, y is left alone and
/// the increment h sum_i b_i g(Y_i) goes there instead (compensated compositions).
template <class V, class M, class GDG>
NewtonResult gaussLegendreStep(GDG&& gdg, V& y, double h, const GaussLegendreTableau& tab,
                               const NewtonOptions& opt, int polish, int* evaluations,
                               V* increment = nullptr) {
  using T = typename V::Scalar;
  using VX = Eigen::Matrix<T, Eigen::Dynamic, 1>;
  using MX = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic>;
  const int n = static_cast<int>(V::RowsAtCompileTime), s = tab.stages;
  const V y0 = y;
  V g0;
  M D;
  gdg(y0, g0, D);
  *evaluations = 1;
  VX Y(n * s);
  for (int i = 0; i < s; ++i) Y.segment(n * i, n) = y0 + T(tab.c[i] * h) * g0;
  std::vector<V> G(static_cast<std::size_t>(s));
  auto fj = [&](const VX& x, VX& F, MX& J) {
    ++*evaluations;
    J.setIdentity(n * s, n * s);
    for (int j = 0; j < s; ++j) {
      gdg(V(x.segment(n * j, n)), G[static_cast<std::size_t>(j)], D);
      for (int i = 0; i < s; ++i) J.block(n * i, n * j, n, n) -= T(h * tab.A(i, j)) * D;
    }
    for (int i = 0; i < s; ++i) {
      V r = x.segment(n * i, n) - y0;
      for (int j = 0; j < s; ++j) r -= T(h * tab.A(i, j)) * G[static_cast<std::size_t>(j)];
      F.segment(n * i, n) = r;
    }
  };
  NewtonResult r = newtonSolve<VX, MX>(fj, Y, opt);
  if (r.converged && polish > 0) {
    NewtonOptions fixed = opt;
    fixed.atol = fixed.rtol = fixed.stol = 0.0;
    fixed.maxIterations = polish;
    const NewtonResult p = newtonSolve<VX, MX>(fj, Y, fixed);
    r.converged = p.converged || std::isfinite(p.residualNorm);
  }
  if (!r.converged) return r;
  // y1 from the converged stages: one more field evaluation per stage.
  V d = V::Zero();
  for (int i = 0; i < s; ++i) {
    gdg(V(Y.segment(n * i, n)), G[static_cast<std::size_t>(i)], D);
    d += T(h * tab.b[i]) * G[static_cast<std::size_t>(i)];
  }
  *evaluations += s;
  if (increment)
    *increment = d;
  else
    y = y0 + d;
  return r;
}

}  // namespace kirchhoff::integrators
