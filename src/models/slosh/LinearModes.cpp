// Normal modes of the discrete slosh system about its rest state (docs/slosh.md (SL-17)):
// K v = omega^2 M_e v with the mass matrix of the stepper's own sigma weights e_i (SL-11).
#include "models/slosh/LinearModes.hpp"

#include <algorithm>
#include <cmath>
#include <complex>

#include <Eigen/Dense>

#include "core/Error.hpp"
#include "models/slosh/CompensatedSum.hpp"

namespace kirchhoff::slosh {

namespace {

/// Mass matrix in accelerations (x_tt, q_tt), n = N + 1, rows of the linearized (SL-10), (SL-11):
///   M_i (x_tt,i + q_tt) + (K x)_i = 0,   m_eff q_tt + sum_i e_i M_i (x_tt,i + q_tt) + nu q = 0.
/// weighted = false puts e_i = 1: the symmetric kinetic-energy matrix of (SL-13).
Eigen::MatrixXd massMatrix(const Discretization& d, bool weighted) {
  const int N = d.points();
  Eigen::MatrixXd M = Eigen::MatrixXd::Zero(N + 1, N + 1);
  CompensatedSum fluid;
  for (int i = 1; i <= N; ++i) {
    const double Mi = d.density() * d.da() * d.depth(static_cast<std::size_t>(i));
    const double e = weighted ? d.weight(static_cast<std::size_t>(i)) : 1.0;
    M(i - 1, i - 1) = Mi;
    M(i - 1, N) = Mi;
    M(N, i - 1) = e * Mi;
    fluid.add(e * Mi);
  }
  M(N, N) = fluid.value() + d.effectiveVehicleMass();
  return M;
}

/// Hessian of V = sum_j A_j / dx_j + nu q^2 / 2 at the flat rest state dx_j = L H_j / sum H.
Eigen::MatrixXd stiffnessMatrix(const Discretization& d) {
  const int N = d.points();
  CompensatedSum sumH;
  for (int j = 0; j <= N; ++j) sumH.add(d.halfDepth(static_cast<std::size_t>(j)));
  Eigen::MatrixXd K = Eigen::MatrixXd::Zero(N + 1, N + 1);
  for (int j = 0; j <= N; ++j) {  // cell j between nodes j and j+1; nodes 0 and N+1 are fixed
    const double H = d.halfDepth(static_cast<std::size_t>(j));
    const double A = 0.5 * d.density() * d.gravity() * H * H * d.da() * d.da();
    const double dx = d.length() * H / sumH.value();
    const double kc = 2.0 * A / (dx * dx * dx);
    const int l = j - 1, r = j;  // matrix indices of nodes j and j+1
    if (l >= 0) K(l, l) += kc;
    if (r < N) K(r, r) += kc;
    if (l >= 0 && r < N) {
      K(l, r) -= kc;
      K(r, l) -= kc;
    }
  }
  K(N, N) = d.stiffness();
  return K;
}

/// True when every interior weight is 1 (trapezoid, left, right): M_e is symmetric.
bool unitInteriorWeights(const Discretization& d) {
  for (int i = 1; i <= d.points(); ++i)
    if (d.weight(static_cast<std::size_t>(i)) != 1.0) return false;
  return true;
}

LinearMode mode(double lambda, const Eigen::VectorXd& v, const Eigen::MatrixXd& T, const Discretization& d) {
  LinearMode m;
  m.omega = std::sqrt(std::max(0.0, lambda));
  m.vehicleAmplitude = std::abs(v(d.points())) * std::sqrt(d.effectiveVehicleMass() / v.dot(T * v));
  return m;
}

}  // namespace

std::vector<LinearMode> discreteLinearModes(const Discretization& d) {
  const Eigen::MatrixXd K = stiffnessMatrix(d), T = massMatrix(d, false);
  std::vector<LinearMode> modes;
  if (unitInteriorWeights(d)) {
    Eigen::GeneralizedSelfAdjointEigenSolver<Eigen::MatrixXd> es(K, T);
    if (es.info() != Eigen::Success) throw NumericalError("slosh: linear mode eigensolver failed");
    for (int k = 0; k < es.eigenvalues().size(); ++k)
      modes.push_back(mode(es.eigenvalues()(k), es.eigenvectors().col(k), T, d));
    return modes;
  }
  // Simpson: M_e is not symmetric; omega^2 are the eigenvalues of M_e^{-1} K (real for the map's
  // stable modes: an imaginary part above 1e-8 of the largest is reported, not dropped).
  const Eigen::MatrixXd A = massMatrix(d, true).partialPivLu().solve(K);
  Eigen::EigenSolver<Eigen::MatrixXd> es(A);
  if (es.info() != Eigen::Success) throw NumericalError("slosh: linear mode eigensolver failed");
  const Eigen::VectorXcd lambda = es.eigenvalues();
  const double scale = lambda.cwiseAbs().maxCoeff();
  for (int k = 0; k < lambda.size(); ++k) {
    if (std::abs(lambda(k).imag()) > 1e-8 * scale)
      throw NumericalError("slosh: the linearized map with quadrature " + quadratureName(d.parameters().quadrature) +
                           " has a complex squared frequency " + std::to_string(lambda(k).real()) + " + " +
                           std::to_string(lambda(k).imag()) + "i (an unstable mode)");
    const Eigen::VectorXcd c = es.eigenvectors().col(k);  // real up to a phase for a real eigenvalue
    const Eigen::VectorXd v = c.real().norm() >= c.imag().norm() ? Eigen::VectorXd(c.real()) : Eigen::VectorXd(c.imag());
    modes.push_back(mode(lambda(k).real(), v, T, d));
  }
  std::sort(modes.begin(), modes.end(), [](const LinearMode& a, const LinearMode& b) { return a.omega < b.omega; });
  return modes;
}

}  // namespace kirchhoff::slosh
