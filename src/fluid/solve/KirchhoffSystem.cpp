// The bordered boundary system (docs/fluidbody.md (FB-91)): a MatShell over the rows of BoundarySystem plus three
// velocity rows per body, and the exact LU of every body's isolated bordered block as PCSHELL.
#include "fluid/solve/KirchhoffSystem.hpp"

#include <algorithm>
#include <sstream>

#include "core/Error.hpp"
#include "core/LogEvents.hpp"
#include "core/Mpi.hpp"
#include "fluid/solve/BreakdownRestart.hpp"
#include "fluid/solve/PetscThrow.hpp"

namespace kirchhoff::fluid {

KirchhoffSystem::KirchhoffSystem(MPI_Comm comm, const BoundarySystem& system,
                                 const std::vector<Eigen::MatrixXd>& selfBlocks,
                                 const std::vector<Eigen::MatrixXd>& selfPotential,
                                 Eigen::Matrix<double, Eigen::Dynamic, 3> rigid,
                                 std::function<Eigen::VectorXd(const Eigen::VectorXd&, double)> rigidPotential,
                                 const std::string& prefix)
    : comm_(comm), system_(system), layout_(system.layout()), rigid_(std::move(rigid)),
      rigidPotential_(std::move(rigidPotential)) {
  const int n = layout_.bodies;
  if (static_cast<int>(selfBlocks.size()) != n || static_cast<int>(selfPotential.size()) != n ||
      rigid_.rows() != layout_.nodes)
    throw ConfigurationError("Kirchhoff system: self-blocks do not match the boundary system");
  size_ = system.size() + 3 * n;
  bordered_.resize(static_cast<std::size_t>(system.size()) + 1);
  for (int j = 0; j < n; ++j)
    for (int i = system.panelIndex(layout_.offset[j]); i <= system.constraintIndex(j); ++i) bordered_[i] = i + 3 * j;
  bordered_.back() = size_;  // one past the end
  begin_ = bordered_[system.rowBegin()];
  end_ = bordered_[system.rowEnd()];
  for (int j = 0; j < n; ++j) {
    const int first = system.panelIndex(layout_.offset[j]), last = system.constraintIndex(j);
    if (first < system.rowEnd() && last >= system.rowBegin()) {
      blockBody_.push_back(j);
      selfBlocks_.push_back(selfBlocks[j]);
      selfPotential_.push_back(selfPotential[j]);
    }
  }
  const PetscInt local = end_ - begin_;
  KIRCHHOFF_PETSC_THROW(VecCreateMPI(comm_, local, size_, &b_));
  KIRCHHOFF_PETSC_THROW(VecDuplicate(b_, &x_));
  replicated_.emplace(b_);
  KIRCHHOFF_PETSC_THROW(MatCreateShell(comm_, local, local, size_, size_, this, &A_));
  KIRCHHOFF_PETSC_THROW(MatShellSetOperation(A_, MATOP_MULT, (void (*)(void))shellMult));
  KIRCHHOFF_PETSC_THROW(KSPCreate(comm_, &ksp_));
  KIRCHHOFF_PETSC_THROW(KSPSetOptionsPrefix(ksp_, (prefix + "kirchhoff_").c_str()));
  KIRCHHOFF_PETSC_THROW(KSPSetOperators(ksp_, A_, A_));
  KIRCHHOFF_PETSC_THROW(KSPSetType(ksp_, KSPGMRES));
  KIRCHHOFF_PETSC_THROW(KSPSetPCSide(ksp_, PC_RIGHT));  // the test is on the true residual
  KIRCHHOFF_PETSC_THROW(KSPSetTolerances(ksp_, 1e-4, 1e-300, PETSC_DEFAULT, 500));
  PC pc;
  KIRCHHOFF_PETSC_THROW(KSPGetPC(ksp_, &pc));
  KIRCHHOFF_PETSC_THROW(PCSetType(pc, PCSHELL));
  KIRCHHOFF_PETSC_THROW(PCShellSetContext(pc, this));
  KIRCHHOFF_PETSC_THROW(PCShellSetApply(pc, shellPC));
  KIRCHHOFF_PETSC_THROW(PCShellSetName(pc, "bordered body-block LU (FB-91)"));
  KIRCHHOFF_PETSC_THROW(KSPSetFromOptions(ksp_));
}

KirchhoffSystem::~KirchhoffSystem() {
  // Destructors must not throw: PETSc errors here are ignored on purpose (nothing to recover).
  if (ksp_) (void)KSPDestroy(&ksp_);
  if (A_) (void)MatDestroy(&A_);
  if (x_) (void)VecDestroy(&x_);
  if (b_) (void)VecDestroy(&b_);
}

void KirchhoffSystem::factorBlocks(const Eigen::VectorXd& bodyMass) const {
  // Body j's isolated bordered block: [M_jj^aug, -B_j; -rho B_j^T W_j S_jj, diag(m_j)], rows and columns
  // [nodes, multiplier, three velocities] (the multiplier's column of C and row of B are zero).
  if (mass_.size() == bodyMass.size() && mass_ == bodyMass) return;
  blockInverses_ = BodyBlocks();
  for (std::size_t k = 0; k < blockBody_.size(); ++k) {
    const int j = blockBody_[k], nj = layout_.bodySize(j), o = layout_.offset[j];
    Eigen::MatrixXd K = Eigen::MatrixXd::Zero(nj + 4, nj + 4);
    K.topLeftCorner(nj + 1, nj + 1) = selfBlocks_[k];
    K.block(0, nj + 1, nj, 3) = -rigid_.middleRows(o, nj);
    K.block(nj + 1, 0, 3, nj) = -selfPotential_[k];
    K.bottomRightCorner<3, 3>() = bodyMass.segment<3>(3 * j).asDiagonal();
    blockInverses_.add(borderedIndex(system_.panelIndex(o)), Eigen::PartialPivLU<Eigen::MatrixXd>(K).inverse());
  }
  mass_ = bodyMass;
}

PetscErrorCode KirchhoffSystem::shellMult(Mat A, Vec x, Vec y) {
  // [M sigma - B delta; M_b delta - rho B^T W S sigma] on the owned rows.
  KirchhoffSystem* s = nullptr;
  PetscFunctionBeginUser;
  PetscCall(MatShellGetContext(A, &s));
  ++s->applications_;
  const BoundarySystem& sys = s->system_;
  const NodeLayout& L = s->layout_;
  const PetscScalar* xf = nullptr;
  PetscCall(s->replicated_->gather(x, &xf));
  const int aug = sys.size(), n = L.bodies;
  s->augmented_.resize(aug);
  Eigen::VectorXd delta(3 * n), sigma(L.nodes);
  for (int j = 0, i = 0; j < n; ++j) {
    for (int p = L.offset[j]; p <= L.offset[j + 1]; ++p, ++i) s->augmented_[i] = xf[i + 3 * j];
    delta.segment<3>(3 * j) = Eigen::Map<const Eigen::Vector3d>(xf + s->velocityIndex(j));
  }
  for (int p = 0; p < L.nodes; ++p) sigma[p] = s->augmented_[sys.panelIndex(p)];
  PetscCall(s->replicated_->release(&xf));
  s->ownedRows_.resize(sys.rowEnd() - sys.rowBegin());
  try {
    sys.multiply(s->augmented_.data(), s->ownedRows_.data(), s->tol_);
  } catch (const std::exception& e) {
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_LIB, "%s", e.what());
  }
  Eigen::VectorXd C = s->rigidPotential_(sigma, s->tol_);  // this rank's share of rho B^T W S sigma
  sumOverRanks(s->comm_, C.data(), static_cast<std::size_t>(C.size()));
  PetscScalar* yl = nullptr;
  PetscCall(VecGetArray(y, &yl));
  for (int i = sys.rowBegin(); i < sys.rowEnd(); ++i) yl[s->borderedIndex(i) - s->begin_] = s->ownedRows_[i - sys.rowBegin()];
  for (int p = sys.panelBegin(); p < sys.panelEnd(); ++p) {
    const int j = L.body[p];
    yl[s->borderedIndex(sys.panelIndex(p)) - s->begin_] -= s->rigid_.row(p).dot(delta.segment<3>(3 * j));
  }
  for (int j = 0; j < n; ++j) {
    const int v = s->velocityIndex(j);
    if (v < s->begin_ || v >= s->end_) continue;
    for (int k = 0; k < 3; ++k) yl[v + k - s->begin_] = s->mass_[3 * j + k] * delta[3 * j + k] - C[3 * j + k];
  }
  PetscCall(VecRestoreArray(y, &yl));
  PetscFunctionReturn(0);
}

