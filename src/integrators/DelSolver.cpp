// PETSc SNES for the position–momentum DEL equations: residual from the discrete Lagrangian,
// finite-difference, approximate or lagged-corrected Jacobian (redundant LU), or matrix-free Newton-Krylov.
#include "integrators/DelSolver.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <limits>

#include "core/Error.hpp"
#include "core/LogEvents.hpp"
#include "core/OptionErrors.hpp"
#include "core/PetscErrors.hpp"

namespace kirchhoff::integrators {

namespace {
/// newton_krylov: relative tolerance of each linear solve (measured, docs/fluidbody.md (FB-29a)).
constexpr double kKrylovRtol = 1e-5;
/// ... and its absolute tolerance, in units of the SNES absolute tolerance (same source).
constexpr double kKrylovAtolFactor = 10.0;
/// -del_jacobian choices, in JacobianMode order.
const char* const jacobianModes[] = {"fd", "approximate", "lagged", "newton_krylov", "coupled"};
}  // namespace

DelSolver::DelSolver(MPI_Comm comm, DiscreteLagrangian& ld, const std::string& prefix,
                     JacobianMode defaultMode)
    : comm_(comm), ld_(ld), prefix_(prefix), n_(ld.dimension()) {
  OptionErrors errors(prefix_);
  errors.check(readOptions(defaultMode, errors));
  if (!(coupledRtol_ > 0.0 && coupledRtol_ < 1.0))
    errors.fail("coupled_rtol", "must be a number in (0, 1) (relative accuracy of the coupled solve)");
  checkPetsc(setUp(), "DelSolver set-up");
}

PetscErrorCode DelSolver::readOptions(JacobianMode defaultMode, OptionErrors& e) {
  PetscFunctionBeginUser;
  PetscInt mode = static_cast<PetscInt>(defaultMode), lag = lag_, tail = 0;
  char rtol[64];
  std::snprintf(rtol, sizeof rtol, "%g", coupledRtol_);
  const auto items = [&](PetscOptionItems* PetscOptionsObject) -> PetscErrorCode {
    e.option = "jacobian";
    PetscCall(PetscOptionsEList("-jacobian", "Newton matrix of the DEL equations", "DelSolver", jacobianModes,
                                static_cast<PetscInt>(std::size(jacobianModes)), jacobianModes[mode], &mode,
                                nullptr));
    e.option = "jacobian_lag";
    PetscCall(PetscOptionsBoundedInt("-jacobian_lag", "steps between finite-difference refreshes of the "
                                     "lagged Jacobian's correction", "DelSolver", lag, &lag, nullptr, 1));
    // The last K unknowns (the vortex coordinates, say) get their Jacobian columns by differences
    // at every iteration instead of the secant update.
    e.option = "jacobian_fd_tail";
    PetscCall(PetscOptionsRangeInt("-jacobian_fd_tail", "last K unknowns whose Jacobian columns are "
                                   "differenced at every iteration (lagged)", "DelSolver", tail, &tail,
                                   nullptr, 0, n_));
    // A string (parsed below) so that -help shows it as "<now 0.0001 : formerly 0.0001>" like the others.
    e.option = "coupled_rtol";
    PetscCall(PetscOptionsString("-coupled_rtol", "relative accuracy of the coupled Jacobian's solve (coupled, "
                                 "FB-92)", "DelSolver", rtol, rtol, sizeof rtol, nullptr));
    return 0;
  };
  PetscCall(OptionErrors::block(comm_, prefix_, "kirchhoff DEL solve (docs/fluidbody.md, Sec. 4)", "DelSolver",
                                items));
  mode_ = static_cast<JacobianMode>(mode);
  lag_ = static_cast<int>(lag);
  fresh_ = n_ - static_cast<int>(tail);
  char* end = nullptr;
  coupledRtol_ = std::strtod(rtol, &end);
  if (end == rtol || *end != '\0') coupledRtol_ = -1.0;  // reported by the constructor
  PetscFunctionReturn(0);
}

PetscErrorCode DelSolver::setUp() {
  PetscFunctionBeginUser;
  int size = 1;
  MPI_Comm_size(comm_, &size);
  PetscCall(VecCreateMPI(comm_, PETSC_DECIDE, n_, &x_));
  PetscCall(VecDuplicate(x_, &f_));
  PetscCall(VecScatterCreateToAll(x_, &toAll_, &all_));
  PetscCall(SNESCreate(comm_, &snes_));
  PetscCall(SNESSetOptionsPrefix(snes_, prefix_.c_str()));
  PetscCall(SNESSetFunction(snes_, f_, residual, this));
  const bool matrixFree = mode_ == JacobianMode::NewtonKrylov || mode_ == JacobianMode::Coupled;
  if (!matrixFree) {
    PetscCall(MatCreateDense(comm_, PETSC_DECIDE, PETSC_DECIDE, n_, n_, nullptr, &J_));
    PetscCall(MatSetUp(J_));
  }
  if (mode_ == JacobianMode::NewtonKrylov)
    PetscCall(setUpKrylov());
  else if (mode_ == JacobianMode::Coupled)
    PetscCall(setUpCoupled());
  else if (mode_ == JacobianMode::Fd)
    PetscCall(SNESSetJacobian(snes_, J_, J_, SNESComputeJacobianDefault, this));
  else
    PetscCall(SNESSetJacobian(snes_, J_, J_, matrixJacobian, this));
  PetscCall(SNESSetTolerances(snes_, 1e-14, 0.0, 0.0, 50, 10000));
  PetscCall(SNESSetConvergenceTest(snes_, convergenceTest, this, nullptr));
  SNESLineSearch ls;
  PetscCall(SNESGetLineSearch(snes_, &ls));
  PetscCall(SNESLineSearchSetType(ls, SNESLINESEARCHBASIC));
  if (!matrixFree) {
    KSP ksp;
    PC pc;
    PetscCall(SNESGetKSP(snes_, &ksp));
    PetscCall(KSPSetType(ksp, KSPPREONLY));
    PetscCall(KSPGetPC(ksp, &pc));
    PetscCall(PCSetType(pc, size == 1 ? PCLU : PCREDUNDANT));
  }
  PetscCall(SNESSetFromOptions(snes_));
  PetscBool atol = PETSC_FALSE, lagJ = PETSC_FALSE;
  PetscCall(PetscOptionsHasName(nullptr, prefix_.c_str(), "-snes_atol", &atol));
  PetscCall(PetscOptionsHasName(nullptr, prefix_.c_str(), "-snes_lag_jacobian", &lagJ));
  userAtol_ = atol == PETSC_TRUE;
  userLag_ = lagJ == PETSC_TRUE;
  PetscBool kspAtol = PETSC_FALSE;
  PetscCall(PetscOptionsHasName(nullptr, prefix_.c_str(), "-ksp_atol", &kspAtol));
  userKspAtol_ = kspAtol == PETSC_TRUE;
  PetscBool kspType = PETSC_FALSE;
  PetscCall(PetscOptionsHasName(nullptr, prefix_.c_str(), "-ksp_type", &kspType));
  userKspType_ = kspType == PETSC_TRUE;
  PetscFunctionReturn(0);
}

PetscErrorCode DelSolver::setUpCoupled() {
  // (FB-92): the matrix-free Jacobian for the GMRES hand-over, the Lagrangian's coupled solve as PCSHELL, and the
  // chord (KSPPREONLY: the step is the PC's direction, no product) until an iteration contracts by less than kChordRate.
  PetscFunctionBeginUser;
  PetscCall(MatCreateSNESMF(snes_, &J_));
  PetscCall(MatMFFDSetOptionsPrefix(J_, prefix_.c_str()));
  PetscCall(MatSetFromOptions(J_));
  PetscCall(SNESSetJacobian(snes_, J_, J_, coupledJacobian, this));
  KSP ksp;
  PC pc;
  PetscCall(SNESGetKSP(snes_, &ksp));
  PetscCall(KSPSetType(ksp, KSPPREONLY));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCSHELL));
  PetscCall(PCShellSetContext(pc, this));
  PetscCall(PCShellSetApply(pc, applyCoupled));
  PetscCall(PCShellSetName(pc, "kirchhoff DEL coupled Jacobian solve (FB-90)"));
  PetscFunctionReturn(0);
}

