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
  double stol = 1e-15;  ///< ... or when the update |dx| <= stol (1 + |x|)
  int maxIterations = 50;
};

struct NewtonResult {
  bool converged = false;
  int iterations = 0;
  double residualNorm = std::numeric_limits<double>::quiet_NaN();
};

/// Solves F(x) = 0 in place. `fj(x, F, J)` fills the residual and its Jacobian.
/// One extra Newton update is taken after the update norm stalls near round-off, so the result
/// is converged to machine precision when atol is tiny.
template <class Vec, class Mat, class FJ>
NewtonResult newtonSolve(FJ&& fj, Vec& x, const NewtonOptions& opt = {}) {
  NewtonResult r;
  Vec F(x.size());
  Mat J(x.size(), x.size());
  double F0 = -1.0;
  for (int it = 0; it <= opt.maxIterations; ++it) {
    fj(x, F, J);
    r.residualNorm = F.norm();
    if (!std::isfinite(r.residualNorm)) return r;
    if (F0 < 0.0) F0 = r.residualNorm;
    r.iterations = it;
    if (r.residualNorm <= opt.atol + opt.rtol * F0) {
      r.converged = true;
      return r;
    }
    if (it == opt.maxIterations) break;
    const Vec dx = J.partialPivLu().solve(F);
    x -= dx;
    if (dx.norm() <= opt.stol * (1.0 + x.norm())) {
      fj(x, F, J);
      r.residualNorm = F.norm();
      r.iterations = it + 1;
      r.converged = std::isfinite(r.residualNorm);
      return r;
    }
  }
  return r;
}

}  // namespace kirchhoff::integrators
