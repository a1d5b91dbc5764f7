// Normal modes of the discrete slosh system about its rest state: a dense generalized symmetric
// eigenproblem K v = omega^2 M v (docs/slosh.md, "Linear coupled frequencies", discrete form).
#include "models/slosh/LinearModes.hpp"

#include <algorithm>
#include <cmath>

#include <Eigen/Dense>

#include "core/Error.hpp"
#include "models/slosh/CompensatedSum.hpp"

namespace kirchhoff::slosh {

std::vector<LinearMode> discreteLinearModes(const Discretization& d) {
  const int N = d.points();
  const int n = N + 1;  // x_1..x_N, q
  const double rho = d.density(), da = d.da();
  CompensatedSum sumH;
  for (int j = 0; j <= N; ++j) sumH.add(d.halfDepth(static_cast<std::size_t>(j)));

  Eigen::MatrixXd M = Eigen::MatrixXd::Zero(n, n), K = Eigen::MatrixXd::Zero(n, n);
  double fluidMass = 0.0;
  for (int i = 1; i <= N; ++i) {
    const double Mi = rho * da * d.depth(static_cast<std::size_t>(i));
    M(i - 1, i - 1) = Mi;
    M(i - 1, N) = M(N, i - 1) = Mi;
    fluidMass += Mi;
  }
  M(N, N) = fluidMass + d.effectiveVehicleMass();
  for (int j = 0; j <= N; ++j) {  // cell j between nodes j and j+1; nodes 0 and N+1 are fixed
    const double H = d.halfDepth(static_cast<std::size_t>(j));
    const double A = 0.5 * rho * d.gravity() * H * H * da * da;
    const double dx = d.length() * H / sumH.value();
    const double kc = 2.0 * A / (dx * dx * dx);
    // dx_j = x_{j+1} - x_j: rows j (node j, if interior) and j+1.
    const int l = j - 1, r = j;  // matrix indices of nodes j and j+1
    if (l >= 0) K(l, l) += kc;
    if (r < N) K(r, r) += kc;
    if (l >= 0 && r < N) {
      K(l, r) -= kc;
      K(r, l) -= kc;
    }
  }
  K(N, N) = d.stiffness();

  Eigen::GeneralizedSelfAdjointEigenSolver<Eigen::MatrixXd> es(K, M);
  if (es.info() != Eigen::Success) throw NumericalError("slosh: linear mode eigensolver failed");
  std::vector<LinearMode> modes;
  for (int k = 0; k < n; ++k) {
    const Eigen::VectorXd v = es.eigenvectors().col(k);  // M-orthonormal
    LinearMode m;
    m.omega = std::sqrt(std::max(0.0, es.eigenvalues()(k)));
    m.vehicleAmplitude = std::abs(v(N)) * std::sqrt(d.effectiveVehicleMass() / v.dot(M * v));
    modes.push_back(m);
  }
  return modes;
}

}  // namespace kirchhoff::slosh
