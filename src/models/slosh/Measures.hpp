// Energy monitor, fluid mass and depth/stretch measures of the slosh model (docs/slosh.md (SL-13)):
// E = rho da (sum h0_i w_i^2 + c_b q_t^2)/2 + m_v q_t^2/2 + sum_j rho g H^2 da^2/(2 dx_j) + nu q^2/2.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "models/slosh/CompensatedSum.hpp"
#include "models/slosh/Discretization.hpp"
#include "models/slosh/StormerVerlet.hpp"

namespace kirchhoff::slosh {

/// Sums and extrema of one slab; combined over slabs in order by combine().
struct SlabMeasures {
  CompensatedSum kinetic;    ///< sum rho da h0_i w_i^2
  CompensatedSum potential;  ///< sum over cells rho g H^2 da^2 / (2 dx)
  CompensatedSum sigma;      ///< S = sum rho da e_i h0_i w_i
  CompensatedSum mass;       ///< sum over cells rho h_cell dx, h_cell = H da / dx
  double minStretch = std::numeric_limits<double>::infinity();  ///< min dx / da = min x_a
  double maxStretch = 0.0;
  double minDepth = std::numeric_limits<double>::infinity();  ///< min cell depth h_cell
  double maxJump = 0.0;  ///< max |dx_right - dx_left| / min(dx_left, dx_right) at a node (stop.max_jump)
  bool finite = true;

  void combine(const SlabMeasures& o) {
    kinetic.add(o.kinetic);
    potential.add(o.potential);
    sigma.add(o.sigma);
    mass.add(o.mass);
    minStretch = std::min(minStretch, o.minStretch);
    maxStretch = std::max(maxStretch, o.maxStretch);
    minDepth = std::min(minDepth, o.minDepth);
    maxJump = std::max(maxJump, o.maxJump);
    finite = finite && o.finite;
  }
};

/// Measures of the slab with ghosted positions xg and velocities w. The cells counted are the
/// n cells left of the slab nodes, plus the wall cell on the last slab.
inline SlabMeasures slabMeasures(const double* xg, const double* w, const SlabCoefficients& c,
                                 const Discretization& d) {
  SlabMeasures m;
  const double rho = d.density(), da = d.da();
  for (std::size_t k = 0; k < c.n; ++k) {
    m.kinetic.add(c.massWeight[k] * w[k] * w[k]);
    m.sigma.add(c.sigmaWeight[k] * w[k]);
    const double dl = xg[k + 1] - xg[k], dr = xg[k + 2] - xg[k + 1];
    m.maxJump = std::max(m.maxJump, std::abs(dr - dl) / std::min(dl, dr));
    m.finite = m.finite && std::isfinite(w[k]) && std::isfinite(xg[k + 1]);
  }
  const std::size_t cells = c.n + (c.ownsLastCell ? 1 : 0);
  for (std::size_t k = 0; k < cells; ++k) {
    const double dx = xg[k + 1] - xg[k];
    const double h = c.cellLabelMass[k] / (rho * dx);
    m.potential.add(c.cellPotential[k] / dx);
    m.mass.add(rho * h * dx);
    m.minStretch = std::min(m.minStretch, dx / da);
    m.maxStretch = std::max(m.maxStretch, dx / da);
    m.minDepth = std::min(m.minDepth, h);
  }
  return m;
}

/// Invariants assembled from the measures of the whole grid and the vehicle state.
struct SloshInvariants {
  double energy = 0.0;          ///< E - E_rest [J/m]
  double vehicleEnergy = 0.0;   ///< m_v q_t^2/2 + nu q^2/2 [J/m]
  double momentumBalance = 0.0; ///< p + spring impulse (= p^0) [kg/s per m]
  double q = 0.0, qdot = 0.0;
  double mass = 0.0;            ///< rho integral h dx over the deformed cells [kg/m]
  double minDepth = 0.0;        ///< [m]
  double minStretch = 0.0;      ///< min x_a
  double maxJump = 0.0;
};

inline SloshInvariants assembleInvariants(const SlabMeasures& m, double q, double p, double impulse,
                                          const Discretization& d) {
  SloshInvariants r;
  r.q = q;
  r.qdot = vehicleVelocity(p, m.sigma.value(), d);
  const double springEnergy = 0.5 * d.stiffness() * q * q;
  CompensatedSum e;
  e.add(0.5 * m.kinetic.value());
  e.add(0.5 * d.effectiveVehicleMass() * r.qdot * r.qdot);
  e.add(m.potential.value());
  e.add(springEnergy);
  e.add(-d.restEnergy());
  r.energy = e.value();
  r.vehicleEnergy = 0.5 * d.vehicleMass() * r.qdot * r.qdot + springEnergy;
  r.momentumBalance = p + impulse;
  r.mass = m.mass.value();
  r.minDepth = m.minDepth;
  r.minStretch = m.minStretch;
  r.maxJump = m.maxJump;
  return r;
}

/// Invariants of a serial state.
inline SloshInvariants serialInvariants(const SerialState<double>& s, const Discretization& d,
                                        const SlabCoefficients& c) {
  std::vector<double> xg;
  ghostedPositions(s.x, d, xg);
  return assembleInvariants(slabMeasures(xg.data(), s.w.data(), c, d), s.q, s.p, s.impulse, d);
}

}  // namespace kirchhoff::slosh
