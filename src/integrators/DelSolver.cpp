// PETSc SNES for the position–momentum DEL equations: residual from the discrete Lagrangian,
// finite-difference, approximate or lagged-corrected Jacobian, redundant LU for the small systems.
#include "integrators/DelSolver.hpp"

#include <cmath>
#include <cstring>
#include <limits>

#include "core/Error.hpp"

namespace kirchhoff::integrators {

namespace {
void checkPetsc(PetscErrorCode ierr, const std::string& what) {
  if (ierr) throw NumericalError("PETSc error " + std::to_string(static_cast<int>(ierr)) + " in " + what);
}
}  // namespace

DelSolver::DelSolver(MPI_Comm comm, DiscreteLagrangian& ld, const std::string& prefix,
                     JacobianMode defaultMode)
    : comm_(comm), ld_(ld), prefix_(prefix), n_(ld.dimension()) {
  checkPetsc(setUp(defaultMode), "DelSolver set-up");
}

PetscErrorCode DelSolver::setUp(JacobianMode defaultMode) {
  PetscFunctionBeginUser;
  int size = 1;
  MPI_Comm_size(comm_, &size);
  PetscCall(VecCreateMPI(comm_, PETSC_DECIDE, n_, &x_));
  PetscCall(VecDuplicate(x_, &f_));
  PetscCall(VecScatterCreateToAll(x_, &toAll_, &all_));
  PetscCall(MatCreateDense(comm_, PETSC_DECIDE, PETSC_DECIDE, n_, n_, nullptr, &J_));
  PetscCall(MatSetUp(J_));
  PetscCall(SNESCreate(comm_, &snes_));
  PetscCall(SNESSetOptionsPrefix(snes_, prefix_.c_str()));
  PetscCall(SNESSetFunction(snes_, f_, residual, this));
  const char* names[] = {"fd", "approximate", "lagged"};
  char jac[64];
  std::strcpy(jac, names[static_cast<int>(defaultMode)]);
  PetscBool set = PETSC_FALSE;
  PetscCall(PetscOptionsGetString(nullptr, prefix_.c_str(), "-jacobian", jac, sizeof jac, &set));
  if (std::strcmp(jac, "fd") == 0) mode_ = JacobianMode::Fd;
  else if (std::strcmp(jac, "approximate") == 0) mode_ = JacobianMode::Approximate;
  else if (std::strcmp(jac, "lagged") == 0) mode_ = JacobianMode::Lagged;
  else
    SETERRQ(comm_, PETSC_ERR_ARG_UNKNOWN_TYPE, "-%sjacobian must be fd, approximate or lagged, got %s",
            prefix_.c_str(), jac);
  PetscInt lag = lag_;
  PetscCall(PetscOptionsGetInt(nullptr, prefix_.c_str(), "-jacobian_lag", &lag, &set));
  PetscCheck(lag >= 1, comm_, PETSC_ERR_ARG_OUTOFRANGE, "-%sjacobian_lag must be >= 1", prefix_.c_str());
  lag_ = static_cast<int>(lag);
  if (mode_ == JacobianMode::Fd)
    PetscCall(SNESSetJacobian(snes_, J_, J_, SNESComputeJacobianDefault, this));
  else
    PetscCall(SNESSetJacobian(snes_, J_, J_, matrixJacobian, this));
  PetscCall(SNESSetTolerances(snes_, 1e-14, 0.0, 0.0, 50, 10000));
  PetscCall(SNESSetConvergenceTest(snes_, convergenceTest, this, nullptr));
  SNESLineSearch ls;
  PetscCall(SNESGetLineSearch(snes_, &ls));
  PetscCall(SNESLineSearchSetType(ls, SNESLINESEARCHBASIC));
  KSP ksp;
  PC pc;
  PetscCall(SNESGetKSP(snes_, &ksp));
  PetscCall(KSPSetType(ksp, KSPPREONLY));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, size == 1 ? PCLU : PCREDUNDANT));
  PetscCall(SNESSetFromOptions(snes_));
  PetscBool atol = PETSC_FALSE, lagJ = PETSC_FALSE;
  PetscCall(PetscOptionsHasName(nullptr, prefix_.c_str(), "-snes_atol", &atol));
  PetscCall(PetscOptionsHasName(nullptr, prefix_.c_str(), "-snes_lag_jacobian", &lagJ));
  userAtol_ = atol == PETSC_TRUE;
  userLag_ = lagJ == PETSC_TRUE;
  PetscFunctionReturn(0);
}

