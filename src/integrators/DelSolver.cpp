// PETSc SNES for the position–momentum DEL equations: residual from the discrete Lagrangian,
// dense finite-difference or approximate Jacobian, redundant LU for the small linear systems.
#include "integrators/DelSolver.hpp"

#include <cmath>
#include <cstring>

#include "core/Error.hpp"

namespace kirchhoff::integrators {

namespace {
void checkPetsc(PetscErrorCode ierr, const std::string& what) {
  if (ierr) throw NumericalError("PETSc error " + std::to_string(static_cast<int>(ierr)) + " in " + what);
}
}  // namespace

DelSolver::DelSolver(MPI_Comm comm, DiscreteLagrangian& ld, const std::string& prefix)
    : comm_(comm), ld_(ld), prefix_(prefix), n_(ld.dimension()) {
  checkPetsc(setUp(), "DelSolver set-up");
}

PetscErrorCode DelSolver::setUp() {
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
  char jac[64] = "fd";
  PetscBool set = PETSC_FALSE;
  PetscCall(PetscOptionsGetString(nullptr, prefix_.c_str(), "-jacobian", jac, sizeof jac, &set));
  if (std::strcmp(jac, "approximate") == 0) {
    PetscCall(SNESSetJacobian(snes_, J_, J_, approximateJacobian, this));
  } else if (std::strcmp(jac, "fd") == 0) {
    PetscCall(SNESSetJacobian(snes_, J_, J_, SNESComputeJacobianDefault, this));
  } else {
    SETERRQ(comm_, PETSC_ERR_ARG_UNKNOWN_TYPE, "-%sjacobian must be fd or approximate, got %s",
            prefix_.c_str(), jac);
  }
  PetscCall(SNESSetTolerances(snes_, 1e-14, 0.0, 0.0, 50, 10000));
  KSP ksp;
  PC pc;
  PetscCall(SNESGetKSP(snes_, &ksp));
  PetscCall(KSPSetType(ksp, KSPPREONLY));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, size == 1 ? PCLU : PCREDUNDANT));
  PetscCall(SNESSetFromOptions(snes_));
  PetscBool atol = PETSC_FALSE;
  PetscCall(PetscOptionsHasName(nullptr, prefix_.c_str(), "-snes_atol", &atol));
  userAtol_ = atol == PETSC_TRUE;
  PetscFunctionReturn(0);
}

DelSolver::~DelSolver() {
  SNESDestroy(&snes_);
  MatDestroy(&J_);
  VecScatterDestroy(&toAll_);
  VecDestroy(&all_);
  VecDestroy(&f_);
  VecDestroy(&x_);
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

PetscErrorCode DelSolver::residual(SNES, Vec x, Vec f, void* ctx) {
  auto* self = static_cast<DelSolver*>(ctx);
  PetscFunctionBeginUser;
  Eigen::VectorXd q1, d1, d2;
  PetscCall(self->gather(x, q1));
  try {
    self->ld_.slotDerivatives(*self->q0_, q1, &d1, &d2);
  } catch (const std::exception& e) {
    self->callbackError_ = e.what();
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_USER, "discrete Lagrangian failed");
  }
  self->lastQ1_ = q1;
  self->lastD2_ = d2;
  PetscCall(self->scatterOwned(*self->p0_ + d1, f));
  PetscFunctionReturn(0);
}

PetscErrorCode DelSolver::approximateJacobian(SNES, Vec x, Mat J, Mat, void* ctx) {
  auto* self = static_cast<DelSolver*>(ctx);
  PetscFunctionBeginUser;
  Eigen::VectorXd q1;
  PetscCall(self->gather(x, q1));
  Eigen::MatrixXd A = self->ld_.approximateJacobian(*self->q0_, q1);
  PetscCheck(A.rows() == self->n_ && A.cols() == self->n_, PETSC_COMM_SELF, PETSC_ERR_USER,
             "the discrete Lagrangian has no approximate Jacobian");
  PetscInt lo, hi;
  PetscCall(MatGetOwnershipRange(J, &lo, &hi));
  for (PetscInt i = lo; i < hi; ++i)
    for (PetscInt j = 0; j < self->n_; ++j) PetscCall(MatSetValue(J, i, j, A(i, j), INSERT_VALUES));
  PetscCall(MatAssemblyBegin(J, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(J, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

DelResult DelSolver::step(const Eigen::VectorXd& q0, const Eigen::VectorXd& p0,
                          Eigen::VectorXd& q1, Eigen::VectorXd& p1) {
  q0_ = &q0;
  p0_ = &p0;
  callbackError_.clear();
  lastQ1_.resize(0);
  if (!userAtol_)
    checkPetsc(SNESSetTolerances(snes_, 1e-14 * (1.0 + p0.norm()), PETSC_DEFAULT, PETSC_DEFAULT,
                                 PETSC_DEFAULT, PETSC_DEFAULT), "SNESSetTolerances");
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
  // A line search or iteration limit hit with |F| at round-off level (1e-12 (1 + |p_k|)) is
  // convergence too: the residual cannot get smaller in double precision.
  r.converged = reason > 0 || (!userAtol_ && fnorm <= 1e-12 * (1.0 + p0.norm()));
  r.iterations = static_cast<int>(its);
  r.residualNorm = fnorm;
  r.reason = SNESConvergedReasons[reason];
  checkPetsc(gather(x_, q1), "solution");
  if (lastQ1_.size() == q1.size() && lastQ1_ == q1) {
    p1 = lastD2_;
  } else {
    Eigen::VectorXd d1;
    ld_.slotDerivatives(q0, q1, &d1, &p1);
    r.residualNorm = (p0 + d1).norm();
  }
  q0_ = p0_ = nullptr;
  return r;
}

}  // namespace kirchhoff::integrators
