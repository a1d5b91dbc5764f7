// Normal modes of the spatially discrete slosh system linearized about its rest state (docs/slosh.md):
// K v = omega^2 M v in (x_1..x_N, q), the discrete counterpart of the dispersion relation.
#pragma once

#include <vector>

#include "models/slosh/Discretization.hpp"

namespace kirchhoff::slosh {

struct LinearMode {
  double omega = 0.0;            ///< rad/s
  double vehicleAmplitude = 0.0; ///< |v_q| sqrt(m_v + rho da c_b) / sqrt(v^T M v): 0 if the vehicle stays still
};

/// All N + 1 modes, ascending in omega. Dense (Eigen); meant for N up to a few hundred.
/// Mass matrix in velocities (x_t, q_t) with w = x_t + q_t:
///   T = sum M_i (x_t,i + q_t)^2 / 2 + (m_v + rho da c_b) q_t^2 / 2,  M_i = rho da h0_i,
/// stiffness from V = sum_j A_j / dx_j, A_j = rho g H_j^2 da^2 / 2, at dx_j = L H_j / sum H:
///   K = D^T diag(2 A_j / dx_j^3) D (D: positions -> cell widths), K_qq = nu.
std::vector<LinearMode> discreteLinearModes(const Discretization& d);

}  // namespace kirchhoff::slosh
