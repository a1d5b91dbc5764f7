// Exact sub-flows of X_T, X_V, eps Y and X_V + eps Y (docs/damped.md (DA-3)-(DA-6)).
// In modal coordinates p~ = Q^T S p the damping is diagonal: p~_i' = -lambda_i p~_i - g~_i.
#include "models/damped/RayleighFlows.hpp"

namespace kirchhoff::damped {

void driftT(const RayleighSystem& s, VectorXd& q, const VectorXd& p, double t) {
  q.noalias() += t * s.massInverse() * p;
}

void kickV(const RayleighSystem& s, const VectorXd& q, VectorXd& p, double t) {
  p -= t * s.potential().gradient(q);
}

namespace {
// In S-coordinates x = S p, G = S grad V: returns exp(-t B) x - t phi1(-t B) G (G may be empty).
VectorXd modalFlow(const DampingModes& m, double t, const VectorXd& x, const VectorXd* G) {
  if (m.rankOne) {
    const double z = -t * m.lambda1;
    VectorXd y = x + std::expm1(z) * m.v.dot(x) * m.v;
    if (G) y -= t * (*G + (phi1(z) - 1.0) * m.v.dot(*G) * m.v);
    return y;
  }
  VectorXd xm = m.Q.transpose() * x;
  const VectorXd gm = G ? VectorXd(m.Q.transpose() * *G) : VectorXd();
  for (Eigen::Index i = 0; i < xm.size(); ++i) {
    const double z = -t * m.lambda(i);
    xm(i) = std::exp(z) * xm(i);
    if (G) xm(i) -= t * phi1(z) * gm(i);
  }
  return m.Q * xm;
}
}  // namespace

void dampY(const RayleighSystem& s, const VectorXd& q, VectorXd& p, double t) {
  if (s.eps() == 0.0) return;
  if (s.dissipation().constant()) {
    VectorXd y = s.constantFlow(t).E * p;
    p.swap(y);
    return;
  }
  DampingModes scratch;
  p = s.massSqrt() * modalFlow(s.modes(q, scratch), t, s.massInvSqrt() * p, nullptr);
}

void kickDampVY(const RayleighSystem& s, const VectorXd& q, VectorXd& p, double t) {
  if (s.eps() == 0.0) {
    kickV(s, q, p, t);
    return;
  }
  if (s.dissipation().constant()) {
    const ConstantFlow& c = s.constantFlow(t);
    VectorXd y = c.E * p;
    y.noalias() -= c.F * s.potential().gradient(q);
    p.swap(y);
    return;
  }
  const VectorXd G = s.massInvSqrt() * s.potential().gradient(q);
  DampingModes scratch;
  p = s.massSqrt() * modalFlow(s.modes(q, scratch), t, s.massInvSqrt() * p, &G);
}

}  // namespace kirchhoff::damped
