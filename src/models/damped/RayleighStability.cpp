// Linear stability of a step size (an unstable dt must be refused, not run): the one-step map of any method applied to
// the linear model q' = M^-1 p, p' = -K q - eps D0 M^-1 p, its spectral radius, and h*omega bounds.
#include "models/damped/RayleighStability.hpp"

#include <cmath>
#include <iomanip>
#include <limits>
#include <memory>
#include <sstream>

namespace kirchhoff::damped {

std::string StabilityEstimate::text() const {
  std::ostringstream os;
  os << std::setprecision(4) << "h*omega_max = " << hOmega << " (omega_max = " << omegaMax << ")";
  if (adaptive) {
    os << ", adaptive method: no step-size bound";
    return os.str();
  }
  if (bound < 2e-3) {
    os << ", no stability interval on undamped modes (stable only through damping)";
  } else {
    os << ", undamped stability bound h*omega < " << bound;
    if (omegaMax > 0.0) os << " (h < " << bound / omegaMax << ")";
  }
  os << ", spectral radius of the linearized step " << std::setprecision(10) << rho
     << ", growth over the run " << std::setprecision(4) << growth;
  return os.str();
}

double stepMapSpectralRadius(const RayleighSystem& linear, const RayleighMethod& m, double h) {
  const int n = linear.dim();
  MatrixXd Phi(2 * n, 2 * n);
  for (int j = 0; j < 2 * n; ++j) {
    VectorXd q = VectorXd::Zero(n), p = VectorXd::Zero(n);
    if (j < n) q(j) = 1.0; else p(j - n) = 1.0;
    rayleighStep(linear, m, q, p, 0.0, h);
    Phi.col(j) << q, p;
  }
  return Eigen::EigenSolver<MatrixXd>(Phi, false).eigenvalues().cwiseAbs().maxCoeff();
}

double undampedStabilityBound(const RayleighMethod& m) {
  if (m.kind == RayleighMethod::Kind::Dop853) return std::numeric_limits<double>::infinity();
  const RayleighSystem osc(MatrixXd::Identity(1, 1), 0.0,
                           std::make_shared<QuadraticPotential>(MatrixXd::Identity(1, 1)),
                           std::make_shared<ConstantDissipation>(MatrixXd::Zero(1, 1)));
  const double dx = 1e-3;
  for (int i = 1; i <= 8000; ++i)
    if (stepMapSpectralRadius(osc, m, i * dx) > 1.0 + 1e-12) return (i - 1) * dx;
  return 8.0;
}

StabilityEstimate estimateStability(const RayleighSystem& sys, const VectorXd& q0,
                                    const RayleighMethod& m, double h, long steps) {
  StabilityEstimate e;
  const MatrixXd K = sys.potential().stiffnessBound();
  const MatrixXd KS = sys.massInvSqrt() * K * sys.massInvSqrt();
  const double w2 = Eigen::SelfAdjointEigenSolver<MatrixXd>(0.5 * (KS + KS.transpose()))
                        .eigenvalues()
                        .maxCoeff();
  e.omegaMax = std::sqrt(std::max(w2, 0.0));
  e.hOmega = h * e.omegaMax;
  if (m.kind == RayleighMethod::Kind::Dop853) {
    e.adaptive = true;
    e.bound = std::numeric_limits<double>::infinity();
    return e;
  }
  e.bound = undampedStabilityBound(m);
  const RayleighSystem linear(sys.mass(), sys.eps(), std::make_shared<QuadraticPotential>(K),
                              std::make_shared<ConstantDissipation>(sys.dissipation().matrix(q0)));
  e.rho = stepMapSpectralRadius(linear, m, h);
  e.growth = std::pow(e.rho, static_cast<double>(steps));
  return e;
}

}  // namespace kirchhoff::damped
