// The augmented boundary system (docs/fluidbody.md): dense LU (on several ranks: rows
// assembled in slabs, gathered, factored redundantly), else GMRES on a MatShell over row slabs with
// the body self-block inverses, and close pairs' blocks (FB-96), as block-Jacobi preconditioner.
#include "fluid/solve/BoundarySystem.hpp"

#include <algorithm>
#include <sstream>

#include "core/Error.hpp"
#include "core/LogEvents.hpp"
#include "fluid/solve/BreakdownRestart.hpp"
#include "fluid/solve/PetscThrow.hpp"

namespace kirchhoff::fluid {

BoundarySystem::BoundarySystem(MPI_Comm comm, const NodeLayout& layout,
                         const std::vector<Eigen::MatrixXd>& selfBlocks, PanelSolver solver,
                         int directMax, const std::string& prefix,
                         DirectFactorization factorization, InterBodyApply fast)
    : layout_(layout), comm_(comm), fast_(std::move(fast)) {
  MPI_Comm_size(comm, &ranks_);
  size_ = layout.nodes + layout.bodies;
  // Auto: several bodies refactor every evaluation, so GMRES (four solves, (FB-22a)) wins earlier:
  // measured break-even near 350 unknowns (bench_fluidbody --evaluations).
  const int limit = layout.bodies > 1 ? std::min(directMax, kSeveralBodiesDirectMax) : directMax;
  direct_ = solver == PanelSolver::Direct || (solver == PanelSolver::Auto && size_ <= limit);
  if (matrixFree()) {
    if (solver == PanelSolver::Direct)
      throw ConfigurationError("-" + prefix + "operator fast is matrix-free: it needs -" + prefix +
                               "solver ksp or auto, not direct");
    direct_ = false;
    // Whole bodies per rank: augmented rows from the first node of bodyBegin to the constraint of bodyEnd - 1.
    rowBegin_ = layout.offset[fast_.bodyBegin] + fast_.bodyBegin;
    rowEnd_ = layout.offset[fast_.bodyEnd] + fast_.bodyEnd;
  } else if (ranks_ == 1) {
    rowBegin_ = 0;
    rowEnd_ = size_;
  } else {
    // Row slabs on both paths: assembly (and the gradient) are split over the ranks.
    PetscInt local = PETSC_DECIDE, global = size_;
    KIRCHHOFF_PETSC_THROW(PetscSplitOwnership(comm, &local, &global));
    int n = static_cast<int>(local), end = 0;
    MPI_Scan(&n, &end, 1, MPI_INT, MPI_SUM, comm);
    rowBegin_ = end - n;
    rowEnd_ = end;
  }
  // Panels of the owned rows (constraint rows are not panels).
  panelBegin_ = layout.nodes;
  panelEnd_ = 0;
  for (int p = 0; p < layout.nodes; ++p) {
    const int r = panelIndex(p);
    if (r >= rowBegin_ && r < rowEnd_) {
      panelBegin_ = std::min(panelBegin_, p);
      panelEnd_ = std::max(panelEnd_, p + 1);
    }
  }
  if (panelEnd_ <= panelBegin_) panelBegin_ = panelEnd_ = 0;

  if (!matrixFree()) rows_ = RowMatrix::Zero(rowEnd_ - rowBegin_, size_);
  for (int j = 0; j < layout.bodies && !matrixFree(); ++j) {
    const int first = panelIndex(layout.offset[j]), nb = layout.bodySize(j) + 1;
    for (int r = std::max(first, rowBegin_); r < std::min(first + nb, rowEnd_); ++r)
      rows_.row(r - rowBegin_).segment(first, nb) = selfBlocks[j].row(r - first);
  }
  if (direct_) {
    if (ranks_ > 1 && layout.bodies > 1 && factorization != DirectFactorization::Redundant)
      distributed_ = std::make_unique<DistributedLU>(comm, size_, rowBegin_, rowEnd_, factorization);
    if (layout.bodies == 1) {
      // Constant matrix: its explicit inverse turns every solve into one matrix product (faster
      // than two triangular solves with the few right-hand sides of an evaluation).
      factor();
      ScopedEvent ev(Phase::PanelFactor);
      inverse_ = lu_.inverse();
    }
  } else {
    for (int j = 0; j < layout.bodies; ++j) {
      const int first = panelIndex(layout.offset[j]), nb = layout.bodySize(j) + 1;
      if (first < rowEnd_ && first + nb > rowBegin_) {
        // Explicit inverses: one matrix product per group of identical bodies in every application.
        blockInverses_.add(first, Eigen::PartialPivLU<Eigen::MatrixXd>(selfBlocks[j]).inverse());
        if (matrixFree()) selfBlocks_.add(first, selfBlocks[j]);
      }
    }
    setupKsp(prefix);
  }
}

BoundarySystem::~BoundarySystem() {
  // Destructors must not throw: PETSc errors here are ignored on purpose (nothing to recover).
  if (ksp_) (void)KSPDestroy(&ksp_);
  if (A_) (void)MatDestroy(&A_);
  if (x_) (void)VecDestroy(&x_);
  if (b_) (void)VecDestroy(&b_);
}

void BoundarySystem::setupKsp(const std::string& prefix) {
  const PetscInt local = rowEnd_ - rowBegin_;
  KIRCHHOFF_PETSC_THROW(VecCreateMPI(comm_, local, size_, &b_));
  KIRCHHOFF_PETSC_THROW(VecDuplicate(b_, &x_));
  replicated_.emplace(b_);
  KIRCHHOFF_PETSC_THROW(MatCreateShell(comm_, local, local, size_, size_, this, &A_));
  KIRCHHOFF_PETSC_THROW(MatShellSetOperation(A_, MATOP_MULT, (void (*)(void))shellMult));
  KIRCHHOFF_PETSC_THROW(
      MatShellSetOperation(A_, MATOP_MULT_TRANSPOSE, (void (*)(void))shellMultTranspose));
  KIRCHHOFF_PETSC_THROW(KSPCreate(comm_, &ksp_));
  KIRCHHOFF_PETSC_THROW(KSPSetOptionsPrefix(ksp_, prefix.c_str()));
  KIRCHHOFF_PETSC_THROW(KSPSetOperators(ksp_, A_, A_));
  KIRCHHOFF_PETSC_THROW(KSPSetType(ksp_, KSPGMRES));
  KIRCHHOFF_PETSC_THROW(KSPGMRESSetCGSRefinementType(ksp_, KSP_GMRES_CGS_REFINE_IFNEEDED));
  // Tight default: the adjoint gradient is exact only to the solve tolerance.
  KIRCHHOFF_PETSC_THROW(KSPSetTolerances(ksp_, 1e-14, 1e-300, PETSC_DEFAULT, 10000));
  PC pc;
  KIRCHHOFF_PETSC_THROW(KSPGetPC(ksp_, &pc));
  KIRCHHOFF_PETSC_THROW(PCSetType(pc, PCSHELL));
  KIRCHHOFF_PETSC_THROW(PCShellSetContext(pc, this));
  KIRCHHOFF_PETSC_THROW(PCShellSetApply(pc, shellPC));
  KIRCHHOFF_PETSC_THROW(PCShellSetApplyTranspose(pc, shellPCTranspose));
  KIRCHHOFF_PETSC_THROW(PCShellSetName(pc, "body-block LU"));
  KIRCHHOFF_PETSC_THROW(KSPSetFromOptions(ksp_));
  if (matrixFree()) KIRCHHOFF_PETSC_THROW(KSPMonitorSet(ksp_, relaxationMonitor, this, nullptr));
}

void BoundarySystem::factor() {
  ScopedEvent ev(Phase::PanelFactor);
  if (distributed_) return distributed_->factor(rows_);
  if (ranks_ == 1) {
    lu_.compute(rows_);
    return;
  }
  // Every rank gathers all row slabs (row-major, so each slab is contiguous) and factors the same
  // matrix with the same code: the factors, and every solution, are bitwise the same on all ranks.
  std::vector<int> counts(static_cast<std::size_t>(ranks_)), displs(static_cast<std::size_t>(ranks_));
  const int mine = static_cast<int>(rows_.size());
  MPI_Allgather(&mine, 1, MPI_INT, counts.data(), 1, MPI_INT, comm_);
  for (int r = 1; r < ranks_; ++r) displs[r] = displs[r - 1] + counts[r - 1];
  gathered_.resize(size_, size_);
  MPI_Allgatherv(rows_.data(), mine, MPI_DOUBLE, gathered_.data(), counts.data(), displs.data(),
                 MPI_DOUBLE, comm_);
  lu_.compute(gathered_);
}

void BoundarySystem::update() {
  if (direct_ && layout_.bodies > 1) factor();
}

void BoundarySystem::offerIncrement(int slot, const Eigen::VectorXd& db, const Eigen::VectorXd& dx) const {
  if (!warmStart_ || slot < 0 || static_cast<std::size_t>(slot) >= guesses_.size()) return;
  Slot& m = guesses_[static_cast<std::size_t>(slot)];
  if (m.x.cols() != 1 || m.x.rows() != size_ || db.size() != size_ || dx.size() != size_) return;
  m.db = db;
  m.dx = dx;
}

void BoundarySystem::setWarmStart(bool on) {
  warmStart_ = on;
  if (!on) guesses_.clear();
}

namespace {
/// The KSP's relative tolerance raised to `rtol` (if that is looser) for one scope, restored after it.
class LooserTolerance {
 public:
  LooserTolerance(KSP ksp, double rtol) : ksp_(ksp) {
    KIRCHHOFF_PETSC_THROW(KSPGetTolerances(ksp_, &rtol_, &atol_, &dtol_, &maxits_));
    if (rtol > rtol_) KIRCHHOFF_PETSC_THROW(KSPSetTolerances(ksp_, rtol, atol_, dtol_, maxits_));
    changed_ = rtol > rtol_;
  }
  ~LooserTolerance() {
    if (changed_) (void)KSPSetTolerances(ksp_, rtol_, atol_, dtol_, maxits_);
  }
  LooserTolerance(const LooserTolerance&) = delete;
  LooserTolerance& operator=(const LooserTolerance&) = delete;

