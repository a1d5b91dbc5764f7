// Newton's method for small dense systems F(x) = 0 with an analytic Jacobian (Eigen, partial-pivot
// LU): the fast path of the implicit midpoint, Lobatto IIIC and DDB steps (8 or fewer unknowns).
#pragma once

#include <cmath>
#include <limits>

#include <Eigen/Dense>

namespace kirchhoff::integrators {

struct NewtonOptions {
  double atol = 1e-14;  ///< stop when |F| <= atol + rtol |F0| ...
  double rtol = 0.0;
  double stol = 1e-15;  ///< ... or when the update |dx| <= stol (1 + |x|) ...
  /// ... or when Newton stalls at round-off: the update stopped shrinking (|dx_k| >= |dx_k-1| / 2)
  /// while |dx_k| <= stallTol (1 + |x|). The residual is then as small as the arithmetic allows
  /// (it cannot reach an atol below the rounding error of F's terms, e.g. 1e-14 when |x| ~ 1e3).
  double stallTol = 1e-13;
  int maxIterations = 50;
};

struct NewtonResult {
  bool converged = false;
  bool stalled = false;  ///< converged by the round-off stall test (atol not reached)
  int iterations = 0;    ///< evaluations of (F, J) after the first (the final update is not counted)
  double residualNorm = std::numeric_limits<double>::quiet_NaN();  ///< |F| at the last evaluation
};

/// Solves F(x) = 0 in place. `fj(x, F, J)` fills the residual and its Jacobian.
/// Every accepted solution has had the Newton update of its last evaluation applied: a residual
/// test that passes at |F| <= atol still takes that update (it costs one LU, no evaluation), so
/// the result is converged to ~|F|^2, i.e. to round-off, instead of stopping at the tolerance.
/// The update-size test (stol) re-evaluates F at the final x. A result that is not converged
/// (iteration budget spent, non-finite residual or update) leaves x at the last iterate.
template <class Vec, class Mat, class FJ>
NewtonResult newtonSolve(FJ&& fj, Vec& x, const NewtonOptions& opt = {}) {
  NewtonResult r;
  Vec F(x.size());
  Mat J(x.size(), x.size());
  double F0 = -1.0;
  double lastUpdate = std::numeric_limits<double>::infinity();
  for (int it = 0; it <= opt.maxIterations; ++it) {
    fj(x, F, J);
    r.residualNorm = F.norm();
    r.iterations = it;
    if (!std::isfinite(r.residualNorm)) return r;
    if (F0 < 0.0) F0 = r.residualNorm;
    const bool small = r.residualNorm <= opt.atol + opt.rtol * F0;
    if (it == opt.maxIterations && !small) break;
    const Vec dx = J.partialPivLu().solve(F);
    const double update = dx.norm();
    if (!std::isfinite(update)) return r;  // singular Jacobian
    x -= dx;
    if (small) return r.converged = true, r;
    const double scale = 1.0 + x.norm();
    if (update <= opt.stol * scale) {
      fj(x, F, J);
      r.residualNorm = F.norm();
      r.iterations = it + 1;
      r.converged = std::isfinite(r.residualNorm);
      return r;
    }
    if (update >= 0.5 * lastUpdate && update <= opt.stallTol * scale) {
      r.converged = r.stalled = true;
      return r;
    }
    lastUpdate = update;
  }
  return r;
}

}  // namespace kirchhoff::integrators
