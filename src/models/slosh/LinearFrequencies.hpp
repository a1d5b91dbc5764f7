// Linear coupled frequencies of shallow-water sloshing in a tank on a spring (docs/slosh.md (SL-15)):
// nu = omega^2 [m_v + m_f tan(kL/2)/(kL/2)], k = omega/c, and the uncoupled modes.
#pragma once

#include <vector>

#include "models/slosh/Discretization.hpp"

namespace kirchhoff::slosh {

/// The flat rest state the relation linearizes about (SI units per unit width).
struct LinearProblem {
  double gravity = 9.81;
  double depth = 0.1;  ///< h0 [m]
  double length = 1.0;
  double vehicleMass = 1.0;
  double fluidMass = 100.0;  ///< rho h0 L [kg/m]
  double stiffness = 0.0;

  double waveSpeed() const;  ///< c = sqrt(g h0)
  /// The flat state of a discretization: depth = m_f/(rho L), its masses and spring.
  static LinearProblem of(const Discretization& d);
};

/// nu - omega^2 [m_v + m_f tan(theta)/theta], theta = omega L / (2 c).
double dispersion(const LinearProblem& lp, double omega);

/// The first `count` roots omega > 0 (omega = 0 first if nu = 0), ascending. Root n lies in
/// theta in (n pi - pi/2, n pi + pi/2) (theta in (0, pi/2) for n = 0), where the relation is monotone.
std::vector<double> coupledFrequencies(const LinearProblem& lp, int count);

/// Symmetric sloshing modes kL = 2 n pi (n = 1..count): omega = 2 n pi c / L. They do not move the vehicle.
std::vector<double> symmetricFrequencies(const LinearProblem& lp, int count);

/// Antisymmetric sloshing modes of the tank held fixed (nu -> inf): kL = (2n - 1) pi.
std::vector<double> fixedTankFrequencies(const LinearProblem& lp, int count);

/// Stiffness of the internal 1:1 resonance with the n-th symmetric mode: nu = m_v (2 n pi c / L)^2.
double resonantStiffness(const LinearProblem& lp, int n);

/// Frequency of Stormer-Verlet applied to a linear oscillator of frequency omega:
/// sin(omega_h dt / 2) = omega dt / 2 (NaN when omega dt > 2: unstable).
double stormerVerletFrequency(double omega, double dt);

}  // namespace kirchhoff::slosh
