// Potentials V(q) of the Rayleigh-damped systems (docs/damped.md Sec. 1): values, gradients and
// Hessians of the pendulum, the elastic 3D pendulum and the harmonic chain.
#include "models/damped/Potential.hpp"

#include <cmath>

#include "core/Error.hpp"

namespace kirchhoff::damped {

double PendulumPotential::value(const VectorXd& q) const { return k_ * (1.0 - std::cos(q(0))); }

VectorXd PendulumPotential::gradient(const VectorXd& q) const {
  return VectorXd::Constant(1, k_ * std::sin(q(0)));
}

MatrixXd PendulumPotential::hessian(const VectorXd& q) const {
  return MatrixXd::Constant(1, 1, k_ * std::cos(q(0)));
}

namespace {
// |q| of the elastic pendulum; the potential is not differentiable at the pivot.
double radius(const VectorXd& q) {
  const double r = q.norm();
  if (!(r > 0.0)) throw NumericalError("elastic pendulum: the bob reached the pivot (|q| = 0)");
  return r;
}
}  // namespace

double ElasticPendulumPotential::value(const VectorXd& q) const {
  const double s = q.norm() - l0_;
  return 0.5 * k_ * s * s + m_ * g_ * q(2);
}

VectorXd ElasticPendulumPotential::gradient(const VectorXd& q) const {
  const double r = radius(q);
  VectorXd g = (k_ * (r - l0_) / r) * q;
  g(2) += m_ * g_;
  return g;
}

MatrixXd ElasticPendulumPotential::hessian(const VectorXd& q) const {
  const double r = radius(q);
  const VectorXd u = q / r;
  const MatrixXd uu = u * u.transpose();
  return k_ * uu + k_ * (1.0 - l0_ / r) * (MatrixXd::Identity(3, 3) - uu);
}

HarmonicChainPotential::HarmonicChainPotential(int n, double k) : n_(n), K_(MatrixXd::Zero(n, n)) {
  for (int i = 0; i < n; ++i) {
    K_(i, i) = 2.0 * k;
    if (i + 1 < n) K_(i, i + 1) = K_(i + 1, i) = -k;
  }
}

}  // namespace kirchhoff::damped