PetscErrorCode KirchhoffSystem::shellPC(PC pc, Vec x, Vec y) {
  // Every body block meeting the owned rows is solved whole from the gathered vector; the owned rows are kept.
  KirchhoffSystem* s = nullptr;
  PetscFunctionBeginUser;
  PetscCall(PCShellGetContext(pc, &s));
  PetscScalar* yl = nullptr;
  PetscCall(VecGetArray(y, &yl));
  if (s->system_.matrixFree()) {  // whole bodies per rank: no gather
    const PetscScalar* xl = nullptr;
    PetscCall(VecGetArrayRead(x, &xl));
    s->blockInverses_.apply(xl, s->begin_, yl, s->begin_, s->begin_, s->end_, false);
    PetscCall(VecRestoreArrayRead(x, &xl));
  } else {
    const PetscScalar* xf = nullptr;
    PetscCall(s->replicated_->gather(x, &xf));
    s->blockInverses_.apply(xf, 0, yl, s->begin_, s->begin_, s->end_, false);
    PetscCall(s->replicated_->release(&xf));
  }
  PetscCall(VecRestoreArray(y, &yl));
  PetscFunctionReturn(0);
}

KirchhoffSystem::Solution KirchhoffSystem::solve(const Eigen::VectorXd& bodyMass, const Eigen::VectorXd& r,
                                                 double rtol) const {
  ScopedEvent ev(Phase::KirchhoffSolve);
  const int n = layout_.bodies;
  if (bodyMass.size() != 3 * n || r.size() != 3 * n)
    throw ConfigurationError("Kirchhoff system: masses and right-hand side need " + std::to_string(3 * n) + " entries");
  factorBlocks(bodyMass);
  PetscScalar* bl = nullptr;
  KIRCHHOFF_PETSC_THROW(VecGetArray(b_, &bl));
  std::fill(bl, bl + (end_ - begin_), 0.0);
  for (int j = 0; j < n; ++j) {
    const int v = velocityIndex(j);
    if (v >= begin_ && v < end_)
      for (int k = 0; k < 3; ++k) bl[v + k - begin_] = r[3 * j + k];
  }
  KIRCHHOFF_PETSC_THROW(VecRestoreArray(b_, &bl));
  KIRCHHOFF_PETSC_THROW(KSPSetTolerances(ksp_, rtol, PETSC_DEFAULT, PETSC_DEFAULT, PETSC_DEFAULT));
  // (FB-93): from a zero guess every product is a Krylov direction, so the operator need be no more accurate than
  // kRelaxation rtol.
  tol_ = kRelaxation * rtol;
  const RestartedSolve solved = solveRestartingOnBreakdown(ksp_, b_, x_, false, kBreakdownRestarts);
  const PetscInt its = solved.iterations;
  totalIterations_ += its;
  if (solved.reason < 0) {
    std::ostringstream os;
    os << "Kirchhoff system (FB-91): GMRES did not converge (" << KSPConvergedReasons[solved.reason] << ") after " << its
       << " iterations";
    if (solved.restarts > 0) os << " and " << solved.restarts << " restart(s) from the iterate (FB-93a)";
    throw NumericalError(os.str());
  }
  const PetscScalar* xf = nullptr;
  KIRCHHOFF_PETSC_THROW(replicated_->gather(x_, &xf));
  Solution out;
  out.iterations = static_cast<int>(its);
  out.delta.resize(3 * n);
  out.sigma.resize(layout_.nodes);
  for (int j = 0; j < n; ++j) out.delta.segment<3>(3 * j) = Eigen::Map<const Eigen::Vector3d>(xf + velocityIndex(j));
  out.augmented.resize(system_.size());
  for (int i = 0; i < system_.size(); ++i) out.augmented[i] = xf[borderedIndex(i)];
  for (int p = 0; p < layout_.nodes; ++p) out.sigma[p] = out.augmented[system_.panelIndex(p)];
  KIRCHHOFF_PETSC_THROW(replicated_->release(&xf));
  return out;
}

}  // namespace kirchhoff::fluid
