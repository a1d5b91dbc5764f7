// The 3-stage Lobatto IIIC Runge–Kutta method (order 4, L-stable, stiffly accurate) for
// y' = f(t, y) with a user Jacobian (Hairer–Wanner, Solving ODEs II, Sec. IV.5, Lobatto IIIC).
#pragma once

#include <utility>

#include <Eigen/Dense>

#include "integrators/DenseNewton.hpp"

namespace kirchhoff::integrators {

/// Butcher tableau: c = (0, 1/2, 1), b = last row of A (stiffly accurate), A =
///   [1/6, -1/3,  1/6 ]
///   [1/6,  5/12, -1/12]
///   [1/6,  2/3,  1/6 ]
/// Stability function R(z) = (1 + z/4) / (1 - 3z/4 + z^2/4 - z^3/24), the (1,3) Padé approximant.
struct LobattoIIIC3 {
  static constexpr int stages = 3;
  static constexpr double c[3] = {0.0, 0.5, 1.0};
  static constexpr double a[3][3] = {{1.0 / 6.0, -1.0 / 3.0, 1.0 / 6.0},
                                     {1.0 / 6.0, 5.0 / 12.0, -1.0 / 12.0},
                                     {1.0 / 6.0, 2.0 / 3.0, 1.0 / 6.0}};
  static constexpr double b[3] = {1.0 / 6.0, 2.0 / 3.0, 1.0 / 6.0};
};

struct LobattoOptions {
  NewtonOptions newton{};
  /// Simplified Newton: the Jacobian of f is evaluated once at (t, y) and reused in every
  /// iteration (linear convergence, one Jacobian per step). Default: full Newton.
  bool frozenJacobian = false;
};

struct LobattoResult {
  Eigen::VectorXd y;    ///< y_{n+1}
  NewtonResult newton;  ///< convergence of the stage equations
};

/// One step y_n -> y_{n+1} of size h. Unknowns Z_i = Y_i - y_n (3n of them) solve
///   G_i(Z) = Z_i - h sum_j a_ij f(t + c_j h, y_n + Z_j) = 0,
/// with Jacobian blocks dG_i/dZ_j = delta_ij I - h a_ij J(t + c_j h, y_n + Z_j); then
/// y_{n+1} = y_n + Z_3 (stiffly accurate). `f(t, y)` returns f, `jac(t, y)` returns df/dy (n x n).
/// The caller decides what a failed Newton solve means (result.newton.converged).
template <class F, class Jac>
LobattoResult lobattoIIICStep(F&& f, Jac&& jac, double t, const Eigen::VectorXd& y, double h,
                              const LobattoOptions& opt = {}) {
  using T = LobattoIIIC3;
  const Eigen::Index n = y.size();
  const Eigen::VectorXd f0 = f(t, y);
  Eigen::VectorXd z(3 * n);  // predictor: explicit Euler to each stage time
  for (int i = 0; i < 3; ++i) z.segment(i * n, n) = (T::c[i] * h) * f0;

  Eigen::MatrixXd frozen;
  if (opt.frozenJacobian) frozen = jac(t, y);

  auto residual = [&](const Eigen::VectorXd& x, Eigen::VectorXd& G, Eigen::MatrixXd& J) {
    Eigen::VectorXd fj[3];
    for (int j = 0; j < 3; ++j) fj[j] = f(t + T::c[j] * h, Eigen::VectorXd(y + x.segment(j * n, n)));
    Eigen::MatrixXd Jj[3];
    for (int j = 0; j < 3; ++j)
      Jj[j] = opt.frozenJacobian ? frozen
                                 : Eigen::MatrixXd(jac(t + T::c[j] * h,
                                                       Eigen::VectorXd(y + x.segment(j * n, n))));
    for (int i = 0; i < 3; ++i) {
      Eigen::VectorXd gi = x.segment(i * n, n);
      for (int j = 0; j < 3; ++j) {
        gi -= (h * T::a[i][j]) * fj[j];
        J.block(i * n, j * n, n, n) = (-h * T::a[i][j]) * Jj[j];
        if (i == j) J.block(i * n, j * n, n, n) += Eigen::MatrixXd::Identity(n, n);
      }
      G.segment(i * n, n) = gi;
    }
  };
  LobattoResult r;
  r.newton = newtonSolve<Eigen::VectorXd, Eigen::MatrixXd>(residual, z, opt.newton);
  r.y = y + z.segment(2 * n, n);
  return r;
}

}  // namespace kirchhoff::integrators
