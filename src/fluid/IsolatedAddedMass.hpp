// The added mass of each body alone in the fluid, constant in its body frame: docs/fluidbody.md (FB-29a),
//   A_j^iso = -rho sym(B_j^T W_j S_jj sigma_j),  [M_jj 1; w_j^T 0] [sigma_j; mu_j] = [B_j; 0].
#pragma once

#include <vector>

#include <Eigen/Dense>

#include "fluid/discretization/Discretization.hpp"

namespace kirchhoff::fluid {

/// A_j^iso (3 x 3, body frame, order (Omega, V_1, V_2), fluid density `rho` included) for every body
/// of `disc`, from its constant self-blocks only: no inter-body entries, no collective call. For one
/// body it is that body's A(g) (the same discrete functional (FB-21)).
std::vector<Eigen::Matrix3d> isolatedAddedMass(const Discretization& disc, double rho);

}  // namespace kirchhoff::fluid
