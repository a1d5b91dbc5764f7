// DDB steps for the dissipative rigid body (docs/damped.md Sec. 2, steps 1-4, and the symmetric
// variant): Newton solves of 3 unknowns with DenseNewton, orthogonal updates tau(.)^T M.
#include "models/damped/DoubleBracket.hpp"

#include <algorithm>

#include "lie/SO3.hpp"

namespace kirchhoff::damped {

const Choices<DdbVariant>& ddbVariants() {
  static const Choices<DdbVariant> c("DDB variant", {{"plain", DdbVariant::Plain}, {"symmetric", DdbVariant::Symmetric}});
  return c;
}

using integrators::newtonSolve;
using integrators::NewtonOptions;
using integrators::NewtonResult;
using lie::hat;

namespace {
void accumulate(DdbReport& rep, const NewtonResult& r) {
  rep.converged = rep.converged && r.converged;
  rep.iterations += r.iterations;
  rep.residualNorm = std::max(rep.residualNorm, r.residualNorm);
}
}  // namespace

Vec3 discreteVelocity(const DissipativeRigidBody& body, Retraction r, double h, const Vec3& M,
                      const NewtonOptions& opt, DdbReport& rep) {
  const Mat3& I = body.inertia();
  Vec3 Om = body.omega(M);
  auto fj = [&](const Vec3& x, Vec3& F, Mat3& J) {
    F = discreteMomentum(r, h, I, x) - M;
    J = discreteMomentumJacobian(r, h, I, x);
  };
  accumulate(rep, newtonSolve<Vec3, Mat3>(fj, Om, opt));
  return Om;
}

Vec3 conservativeStep(const DissipativeRigidBody& body, Retraction r, double h, const Vec3& M,
                      const NewtonOptions& opt, DdbReport& rep) {
  const Vec3 Om = discreteVelocity(body, r, h, M, opt, rep);
  return tauTransposeApply(r, h * Om, M);
}

Vec3 dissipativeMidpointStep(const DissipativeRigidBody& body, Retraction r, double s, const Vec3& M,
                             const NewtonOptions& opt, DdbReport& rep) {
  // F(x) = x - tau(v)^T M, v = s phi((M + x)/2);  d(tau(v)^T M)/dv = hat(tau(v)^T M) dtau_{-v}.
  auto rotated = [&](const Vec3& x) { return tauTransposeApply(r, s * body.phi(0.5 * (M + x)), M); };
  Vec3 x = tauTransposeApply(r, s * body.phi(M), M);  // explicit predictor
  auto fj = [&](const Vec3& xx, Vec3& F, Mat3& J) {
    const Vec3 v = s * body.phi(0.5 * (M + xx));
    const Vec3 y = tauTransposeApply(r, v, M);
    F = xx - y;
    J = Mat3::Identity() - 0.5 * s * hat(y) * dtau(r, -v) * body.phiJacobian(0.5 * (M + xx));
  };
  accumulate(rep, newtonSolve<Vec3, Mat3>(fj, x, opt));
  return rotated(x);
}

DdbReport ddbStep(const DissipativeRigidBody& body, const DdbOptions& opt, double h, Vec3& M) {
  DdbReport rep;
  const Retraction r = opt.retraction;
  if (opt.variant == DdbVariant::Plain) {
    const Vec3 Om = discreteVelocity(body, r, h, M, opt.newton, rep);
    const Vec3 phi = body.alpha() * M.cross(Om);
    // (w W)^T M = W^T (w^T M)
    M = tauTransposeApply(r, h * phi, tauTransposeApply(r, h * Om, M));
    return rep;
  }
  Vec3 m = dissipativeMidpointStep(body, r, 0.5 * h, M, opt.newton, rep);
  m = conservativeStep(body, r, h, m, opt.newton, rep);
  M = dissipativeMidpointStep(body, r, 0.5 * h, m, opt.newton, rep);
  return rep;
}

}  // namespace kirchhoff::damped
