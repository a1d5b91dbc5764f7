// Rayleigh dissipation tensors D(q) (docs/damped.md Sec. 1): constructors check symmetry and
// positive semi-definiteness, the radial tensor c u u^T is evaluated at q.
#include "models/damped/Dissipation.hpp"

#include <cmath>
#include <sstream>

#include "core/Error.hpp"

namespace kirchhoff::damped {

ConstantDissipation::ConstantDissipation(MatrixXd D0) : D0_(std::move(D0)) {
  if (D0_.rows() != D0_.cols())
    throw ConfigurationError("constant dissipation: D must be square");
  const double scale = 1.0 + D0_.cwiseAbs().maxCoeff();
  if ((D0_ - D0_.transpose()).cwiseAbs().maxCoeff() > 1e-14 * scale)
    throw ConfigurationError("constant dissipation: D must be symmetric");
  const double lmin = Eigen::SelfAdjointEigenSolver<MatrixXd>(D0_).eigenvalues().minCoeff();
  if (lmin < -1e-14 * scale) {
    std::ostringstream os;
    os << "constant dissipation: D must be positive semi-definite (smallest eigenvalue " << lmin
       << ")";
    throw ConfigurationError(os.str());
  }
}

DiagonalDissipation::DiagonalDissipation(VectorXd d) : d_(std::move(d)) {
  if ((d_.array() < 0.0).any())
    throw ConfigurationError("diagonal dissipation: every entry must be >= 0");
}

RadialDissipation::RadialDissipation(double c) : c_(c) {
  if (!(c_ >= 0.0)) throw ConfigurationError("radial dissipation: c must be >= 0");
}

namespace {
VectorXd radialDirection(const VectorXd& q) {
  const double r = q.norm();
  if (!(r > 0.0)) throw NumericalError("radial dissipation: u = q/|q| undefined at q = 0");
  return q / r;
}
}  // namespace

MatrixXd RadialDissipation::matrix(const VectorXd& q) const {
  const VectorXd u = radialDirection(q);
  return c_ * u * u.transpose();
}

bool RadialDissipation::rankOne(const VectorXd& q, VectorXd& w) const {
  w = std::sqrt(c_) * radialDirection(q);
  return true;
}

}  // namespace kirchhoff::damped
