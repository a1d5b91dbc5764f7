// Distributed LU of the augmented boundary system (docs/fluidbody.md, (FB-22a)): row slabs into
// MPIDENSE -> MATSCALAPACK or MPIAIJ -> MUMPS, solves with replicated right-hand sides and results.
#include "fluid/solve/DistributedLU.hpp"

#include <vector>

#include "core/Error.hpp"
#include "fluid/solve/PetscThrow.hpp"

namespace kirchhoff::fluid {

std::string directFactorizationName(DirectFactorization kind) {
  switch (kind) {
    case DirectFactorization::Redundant: return "redundant";
    case DirectFactorization::Scalapack: return "scalapack";
    case DirectFactorization::Mumps: return "mumps";
  }
  return "redundant";
}

DistributedLU::DistributedLU(MPI_Comm comm, int size, int rowBegin, int rowEnd, DirectFactorization kind)
    : size_(size), rowBegin_(rowBegin), rowEnd_(rowEnd), kind_(kind) {
  if (kind == DirectFactorization::Redundant)
    throw ConfigurationError("DistributedLU: the redundant factorization is BoundarySystem's own");
  const PetscInt local = rowEnd - rowBegin, n = size;
  if (kind == DirectFactorization::Scalapack) {
    KIRCHHOFF_PETSC_THROW(MatCreateDense(comm, local, PETSC_DECIDE, n, n, nullptr, &A_));
  } else {
    // Every entry is a nonzero: the owned diagonal block is local x local, the rest n - local.
    KIRCHHOFF_PETSC_THROW(MatCreateAIJ(comm, local, local, n, n, local, nullptr, n - local, nullptr, &A_));
    KIRCHHOFF_PETSC_THROW(MatSetOption(A_, MAT_ROW_ORIENTED, PETSC_TRUE));
  }
}

DistributedLU::~DistributedLU() {
  // Destructors must not throw: PETSc errors here are ignored on purpose (nothing to recover).
  for (Mat* m : {&A_, &F_, &Ft_})
    if (*m) (void)MatDestroy(m);
  for (Vec* v : {&b_, &x_})
    if (*v) (void)VecDestroy(v);
}

void DistributedLU::fill(const RowSlab& rows) {
  const int local = rowEnd_ - rowBegin_;
  if (rows.rows() != local || rows.cols() != size_)
    throw NumericalError("DistributedLU: the row slab is not the owned rows x all columns");
  if (kind_ == DirectFactorization::Scalapack) {
    PetscScalar* a = nullptr;
    PetscInt lda = 0;
    KIRCHHOFF_PETSC_THROW(MatDenseGetLDA(A_, &lda));
    KIRCHHOFF_PETSC_THROW(MatDenseGetArrayWrite(A_, &a));
    // The local block of MPIDENSE is column-major: owned rows x all columns.
    Eigen::Map<Eigen::MatrixXd, 0, Eigen::OuterStride<>>(a, local, size_, Eigen::OuterStride<>(lda)) = rows;
    KIRCHHOFF_PETSC_THROW(MatDenseRestoreArrayWrite(A_, &a));
  } else {
    std::vector<PetscInt> cols(static_cast<std::size_t>(size_));
    for (int c = 0; c < size_; ++c) cols[c] = c;
    for (int i = 0; i < local; ++i) {
      const PetscInt r = rowBegin_ + i;
      KIRCHHOFF_PETSC_THROW(MatSetValues(A_, 1, &r, size_, cols.data(), rows.row(i).data(), INSERT_VALUES));
    }
  }
  KIRCHHOFF_PETSC_THROW(MatAssemblyBegin(A_, MAT_FINAL_ASSEMBLY));
  KIRCHHOFF_PETSC_THROW(MatAssemblyEnd(A_, MAT_FINAL_ASSEMBLY));
}

void DistributedLU::factor(const RowSlab& rows) {
  fill(rows);
  MatFactorInfo info;
  KIRCHHOFF_PETSC_THROW(MatFactorInfoInitialize(&info));
  if (kind_ == DirectFactorization::Scalapack) {
    // In place: A_ -> block-cyclic F_ and its PBLAS transpose Ft_, each factored over itself
    // (PETSc's ScaLAPACK interface solves with the factored matrix only, never its transpose).
    for (Mat* m : {&F_, &Ft_})
      if (*m) KIRCHHOFF_PETSC_THROW(MatDestroy(m));
    KIRCHHOFF_PETSC_THROW(MatConvert(A_, MATSCALAPACK, MAT_INITIAL_MATRIX, &F_));
    KIRCHHOFF_PETSC_THROW(MatTranspose(F_, MAT_INITIAL_MATRIX, &Ft_));
    KIRCHHOFF_PETSC_THROW(MatLUFactor(F_, nullptr, nullptr, &info));
    KIRCHHOFF_PETSC_THROW(MatLUFactor(Ft_, nullptr, nullptr, &info));
  } else {
    if (!F_) {
      // Analysis once: the pattern (every entry) does not change between configurations.
      KIRCHHOFF_PETSC_THROW(MatGetFactor(A_, MATSOLVERMUMPS, MAT_FACTOR_LU, &F_));
      KIRCHHOFF_PETSC_THROW(MatLUFactorSymbolic(F_, A_, nullptr, nullptr, &info));
    }
    KIRCHHOFF_PETSC_THROW(MatLUFactorNumeric(F_, A_, &info));
    // MUMPS reports a failed factorization (INFOG(1) < 0, the same on every rank) as a flag only.
    MatFactorError error = MAT_FACTOR_NOERROR;
    KIRCHHOFF_PETSC_THROW(MatFactorGetError(F_, &error));
    if (error != MAT_FACTOR_NOERROR)
      throw NumericalError("DistributedLU: MUMPS factorization of the boundary system failed (singular matrix?)");
  }
  if (!b_) {
    KIRCHHOFF_PETSC_THROW(MatCreateVecs(F_, &x_, &b_));
    all_.emplace(x_);
  }
}

Eigen::MatrixXd DistributedLU::solve(const Eigen::MatrixXd& rhs, bool transpose) const {
  if (!F_) throw NumericalError("DistributedLU: solve before factor");
  const bool viaTransposed = transpose && kind_ == DirectFactorization::Scalapack;
  PetscInt lo = 0, hi = 0;
  KIRCHHOFF_PETSC_THROW(VecGetOwnershipRange(b_, &lo, &hi));
  Eigen::MatrixXd out(size_, rhs.cols());
  for (Eigen::Index k = 0; k < rhs.cols(); ++k) {
    PetscScalar* b = nullptr;
    KIRCHHOFF_PETSC_THROW(VecGetArrayWrite(b_, &b));
    for (PetscInt i = lo; i < hi; ++i) b[i - lo] = rhs(i, k);
    KIRCHHOFF_PETSC_THROW(VecRestoreArrayWrite(b_, &b));
    if (viaTransposed)
      KIRCHHOFF_PETSC_THROW(MatSolve(Ft_, b_, x_));
    else if (transpose)
      KIRCHHOFF_PETSC_THROW(MatSolveTranspose(F_, b_, x_));
    else
      KIRCHHOFF_PETSC_THROW(MatSolve(F_, b_, x_));
    const PetscScalar* x = nullptr;
    KIRCHHOFF_PETSC_THROW(all_->gather(x_, &x));
    out.col(k) = Eigen::Map<const Eigen::VectorXd>(x, size_);
    KIRCHHOFF_PETSC_THROW(all_->release(&x));
  }
  return out;
}

}  // namespace kirchhoff::fluid
