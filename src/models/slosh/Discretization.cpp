// The Lagrangian grid of the slosh model: depths, quadrature weights (trapezoid, left, right,
// Simpson with a 3/8 tail for an odd interval count), rest energy and stability bounds (docs/slosh.md).
#include "models/slosh/Discretization.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "core/Error.hpp"
#include "models/slosh/CompensatedSum.hpp"

namespace kirchhoff::slosh {

namespace {

void require(bool ok, const std::string& what) {
  if (!ok) throw ConfigurationError("slosh: " + what);
}

}  // namespace

Discretization::Discretization(const Parameters& par, const Profile& profile, double dt)
    : par_(par), depth_(profile), dt_(dt), da_(par.length / (par.points + 1)) {
  require(par.points >= 2, "need at least 2 interior particles, got " + std::to_string(par.points));
  require(par.length > 0 && par.gravity > 0 && par.density > 0, "length, gravity and density must be > 0");
  require(par.vehicleMass > 0, "vehicle mass must be > 0");
  require(par.stiffness >= 0, "spring stiffness must be >= 0");
  require(dt > 0, "time step must be > 0");
  depth_.validate(par.length);

  const std::size_t N = static_cast<std::size_t>(par.points);
  CompensatedSum sumH;
  for (std::size_t i = 0; i <= N + 1; ++i) {
    const double h = depth(i);
    require(std::isfinite(h) && h > 0.0, "initial depth h0(a) must be > 0 at every grid point; h0(" +
                                             std::to_string(label(i)) + ") = " + std::to_string(h));
  }
  for (std::size_t j = 0; j <= N; ++j) {
    const double H = halfDepth(j);
    sumH.add(H);
    maxDepth_ = std::max(maxDepth_, H);
  }
  for (std::size_t i = 0; i <= N + 1; ++i) maxDepth_ = std::max(maxDepth_, depth(i));
  cb_ = weight(0) * depth(0) + weight(N + 1) * depth(N + 1);
  onePlusBeta_ = 1.0 + par.density * da_ * cb_ / par.vehicleMass;
  const double S = sumH.value();
  fluidMass_ = par.density * da_ * S;
  restEnergy_ = par.density * par.gravity * da_ * da_ * S * S / (2.0 * par.length);
}

double Discretization::depth(std::size_t i) const { return depth_(label(i), par_.length); }

double Discretization::halfDepth(std::size_t j) const { return 0.5 * (depth(j) + depth(j + 1)); }

double Discretization::weight(std::size_t i) const {
  const std::size_t n = static_cast<std::size_t>(par_.points) + 1;  // intervals
  switch (par_.quadrature) {
    case Quadrature::Trapezoid:
      return (i == 0 || i == n) ? 0.5 : 1.0;
    case Quadrature::Left:
      return i == n ? 0.0 : 1.0;
    case Quadrature::Right:
      return i == 0 ? 0.0 : 1.0;
    case Quadrature::Simpson: {
      // Composite Simpson on [0, m] (m even), Simpson 3/8 on the last 3 intervals if n is odd.
      const std::size_t m = (n % 2 == 0) ? n : n - 3;
      double e = 0.0;
      if (i <= m && m > 0) e += (i == 0 || i == m) ? 1.0 / 3.0 : (i % 2 == 1 ? 4.0 / 3.0 : 2.0 / 3.0);
      if (n % 2 == 1 && i >= m) e += (i == m || i == n) ? 3.0 / 8.0 : 9.0 / 8.0;
      return e;
    }
  }
  return 0.0;
}

double Discretization::waveCflBound() const { return da_ / std::sqrt(par_.gravity * maxDepth_); }

double Discretization::springBound() const {
  if (par_.stiffness <= 0.0) return std::numeric_limits<double>::infinity();
  return 2.0 / std::sqrt(par_.stiffness / par_.vehicleMass);
}

double Discretization::stabilityBound() const { return std::min(waveCflBound(), springBound()); }

SlabCoefficients Discretization::slab(std::size_t first, std::size_t n) const {
  const std::size_t N = static_cast<std::size_t>(par_.points);
  if (first < 1 || first + n > N + 1)
    throw ConfigurationError("slosh: slab [" + std::to_string(first) + ", " +
                             std::to_string(first + n) + ") outside the nodes 1.." + std::to_string(N));
  SlabCoefficients c;
  c.first = first;
  c.n = n;
  c.ownsLastCell = first + n == N + 1;
  const double rho = par_.density, g = par_.gravity;
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t i = first + k;
    const double h = depth(i);
    c.forceCoef.push_back(g * da_ / (2.0 * h));
    c.sigmaWeight.push_back(rho * da_ * weight(i) * h);
    c.massWeight.push_back(rho * da_ * h);
    c.nodeDepth.push_back(h);
  }
  for (std::size_t k = 0; k <= n; ++k) {
    const double H = halfDepth(first - 1 + k);
    c.cellHsq.push_back(H * H);
    c.cellPotential.push_back(0.5 * rho * g * H * H * da_ * da_);
    c.cellLabelMass.push_back(rho * H * da_);
  }
  return c;
}

}  // namespace kirchhoff::slosh
