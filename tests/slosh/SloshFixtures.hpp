// Shared test configurations of the slosh model (docs/slosh.md): a 1 m tank, 0.1 m of water,
// m_v = m_f = 100 kg/m, nu = 1000 N/m^2 (coupled roots 1.98, 4.52, 9.78 rad/s; symmetric 6.22, 12.45).
#pragma once

#include <cmath>
#include <vector>

#include "models/slosh/Discretization.hpp"
#include "models/slosh/Measures.hpp"
#include "models/slosh/SloshConfig.hpp"
#include "models/slosh/StormerVerlet.hpp"

namespace kirchhoff::slosh::fixtures {

inline Config baseConfig(int N, double eps = 1e-3, Quadrature quad = Quadrature::Trapezoid) {
  Config c;
  c.par.gravity = 9.81;
  c.par.density = 1000.0;
  c.par.length = 1.0;
  c.par.vehicleMass = 100.0;
  c.par.stiffness = 1000.0;
  c.par.points = N;
  c.par.quadrature = quad;
  c.depth.add(ProfileTerm::constant(0.1));
  // Off-centre bump: excites symmetric and antisymmetric modes alike.
  if (eps != 0.0) c.depth.add(ProfileTerm::gaussian(0.1 * eps, 0.3, 0.1));
  c.init.q0 = 0.0;
  c.init.qdot0 = 0.0;
  return c;
}

/// dt = fraction * da / sqrt(g h_max).
inline double cflStep(const Config& c, double fraction) {
  Discretization probe(c.par, c.depth, 1.0);
  return fraction * probe.waveCflBound();
}

/// Runs `steps` serial steps and returns the state (and optionally the invariants at every step).
inline SerialState<double> runSerial(const Discretization& d, const InitialConditions& ic, long steps,
                                     std::vector<SloshInvariants>* history = nullptr, long every = 1) {
  const SlabCoefficients c = d.slab(1, static_cast<std::size_t>(d.points()));
  SerialState<double> s = serialInitialState<double>(d, ic);
  std::vector<double> xg;
  if (history) history->push_back(serialInvariants(s, d, c));
  for (long n = 1; n <= steps; ++n) {
    stormerVerletStep(s, d, c, xg);
    if (history && n % every == 0) history->push_back(serialInvariants(s, d, c));
  }
  return s;
}

}  // namespace kirchhoff::slosh::fixtures