 private:
  KSP ksp_;
  PetscReal rtol_ = 0.0, atol_ = 0.0, dtol_ = 0.0;
  PetscInt maxits_ = 0;
  bool changed_ = false;
};
}  // namespace

Eigen::MatrixXd BoundarySystem::solve(const Eigen::MatrixXd& rhs, bool transpose, int slot, double rtol) const {
  ScopedEvent ev(Phase::PanelSolve);
  if (direct_) {
    lastIterations_ = 0;
    if (layout_.bodies == 1) return transpose ? Eigen::MatrixXd(inverse_.transpose() * rhs) : Eigen::MatrixXd(inverse_ * rhs);
    if (distributed_) return distributed_->solve(rhs, transpose);
    if (transpose) return lu_.transpose().solve(rhs);
    return lu_.solve(rhs);
  }
  Eigen::MatrixXd out(size_, rhs.cols());
  const int local = rowEnd_ - rowBegin_;
  lastIterations_ = 0;
  const bool warm = warmStart_ && slot >= 0;
  if (warm && guesses_.size() <= static_cast<std::size_t>(slot)) guesses_.resize(static_cast<std::size_t>(slot) + 1);
  Slot* memory = warm ? &guesses_[static_cast<std::size_t>(slot)] : nullptr;
  const LooserTolerance looser(ksp_, rtol);
  if (memory && (memory->x.rows() != size_ || memory->x.cols() != rhs.cols())) memory = nullptr;
  if (memory && memory->db.size() == size_ && rhs.cols() == 1 &&
      (rhs.col(0) - memory->b.col(0) - memory->db).norm() < (rhs.col(0) - memory->b.col(0)).norm()) {
    memory->b.col(0) += memory->db;  // (FB-94)
    memory->x.col(0) += memory->dx;
  }
  for (int k = 0; k < rhs.cols(); ++k) {
    // A zero right-hand side has the zero solution (and would make any guess "diverge" against |b| = 0).
    if (rhs.col(k).squaredNorm() == 0.0) {
      out.col(k).setZero();
      continue;
    }
    ++totalSolves_;
    // The last solution of the slot is a good start only if the right-hand side moved by less than half
    // of itself (FB-47a): else its initial residual exceeds |b| and a zero start converges sooner.
    const bool guess = memory && (rhs.col(k) - memory->b.col(k)).norm() <= 0.5 * rhs.col(k).norm();
    KIRCHHOFF_PETSC_THROW(KSPSetInitialGuessNonzero(ksp_, guess ? PETSC_TRUE : PETSC_FALSE));
    PetscScalar* bl = nullptr;
    KIRCHHOFF_PETSC_THROW(VecGetArray(b_, &bl));
    for (int i = 0; i < local; ++i) bl[i] = rhs(rowBegin_ + i, k);
    KIRCHHOFF_PETSC_THROW(VecRestoreArray(b_, &bl));
    if (guess) {
      PetscScalar* xl = nullptr;
      KIRCHHOFF_PETSC_THROW(VecGetArray(x_, &xl));
      for (int i = 0; i < local; ++i) xl[i] = memory->x(rowBegin_ + i, k);
      KIRCHHOFF_PETSC_THROW(VecRestoreArray(x_, &xl));
    }
    bNorm_ = rhs.col(k).norm();
    // (FB-93): the full accuracy until the monitor has seen the first residual, also of a restart (FB-93a).
    const RestartedSolve r =
        solveRestartingOnBreakdown(ksp_, b_, x_, transpose, kBreakdownRestarts, [this] { nextTol_ = 0.0; });
    nextTol_ = 0.0;
    if (r.reason < 0) {
      std::ostringstream os;
      os << "panel KSP did not converge (" << KSPConvergedReasons[r.reason] << ") on right-hand side "
         << k << (transpose ? " of the adjoint solve" : "");
      if (r.restarts > 0) os << " after " << r.restarts << " restart(s) from the iterate";
      throw NumericalError(os.str());
    }
    lastIterations_ = std::max(lastIterations_, static_cast<int>(r.iterations));
    totalIterations_ += r.iterations;
    const PetscScalar* xf = nullptr;
    KIRCHHOFF_PETSC_THROW(replicated_->gather(x_, &xf));
    for (int i = 0; i < size_; ++i) out(i, k) = xf[i];
    KIRCHHOFF_PETSC_THROW(replicated_->release(&xf));
  }
  if (warm) guesses_[static_cast<std::size_t>(slot)] = Slot{rhs, out, {}, {}};
  return out;
}

PetscErrorCode BoundarySystem::relaxationMonitor(KSP ksp, PetscInt its, PetscReal rnorm, void* ctx) {
  // (FB-93): GMRES's next product is a Krylov direction of weight at most |r_its|, so an operator error of
  // kRelaxation rtol |b| / |r_its| keeps the residual gap below rtol |b|; the last iteration of a cycle is followed by
  // the next cycle's initial residual b - A x, which needs the full accuracy.
  auto* s = static_cast<BoundarySystem*>(ctx);
  PetscFunctionBeginUser;
  s->nextTol_ = 0.0;
  if (!s->relax_ || rnorm <= 0.0) PetscFunctionReturn(0);
  PetscBool gmres = PETSC_FALSE;
  PetscCall(PetscObjectTypeCompare(reinterpret_cast<PetscObject>(ksp), KSPGMRES, &gmres));
  if (!gmres) PetscFunctionReturn(0);
  PetscReal rtol = 0.0;
  PetscInt restart = 0;
  PetscCall(KSPGetTolerances(ksp, &rtol, nullptr, nullptr, nullptr));
  PetscCall(KSPGMRESGetRestart(ksp, &restart));
  if (its > 0 && restart > 0 && its % restart == 0) PetscFunctionReturn(0);
  s->nextTol_ = kRelaxation * rtol * s->bNorm_ / rnorm;
  PetscFunctionReturn(0);
}

PetscErrorCode BoundarySystem::multFast(const PetscScalar* x, PetscScalar* y, bool transpose, double tol) const {
  // (FB-46): owned self-blocks (whole bodies) plus the matrix-free inter-body part on the node rows.
  // Forward: x is the gathered vector (all rows); transpose: x is the owned slab.
  PetscFunctionBeginUser;
  const int N = layout_.nodes, local = rowEnd_ - rowBegin_, base = transpose ? rowBegin_ : 0;
  selfBlocks_.apply(x, base, y, rowBegin_, rowBegin_, rowEnd_, transpose);
  nodesIn_.setZero(N);
  nodesOut_.setZero(N);
  for (int p = 0; p < N; ++p) {
    const int i = panelIndex(p) - base;
    if (i >= 0 && i < (transpose ? local : size_)) nodesIn_[p] = x[i];
  }
  fast_.apply(nodesIn_, nodesOut_, transpose, tol);
  for (int p = layout_.offset[fast_.bodyBegin]; p < layout_.offset[fast_.bodyEnd]; ++p)
    y[panelIndex(p) - rowBegin_] += nodesOut_[p];
  PetscFunctionReturn(0);
}

PetscErrorCode BoundarySystem::shellMult(Mat A, Vec x, Vec y) {
  BoundarySystem* s = nullptr;
  PetscFunctionBeginUser;
  PetscCall(MatShellGetContext(A, &s));
  ++s->applications_;
  const PetscScalar* xf = nullptr;
  PetscScalar* yl = nullptr;
  PetscCall(s->replicated_->gather(x, &xf));
  PetscCall(VecGetArray(y, &yl));
  if (s->matrixFree()) {
    PetscCall(s->multFast(xf, yl, false, s->nextTol_));
  } else {
    Eigen::Map<const Eigen::VectorXd> X(xf, s->size_);
    Eigen::Map<Eigen::VectorXd> Y(yl, s->rowEnd_ - s->rowBegin_);
    Y.noalias() = s->rows_ * X;
  }
  PetscCall(VecRestoreArray(y, &yl));
  PetscCall(s->replicated_->release(&xf));
  PetscFunctionReturn(0);
}

void BoundarySystem::multiply(const double* x, double* ownedRows, double tol) const {
  if (matrixFree()) {
    KIRCHHOFF_PETSC_THROW(multFast(x, ownedRows, false, tol));
    return;
  }
  Eigen::Map<const Eigen::VectorXd> X(x, size_);
  Eigen::Map<Eigen::VectorXd>(ownedRows, rowEnd_ - rowBegin_).noalias() = rows_ * X;
}

PetscErrorCode BoundarySystem::shellMultTranspose(Mat A, Vec x, Vec y) {
  BoundarySystem* s = nullptr;
  PetscFunctionBeginUser;
  PetscCall(MatShellGetContext(A, &s));
  ++s->applications_;
  const PetscScalar* xl = nullptr;
  PetscCall(VecGetArrayRead(x, &xl));
  if (s->matrixFree()) {
    PetscScalar* yl = nullptr;
    PetscCall(VecGetArray(y, &yl));
    PetscCall(s->multFast(xl, yl, true, s->nextTol_));
    PetscCall(VecRestoreArray(y, &yl));
    PetscCall(VecRestoreArrayRead(x, &xl));
    PetscFunctionReturn(0);
  }
  Eigen::Map<const Eigen::VectorXd> X(xl, s->rowEnd_ - s->rowBegin_);
  s->work_.noalias() = s->rows_.transpose() * X;
  PetscCall(VecRestoreArrayRead(x, &xl));
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, s->work_.data(), s->size_, MPI_DOUBLE, MPI_SUM, s->comm_));
  PetscScalar* yl = nullptr;
  PetscCall(VecGetArray(y, &yl));
  for (int i = s->rowBegin_; i < s->rowEnd_; ++i) yl[i - s->rowBegin_] = s->work_[i];
  PetscCall(VecRestoreArray(y, &yl));
  PetscFunctionReturn(0);
}

