// The Rayleigh-damped Hamiltonian system (docs/damped.md (DA-1), (DA-2)): mass-matrix
// square roots, the damping matrix and its modal decomposition, energy rate and vector field.
#include "models/damped/RayleighSystem.hpp"

#include <cmath>
#include <sstream>

#include "core/Error.hpp"

namespace kirchhoff::damped {

RayleighSystem::RayleighSystem(MatrixXd M, double eps, std::shared_ptr<const Potential> V,
                               std::shared_ptr<const Dissipation> D)
    : M_(std::move(M)), eps_(eps), V_(std::move(V)), D_(std::move(D)) {
  if (!V_ || !D_) throw ConfigurationError("Rayleigh system: potential and dissipation required");
  const int n = V_->dim();
  if (M_.rows() != n || M_.cols() != n) {
    std::ostringstream os;
    os << "Rayleigh system: mass matrix is " << M_.rows() << "x" << M_.cols() << ", potential '"
       << V_->name() << "' needs " << n << "x" << n;
    throw ConfigurationError(os.str());
  }
  if (!(eps_ >= 0.0)) throw ConfigurationError("Rayleigh system: eps must be >= 0");
  Eigen::SelfAdjointEigenSolver<MatrixXd> es(M_);
  if (es.info() != Eigen::Success || !(es.eigenvalues().minCoeff() > 0.0))
    throw ConfigurationError("Rayleigh system: mass matrix must be symmetric positive definite");
  Minv_ = es.operatorInverseSqrt() * es.operatorInverseSqrt();
  S_ = es.operatorInverseSqrt();
  Sinv_ = es.operatorSqrt();
  if (D_->constant()) constantModes_ = modes(VectorXd::Zero(n));
}

double RayleighSystem::dissipationRate(const VectorXd& q, const VectorXd& p) const {
  if (eps_ == 0.0) return 0.0;
  const VectorXd v = velocity(p);
  return eps_ * v.dot(D_->matrix(q) * v);
}

MatrixXd RayleighSystem::dampingMatrix(const VectorXd& q) const {
  return eps_ * D_->matrix(q) * Minv_;
}

DampingModes RayleighSystem::modes(const VectorXd& q) const {
  if (D_->constant() && constantModes_.Q.size() > 0) return constantModes_;
  VectorXd w;
  if (D_->rankOne(q, w)) {
    DampingModes m;
    m.rankOne = true;
    const VectorXd sw = S_ * w;
    const double n2 = sw.squaredNorm();
    m.lambda1 = eps_ * n2;
    m.v = n2 > 0.0 ? VectorXd(sw / std::sqrt(n2)) : VectorXd(VectorXd::Zero(sw.size()));
    return m;
  }
  const MatrixXd B = eps_ * S_ * D_->matrix(q) * S_;
  Eigen::SelfAdjointEigenSolver<MatrixXd> es(0.5 * (B + B.transpose()));
  if (es.info() != Eigen::Success) throw NumericalError("Rayleigh system: damping eigensolver failed");
  // B is PSD: clip round-off negatives so exp(-t lambda) never grows.
  DampingModes m;
  m.Q = es.eigenvectors();
  m.lambda = es.eigenvalues().cwiseMax(0.0);
  return m;
}

const DampingModes& RayleighSystem::modes(const VectorXd& q, DampingModes& scratch) const {
  if (D_->constant()) return constantModes_;
  scratch = modes(q);
  return scratch;
}

const ConstantFlow& RayleighSystem::constantFlow(double t) const {
  for (const ConstantFlow& c : flowCache_)
    if (c.t == t) return c;
  if (!D_->constant()) throw NumericalError("Rayleigh system: constantFlow needs a constant D");
  const DampingModes& m = constantModes_;
  VectorXd e(m.lambda.size()), f(m.lambda.size());
  for (Eigen::Index i = 0; i < e.size(); ++i) {
    const double z = -t * m.lambda(i);
    e(i) = std::exp(z);
    f(i) = z == 0.0 ? t : -std::expm1(z) / m.lambda(i);  // t phi1(z)
  }
  ConstantFlow c;
  c.t = t;
  c.E = Sinv_ * m.Q * e.asDiagonal() * m.Q.transpose() * S_;
  c.F = Sinv_ * m.Q * f.asDiagonal() * m.Q.transpose() * S_;
  if (flowCache_.size() >= 4) flowCache_.erase(flowCache_.begin());
  flowCache_.push_back(std::move(c));
  return flowCache_.back();
}

VectorXd RayleighSystem::rhs(const VectorXd& y) const {
  const int n = dim();
  const VectorXd q = y.head(n), p = y.tail(n);
  const VectorXd v = velocity(p);
  VectorXd d(2 * n);
  d.head(n) = v;
  d.tail(n) = -V_->gradient(q);
  if (eps_ != 0.0) d.tail(n) -= eps_ * (D_->matrix(q) * v);
  return d;
}

}  // namespace kirchhoff::damped
