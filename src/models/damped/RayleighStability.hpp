// Linear stability of a step size for a Rayleigh-damped system (an unstable dt is refused; docs/damped.md
// Sec. 1): omega_max of the stiffest linearization, the step map's spectral radius, and h*omega bounds.
#pragma once

#include <string>

#include <Eigen/Dense>

#include "models/damped/RayleighIntegrator.hpp"
#include "models/damped/RayleighSystem.hpp"

namespace kirchhoff::damped {

/// The linear model: q' = M^-1 p, p' = -K q - eps D(q0) M^-1 p with K = V's stiffness bound
/// (exact for the harmonic chain, a global upper bound of Hess V for the pendula).
struct StabilityEstimate {
  double omegaMax = 0.0;  ///< sqrt(lambda_max(M^-1/2 K M^-1/2))
  double hOmega = 0.0;    ///< h * omega_max
  double bound = 0.0;     ///< the method's undamped bound on h*omega (2: splittings, 2.83: RK4, 0: Heun)
  double rho = 0.0;       ///< spectral radius of the one-step map of the linear model
  double growth = 1.0;    ///< rho^steps: amplification of a linear perturbation over the run
  bool adaptive = false;  ///< DOP853: controlled by its tolerances, no bound
  std::string text() const;  ///< "h*omega_max = 0.5 (bound 2.83 for RK4), rho = ..., growth ..."
};

/// Spectral radius of the 2n x 2n matrix of one step of `m` with size h on the linear model.
double stepMapSpectralRadius(const RayleighSystem& linear, const RayleighMethod& m, double h);
/// Largest x such that the method is stable (rho <= 1 + 1e-12) on the undamped oscillator
/// q'' = -q for every h in (0, x]: 2 for Störmer–Verlet, 2 sqrt 2 for RK4, 0 for Heun.
/// Found by a scan with step 1e-3 up to 8 (returned value is within 1e-3 below the true bound).
double undampedStabilityBound(const RayleighMethod& m);
/// The estimate for step h over `steps` steps, linearized with D at q0.
StabilityEstimate estimateStability(const RayleighSystem& sys, const VectorXd& q0,
                                    const RayleighMethod& m, double h, long steps);

}  // namespace kirchhoff::damped
