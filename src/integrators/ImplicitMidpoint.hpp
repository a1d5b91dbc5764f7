// The implicit midpoint rule y1 = y0 + h g((y0 + y1)/2) for an autonomous field g with an analytic
// Jacobian (docs/heavytop.md "Integrators", scheme 1): Newton (DenseNewton) from the explicit Euler
// predictor, a full step or the increment form the compositions (CM-1) sum with compensation.
// Templated on the vector and matrix types (fixed-size Eigen, real or complex for complex-step derivatives).
#pragma once

#include <cmath>

#include "integrators/DenseNewton.hpp"

namespace kirchhoff::integrators {

/// Newton on the implicit midpoint equation F(y1) = y1 - y0 - dt g((y0 + y1)/2) = 0 from the
/// initial guess in y1, with Jacobian I - dt/2 Dg((y0 + y1)/2); gdg(m, g, Dg) fills both.
/// Adds the number of (g, Dg) evaluations to *evaluations.
template <class V, class M, class GDG>
NewtonResult implicitMidpointSolve(GDG&& gdg, const V& y0, V& y1, double dt,
                                   const NewtonOptions& opt, int* evaluations) {
  using T = typename V::Scalar;
  V g;
  M Dg;
  auto fj = [&](const V& x, V& F, M& J) {
    ++*evaluations;
    gdg(V(T(0.5) * (y0 + x)), g, Dg);
    F = x - y0 - T(dt) * g;
    J = M::Identity() - T(0.5 * dt) * Dg;
  };
  return integrators::newtonSolve<V, M>(fj, y1, opt);
}

/// Implicit midpoint step from the explicit Euler predictor y0 + dt g(y0); leaves y unchanged
/// unless Newton converged. `polish` extra Newton updates follow convergence (complex-step
/// derivatives: the imaginary part lags the real part by one update). *evaluations counts the
/// vector-field evaluations (predictor + Newton).
template <class V, class M, class G, class GDG>
NewtonResult implicitMidpointStep(G&& g, GDG&& gdg, V& y, double dt, const NewtonOptions& opt,
                                  int polish, int* evaluations) {
  using T = typename V::Scalar;
  const V y0 = y;
  V x = y0 + T(dt) * g(y0);
  *evaluations = 1;
  NewtonResult r = implicitMidpointSolve<V, M>(gdg, y0, x, dt, opt, evaluations);
  if (r.converged && polish > 0) {
    NewtonOptions fixed = opt;
    fixed.atol = 0.0;
    fixed.rtol = 0.0;
    fixed.stol = 0.0;
    fixed.maxIterations = polish;
    const NewtonResult p = implicitMidpointSolve<V, M>(gdg, y0, x, dt, fixed, evaluations);
    r.converged = p.converged || std::isfinite(p.residualNorm);
  }
  if (r.converged) y = x;
  return r;
}

/// The implicit midpoint step in increment form, for the sub-steps of compositions: Newton on
/// d = y1 - y0, F(d) = d - dt g(y0 + d/2), from d = dt g(y0), then `polish` extra updates; y0 + d
/// is never rounded here, so the caller can sum the increments with compensation.
template <class V, class M, class G, class GDG>
NewtonResult implicitMidpointIncrement(G&& g, GDG&& gdg, const V& y0, V& d, double dt,
                                       const NewtonOptions& opt, int polish, int* evaluations) {
  using T = typename V::Scalar;
  d = T(dt) * g(y0);
  *evaluations = 1;
  V gm;
  M Dg;
  auto fj = [&](const V& x, V& F, M& J) {
    ++*evaluations;
    gdg(V(y0 + T(0.5) * x), gm, Dg);
    F = x - T(dt) * gm;
    J = M::Identity() - T(0.5 * dt) * Dg;
  };
  NewtonResult r = integrators::newtonSolve<V, M>(fj, d, opt);
  if (r.converged && polish > 0) {
    NewtonOptions fixed = opt;
    fixed.atol = fixed.rtol = fixed.stol = 0.0;
    fixed.maxIterations = polish;
    const NewtonResult p = integrators::newtonSolve<V, M>(fj, d, fixed);
    r.converged = p.converged || std::isfinite(p.residualNorm);
  }
  return r;
}

}  // namespace kirchhoff::integrators
