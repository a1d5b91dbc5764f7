// The four heavy-top integrators compared in Ohsawa 2019, Sec. 5 (docs/heavytop.md "Integrators"):
//   1. collective implicit midpoint  z1 = z0 + dt X_H((z0 + z1)/2)  (the Lie–Poisson integrator M o Phi)
//   2. collective explicit midpoint  z1 = z0 + dt X_H(z0 + dt/2 X_H(z0))
//   3. direct explicit midpoint      y1 = y0 + dt f(y0 + dt/2 f(y0)),  y = (Pi, Gamma), f of eq. (1.1)
//   4. direct implicit midpoint      y1 = y0 + dt f((y0 + y1)/2)  (Austin–Krishnaprasad–Wang 1993)
// and, for higher order (docs/heavytop.md "Composition methods"): 5. s-stage Gauss–Legendre
// collocation on the collective system (HT-16), and the compositions (CM-1) of the symmetric maps.
// Implicit steps: Newton with the analytic Jacobian I - dt/2 DX((z0 + z1)/2) (integrators/ImplicitMidpoint),
// started from the explicit Euler predictor. Templated on the scalar for complex-step derivatives;
// TopStepper is the one run-time interface over all four.
#pragma once

#include <algorithm>
#include <cmath>
#include <complex>
#include <string>
#include <vector>

#include <Eigen/Dense>

#include "core/Choices.hpp"
#include "core/Error.hpp"
#include "integrators/Composition.hpp"
#include "integrators/DenseNewton.hpp"
#include "integrators/GaussLegendre.hpp"
#include "integrators/ImplicitMidpoint.hpp"
#include "integrators/RungeKutta.hpp"
#include "models/top/CollectiveHamiltonian.hpp"
#include "models/top/CollectiveMap.hpp"
#include "models/top/HeavyTop.hpp"

