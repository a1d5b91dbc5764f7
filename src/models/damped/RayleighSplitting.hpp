// The splitting schemes for Rayleigh-damped systems (Modin & Söderlind 2011, Algorithms 3.1-3.3;
// docs/damped.md (DA-7)-(DA-10)): Phi_2S, Phi_3S, Phi_RKS in drift-kick-drift or kick-drift-kick
// order, and their symmetric compositions of order 4, 6, 8 (integrators/Composition.hpp;
// docs/composition.md (CM-1)).
#pragma once

#include <string>

#include <Eigen/Dense>

#include "core/Choices.hpp"
#include "integrators/Composition.hpp"

#include "models/damped/RayleighSystem.hpp"

namespace kirchhoff::damped {

enum class Splitting {
  Phi2S,   ///< Alg. 3.1: exp(h/2 X_T) exp(h (X_V + eps Y)) exp(h/2 X_T)
  Phi3S,   ///< Alg. 3.2: exp(h/2 X_T) exp(h/2 X_V) exp(h eps Y) exp(h/2 X_V) exp(h/2 X_T)
  PhiRKS,  ///< Alg. 3.3: exp(h/2 X_T) RK_h[X_V + eps Y] exp(h/2 X_T)
};

/// Drift-kick-drift is the default: it is how the seed writes Alg. 3.1-3.3 and reduces to the
/// B (position) version of Störmer–Verlet at eps = 0. Kick-drift-kick swaps the roles:
///   2S: exp(h/2 (X_V+eps Y)) exp(h X_T) exp(h/2 (X_V+eps Y))
///   3S: exp(h/2 X_V) exp(h/2 eps Y) exp(h X_T) exp(h/2 eps Y) exp(h/2 X_V)
///   RKS: RK_{h/2} exp(h X_T) RK_{h/2}
/// and reduces to velocity Verlet (the A version) at eps = 0.
enum class Ordering { DriftKickDrift, KickDriftKick };

/// The Runge–Kutta step of Alg. 3.3 for the linear ODE p' = -grad V(q) - A p (q frozen).
enum class RksMethod {
  Heun,              ///< explicit trapezoid (order 2)
  ExplicitMidpoint,  ///< order 2
  ImplicitMidpoint,  ///< linearly implicit, symmetric: (I + h/2 A) p1 = (I - h/2 A) p0 - h grad V
};

/// The deck names: "dkd", "kdk" (ordering) and "heun", "explicit_midpoint", "implicit_midpoint" (rk).
const Choices<Ordering>& orderings();
const Choices<RksMethod>& rksMethods();

/// The sub-step coefficients (none, triple_jump, suzuki5, kahan_li6, kahan_li8): docs/composition.md.
using integrators::Composition;

struct SplittingScheme {
  Splitting method = Splitting::Phi2S;
  Ordering ordering = Ordering::DriftKickDrift;
  RksMethod rk = RksMethod::Heun;
  Composition composition = Composition::None;
};

/// True if the base step is symmetric (Phi_h^-1 = Phi_-h): 2S, 3S, and RKS with the implicit
/// midpoint step. Only symmetric bases reach the composition's order (others: 3).
bool isSymmetric(const SplittingScheme& s);
/// Classical order: 2; a composition gives its order (CM-3) for a symmetric base and 3 otherwise.
int order(const SplittingScheme& s);
std::string describe(const SplittingScheme& s);

/// One step of size h of the scheme, in place.
void splittingStep(const RayleighSystem& sys, const SplittingScheme& s, VectorXd& q, VectorXd& p,
                   double h);

}  // namespace kirchhoff::damped