void BoundarySystem::setPairBlocks(const std::vector<BodyPair>& pairs,
                                   const std::function<Eigen::MatrixXd(const BodyPair&)>& assemble) {
  if (direct_) return;
  ScopedEvent ev(Phase::PanelPairFactor);
  std::vector<int> first(static_cast<std::size_t>(layout_.bodies)), size(first.size());
  for (int j = 0; j < layout_.bodies; ++j) {
    first[j] = panelIndex(layout_.offset[j]);
    size[j] = layout_.bodySize(j) + 1;
  }
  pairBlocks_.set(pairs, first, size, rowBegin_, rowEnd_, assemble);
  blockInverses_.skip(pairBlocks_.pairedFirsts());
  int out = pairBlocks_.reachesOut() ? 1 : 0;
  if (ranks_ > 1) MPI_Allreduce(MPI_IN_PLACE, &out, 1, MPI_INT, MPI_MAX, comm_);
  pairsGather_ = out != 0;  // the gather is collective: every rank takes it when one needs it
}

PetscErrorCode BoundarySystem::applyBlocks(Vec x, Vec y, bool transpose) const {
  PetscFunctionBeginUser;
  if (matrixFree() && !pairsGather_) {  // whole bodies per rank: the owned slab holds every block it applies
    const PetscScalar* xl = nullptr;
    PetscScalar* yl = nullptr;
    PetscCall(VecGetArrayRead(x, &xl));
    PetscCall(VecGetArray(y, &yl));
    blockInverses_.apply(xl, rowBegin_, yl, rowBegin_, rowBegin_, rowEnd_, transpose);
    pairBlocks_.apply(xl, rowBegin_, yl, rowBegin_, transpose);
    PetscCall(VecRestoreArray(y, &yl));
    PetscCall(VecRestoreArrayRead(x, &xl));
    PetscFunctionReturn(0);
  }
  const PetscScalar* xf = nullptr;
  PetscScalar* yl = nullptr;
  PetscCall(replicated_->gather(x, &xf));
  PetscCall(VecGetArray(y, &yl));
  blockInverses_.apply(xf, 0, yl, rowBegin_, rowBegin_, rowEnd_, transpose);
  pairBlocks_.apply(xf, 0, yl, rowBegin_, transpose);
  PetscCall(VecRestoreArray(y, &yl));
  PetscCall(replicated_->release(&xf));
  PetscFunctionReturn(0);
}

PetscErrorCode BoundarySystem::shellPC(PC pc, Vec x, Vec y) {
  BoundarySystem* s = nullptr;
  PetscFunctionBeginUser;
  PetscCall(PCShellGetContext(pc, &s));
  PetscCall(s->applyBlocks(x, y, false));
  PetscFunctionReturn(0);
}

PetscErrorCode BoundarySystem::shellPCTranspose(PC pc, Vec x, Vec y) {
  BoundarySystem* s = nullptr;
  PetscFunctionBeginUser;
  PetscCall(PCShellGetContext(pc, &s));
  PetscCall(s->applyBlocks(x, y, true));
  PetscFunctionReturn(0);
}

}  // namespace kirchhoff::fluid