PetscErrorCode DelSolver::useChord(bool chord) {
  PetscFunctionBeginUser;
  chord_ = chord;
  if (userKspType_) PetscFunctionReturn(0);  // -<prefix>ksp_type decides
  KSP ksp;
  PetscCall(SNESGetKSP(snes_, &ksp));
  PetscCall(KSPSetType(ksp, chord ? KSPPREONLY : KSPGMRES));
  if (!chord) {
    PetscCall(KSPSetPCSide(ksp, PC_RIGHT));
    PetscCall(KSPSetTolerances(ksp, kKrylovRtol, PETSC_DEFAULT, PETSC_DEFAULT, 200));
  }
  PetscFunctionReturn(0);
}

PetscErrorCode DelSolver::coupledJacobian(SNES snes, Vec x, Mat J, Mat P, void* ctx) {
  auto* self = static_cast<DelSolver*>(ctx);
  PetscFunctionBeginUser;
  ScopedEvent ev(Phase::DelJacobian);
  PetscCall(MatMFFDComputeJacobian(snes, x, J, P, nullptr));
  PetscCall(self->gather(x, self->pcPoint_));
  // (FB-92): an iteration that reduced |F| by less than kChordRate above round-off hands the step to GMRES.
  const std::vector<double>& f = self->fnorms_;
  const std::size_t k = f.size();
  if (self->chord_ && k >= 2 && f[k - 1] > kChordRate * f[k - 2] && f[k - 1] > self->roundoff_)
    PetscCall(self->useChord(false));
  PetscFunctionReturn(0);
}

