// Potentials V(q) of the Rayleigh-damped systems (docs/damped.md Sec. 1, cases of Modin & Söderlind 2011):
// planar pendulum, elastic 3D pendulum, harmonic chain, and a quadratic form for linearizations.
#pragma once

#include <memory>
#include <string>

#include <Eigen/Dense>

namespace kirchhoff::damped {

using Eigen::MatrixXd;
using Eigen::VectorXd;

/// V(q) on R^n with its gradient and Hessian.
class Potential {
 public:
  virtual ~Potential() = default;
  virtual std::string name() const = 0;
  virtual int dim() const = 0;
  virtual double value(const VectorXd& q) const = 0;
  virtual VectorXd gradient(const VectorXd& q) const = 0;
  virtual MatrixXd hessian(const VectorXd& q) const = 0;
  /// A symmetric K with Hess V(q) <= K for every q (Loewner order): the stiffest linearization,
  /// used for the explicit schemes' step-size bound h * omega_max.
  virtual MatrixXd stiffnessBound() const = 0;
};

/// Planar pendulum V = k (1 - cos q), n = 1 (docs: k = 1).  Hess V = k cos q <= k.
class PendulumPotential final : public Potential {
 public:
  explicit PendulumPotential(double k = 1.0) : k_(k) {}
  std::string name() const override { return "pendulum"; }
  int dim() const override { return 1; }
  double value(const VectorXd& q) const override;
  VectorXd gradient(const VectorXd& q) const override;
  MatrixXd hessian(const VectorXd& q) const override;
  MatrixXd stiffnessBound() const override { return MatrixXd::Constant(1, 1, k_); }

 private:
  double k_;
};

/// Elastic 3D pendulum (z up): V = k (|q| - l0)^2 / 2 + m g q3.
/// Hess V = k u u^T + k (1 - l0/|q|) (I - u u^T), u = q/|q|, so Hess V <= k I.
class ElasticPendulumPotential final : public Potential {
 public:
  ElasticPendulumPotential(double k, double l0, double m, double g) : k_(k), l0_(l0), m_(m), g_(g) {}
  std::string name() const override { return "elastic_pendulum"; }
  int dim() const override { return 3; }
  double value(const VectorXd& q) const override;
  VectorXd gradient(const VectorXd& q) const override;
  MatrixXd hessian(const VectorXd& q) const override;
  MatrixXd stiffnessBound() const override { return k_ * MatrixXd::Identity(3, 3); }
  double k() const { return k_; }
  double l0() const { return l0_; }
  double m() const { return m_; }
  double g() const { return g_; }

 private:
  double k_, l0_, m_, g_;
};

/// Harmonic chain of n masses between two walls: V = k/2 sum_{i=0}^{n} (q_{i+1} - q_i)^2 with
/// q_0 = q_{n+1} = 0. V = q^T K q / 2, K = k tridiag(-1, 2, -1); for masses m the frequencies are
/// omega_j = 2 sqrt(k/m) sin(j pi / (2 (n + 1))), j = 1..n.
class HarmonicChainPotential final : public Potential {
 public:
  HarmonicChainPotential(int n, double k);
  std::string name() const override { return "harmonic_chain"; }
  int dim() const override { return n_; }
  double value(const VectorXd& q) const override { return 0.5 * q.dot(K_ * q); }
  VectorXd gradient(const VectorXd& q) const override { return K_ * q; }
  MatrixXd hessian(const VectorXd&) const override { return K_; }
  MatrixXd stiffnessBound() const override { return K_; }

 private:
  int n_;
  MatrixXd K_;
};

/// V = q^T K q / 2 (K symmetric): the linearization used by the stability estimate.
class QuadraticPotential final : public Potential {
 public:
  explicit QuadraticPotential(MatrixXd K) : K_(std::move(K)) {}
  std::string name() const override { return "quadratic"; }
  int dim() const override { return static_cast<int>(K_.rows()); }
  double value(const VectorXd& q) const override { return 0.5 * q.dot(K_ * q); }
  VectorXd gradient(const VectorXd& q) const override { return K_ * q; }
  MatrixXd hessian(const VectorXd&) const override { return K_; }
  MatrixXd stiffnessBound() const override { return K_; }

 private:
  MatrixXd K_;
};

}  // namespace kirchhoff::damped
