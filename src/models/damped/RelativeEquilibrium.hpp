// The conical-pendulum relative equilibrium of the damped elastic 3D pendulum (docs/damped.md
// Sec. 1): r* = k l0 / (k - m W^2), cos(theta*) = g / (W^2 r*); radial damping vanishes there.
#pragma once

#include <Eigen/Dense>

namespace kirchhoff::damped {

struct RelativeEquilibrium {
  double W = 0.0;       ///< rotation rate about e3
  double rStar = 0.0;   ///< spring length |q*|
  double theta = 0.0;   ///< angle from the downward vertical
  Eigen::Vector3d q;    ///< (r* sin th, 0, -r* cos th)
  Eigen::Vector3d p;    ///< m (0, W r* sin th, 0)
  double J3 = 0.0;      ///< q1 p2 - q2 p1 = m W (r* sin th)^2
};

/// Throws ConfigurationError when no such equilibrium exists (k <= m W^2 or g > W^2 r*).
RelativeEquilibrium conicalPendulum(double k, double l0, double m, double g, double W);

/// J3 = q1 p2 - q2 p1, the momentum map of rotations about e3.
inline double angularMomentumJ3(const Eigen::VectorXd& q, const Eigen::VectorXd& p) {
  return q(0) * p(1) - q(1) * p(0);
}

}  // namespace kirchhoff::damped