DelSolver::~DelSolver() {
  // Destructors must not throw; PETSc destroy errors leave nothing to recover.
  (void)SNESDestroy(&snes_);
  (void)MatDestroy(&J_);
  (void)VecScatterDestroy(&toAll_);
  (void)VecDestroy(&all_);
  (void)VecDestroy(&f_);
  (void)VecDestroy(&x_);
}

PetscErrorCode DelSolver::gather(Vec x, Eigen::VectorXd& q) {
  PetscFunctionBeginUser;
  PetscCall(VecScatterBegin(toAll_, x, all_, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterEnd(toAll_, x, all_, INSERT_VALUES, SCATTER_FORWARD));
  const PetscScalar* a;
  PetscCall(VecGetArrayRead(all_, &a));
  q = Eigen::Map<const Eigen::VectorXd>(a, n_);
  PetscCall(VecRestoreArrayRead(all_, &a));
  PetscFunctionReturn(0);
}

PetscErrorCode DelSolver::scatterOwned(const Eigen::VectorXd& v, Vec out) {
  PetscFunctionBeginUser;
  PetscInt lo, hi;
  PetscCall(VecGetOwnershipRange(out, &lo, &hi));
  PetscScalar* a;
  PetscCall(VecGetArray(out, &a));
  for (PetscInt i = lo; i < hi; ++i) a[i - lo] = v[i];
  PetscCall(VecRestoreArray(out, &a));
  PetscFunctionReturn(0);
}

PetscErrorCode DelSolver::setMatrix(const Eigen::MatrixXd& A, Mat J) {
  PetscFunctionBeginUser;
  PetscInt lo, hi;
  PetscCall(MatGetOwnershipRange(J, &lo, &hi));
  for (PetscInt i = lo; i < hi; ++i)
    for (PetscInt j = 0; j < n_; ++j) PetscCall(MatSetValue(J, i, j, A(i, j), INSERT_VALUES));
  PetscCall(MatAssemblyBegin(J, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(J, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

Eigen::VectorXd DelSolver::residualAt(const Eigen::VectorXd& q1) {
  Eigen::VectorXd d1, d2;
  ld_.slotDerivatives(*q0_, q1, &d1, &d2);
  lastQ1_ = q1;
  lastD2_ = d2;
  lastF_ = *p0_ + d1;
  ++evaluations_;
  return lastF_;
}

Eigen::MatrixXd DelSolver::finiteDifferenceJacobian(const Eigen::VectorXd& q1, const Eigen::VectorXd& F) {
  // Forward differences with steps sqrt(eps) (1 + |q_j|); every rank computes the same matrix.
  Eigen::MatrixXd Jfd(n_, n_);
  for (int j = 0; j < n_; ++j) {
    Eigen::VectorXd qp = q1;
    const double h = 1.4901161193847656e-08 * (1.0 + std::abs(q1[j]));
    qp[j] += h;
    Jfd.col(j) = (residualAt(qp) - F) / (qp[j] - q1[j]);
  }
  return Jfd;
}

PetscErrorCode DelSolver::residual(SNES, Vec x, Vec f, void* ctx) {
  auto* self = static_cast<DelSolver*>(ctx);
  PetscFunctionBeginUser;
  Eigen::VectorXd q1;
  PetscCall(self->gather(x, q1));
  try {
    self->residualAt(q1);
  } catch (const std::exception& e) {
    self->callbackError_ = e.what();
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_USER, "discrete Lagrangian failed");
  }
  PetscCall(self->scatterOwned(self->lastF_, f));
  PetscFunctionReturn(0);
}

PetscErrorCode DelSolver::matrixJacobian(SNES, Vec x, Mat J, Mat, void* ctx) {
  auto* self = static_cast<DelSolver*>(ctx);
  PetscFunctionBeginUser;
  Eigen::VectorXd q1;
  PetscCall(self->gather(x, q1));
  Eigen::MatrixXd A;
  try {
    // The residual at x was the last evaluation (SNES evaluates F before J), so J0 is cached.
    const Eigen::VectorXd F = (self->lastQ1_.size() == q1.size() && self->lastQ1_ == q1) ? self->lastF_
                                                                                       : self->residualAt(q1);
    A = self->ld_.approximateJacobian(*self->q0_, q1);
    if (A.rows() != self->n_ || A.cols() != self->n_)
      throw NumericalError("the discrete Lagrangian has no approximate Jacobian (use -" + self->prefix_ +
                           "jacobian fd)");
    if (self->mode_ == JacobianMode::Lagged) {
      Eigen::MatrixXd& E = *self->correction_;
      if (self->refresh_ || E.rows() != self->n_) {
        const Eigen::VectorXd q = self->lastQ1_, d2 = self->lastD2_, f = self->lastF_;
        E = self->finiteDifferenceJacobian(q1, F) - A;
        self->refresh_ = false;
        self->lastQ1_ = q, self->lastD2_ = d2, self->lastF_ = f;  // the cache is at x again
      }
      A += E;
    }
  } catch (const std::exception& e) {
    self->callbackError_ = e.what();
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_USER, "Jacobian failed");
  }
  PetscCall(self->setMatrix(A, J));
  PetscFunctionReturn(0);
}

PetscErrorCode DelSolver::convergenceTest(SNES snes, PetscInt it, PetscReal xnorm, PetscReal snorm,
                                          PetscReal fnorm, SNESConvergedReason* reason, void* ctx) {
  auto* self = static_cast<DelSolver*>(ctx);
  PetscFunctionBeginUser;
  PetscCall(SNESConvergedDefault(snes, it, xnorm, snorm, fnorm, reason, nullptr));
  // Stagnation at round-off: |F| below 1e-12 (1 + |p_k|) and no longer falling by 3x per
  // iteration. Double precision cannot do better; iterating on wastes residual evaluations.
  if (*reason == SNES_CONVERGED_ITERATING && it > 0 && !self->userAtol_ &&
      fnorm <= self->roundoff_ && fnorm > self->lastFnorm_ / 3.0)
    *reason = SNES_CONVERGED_SNORM_RELATIVE;
  self->lastFnorm_ = fnorm;
  PetscFunctionReturn(0);
}

DelResult DelSolver::step(const Eigen::VectorXd& q0, const Eigen::VectorXd& p0,
                          Eigen::VectorXd& q1, Eigen::VectorXd& p1, Eigen::MatrixXd* correction,
                          bool refresh) {
  Eigen::MatrixXd local;
  q0_ = &q0;
  p0_ = &p0;
  correction_ = correction ? correction : &local;
  refresh_ = refresh;
  callbackError_.clear();
  lastQ1_.resize(0);
  evaluations_ = 0;
  roundoff_ = 1e-12 * (1.0 + p0.norm());
  lastFnorm_ = std::numeric_limits<double>::infinity();
  if (!userAtol_)
    checkPetsc(SNESSetTolerances(snes_, 1e-15 * (1.0 + p0.norm()), PETSC_DEFAULT, PETSC_DEFAULT,
                                 PETSC_DEFAULT, PETSC_DEFAULT), "SNESSetTolerances");
  // One Jacobian per step, at the predictor (a Newton-chord iteration): the Jacobian depends on
  // this step's data only, so restarts stay bitwise reproducible.
  if (!userLag_) checkPetsc(SNESSetLagJacobian(snes_, -2), "SNESSetLagJacobian");
  checkPetsc(scatterOwned(q1, x_), "predictor");
  PetscPushErrorHandler(PetscReturnErrorHandler, nullptr);
  const PetscErrorCode ierr = SNESSolve(snes_, nullptr, x_);
  PetscPopErrorHandler();
  if (ierr) {
    const std::string why = callbackError_.empty() ? "PETSc error " + std::to_string(static_cast<int>(ierr))
                                                   : callbackError_;
    q0_ = p0_ = nullptr;
    throw NumericalError("DEL solve failed: " + why);
  }
  DelResult r;
  SNESConvergedReason reason;
  PetscInt its;
  PetscReal fnorm;
  SNESGetConvergedReason(snes_, &reason);
  SNESGetIterationNumber(snes_, &its);
  SNESGetFunctionNorm(snes_, &fnorm);
  // A line search or iteration limit hit with |F| at round-off level is convergence too.
  r.converged = reason > 0 || (!userAtol_ && fnorm <= roundoff_);
  r.iterations = static_cast<int>(its);
  r.residualNorm = fnorm;
  r.reason = SNESConvergedReasons[reason];
  checkPetsc(gather(x_, q1), "solution");
  if (!(lastQ1_.size() == q1.size() && lastQ1_ == q1)) {
    residualAt(q1);
    r.residualNorm = lastF_.norm();
  }
  p1 = lastD2_;
  r.functionEvaluations = evaluations_;
  q0_ = p0_ = nullptr;
  correction_ = nullptr;
  return r;
}

}  // namespace kirchhoff::integrators
