// Splitting schemes Phi_2S, Phi_3S, Phi_RKS (docs/damped.md (DA-7)-(DA-9)) built from the exact
// sub-flows of RayleighFlows, in either ordering, and their compositions (docs/composition.md (CM-1)).
#include "models/damped/RayleighSplitting.hpp"

#include "core/Error.hpp"
#include "models/damped/RayleighFlows.hpp"

namespace kirchhoff::damped {

namespace {

// One RK step of p' = -g - A p with q frozen (Alg. 3.3).
void rksPStep(const RayleighSystem& sys, RksMethod rk, const VectorXd& q, VectorXd& p, double h) {
  const VectorXd g = sys.potential().gradient(q);
  if (sys.eps() == 0.0) {  // p' = -g is constant: every consistent RK step is exact
    p -= h * g;
    return;
  }
  const MatrixXd A = sys.dampingMatrix(q);
  switch (rk) {
    case RksMethod::Heun: {
      const VectorXd k1 = -g - A * p;
      const VectorXd k2 = -g - A * (p + h * k1);
      p += 0.5 * h * (k1 + k2);
      return;
    }
    case RksMethod::ExplicitMidpoint: {
      const VectorXd k1 = -g - A * p;
      p += h * (-g - A * (p + 0.5 * h * k1));
      return;
    }
    case RksMethod::ImplicitMidpoint: {
      const MatrixXd I = MatrixXd::Identity(A.rows(), A.cols());
      p = (I + 0.5 * h * A).partialPivLu().solve(VectorXd((I - 0.5 * h * A) * p - h * g));
      return;
    }
  }
}

void baseStep(const RayleighSystem& sys, const SplittingScheme& s, VectorXd& q, VectorXd& p,
              double h) {
  const bool dkd = s.ordering == Ordering::DriftKickDrift;
  switch (s.method) {
    case Splitting::Phi2S:
      if (dkd) {
        driftT(sys, q, p, 0.5 * h);
        kickDampVY(sys, q, p, h);
        driftT(sys, q, p, 0.5 * h);
      } else {
        kickDampVY(sys, q, p, 0.5 * h);
        driftT(sys, q, p, h);
        kickDampVY(sys, q, p, 0.5 * h);
      }
      return;
    case Splitting::Phi3S:
      if (dkd) {
        driftT(sys, q, p, 0.5 * h);
        kickV(sys, q, p, 0.5 * h);
        dampY(sys, q, p, h);
        kickV(sys, q, p, 0.5 * h);
        driftT(sys, q, p, 0.5 * h);
      } else {
        kickV(sys, q, p, 0.5 * h);
        dampY(sys, q, p, 0.5 * h);
        driftT(sys, q, p, h);
        dampY(sys, q, p, 0.5 * h);
        kickV(sys, q, p, 0.5 * h);
      }
      return;
    case Splitting::PhiRKS:
      if (dkd) {
        driftT(sys, q, p, 0.5 * h);
        rksPStep(sys, s.rk, q, p, h);
        driftT(sys, q, p, 0.5 * h);
      } else {
        rksPStep(sys, s.rk, q, p, 0.5 * h);
        driftT(sys, q, p, h);
        rksPStep(sys, s.rk, q, p, 0.5 * h);
      }
      return;
  }
}

}  // namespace

bool isSymmetric(const SplittingScheme& s) {
  return s.method != Splitting::PhiRKS || s.rk == RksMethod::ImplicitMidpoint;
}

int order(const SplittingScheme& s) {
  if (s.composition == Composition::None) return 2;
  // Every composition has sum gamma_i^3 = 0, which lifts any base to order 3 (HLW Thm II.4.1);
  // the higher orders need a symmetric base (CM-3).
  return isSymmetric(s) ? integrators::compositionOrder(s.composition) : 3;
}

const Choices<Ordering>& orderings() {
  static const Choices<Ordering> c("ordering", {{"dkd", Ordering::DriftKickDrift}, {"kdk", Ordering::KickDriftKick}});
  return c;
}

const Choices<RksMethod>& rksMethods() {
  static const Choices<RksMethod> c("RK step", {{"heun", RksMethod::Heun},
                                                {"explicit_midpoint", RksMethod::ExplicitMidpoint},
                                                {"implicit_midpoint", RksMethod::ImplicitMidpoint}});
  return c;
}

std::string describe(const SplittingScheme& s) {
  std::string d = s.method == Splitting::Phi2S   ? "Phi_2S"
                  : s.method == Splitting::Phi3S ? "Phi_3S"
                                                 : "Phi_RKS";
  if (s.method == Splitting::PhiRKS)
    d += s.rk == RksMethod::Heun               ? "(heun)"
         : s.rk == RksMethod::ExplicitMidpoint ? "(explicit_midpoint)"
                                               : "(implicit_midpoint)";
  d += s.ordering == Ordering::DriftKickDrift ? " dkd" : " kdk";
  if (s.composition != Composition::None) d += " " + integrators::compositionName(s.composition);
  return d;
}

void splittingStep(const RayleighSystem& sys, const SplittingScheme& s, VectorXd& q, VectorXd& p,
                   double h) {
  if (s.composition == Composition::None) {
    baseStep(sys, s, q, p, h);
    return;
  }
  integrators::compose(s.composition, h, [&](double hi) {
    baseStep(sys, s, q, p, hi);
    return true;
  });
}

}  // namespace kirchhoff::damped
