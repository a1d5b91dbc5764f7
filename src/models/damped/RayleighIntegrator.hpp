// One step of any method for a Rayleigh-damped system (docs/damped.md Sec. 1): the splittings
// (DA-7)-(DA-9) and the comparisons Heun / explicit midpoint (RK2), RK4, DOP853 (reference).
#pragma once

#include <string>

#include <Eigen/Dense>

#include "core/Choices.hpp"
#include "integrators/Dop853.hpp"
#include "models/damped/RayleighSplitting.hpp"
#include "models/damped/RayleighSystem.hpp"

namespace kirchhoff::damped {

struct RayleighMethod {
  enum class Kind { Splitting, Heun, ExplicitMidpoint, RK4, Dop853 };
  Kind kind = Kind::Splitting;
  SplittingScheme splitting{};           ///< Kind::Splitting
  integrators::Dop853Options dop{};      ///< Kind::Dop853 (tolerances of the reference)
};

/// The deck names of scheme.method: the splittings phi_2s, phi_3s, phi_rks (kind Splitting with
/// their Splitting) and heun, explicit_midpoint, rk4, dop853; the reader fills in their options.
const Choices<RayleighMethod>& rayleighMethods();

std::string describe(const RayleighMethod& m);
/// Force evaluations (grad V) per step, DOP853 excluded (adaptive): the cost unit of the tables.
int gradientEvaluationsPerStep(const RayleighMethod& m);

/// Advances (q, p) from time t by h. DOP853 restarts its step-size control at each call.
void rayleighStep(const RayleighSystem& sys, const RayleighMethod& m, VectorXd& q, VectorXd& p,
                  double t, double h);

}  // namespace kirchhoff::damped
