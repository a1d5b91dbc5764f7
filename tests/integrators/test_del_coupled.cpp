// The coupled chord iteration of the DEL solve (-del_jacobian coupled, docs/fluidbody.md (FB-92)) on a particle in
// a quartic potential whose approximate Jacobian is off by a chosen factor: a good one converges in a few residual
// evaluations to the Newton solution, a poor one hands the step over to GMRES and converges to it all the same.
#include <gtest/gtest.h>
#include <petscsys.h>

#include <cmath>

#include "core/Error.hpp"
#include "integrators/DelSolver.hpp"

using namespace kirchhoff;
using namespace kirchhoff::integrators;

namespace {

/// L_d = h ( |q1 - q0|^2 / (2 h^2) - V((q0 + q1) / 2) ), V(q) = sum_i (q_i^4 / 4 + c_i q_i q_i+1): D1 L_d =
/// -(q1 - q0) / h - (h / 2) grad V, whose q1-Jacobian is -I / h - (h / 4) Hess V. solveApproximateJacobian solves
/// with Jt = -(1 + error) I / h, so the chord contracts by ~error / (1 + error).
class QuarticParticle : public DiscreteLagrangian {
 public:
  QuarticParticle(int dim, double h, double error, bool coupled) : dim_(dim), h_(h), error_(error), coupled_(coupled) {}
  int dimension() const override { return dim_; }
  double value(const Eigen::VectorXd& q0, const Eigen::VectorXd& q1) override {
    return (q1 - q0).squaredNorm() / (2 * h_) - h_ * potential(0.5 * (q0 + q1));
  }
  void slotDerivatives(const Eigen::VectorXd& q0, const Eigen::VectorXd& q1, Eigen::VectorXd* d1,
                       Eigen::VectorXd* d2) override {
    const Eigen::VectorXd g = gradient(0.5 * (q0 + q1));
    if (d1) *d1 = -(q1 - q0) / h_ - 0.5 * h_ * g;
    if (d2) *d2 = (q1 - q0) / h_ - 0.5 * h_ * g;
  }
  Eigen::VectorXd solveApproximateJacobian(const Eigen::VectorXd&, const Eigen::VectorXd&, const Eigen::VectorXd& r,
                                           double rtol) override {
    EXPECT_GT(rtol, 0.0);
    if (!coupled_) return {};
    ++solves;
    return -h_ * r / (1.0 + error_);
  }
  int solves = 0;

 private:
  double potential(const Eigen::VectorXd& q) const {
    double V = 0.0;
    for (int i = 0; i < dim_; ++i) V += 0.25 * std::pow(q[i], 4) + (i + 1 < dim_ ? 0.3 * q[i] * q[i + 1] : 0.0);
    return V;
  }
  Eigen::VectorXd gradient(const Eigen::VectorXd& q) const {
    Eigen::VectorXd g(dim_);
    for (int i = 0; i < dim_; ++i)
      g[i] = std::pow(q[i], 3) + (i + 1 < dim_ ? 0.3 * q[i + 1] : 0.0) + (i > 0 ? 0.3 * q[i - 1] : 0.0);
    return g;
  }
  int dim_;
  double h_, error_;
  bool coupled_;
};

struct Step {
  DelResult r;
  Eigen::VectorXd q1;
  int solves = 0;
};

/// One step from q0 = (1, ..., 1) / 2 with momentum p0 and the extrapolated predictor of a constant velocity.
Step step(JacobianMode mode, double error, bool coupled = true) {
  const int dim = 6;
  const double h = 0.05;
  QuarticParticle ld(dim, h, error, coupled);
  DelSolver solver(PETSC_COMM_WORLD, ld, "coupled_test_", mode);
  const Eigen::VectorXd q0 = Eigen::VectorXd::LinSpaced(dim, 0.2, 0.9), p0 = Eigen::VectorXd::LinSpaced(dim, 1.0, -0.5);
  Step s;
  s.q1 = q0 + h * p0;
  Eigen::VectorXd p1;
  s.r = solver.step(q0, p0, s.q1, p1);
  s.solves = ld.solves;
  return s;
}

}  // namespace

TEST(DelCoupled, GoodApproximateJacobianConvergesInAFewEvaluations) {
  // error 1e-3: |F| falls by ~1e-3 per chord iteration from ~|h grad V| ~ 1e-2, so four iterations reach the
  // floor; the solution is fd Newton's to 1e-14, one coupled solve per iteration, no hand-over.
  const Step fd = step(JacobianMode::Fd, 0.0), c = step(JacobianMode::Coupled, 1e-3);
  std::printf("coupled chord: %d evaluations, %d iterations, |F| = %.2e; fd Newton: %d evaluations\n",
              c.r.functionEvaluations, c.r.iterations, c.r.residualNorm, fd.r.functionEvaluations);
  EXPECT_TRUE(c.r.converged) << c.r.reason;
  EXPECT_FALSE(c.r.handedOver);
  EXPECT_LE(c.r.functionEvaluations, 6);
  EXPECT_EQ(c.solves, c.r.iterations);
  EXPECT_LT((c.q1 - fd.q1).cwiseAbs().maxCoeff(), 1e-14);
}

TEST(DelCoupled, SlowChordHandsOverToGmres) {
  // error 1: the chord contracts by ~1/2 > kChordRate, so after its first iteration the step goes on as GMRES on the
  // matrix-free Jacobian with the same solve as preconditioner (exact up to the factor 2: one product per solve).
  const Step fd = step(JacobianMode::Fd, 0.0), c = step(JacobianMode::Coupled, 1.0);
  std::printf("slow chord: %d evaluations, %d iterations, handed over %d, |q - q_fd| = %.2e\n",
              c.r.functionEvaluations, c.r.iterations, c.r.handedOver ? 1 : 0,
              (c.q1 - fd.q1).cwiseAbs().maxCoeff());
  EXPECT_TRUE(c.r.converged) << c.r.reason;
  EXPECT_TRUE(c.r.handedOver);
  EXPECT_LT(c.r.iterations, 8);
  EXPECT_LT((c.q1 - fd.q1).cwiseAbs().maxCoeff(), 1e-13);
}

TEST(DelCoupled, LagrangianWithoutCoupledJacobianIsANamedError) {
  try {
    step(JacobianMode::Coupled, 0.0, false);
    ADD_FAILURE() << "no error";
  } catch (const NumericalError& e) {
    EXPECT_NE(std::string(e.what()).find("no coupled Jacobian"), std::string::npos) << e.what();
  }
}
