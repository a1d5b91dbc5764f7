// Normal modes of the spatially discrete slosh system linearized about its rest state (docs/slosh.md (SL-17)):
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
/// The linearization of the stepper (SL-10), (SL-11) with the deck's weights e_i (docs/slosh.md (SL-17)):
///   M_i (x_tt,i + q_tt) + (K x)_i = 0,  (m_v + rho da c_b) q_tt + sum_i e_i M_i (x_tt,i + q_tt) + nu q = 0,
/// M_i = rho da h0_i; K = D^T diag(2 A_j / dx_j^3) D from V = sum_j A_j / dx_j, A_j = rho g H_j^2 da^2 / 2,
/// at dx_j = L H_j / sum H (D: positions -> cell widths), K_qq = nu. Interior e_i = 1: a symmetric
/// problem; Simpson: the eigenvalues of M_e^-1 K (NumericalError if one is complex). The vehicle
/// amplitude is normalized with the kinetic energy of (SL-13).
std::vector<LinearMode> discreteLinearModes(const Discretization& d);

}  // namespace kirchhoff::slosh
