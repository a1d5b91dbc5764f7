// The test cases of docs/damped.md (pendulum, elastic 3D pendulum, harmonic chain, rigid-body
// scenarios A and B) and DOP853 reference solutions, shared by the damped tests and benchmark.
#pragma once

#include <cmath>
#include <memory>
#include <vector>

#include "integrators/Dop853.hpp"
#include "models/damped/RayleighIntegrator.hpp"
#include "models/damped/RelativeEquilibrium.hpp"
#include "models/damped/RigidBody.hpp"

namespace kirchhoff::damped::cases {

/// Planar pendulum of docs/damped.md: V = 1 - cos q, M = 1, D = 1; q0 = 1.5, p0 = 0.
inline std::shared_ptr<RayleighSystem> pendulum(double eps) {
  return std::make_shared<RayleighSystem>(MatrixXd::Identity(1, 1), eps,
                                          std::make_shared<PendulumPotential>(1.0),
                                          std::make_shared<ConstantDissipation>(MatrixXd::Identity(1, 1)));
}

/// Elastic pendulum of docs/damped.md: m = 1, k = 10, l0 = 1, g = 1, D = c u u^T with c = 1.
struct ElasticCase {
  double m = 1.0, k = 10.0, l0 = 1.0, g = 1.0, c = 1.0, W = 1.2;
};
inline std::shared_ptr<RayleighSystem> elasticPendulum(double eps, const ElasticCase& e = {}) {
  return std::make_shared<RayleighSystem>(e.m * MatrixXd::Identity(3, 3), eps,
                                          std::make_shared<ElasticPendulumPotential>(e.k, e.l0, e.m, e.g),
                                          std::make_shared<RadialDissipation>(e.c));
}
inline RelativeEquilibrium elasticEquilibrium(const ElasticCase& e = {}) {
  return conicalPendulum(e.k, e.l0, e.m, e.g, e.W);
}

/// Harmonic chain of n unit masses, springs k, diagonal damping d_i = 1 + i/n.
inline std::shared_ptr<RayleighSystem> chain(int n, double k, double eps) {
  VectorXd d(n);
  for (int i = 0; i < n; ++i) d(i) = 1.0 + double(i) / n;
  return std::make_shared<RayleighSystem>(MatrixXd::Identity(n, n), eps,
                                          std::make_shared<HarmonicChainPotential>(n, k),
                                          std::make_shared<DiagonalDissipation>(d));
}

/// (q, p) at the given times by DOP853 at rtol = atol = tol.
inline std::vector<VectorXd> rayleighReference(const RayleighSystem& sys, const VectorXd& q0,
                                               const VectorXd& p0, const std::vector<double>& times,
                                               double tol = 1e-13) {
  VectorXd y(2 * sys.dim());
  y << q0, p0;
  integrators::Dop853Options opt;
  opt.rtol = opt.atol = tol;
  return integrators::dop853([&](double, const VectorXd& z) { return sys.rhs(z); }, 0.0, y, times, opt);
}

inline RayleighMethod splitting(Splitting s, Ordering o = Ordering::DriftKickDrift,
                                RksMethod rk = RksMethod::Heun,
                                Composition c = Composition::None) {
  RayleighMethod m;
  m.kind = RayleighMethod::Kind::Splitting;
  m.splitting = SplittingScheme{s, o, rk, c};
  return m;
}
inline RayleighMethod kind(RayleighMethod::Kind k) {
  RayleighMethod m;
  m.kind = k;
  return m;
}

/// Scenario A: I = diag(1, 2, 3), M0 = (1, 1, 1), alpha = 0.1.  B: I = diag(2, 2, 1), M0 = (0.3, 0.2, 1).
struct RigidCase {
  Mat3 I;
  Vec3 M0;
  double alpha;
};
inline RigidCase scenarioA() { return {Vec3(1.0, 2.0, 3.0).asDiagonal(), Vec3(1.0, 1.0, 1.0), 0.1}; }
inline RigidCase scenarioB() { return {Vec3(2.0, 2.0, 1.0).asDiagonal(), Vec3(0.3, 0.2, 1.0), 0.1}; }

/// M at the given times by DOP853 at rtol = atol = tol.
inline std::vector<VectorXd> rigidReference(const DissipativeRigidBody& body, const Vec3& M0,
                                            const std::vector<double>& times, double tol = 1e-13) {
  integrators::Dop853Options opt;
  opt.rtol = opt.atol = tol;
  return integrators::dop853([&](double, const VectorXd& y) { return VectorXd(body.rhs(Vec3(y))); },
                             0.0, VectorXd(M0), times, opt);
}

}  // namespace kirchhoff::damped::cases
