// A Hamiltonian system with weak Rayleigh damping (Modin & Söderlind 2011, eq. (1); docs/damped.md (DA-1)):
//   dq/dt = M^-1 p,  dp/dt = -grad V(q) - eps D(q) M^-1 p,  H = p^T M^-1 p / 2 + V,  dH/dt = -eps <D p#, p#>.
#pragma once

#include <memory>
#include <vector>

#include <Eigen/Dense>

#include "models/damped/Dissipation.hpp"
#include "models/damped/Potential.hpp"

namespace kirchhoff::damped {

/// Modal form of the damping at q: with S = M^-1/2, A = eps D M^-1 = S^-1 B S where
/// B = eps S D S = Q diag(lambda) Q^T is symmetric PSD. So exp(-tA) = S^-1 Q exp(-t lambda) Q^T S.
/// For D = w w^T (radial damping) B = lambda1 v v^T with v = S w / |S w|, lambda1 = eps |S w|^2,
/// and every function of B is f(0) I + (f(lambda1) - f(0)) v v^T (no eigensolver).
struct DampingModes {
  MatrixXd Q;
  VectorXd lambda;
  bool rankOne = false;
  VectorXd v;
  double lambda1 = 0.0;
};

/// For constant D: the matrices of the sub-flows over time t, exp(-tA) and t phi1(-tA).
struct ConstantFlow {
  double t = 0.0;
  MatrixXd E;  ///< exp(-t A)
  MatrixXd F;  ///< t phi1(-t A)
};

class RayleighSystem {
 public:
  /// M constant symmetric positive definite (Cartesian coordinates), eps >= 0.
  RayleighSystem(MatrixXd M, double eps, std::shared_ptr<const Potential> V,
                 std::shared_ptr<const Dissipation> D);

  int dim() const { return static_cast<int>(M_.rows()); }
  double eps() const { return eps_; }
  const MatrixXd& mass() const { return M_; }
  const MatrixXd& massInverse() const { return Minv_; }
  const MatrixXd& massInvSqrt() const { return S_; }   ///< S = M^-1/2
  const MatrixXd& massSqrt() const { return Sinv_; }   ///< S^-1 = M^1/2
  const Potential& potential() const { return *V_; }
  const Dissipation& dissipation() const { return *D_; }

  VectorXd velocity(const VectorXd& p) const { return Minv_ * p; }  ///< p# = M^-1 p
  double kinetic(const VectorXd& p) const { return 0.5 * p.dot(Minv_ * p); }
  double hamiltonian(const VectorXd& q, const VectorXd& p) const { return kinetic(p) + V_->value(q); }
  /// eps <D p#, p#> = -dH/dt >= 0.
  double dissipationRate(const VectorXd& q, const VectorXd& p) const;
  /// A = eps D(q) M^-1, the matrix of the linear damping sub-flow p' = -A p.
  MatrixXd dampingMatrix(const VectorXd& q) const;
  /// Eigen-decomposition of B = eps S D(q) S (cached when D is constant).
  DampingModes modes(const VectorXd& q) const;
  /// The modes at q without a copy when D is constant (`scratch` holds them otherwise).
  const DampingModes& modes(const VectorXd& q, DampingModes& scratch) const;

  /// Constant D only: exp(-tA) and t phi1(-tA), built from the modes on first use and kept for
  /// the last few t (a step uses at most three sub-step lengths). Not thread-safe (one model per rank).
  const ConstantFlow& constantFlow(double t) const;

  /// The full vector field on y = (q, p) in R^2n (for the Runge–Kutta comparisons).
  VectorXd rhs(const VectorXd& y) const;

 private:
  MatrixXd M_, Minv_, S_, Sinv_;
  double eps_;
  std::shared_ptr<const Potential> V_;
  std::shared_ptr<const Dissipation> D_;
  DampingModes constantModes_;
  mutable std::vector<ConstantFlow> flowCache_;
};

}  // namespace kirchhoff::damped