PetscErrorCode DelSolver::applyCoupled(PC pc, Vec x, Vec y) {
  PetscFunctionBeginUser;
  void* ctx = nullptr;
  PetscCall(PCShellGetContext(pc, &ctx));
  auto* self = static_cast<DelSolver*>(ctx);
  Eigen::VectorXd r, d;
  PetscCall(self->gather(x, r));
  try {
    d = self->ld_.solveApproximateJacobian(*self->q0_, self->pcPoint_, r, self->coupledRtol_);
  } catch (const std::exception& e) {
    self->callbackError_ = e.what();
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_USER, "coupled Jacobian solve failed");
  }
  if (d.size() != self->n_) {
    self->callbackError_ = "the discrete Lagrangian has no coupled Jacobian (use -" + self->prefix_ +
                           "jacobian newton_krylov)";
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_USER, "Jacobian failed");
  }
  PetscCall(self->scatterOwned(d, y));
  PetscFunctionReturn(0);
}

PetscErrorCode DelSolver::setUpKrylov() {
  // J_ = the matrix-free Jacobian (F(x + h v) - F(x)) / h with the SNES's F(x) as base: one residual
  // evaluation per product. GMRES, right-preconditioned so that its residual is the true linear
  // residual, by the block-diagonal PCSHELL; rtol KSP_RTOL (measured, docs/fluidbody.md (FB-29a)).
  PetscFunctionBeginUser;
  PetscCall(MatCreateSNESMF(snes_, &J_));
  PetscCall(MatMFFDSetOptionsPrefix(J_, prefix_.c_str()));  // -<prefix>mat_mffd_err, -<prefix>mat_mffd_type
  PetscCall(MatSetFromOptions(J_));
  PetscCall(SNESSetJacobian(snes_, J_, J_, krylovJacobian, this));
  KSP ksp;
  PC pc;
  PetscCall(SNESGetKSP(snes_, &ksp));
  PetscCall(KSPSetType(ksp, KSPGMRES));
  PetscCall(KSPSetPCSide(ksp, PC_RIGHT));
  PetscCall(KSPSetTolerances(ksp, kKrylovRtol, 1e-50, PETSC_DEFAULT, 200));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCSHELL));
  PetscCall(PCShellSetContext(pc, this));
  PetscCall(PCShellSetApply(pc, applyBlocks));
  PetscCall(PCShellSetName(pc, "kirchhoff DEL block diagonal (FB-29a)"));
  PetscFunctionReturn(0);
}

