// Benchmark of the damped integrators (docs/damped.md "Reference results"): energy error and cost
// of the Rayleigh splittings vs Heun/RK4, relative-equilibrium drift, DDB vs RK4/Lobatto IIIC.
// Plain timing main; prints Markdown tables. Usage: bench_damped [section...] (pendulum elastic
// rigid orders equal scipy), default all. Times are wall clock on the machine it runs on.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "../damped/DampedCases.hpp"
#include "models/damped/RigidBodyIntegrator.hpp"

using namespace kirchhoff::damped;
namespace cs = kirchhoff::damped::cases;

namespace {

double seconds(const std::function<void()>& fn) {
  const auto t0 = std::chrono::steady_clock::now();
  fn();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}
/// Best of `reps` timings: the machine is shared, the minimum is the least disturbed run.
double bestOf(int reps, const std::function<void()>& fn) {
  double best = 1e300;
  for (int r = 0; r < reps; ++r) best = std::min(best, seconds(fn));
  return best;
}

// ---- 1. Pendulum: energy error against the reference ---------------------------------------
void pendulumTable() {
  const double eps = 0.01, T = 500.0;
  const auto sys = cs::pendulum(eps);
  const VectorXd q0 = VectorXd::Constant(1, 1.5), p0 = VectorXd::Zero(1);
  const std::vector<RayleighMethod> methods = {
      cs::splitting(Splitting::Phi2S), cs::splitting(Splitting::Phi3S),
      cs::splitting(Splitting::PhiRKS), cs::splitting(Splitting::Phi2S, Ordering::KickDriftKick),
      cs::kind(RayleighMethod::Kind::Heun), cs::kind(RayleighMethod::Kind::ExplicitMidpoint),
      cs::kind(RayleighMethod::Kind::RK4)};
  std::printf("\n## Damped pendulum, eps = %.2g, (q0, p0) = (1.5, 0), T = %.0f\n", eps, T);
  std::printf("max_k |H_k - H_ref(t_k)| (H_ref from DOP853, rtol = atol = 1e-13); H_ref(T) printed\n\n");
  std::printf("| method | h | max energy error | energy error at T | H(T) | H_ref(T) | grad V/step | ns/step |\n");
  std::printf("|---|---|---|---|---|---|---|---|\n");
  for (const double h : {0.5, 0.2, 0.1}) {
    const int n = static_cast<int>(std::lround(T / h));
    std::vector<double> times;
    for (int k = 1; k <= n; ++k) times.push_back(k * h);
    const auto ref = cs::rayleighReference(*sys, q0, p0, times);
    for (const auto& m : methods) {
      VectorXd q = q0, p = p0;
      double maxErr = 0.0, errT = 0.0;
      for (int k = 0; k < n; ++k) {
        rayleighStep(*sys, m, q, p, k * h, h);
        const double Href = sys->hamiltonian(ref[k].head(1), ref[k].tail(1));
        errT = sys->hamiltonian(q, p) - Href;
        maxErr = std::max(maxErr, std::abs(errT));
      }
      const double HT = sys->hamiltonian(q, p);
      const double Href = sys->hamiltonian(ref.back().head(1), ref.back().tail(1));
      const double t = bestOf(7, [&] {
        VectorXd qq = q0, pp = p0;
        for (int k = 0; k < n; ++k) rayleighStep(*sys, m, qq, pp, k * h, h);
      });
      std::printf("| %s | %.1f | %.3e | %.3e | %.6e | %.6e | %d | %.0f |\n", describe(m).c_str(), h,
                  maxErr, errT, HT, Href, gradientEvaluationsPerStep(m), 1e9 * t / n);
    }
  }
}

// ---- 2. Elastic pendulum: relative equilibrium and J3 ---------------------------------------
void elasticTable() {
  const double eps = 0.1, T = 2000.0;
  const auto sys = cs::elasticPendulum(eps);
  const RelativeEquilibrium re = cs::elasticEquilibrium();
  std::printf("\n## Damped elastic pendulum at its relative equilibrium, eps = %.2g, T = %.0f\n", eps, T);
  std::printf("r* = %.12f, theta* = %.12f, J3* = %.12f; start (q*, p*)\n\n", re.rStar, re.theta, re.J3);
  std::printf("| method | h | max |r - r*| | max |J3 - J3(0)| | energy drift H(T) - H(0) | ns/step |\n");
  std::printf("|---|---|---|---|---|---|\n");
  const std::vector<RayleighMethod> methods = {
      cs::splitting(Splitting::Phi2S), cs::splitting(Splitting::Phi3S),
      cs::splitting(Splitting::PhiRKS), cs::kind(RayleighMethod::Kind::Heun),
      cs::kind(RayleighMethod::Kind::RK4)};
  for (const double h : {0.1, 0.05}) {
    const int n = static_cast<int>(std::lround(T / h));
    for (const auto& m : methods) {
      VectorXd q = re.q, p = re.p;
      const double H0 = sys->hamiltonian(q, p);
      double maxR = 0.0, maxJ = 0.0;
      const double t = seconds([&] {
        for (int k = 0; k < n; ++k) {
          rayleighStep(*sys, m, q, p, k * h, h);
          maxR = std::max(maxR, std::abs(q.norm() - re.rStar));
          maxJ = std::max(maxJ, std::abs(angularMomentumJ3(q, p) - re.J3));
        }
      });
      const double tb = std::min(t, bestOf(4, [&] {
        VectorXd qq = re.q, pp = re.p;
        for (int k = 0; k < n; ++k) rayleighStep(*sys, m, qq, pp, k * h, h);
      }));
      std::printf("| %s | %.2f | %.3e | %.3e | %.3e | %.0f |\n", describe(m).c_str(), h, maxR, maxJ,
                  sys->hamiltonian(q, p) - H0, 1e9 * tb / n);
    }
  }
}

// ---- 3. Rigid body: Casimir, limit set, error, cost -----------------------------------------
RigidBodyMethod rigid(RigidBodyMethod::Kind k, Retraction r = Retraction::Cayley,
                      DdbVariant v = DdbVariant::Plain) {
  RigidBodyMethod m;
  m.kind = k;
  m.ddb.retraction = r;
  m.ddb.variant = v;
  return m;
}
std::vector<RigidBodyMethod> rigidMethods() {
  using K = RigidBodyMethod::Kind;
  return {rigid(K::DDB, Retraction::Exp), rigid(K::DDB, Retraction::Cayley),
          rigid(K::DDB, Retraction::Exp, DdbVariant::Symmetric),
          rigid(K::DDB, Retraction::Cayley, DdbVariant::Symmetric), rigid(K::RK4),
          rigid(K::LobattoIIIC)};
}

struct RigidRun {
  Vec3 M;
  double maxCasimir = 0.0;  // max_k ||M_k| / |M0| - 1|
  double seconds = 0.0;
  long iterations = 0;
};
RigidRun runRigid(const DissipativeRigidBody& body, const RigidBodyMethod& m, const Vec3& M0,
                  double h, int n) {
  RigidRun r;
  r.M = M0;
  const double c0 = M0.norm();
  r.seconds = seconds([&] {
    for (int k = 0; k < n; ++k) {
      r.iterations += rigidBodyStep(body, m, r.M, k * h, h).iterations;
      r.maxCasimir = std::max(r.maxCasimir, std::abs(r.M.norm() / c0 - 1.0));
    }
  });
  return r;
}

void rigidTable() {
  const double h = 0.1, T = 200.0;
  const int n = static_cast<int>(std::lround(T / h));
  for (const auto& [name, c] : {std::pair{"A", cs::scenarioA()}, std::pair{"B", cs::scenarioB()}}) {
    const DissipativeRigidBody body(c.I, c.alpha);
    const VectorXd ref = cs::rigidReference(body, c.M0, {T})[0];
    std::printf("\n## Dissipative rigid body, scenario %s, h = %.2g, T = %.0f\n", name, h, T);
    std::printf("reference M(T) = (%.10e, %.10e, %.10e), distance to limit set %.3e\n\n", ref(0),
                ref(1), ref(2), body.distanceToLimitSet(Vec3(ref), c.M0.norm()));
    std::printf("| method | max rel. Casimir error | |M(T) - M_ref(T)| | distance to limit set at T | Newton its/step | us/step |\n");
    std::printf("|---|---|---|---|---|---|\n");
    for (const auto& m : rigidMethods()) {
      RigidRun r = runRigid(body, m, c.M0, h, n);
      for (int rep = 0; rep < 4; ++rep) r.seconds = std::min(r.seconds, runRigid(body, m, c.M0, h, n).seconds);
      std::printf("| %s | %.3e | %.3e | %.3e | %.2f | %.2f |\n", describe(m).c_str(), r.maxCasimir,
                  (r.M - Vec3(ref)).norm(), body.distanceToLimitSet(r.M, c.M0.norm()),
                  double(r.iterations) / n, 1e6 * r.seconds / n);
    }
  }
}

// ---- 4. Orders of the DDB variants ------------------------------------------------------------
void ordersTable() {
  const auto c = cs::scenarioA();
  const DissipativeRigidBody body(c.I, c.alpha);
  const double T = 10.0;
  const VectorXd ref = cs::rigidReference(body, c.M0, {T})[0];
  std::printf("\n## Measured orders, scenario A, error |M(T) - M_ref(T)| at T = %.0f\n\n", T);
  std::printf("| method | h = 0.1 | 0.05 | 0.025 | 0.0125 | orders |\n|---|---|---|---|---|---|\n");
  for (const auto& m : rigidMethods()) {
    std::vector<double> e;
    for (const double h : {0.1, 0.05, 0.025, 0.0125}) {
      const RigidRun r = runRigid(body, m, c.M0, h, static_cast<int>(std::lround(T / h)));
      e.push_back((r.M - Vec3(ref)).norm());
    }
    std::printf("| %s | %.3e | %.3e | %.3e | %.3e | %.2f %.2f %.2f |\n", describe(m).c_str(), e[0],
                e[1], e[2], e[3], std::log2(e[0] / e[1]), std::log2(e[1] / e[2]),
                std::log2(e[2] / e[3]));
  }
}

// ---- 5. Cost at equal error: DDB-Cayley vs Lobatto IIIC ----------------------------------------
void equalErrorTable() {
  const auto c = cs::scenarioA();
  const DissipativeRigidBody body(c.I, c.alpha);
  const double T = 20.0;
  const VectorXd ref = cs::rigidReference(body, c.M0, {T})[0];
  std::printf("\n## Cost against accuracy, scenario A, T = %.0f (error |M(T) - M_ref(T)|)\n\n", T);
  std::printf("| method | h | error | us per unit time | us/step |\n|---|---|---|---|---|\n");
  using K = RigidBodyMethod::Kind;
  const std::vector<RigidBodyMethod> ms = {rigid(K::DDB, Retraction::Cayley),
                                           rigid(K::DDB, Retraction::Cayley, DdbVariant::Symmetric),
                                           rigid(K::DDB, Retraction::Exp, DdbVariant::Symmetric),
                                           rigid(K::RK4), rigid(K::LobattoIIIC)};
  for (const auto& m : ms) {
    for (const double h : {0.2, 0.1, 0.05, 0.025, 0.0125, 0.00625, 0.003125}) {
      const int n = static_cast<int>(std::lround(T / h));
      double best = 1e300;
      RigidRun r;
      for (int rep = 0; rep < 5; ++rep) {  // best of 5 against load from other processes
        r = runRigid(body, m, c.M0, h, n);
        best = std::min(best, r.seconds);
      }
      std::printf("| %s | %.5f | %.3e | %.1f | %.2f |\n", describe(m).c_str(), h,
                  (r.M - Vec3(ref)).norm(), 1e6 * best / T, 1e6 * best / n);
    }
  }
}

// ---- 6. The damped pendulum for the side-by-side with scipy (postprocess/damped_bench_scipy.py)
void scipyTable() {
  const double eps = 0.01, T = 500.0;
  const auto sys = cs::pendulum(eps);
  const VectorXd q0 = VectorXd::Constant(1, 1.5), p0 = VectorXd::Zero(1);
  const VectorXd ref = cs::rayleighReference(*sys, q0, p0, {T})[0];
  std::printf("\n## Damped pendulum to T = %.0f (eps = %.2g): kirchhoff side of the scipy comparison\n", T, eps);
  std::printf("reference (q, p)(T) = (%.15e, %.15e)\n\n", ref(0), ref(1));
  std::printf("| method | setting | error |(q,p)(T) - ref| | ms | f evaluations |\n|---|---|---|---|---|\n");
  for (const double tol : {1e-6, 1e-9, 1e-12}) {
    kirchhoff::integrators::Dop853Options opt;
    opt.rtol = opt.atol = tol;
    kirchhoff::integrators::Dop853Stats st;
    VectorXd y(2);
    y << q0, p0;
    VectorXd yT;
    double best = 1e300;
    for (int rep = 0; rep < 9; ++rep)
      best = std::min(best, seconds([&] {
        yT = kirchhoff::integrators::dop853([&](double, const VectorXd& z) { return sys->rhs(z); },
                                            0.0, y, {T}, opt, &st)[0];
      }));
    std::printf("| DOP853 (kirchhoff) | rtol=atol=%.0e | %.3e | %.3f | %ld |\n", tol, (yT - ref).norm(),
                1e3 * best, st.evaluations);
  }
  for (const double h : {0.1, 0.01}) {
    const int n = static_cast<int>(std::lround(T / h));
    VectorXd q, p;
    double best = 1e300;
    for (int rep = 0; rep < 9; ++rep)
      best = std::min(best, seconds([&] {
        q = q0;
        p = p0;
        const auto m = cs::splitting(Splitting::Phi2S);
        for (int k = 0; k < n; ++k) rayleighStep(*sys, m, q, p, k * h, h);
      }));
    VectorXd y(2);
    y << q, p;
    std::printf("| Phi_2S dkd (kirchhoff) | h=%.2g | %.3e | %.3f | %d |\n", h, (y - ref).norm(), 1e3 * best, n);
  }
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::pair<std::string, void (*)()>> sections = {
      {"pendulum", pendulumTable}, {"elastic", elasticTable}, {"rigid", rigidTable},
      {"orders", ordersTable},     {"equal", equalErrorTable}, {"scipy", scipyTable}};
  for (const auto& [name, fn] : sections) {
    bool run = argc < 2;
    for (int i = 1; i < argc; ++i) run = run || name == argv[i];
    if (run) fn();
  }
  return 0;
}
