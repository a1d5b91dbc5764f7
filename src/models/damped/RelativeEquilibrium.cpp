// The conical-pendulum relative equilibrium of the elastic 3D pendulum (docs/damped.md Sec. 1):
// radial balance k (r - l0) = m W^2 r, vertical balance k (r - l0) cos th = m g.
#include "models/damped/RelativeEquilibrium.hpp"

#include <cmath>
#include <sstream>

#include "core/Error.hpp"

namespace kirchhoff::damped {

RelativeEquilibrium conicalPendulum(double k, double l0, double m, double g, double W) {
  if (!(k > m * W * W)) {
    std::ostringstream os;
    os << "elastic pendulum: no relative equilibrium at W = " << W << " (needs k > m W^2 = "
       << m * W * W << ")";
    throw ConfigurationError(os.str());
  }
  RelativeEquilibrium e;
  e.W = W;
  e.rStar = k * l0 / (k - m * W * W);
  const double c = g / (W * W * e.rStar);
  if (!(c >= 0.0 && c < 1.0)) {
    std::ostringstream os;
    os << "elastic pendulum: no conical relative equilibrium at W = " << W
       << " (cos theta* = g / (W^2 r*) = " << c << " must be in [0, 1))";
    throw ConfigurationError(os.str());
  }
  e.theta = std::acos(c);
  const double rho = e.rStar * std::sin(e.theta);
  e.q = Eigen::Vector3d(rho, 0.0, -e.rStar * c);
  e.p = Eigen::Vector3d(0.0, m * W * rho, 0.0);
  e.J3 = m * W * rho * rho;
  return e;
}

}  // namespace kirchhoff::damped