PetscErrorCode DelSolver::krylovJacobian(SNES snes, Vec x, Mat J, Mat P, void* ctx) {
  auto* self = static_cast<DelSolver*>(ctx);
  PetscFunctionBeginUser;
  ScopedEvent ev(Phase::DelJacobian);
  PetscCall(MatMFFDComputeJacobian(snes, x, J, P, nullptr));
  Eigen::VectorXd q1;
  PetscCall(self->gather(x, q1));
  const std::vector<Eigen::MatrixXd> blocks = self->ld_.jacobianDiagonalBlocks(*self->q0_, q1);
  self->blockLu_.clear();
  self->blockStart_.clear();
  int at = 0;
  for (const Eigen::MatrixXd& b : blocks) {
    self->blockStart_.push_back(at);
    self->blockLu_.emplace_back(b);
    at += static_cast<int>(b.rows());
  }
  if (at != self->n_) {
    self->callbackError_ = "the discrete Lagrangian has no diagonal Jacobian blocks (use -" + self->prefix_ +
                           "jacobian fd)";
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_USER, "Jacobian failed");
  }
  PetscFunctionReturn(0);
}

PetscErrorCode DelSolver::applyBlocks(PC pc, Vec x, Vec y) {
  // Every rank gathers x and applies all blocks (O(n), no fluid solve): any ownership split works.
  PetscFunctionBeginUser;
  void* ctx = nullptr;
  PetscCall(PCShellGetContext(pc, &ctx));
  auto* self = static_cast<DelSolver*>(ctx);
  Eigen::VectorXd v, out(self->n_);
  PetscCall(self->gather(x, v));
  for (std::size_t b = 0; b < self->blockLu_.size(); ++b) {
    const int a = self->blockStart_[b], k = static_cast<int>(self->blockLu_[b].rows());
    const auto& lu = self->blockLu_[b];
    // A singular block (a vortex of zero circulation: its residual rows vanish) passes through.
    out.segment(a, k) = std::abs(lu.determinant()) > 0.0 ? Eigen::VectorXd(lu.solve(v.segment(a, k)))
                                                         : Eigen::VectorXd(v.segment(a, k));
  }
  PetscCall(self->scatterOwned(out, y));
  PetscFunctionReturn(0);
}

const char* DelSolver::modeName() const { return jacobianModes[static_cast<int>(mode_)]; }

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
  ScopedEvent ev(Phase::DelResidual);
  Eigen::VectorXd d1, d2;
  ld_.slotDerivatives(*q0_, q1, &d1, &d2);
  lastQ1_ = q1;
  lastD2_ = d2;
  lastF_ = *p0_ + d1;
  ++evaluations_;
  return lastF_;
}

Eigen::MatrixXd DelSolver::finiteDifferenceJacobian(const Eigen::VectorXd& q1, const Eigen::VectorXd& F,
                                                    int first) {
  // Columns first..n-1 by forward differences with steps sqrt(eps) (1 + |q_j|); every rank computes
  // the same matrix. Last column first: a Lagrangian may cache work that depends on leading
  // coordinates only (the panel fluid keeps its factorization while the body poses, the leading 3n
  // coordinates, do not change), so the trailing columns right after the evaluation at q1 are cheap.
  // The evaluation cache (last point, residual, D2) is at q1 again on return.
  const Eigen::VectorXd q = lastQ1_, d2 = lastD2_, f = lastF_;
  Eigen::MatrixXd Jfd(n_, n_ - first);
  for (int j = n_ - 1; j >= first; --j) {
    Eigen::VectorXd qp = q1;
    const double h = 1.4901161193847656e-08 * (1.0 + std::abs(q1[j]));
    qp[j] += h;
    Jfd.col(j - first) = (residualAt(qp) - F) / (qp[j] - q1[j]);
  }
  lastQ1_ = q, lastD2_ = d2, lastF_ = f;
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
  ScopedEvent ev(Phase::DelJacobian);
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
    if (self->mode_ == JacobianMode::Lagged) self->laggedJacobian(q1, F, A);
  } catch (const std::exception& e) {
    self->callbackError_ = e.what();
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_USER, "Jacobian failed");
  }
  PetscCall(self->setMatrix(A, J));
  PetscFunctionReturn(0);
}

