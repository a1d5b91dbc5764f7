// Roots of the coupled sloshing-vehicle dispersion relation nu = omega^2 [m_v + m_f tan(theta)/theta]
// (docs/slosh.md), theta = kL/2, by bisection on the branches where it is monotone.
#include "models/slosh/LinearFrequencies.hpp"

#include <cmath>
#include <limits>

#include "core/Error.hpp"

namespace kirchhoff::slosh {

double LinearProblem::waveSpeed() const { return std::sqrt(gravity * depth); }

LinearProblem LinearProblem::of(const Discretization& d) {
  LinearProblem lp;
  lp.gravity = d.gravity();
  lp.depth = d.meanDepth();
  lp.length = d.length();
  lp.vehicleMass = d.vehicleMass();
  lp.fluidMass = d.fluidMass();
  lp.stiffness = d.stiffness();
  return lp;
}

namespace {

/// G(theta) = (2c/L)^2 [m_v theta^2 + m_f theta tan theta] - nu: increasing on each branch,
/// since d/dtheta (theta tan theta) = tan theta + theta sec^2 theta > 0 for theta > 1/2 and on (0, pi/2).
double branchFunction(const LinearProblem& lp, double theta) {
  const double s = 2.0 * lp.waveSpeed() / lp.length;
  return s * s * (lp.vehicleMass * theta * theta + lp.fluidMass * theta * std::tan(theta)) - lp.stiffness;
}

double bisectBranch(const LinearProblem& lp, double lo, double hi) {
  // G -> -inf (or -nu) at lo+, +inf at hi-: keep the sign change, evaluate interior points only.
  for (int it = 0; it < 200 && hi - lo > 4.0 * std::numeric_limits<double>::epsilon() * hi; ++it) {
    const double mid = 0.5 * (lo + hi);
    if (branchFunction(lp, mid) < 0.0)
      lo = mid;
    else
      hi = mid;
  }
  return 0.5 * (lo + hi);
}

}  // namespace

double dispersion(const LinearProblem& lp, double omega) {
  const double theta = omega * lp.length / (2.0 * lp.waveSpeed());
  const double ratio = theta == 0.0 ? 1.0 : std::tan(theta) / theta;
  return lp.stiffness - omega * omega * (lp.vehicleMass + lp.fluidMass * ratio);
}

std::vector<double> coupledFrequencies(const LinearProblem& lp, int count) {
  if (!(lp.depth > 0 && lp.length > 0 && lp.gravity > 0 && lp.vehicleMass > 0 && lp.fluidMass >= 0 &&
        lp.stiffness >= 0))
    throw ConfigurationError("slosh: linear problem needs depth, length, g, m_v > 0 and m_f, nu >= 0");
  const double scale = 2.0 * lp.waveSpeed() / lp.length;  // omega = scale * theta
  std::vector<double> roots;
  for (int n = 0; n < count; ++n) {
    const double lo = n == 0 ? 0.0 : n * kPi - kPi / 2.0;
    const double hi = n * kPi + kPi / 2.0;
    if (n == 0 && lp.stiffness == 0.0) {
      roots.push_back(0.0);  // free tank: rigid translation
      continue;
    }
    roots.push_back(scale * bisectBranch(lp, lo, hi));
  }
  return roots;
}

std::vector<double> symmetricFrequencies(const LinearProblem& lp, int count) {
  std::vector<double> w;
  for (int n = 1; n <= count; ++n) w.push_back(2.0 * n * kPi * lp.waveSpeed() / lp.length);
  return w;
}

std::vector<double> fixedTankFrequencies(const LinearProblem& lp, int count) {
  std::vector<double> w;
  for (int n = 1; n <= count; ++n) w.push_back((2.0 * n - 1.0) * kPi * lp.waveSpeed() / lp.length);
  return w;
}

double resonantStiffness(const LinearProblem& lp, int n) {
  const double w = 2.0 * n * kPi * lp.waveSpeed() / lp.length;
  return lp.vehicleMass * w * w;
}

double stormerVerletFrequency(double omega, double dt) {
  const double s = 0.5 * omega * dt;
  if (s > 1.0) return std::numeric_limits<double>::quiet_NaN();
  return 2.0 * std::asin(s) / dt;
}

}  // namespace kirchhoff::slosh
