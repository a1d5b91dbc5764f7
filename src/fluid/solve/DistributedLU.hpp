// Distributed LU of the augmented boundary system of docs/fluidbody.md ((FB-22a): A sigma = b and the
// adjoint A^T lambda = c): the owned row slabs in a PETSc parallel matrix, factored by ScaLAPACK or MUMPS.
#pragma once

#include <petscmat.h>

#include <optional>
#include <string>

#include <Eigen/Dense>

#include "fluid/solve/ReplicatedVector.hpp"

namespace kirchhoff::fluid {

/// How the direct path factors the matrix on several ranks (-panel_direct_factorization).
/// Redundant: every rank gathers all rows and factors them with Eigen (the path on one rank, always);
/// Scalapack: MATSCALAPACK (2D block-cyclic; PETSc has no transposed ScaLAPACK solve, so A^T is
/// factored too); Mumps: MPIAIJ holding every
/// entry, MUMPS LU (analysis once, numeric factorization per update, transposed solves from the same
/// factors).
enum class DirectFactorization { Redundant, Scalapack, Mumps };

/// Option value of `kind` ("redundant", "scalapack", "mumps").
std::string directFactorizationName(DirectFactorization kind);

class DistributedLU {
 public:
  /// Same storage as BoundarySystem's RowMatrix: owned rows, all columns, row-major.
  using RowSlab = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

  /// Rows [rowBegin, rowEnd) of the size x size matrix are owned by this rank (contiguous, in rank
  /// order). `kind` must be Scalapack or Mumps. Collective.
  DistributedLU(MPI_Comm comm, int size, int rowBegin, int rowEnd, DirectFactorization kind);
  ~DistributedLU();
  DistributedLU(const DistributedLU&) = delete;
  DistributedLU& operator=(const DistributedLU&) = delete;

  /// LU of the matrix whose owned rows are `rows` ((rowEnd - rowBegin) x size). Collective.
  void factor(const RowSlab& rows);
  /// Solves A X = R (or A^T X = R); R replicated (size x k, the same on every rank), X replicated
  /// and bitwise the same on every rank. Collective.
  Eigen::MatrixXd solve(const Eigen::MatrixXd& rhs, bool transpose = false) const;

  DirectFactorization kind() const { return kind_; }

 private:
  void fill(const RowSlab& rows);

  int size_ = 0, rowBegin_ = 0, rowEnd_ = 0;
  DirectFactorization kind_;
  Mat A_ = nullptr;   // MPIDENSE (ScaLAPACK) or MPIAIJ (MUMPS), our row slabs
  Mat F_ = nullptr;   // factor of A (ScaLAPACK: block-cyclic, factored in place)
  Mat Ft_ = nullptr;  // ScaLAPACK: factor of A^T
  Vec b_ = nullptr, x_ = nullptr;                // factor layout
  mutable std::optional<ReplicatedVector> all_;  // x gathered on every rank
};

}  // namespace kirchhoff::fluid