void DelSolver::laggedJacobian(const Eigen::VectorXd& x, const Eigen::VectorXd& F, Eigen::MatrixXd& A) {
  // A holds J0(x) on entry and the Newton matrix on return; E = (Newton matrix) - J0 is kept.
  Eigen::MatrixXd& E = *correction_;
  const int f = fresh_, nf = n_ - fresh_;
  if (prevX_.size() == 0) {  // first iteration of the step
    if (refresh_ || E.rows() != n_) {
      E = finiteDifferenceJacobian(x, F, 0) - A;
      refresh_ = false;
    } else if (nf > 0) {
      E.rightCols(nf) = finiteDifferenceJacobian(x, F, f) - A.rightCols(nf);
    }
  } else {
    // Fresh columns by differences at x; the others by the good Broyden update
    //   J_b += (dF - J_b s_b - Jbar_f s_f) s_b^T / (s_b^T s_b),  s = x - x_prev,
    // with Jbar_f the mean of the fresh columns at x_prev and x. Skipped when F is near round-off:
    // then dF carries no information on J.
    Eigen::MatrixXd Jf;
    if (nf > 0) Jf = finiteDifferenceJacobian(x, F, f);
    const Eigen::VectorXd s = x - prevX_;
    const double ss = s.head(f).squaredNorm();
    if (f > 0 && ss > 0.0 && F.norm() > roundoff_) {
      Eigen::VectorXd r = F - prevF_ - prevJ_.leftCols(f) * s.head(f);
      if (nf > 0) r -= 0.5 * (prevJ_.rightCols(nf) + Jf) * s.tail(nf);
      E.leftCols(f) = prevJ_.leftCols(f) + r * (s.head(f).transpose() / ss) - A.leftCols(f);
    }
    if (nf > 0) E.rightCols(nf) = Jf - A.rightCols(nf);
  }
  A += E;
  prevJ_ = A;
  prevX_ = x;
  prevF_ = F;
}

