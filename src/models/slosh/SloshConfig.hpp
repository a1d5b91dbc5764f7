// Plain configuration of the slosh model: shallow water in a tank on a spring (docs/slosh.md).
// SI units per unit tank width: lengths m, masses kg/m, stiffness N/m per m of width, time s.
#pragma once

#include <string>

#include "models/slosh/Profile.hpp"

namespace kirchhoff::slosh {

/// Quadrature weights e_i of the sigma integral (docs/slosh.md (SL-11), (SL-12)). Trapezoid, Left and
/// Right keep the scheme symplectic; Simpson does not.
enum class Quadrature { Trapezoid, Left, Right, Simpson };

Quadrature quadratureFromName(const std::string& name);  ///< throws ConfigurationError
std::string quadratureName(Quadrature q);

struct Parameters {
  double gravity = 9.81;     ///< g [m/s^2]
  double density = 1000.0;   ///< rho [kg/m^3]
  double length = 1.0;       ///< tank length L [m]
  double vehicleMass = 1.0;  ///< dry vehicle mass m_v [kg per m of width]
  double stiffness = 0.0;    ///< spring stiffness nu [N/m per m of width]
  int points = 100;          ///< interior particles N (grid a_i = i L/(N+1), i = 0..N+1)
  Quadrature quadrature = Quadrature::Trapezoid;
};

/// State at t = 0: x(a, 0) = a (so h(x, 0) = h0(x)), the fluid moving with the vehicle.
struct InitialConditions {
  double q0 = 0.0;     ///< vehicle displacement [m]
  double qdot0 = 0.0;  ///< vehicle velocity [m/s]; also the initial fluid velocity w(a, 0)
};

/// Physical stop conditions (Model::check): the particle-path model breaks down before x_a <= 0.
/// A bore (shock) shows as a jump of x_a between neighbouring cells that does not shrink with da.
/// Measured for a 20 % mode-1 wave with q0 = 5 mm (grid-scale wiggles behind the front from t ~ 1.4 s):
/// the jump passes 0.03 at t = 1.10, 1.49, 1.52, 1.52 s and 0.1 at 2.15, 2.14, 2.13, 2.13 s for
/// N = 100, 200, 400, 800 (coarse grids stop earlier). Bores lower than ~3 % of the depth are not
/// caught at the default: lower max_jump for small-amplitude long runs.
struct StopLimits {
  double maxJump = 0.03;          ///< stop when |dx_right - dx_left| / min(dx) > this at a node (a bore)
  double minStretch = 0.1;        ///< stop when some cell has x_a < this (extreme compression)
  double minDepthFraction = 0.02; ///< stop when some depth < this * mean depth (a dry point)
};

struct Config {
  Parameters par;
  Profile depth;  ///< h0(a) [m]
  InitialConditions init;
  StopLimits stop;
};

}  // namespace kirchhoff::slosh
