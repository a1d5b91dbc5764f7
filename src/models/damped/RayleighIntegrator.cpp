// Dispatch of one step of a Rayleigh-damped system to a splitting (docs/damped.md (DA-7)-(DA-9)) or
// to Heun / RK4 / DOP853 on the full vector field y = (q, p) (docs/damped.md Sec. 1).
#include "models/damped/RayleighIntegrator.hpp"

#include "integrators/RungeKutta.hpp"

namespace kirchhoff::damped {

const Choices<RayleighMethod>& rayleighMethods() {
  static const Choices<RayleighMethod> c("damped scheme", [] {
    using K = RayleighMethod::Kind;
    auto method = [](K k, Splitting s = Splitting::Phi2S) {
      RayleighMethod m;
      m.kind = k;
      m.splitting.method = s;
      return m;
    };
    return std::vector<std::pair<std::string, RayleighMethod>>{
        {"phi_2s", method(K::Splitting, Splitting::Phi2S)}, {"phi_3s", method(K::Splitting, Splitting::Phi3S)},
        {"phi_rks", method(K::Splitting, Splitting::PhiRKS)}, {"heun", method(K::Heun)},
        {"explicit_midpoint", method(K::ExplicitMidpoint)}, {"rk4", method(K::RK4)}, {"dop853", method(K::Dop853)}};
  }());
  return c;
}

std::string describe(const RayleighMethod& m) {
  switch (m.kind) {
    case RayleighMethod::Kind::Splitting: return describe(m.splitting);
    case RayleighMethod::Kind::Heun: return "Heun";
    case RayleighMethod::Kind::ExplicitMidpoint: return "explicit midpoint";
    case RayleighMethod::Kind::RK4: return "RK4";
    case RayleighMethod::Kind::Dop853: return "DOP853";
  }
  return "";
}

int gradientEvaluationsPerStep(const RayleighMethod& m) {
  switch (m.kind) {
    case RayleighMethod::Kind::Splitting: {
      const SplittingScheme& s = m.splitting;
      // As implemented (no first-same-as-last reuse): one gradient per kick sub-flow.
      const bool oneKick = s.ordering == Ordering::DriftKickDrift && s.method != Splitting::Phi3S;
      const int base = oneKick ? 1 : 2;
      return integrators::compositionStages(s.composition) * base;
    }
    case RayleighMethod::Kind::Heun: return 2;
    case RayleighMethod::Kind::ExplicitMidpoint: return 2;
    case RayleighMethod::Kind::RK4: return 4;
    case RayleighMethod::Kind::Dop853: return 0;
  }
  return 0;
}

void rayleighStep(const RayleighSystem& sys, const RayleighMethod& m, VectorXd& q, VectorXd& p,
                  double t, double h) {
  if (m.kind == RayleighMethod::Kind::Splitting) {
    splittingStep(sys, m.splitting, q, p, h);
    return;
  }
  const int n = sys.dim();
  VectorXd y(2 * n);
  y << q, p;
  auto f = [&sys](double, const VectorXd& z) { return sys.rhs(z); };
  switch (m.kind) {
    case RayleighMethod::Kind::Heun: y = integrators::heunStep(f, t, y, h); break;
    case RayleighMethod::Kind::ExplicitMidpoint: y = integrators::explicitMidpointStep(f, t, y, h); break;
    case RayleighMethod::Kind::RK4: y = integrators::rk4Step(f, t, y, h); break;
    case RayleighMethod::Kind::Dop853: y = integrators::dop853(f, t, y, {t + h}, m.dop).front(); break;
    case RayleighMethod::Kind::Splitting: break;
  }
  q = y.head(n);
  p = y.tail(n);
}

}  // namespace kirchhoff::damped