PetscErrorCode DelSolver::convergenceTest(SNES snes, PetscInt it, PetscReal xnorm, PetscReal snorm,
                                          PetscReal fnorm, SNESConvergedReason* reason, void* ctx) {
  auto* self = static_cast<DelSolver*>(ctx);
  PetscFunctionBeginUser;
  PetscCall(SNESConvergedDefault(snes, it, xnorm, snorm, fnorm, reason, nullptr));
  // Stagnation at round-off: |F| below 1e-12 (sqrt(dim / 3) + |p_k|) and no longer falling by 3x per
  // iteration. Double precision cannot do better; iterating on wastes residual evaluations.
  if (*reason == SNES_CONVERGED_ITERATING && it > 0 && !self->userAtol_ &&
      fnorm <= self->roundoff_ && (fnorm > self->lastFnorm_ / 3.0 || self->acceptAtFloor_))
    *reason = SNES_CONVERGED_SNORM_RELATIVE;
  // newton_krylov: the same test against the fall the last Newton step's own linear model predicted
  // (its final GMRES residual, the true linear residual under right preconditioning). After a step
  // from |F| <= 1e-8 (1 + |p_k|) the quadratic remainder and the differencing error of the products
  // (~1e-8 |F|) are far below round-off, so |F| more than 3x above the model's residual is the floor
  // itself, and the stall is seen one iteration (2-3 products) earlier.
  // coupled, chord: the same against the fall the last iteration's contraction predicts (FB-92); that prediction is
  // rougher than a linear residual but misses the floor by far more than 2x when the chord still gains.
  std::vector<double>& f = self->fnorms_;
  f.push_back(fnorm);
  const std::size_t k = f.size();
  // A stall above the nominal floor (FB-29d): the residual's own noise floor is higher where the fluid's solves are
  // less accurate (close gaps). Within kStallBand of the floor, two iterations in a row that have not halved the
  // best residual before them (a deterministic 2-cycle at 3.0e-11 / 3.02e-11 was measured at a gap of 2.8e-3) are
  // the floor itself: iterating on cannot do better.
  if (*reason == SNES_CONVERGED_ITERATING && !self->userAtol_ && k >= 3 && fnorm <= kStallBand * self->roundoff_) {
    const double bestBefore = *std::min_element(f.begin(), f.end() - 2);
    if (f[k - 2] > 0.5 * bestBefore && f[k - 1] > 0.5 * std::min(bestBefore, f[k - 2]))
      *reason = SNES_CONVERGED_SNORM_RELATIVE;
  }
  if (*reason == SNES_CONVERGED_ITERATING && it > 1 && !self->userAtol_ && self->mode_ == JacobianMode::Coupled &&
      self->chord_ && k >= 3 && fnorm <= self->roundoff_ && fnorm > 2.0 * (f[k - 2] / f[k - 3]) * f[k - 2])
    *reason = SNES_CONVERGED_SNORM_RELATIVE;
  const bool krylov = self->mode_ == JacobianMode::NewtonKrylov ||
                      (self->mode_ == JacobianMode::Coupled && !self->chord_);
  if (*reason == SNES_CONVERGED_ITERATING && it > 1 && !self->userAtol_ && krylov && fnorm <= self->roundoff_ &&
      self->lastFnorm_ <= 1e4 * self->roundoff_) {
    KSP ksp;
    PetscReal linear = 0.0;
    PetscCall(SNESGetKSP(snes, &ksp));
    PetscCall(KSPGetResidualNorm(ksp, &linear));
    if (fnorm > 3.0 * linear) *reason = SNES_CONVERGED_SNORM_RELATIVE;
  }
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
  // Round-off floor of |F|: ~1e-12 per component (the panel and multipole tolerances are ~1e-12
  // relative) adds up to sqrt(dim) in the norm; one body (dim 3) keeps 1e-12 (1 + |p_k|). 256 bodies
  // at rest stalled at |F| = 2.8e-12 > 1e-12 (1 + |p_k|) and failed with DIVERGED_MAX_IT.
  roundoff_ = 1e-12 * (std::sqrt(static_cast<double>(q0.size()) / 3.0) + p0.norm());
  lastFnorm_ = std::numeric_limits<double>::infinity();
  if (!userAtol_)
    checkPetsc(SNESSetTolerances(snes_, 1e-15 * (1.0 + p0.norm()), PETSC_DEFAULT, PETSC_DEFAULT,
                                 PETSC_DEFAULT, PETSC_DEFAULT), "SNESSetTolerances");
  fnorms_.clear();
  if (mode_ == JacobianMode::Coupled) checkPetsc(useChord(true), "coupled chord");
  if ((mode_ == JacobianMode::NewtonKrylov || mode_ == JacobianMode::Coupled) && !userKspAtol_) {
    // A linear residual far below the round-off floor of F buys nothing: at round-off (the last,
    // stall-detecting Newton iteration) the KSP then stops after one product instead of iterating on noise.
    KSP ksp;
    PetscReal atol = 0.0;
    checkPetsc(SNESGetKSP(snes_, &ksp), "SNESGetKSP");
    checkPetsc(SNESGetTolerances(snes_, &atol, nullptr, nullptr, nullptr, nullptr), "SNESGetTolerances");
    checkPetsc(KSPSetTolerances(ksp, PETSC_DEFAULT, kKrylovAtolFactor * atol, PETSC_DEFAULT, PETSC_DEFAULT),
               "KSPSetTolerances");
  }
  // fd, approximate: one Jacobian per step, at the predictor (a Newton-chord iteration). lagged: a
  // Jacobian call per iteration, for the secant updates. Either way it depends on this step's data
  // only (and E from the state), so restarts stay bitwise reproducible.
  if (!userLag_) {
    const bool everyIteration = mode_ == JacobianMode::Lagged || mode_ == JacobianMode::NewtonKrylov ||
                                mode_ == JacobianMode::Coupled;
    checkPetsc(SNESSetLagJacobian(snes_, everyIteration ? 1 : -2), "SNESSetLagJacobian");
  }
  prevX_.resize(0);
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
  r.handedOver = mode_ == JacobianMode::Coupled && !chord_;
  q0_ = p0_ = nullptr;
  correction_ = nullptr;
  return r;
}

}  // namespace kirchhoff::integrators