namespace kirchhoff::top {

enum class TopScheme {
  CollectiveImplicitMidpoint,
  CollectiveExplicitMidpoint,
  DirectExplicitMidpoint,
  DirectImplicitMidpoint,
  CollectiveGaussLegendre,  ///< s-stage Gauss–Legendre collocation on z (HT-16), order 2s
};

/// The deck names (scheme), in the order of the enum.
const Choices<TopScheme>& topSchemes();
inline std::string schemeName(TopScheme s) { return topSchemes().name(s); }
/// Collective schemes advance z (8 unknowns); direct ones (Pi, Gamma) (6).
inline bool isCollective(TopScheme s) {
  return s == TopScheme::CollectiveImplicitMidpoint || s == TopScheme::CollectiveExplicitMidpoint ||
         s == TopScheme::CollectiveGaussLegendre;
}
/// The implicit schemes are the symmetric ones (Phi_h^-1 = Phi_-h): the bases of compositions.
inline bool isImplicit(TopScheme s) {
  return s == TopScheme::CollectiveImplicitMidpoint || s == TopScheme::DirectImplicitMidpoint ||
         s == TopScheme::CollectiveGaussLegendre;
}

using integrators::Composition;

/// A scheme, its stage count (Gauss–Legendre only) and the composition (CM-1) applied to it.
struct TopMethod {
  TopScheme scheme = TopScheme::CollectiveImplicitMidpoint;
  int stages = 2;
  Composition composition = Composition::None;
};
/// "collective_gauss_legendre(3)+kahan_li6", "direct_implicit_midpoint", ...
std::string methodName(const TopMethod& m);
/// Classical order: 2 (midpoint maps), 2s (Gauss–Legendre), raised by the composition (CM-3).
int methodOrder(const TopMethod& m);
/// Throws ConfigurationError for a composition of a non-symmetric (explicit) scheme or bad stages.
void checkMethod(const TopMethod& m);

using integrators::implicitMidpointIncrement;
using integrators::implicitMidpointStep;
using integrators::NewtonOptions;
using integrators::NewtonResult;

/// The vector fields of the two formulations bound to the parameters, as the callables the
/// steps take: X_H and (X_H, DX_H) on z (collective), f of eq. (1.1) and (f, Df) on (Pi, Gamma).
template <class T>
struct TopFields {
  const HeavyTopParameters& par;
  auto X() const {
    return [p = &par](const Vec8T<T>& z) { return collectiveField<T>(*p, z); };
  }
  auto XDX() const {
    return [p = &par](const Vec8T<T>& z, Vec8T<T>& g, Mat8T<T>& Dg) {
      collectiveFieldAndJacobian<T>(*p, z, g, Dg);
    };
  }
  auto f() const {
    return [p = &par](const Vec6T<T>& y) { return heavyTopField<T>(*p, y); };
  }
  auto fDf() const {
    return [p = &par](const Vec6T<T>& y, Vec6T<T>& g, Mat6T<T>& Dg) {
      g = heavyTopField<T>(*p, y);
      Dg = heavyTopJacobian<T>(*p, y);
    };
  }
};

/// One step of scheme s on x (z for collective schemes, (Pi, Gamma) for direct ones); `polish`
/// as in implicitMidpointStep; *evaluations (if given) receives the vector-field evaluations.
/// `stages`: of the Gauss–Legendre scheme.
template <class T>
NewtonResult schemeStep(TopScheme s, const HeavyTopParameters& par,
                        Eigen::Matrix<T, Eigen::Dynamic, 1>& x, double dt, const NewtonOptions& opt,
                        int polish = 0, int* evaluations = nullptr, int stages = 2) {
  int count = 0;
  if (!evaluations) evaluations = &count;
  const TopFields<T> fields{par};
  NewtonResult explicitDone;
  explicitDone.converged = true;
  explicitDone.residualNorm = 0.0;
  switch (s) {
    case TopScheme::CollectiveImplicitMidpoint: {
      Vec8T<T> z = x;
      const NewtonResult r = implicitMidpointStep<Vec8T<T>, Mat8T<T>>(fields.X(), fields.XDX(), z,
                                                                      dt, opt, polish, evaluations);
      x = z;
      return r;
    }
    case TopScheme::CollectiveExplicitMidpoint: {
      const auto X = fields.X();
      Vec8T<T> z = x;
      z = integrators::explicitMidpointStep([&X](double, const Vec8T<T>& v) { return X(v); }, 0.0, z, dt);
      *evaluations = 2;
      x = z;
      return explicitDone;
    }
    case TopScheme::DirectExplicitMidpoint: {
      const auto f = fields.f();
      Vec6T<T> y = x;
      y = integrators::explicitMidpointStep([&f](double, const Vec6T<T>& v) { return f(v); }, 0.0, y, dt);
      *evaluations = 2;
      x = y;
      return explicitDone;
    }
    case TopScheme::DirectImplicitMidpoint: {
      Vec6T<T> y = x;
      const NewtonResult r = implicitMidpointStep<Vec6T<T>, Mat6T<T>>(fields.f(), fields.fDf(), y,
                                                                      dt, opt, polish, evaluations);
      x = y;
      return r;
    }
    case TopScheme::CollectiveGaussLegendre: {
      Vec8T<T> z = x;
      const NewtonResult r = integrators::gaussLegendreStep<Vec8T<T>, Mat8T<T>>(
          fields.XDX(), z, dt, integrators::gaussLegendreTableau(stages), opt, polish, evaluations);
      x = z;
      return r;
    }
  }
  return explicitDone;
}

/// The increment d = Phi_dt(y0) - y0 of a symmetric scheme (implicit midpoint maps,
/// Gauss–Legendre) without rounding y0 + d; the sub-step of methodStep's compositions.
template <class T>
NewtonResult schemeIncrement(TopScheme s, const HeavyTopParameters& par,
                             const Eigen::Matrix<T, Eigen::Dynamic, 1>& y0,
                             Eigen::Matrix<T, Eigen::Dynamic, 1>& d, double dt,
                             const NewtonOptions& opt, int polish, int* evaluations, int stages) {
  const TopFields<T> fields{par};
  NewtonResult r;
  switch (s) {
    case TopScheme::CollectiveImplicitMidpoint: {
      Vec8T<T> inc;
      r = implicitMidpointIncrement<Vec8T<T>, Mat8T<T>>(fields.X(), fields.XDX(), Vec8T<T>(y0), inc,
                                                        dt, opt, polish, evaluations);
      d = inc;
      return r;
    }
    case TopScheme::DirectImplicitMidpoint: {
      Vec6T<T> inc;
      r = implicitMidpointIncrement<Vec6T<T>, Mat6T<T>>(fields.f(), fields.fDf(), Vec6T<T>(y0), inc,
                                                        dt, opt, polish, evaluations);
      d = inc;
      return r;
    }
    case TopScheme::CollectiveGaussLegendre: {
      Vec8T<T> z = y0, inc;
      r = integrators::gaussLegendreStep<Vec8T<T>, Mat8T<T>>(
          fields.XDX(), z, dt, integrators::gaussLegendreTableau(stages), opt, polish, evaluations,
          &inc);
      d = inc;
      return r;
    }
    default:
      throw ConfigurationError("top: " + schemeName(s) + " is not symmetric: no composition");
  }
}

/// One step of method m: the composition (CM-1) of schemeStep with the sub-steps gamma_i dt.
/// x is unchanged unless every sub-step converged; the result sums the Newton iterations and
/// keeps the largest residual; *evaluations sums the field evaluations of all sub-steps.
/// Round-off: every sub-step takes at least one Newton update after the tolerance test
/// (polish >= 1; the errors Newton leaves below newton.atol are smooth in the state and add up
/// coherently over the s sub-steps), and the sub-steps' increments are summed with compensation
/// (TwoSum; y0 + d rounded once per step, not once per sub-step).
template <class T>
NewtonResult methodStep(const TopMethod& m, const HeavyTopParameters& par,
                        Eigen::Matrix<T, Eigen::Dynamic, 1>& x, double dt,
                        const NewtonOptions& opt, int polish = 0, int* evaluations = nullptr) {
  if (m.composition == Composition::None)
    return schemeStep<T>(m.scheme, par, x, dt, opt, polish, evaluations, m.stages);
  using VX = Eigen::Matrix<T, Eigen::Dynamic, 1>;
  const int subPolish = std::max(polish, 1);
  VX y = x, c = VX::Zero(x.size()), d;
  NewtonResult total;
  total.converged = true;
  total.residualNorm = 0.0;
  int count = 0;
  const bool ok = integrators::compose(m.composition, dt, [&](double h) {
    int e = 0;
    const NewtonResult r = schemeIncrement<T>(m.scheme, par, y, d, h, opt, subPolish, &e, m.stages);
    count += e;
    total.iterations += r.iterations;
    total.residualNorm = std::max(total.residualNorm, r.residualNorm);
    if (!r.converged) {
      total = r;
      return false;
    }
    // TwoSum of y and (d + c): y + c is the exact sum, c the rounding error carried along.
    const VX a = y, b = d + c;
    y = a + b;
    const VX bb = y - a;
    c = (a - (y - bb)) + (b - bb);
    return true;
  });
  if (evaluations) *evaluations = count;
  if (ok) x = y + c;
  return total;
}

// Instantiated once, in TopSchemesReal.cpp (double) and TopSchemesComplex.cpp (complex step):
// every other translation unit calls them (the instantiations cost ~50 s of compile time each).
#define KIRCHHOFF_TOP_SCHEME_INSTANTIATIONS(EXTERN, T)                                          \
  EXTERN template NewtonResult schemeStep<T>(TopScheme, const HeavyTopParameters&,               \
                                             Eigen::Matrix<T, Eigen::Dynamic, 1>&, double,        \
                                             const NewtonOptions&, int, int*, int);               \
  EXTERN template NewtonResult schemeIncrement<T>(                                               \
      TopScheme, const HeavyTopParameters&, const Eigen::Matrix<T, Eigen::Dynamic, 1>&,          \
      Eigen::Matrix<T, Eigen::Dynamic, 1>&, double, const NewtonOptions&, int, int*, int);       \
  EXTERN template NewtonResult methodStep<T>(const TopMethod&, const HeavyTopParameters&,        \
                                             Eigen::Matrix<T, Eigen::Dynamic, 1>&, double,        \
                                             const NewtonOptions&, int, int*);
KIRCHHOFF_TOP_SCHEME_INSTANTIATIONS(extern, double)
KIRCHHOFF_TOP_SCHEME_INSTANTIATIONS(extern, std::complex<double>)

/// The run-time interface over the schemes and their compositions: a fixed time step, a state
/// vector of dimension() unknowns, and its image (Pi, Gamma).
class TopStepper {
 public:
  TopStepper(TopScheme scheme, const HeavyTopParameters& par, double dt, const NewtonOptions& opt)
      : TopStepper(TopMethod{scheme, 2, Composition::None}, par, dt, opt) {}
  /// Throws ConfigurationError for an invalid method (checkMethod).
  TopStepper(const TopMethod& method, const HeavyTopParameters& par, double dt,
             const NewtonOptions& opt)
      : method_(method), par_(par), dt_(dt), opt_(opt) {
    checkMethod(method_);
  }
  TopScheme scheme() const { return method_.scheme; }
  const TopMethod& method() const { return method_; }
  std::string name() const { return methodName(method_); }
  bool collective() const { return isCollective(method_.scheme); }
  int dimension() const { return collective() ? 8 : 6; }
  double timeStep() const { return dt_; }
  const HeavyTopParameters& parameters() const { return par_; }
  const NewtonOptions& newtonOptions() const { return opt_; }
  /// Advances x by one step; x is unchanged if Newton did not converge (see result.converged).
  /// *evaluations (if given) receives the number of vector-field evaluations of the step.
  NewtonResult step(Eigen::VectorXd& x, int* evaluations = nullptr) const {
    return methodStep<double>(method_, par_, x, dt_, opt_, 0, evaluations);
  }
  /// (Pi, Gamma) of a state: M(z) or the state itself.
  Vec6 heavyTopState(const Eigen::VectorXd& x) const {
    return collective() ? Vec6(collectiveMap<double>(Vec8(x))) : Vec6(x);
  }

 private:
  TopMethod method_;
  HeavyTopParameters par_;
  double dt_;
  NewtonOptions opt_;
};

}  // namespace kirchhoff::top
