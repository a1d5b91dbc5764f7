// The augmented boundary system of docs/fluidbody.md (any discretization): for every body j,
//   sum_q M_pq sigma_q + mu_j = b_p (p on body j),   sum_{q on j} w_q sigma_q = 0,
// (zero net source per body), solved by dense LU (small N; on several ranks redundantly, after the
// distributed assembly) or distributed GMRES preconditioned by the exact inverses of the body
// self-blocks (PCSHELL), prefix -<prefix>.
#pragma once

#include <petscksp.h>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <Eigen/Dense>

#include "fluid/solve/BodyBlocks.hpp"
#include "fluid/solve/DistributedLU.hpp"
#include "fluid/solve/PairBlocks.hpp"
#include "fluid/solve/ReplicatedVector.hpp"
#include "fluid/discretization/NodeLayout.hpp"

namespace kirchhoff::fluid {

/// Largest N + n solved by dense LU under Auto when there are several bodies (-panel_direct_max is
/// the limit for one body, whose matrix is inverted once).
constexpr int kSeveralBodiesDirectMax = 384;

/// How the panel system is solved. Auto: dense LU (Eigen, partial pivoting) when N + n <= directMax,
/// else KSP. On several ranks the rows are assembled in slabs either way; the direct path gathers
/// them and every rank factors the whole matrix (like PCREDUNDANT: the O(N^2) assembly and gradient
/// are split, the O(N^3) factorization is not), unless DirectFactorization Scalapack or Mumps
/// factors one distributed LU (DistributedLU). A single body's matrix is constant in its frame, so
/// the direct path then inverts it once for the whole run.
enum class PanelSolver { Auto, Direct, Ksp };

/// Row-major dense block: assembly writes and the matrix-vector products run along rows.
using RowMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

/// Matrix-free inter-body part of M (docs/fluidbody.md (FB-46)): `apply(x, y, false, tol)` writes the owned node
/// rows of M_inter x (x: all nodes); `apply(u, y, true, tol)` returns the complete M_inter^T u (u read on the
/// owned rows); tol > 0: a relative accuracy that suffices for this application (FB-93), 0: the full one. The rows
/// are distributed by whole bodies [bodyBegin, bodyEnd).
struct InterBodyApply {
  std::function<void(const Eigen::VectorXd&, Eigen::VectorXd&, bool, double)> apply;
  int bodyBegin = 0, bodyEnd = 0;
};

/// Relaxed operator accuracy inside the KSP solves of the matrix-free path (docs/fluidbody.md (FB-93)): the Krylov
/// step after a residual r_k applies the operator to relative accuracy kRelaxation rtol |b| / |r_k| (the full accuracy
/// for the initial residual of every GMRES cycle).
constexpr double kRelaxation = 0.1;

class BoundarySystem {
 public:
  /// `selfBlocks[j]`: the constant augmented self-block of body j, (N_j + 1)^2, rows and
  /// columns [panels of j, multiplier of j].
  BoundarySystem(MPI_Comm comm, const NodeLayout& layout,
              const std::vector<Eigen::MatrixXd>& selfBlocks, PanelSolver solver, int directMax,
              const std::string& prefix,
              DirectFactorization factorization = DirectFactorization::Redundant,
              InterBodyApply fast = {});
  ~BoundarySystem();
  BoundarySystem(const BoundarySystem&) = delete;
  BoundarySystem& operator=(const BoundarySystem&) = delete;

  /// Augmented index of node p, and of the multiplier / constraint of body j.
  int panelIndex(int p) const { return p + layout_.body[p]; }
  int constraintIndex(int j) const { return layout_.offset[j + 1] + j; }
  int size() const { return size_; }
  const NodeLayout& layout() const { return layout_; }
  /// Owned augmented rows [rowBegin, rowEnd) and the nodes they hold [panelBegin, panelEnd).
  int rowBegin() const { return rowBegin_; }
  int rowEnd() const { return rowEnd_; }
  int panelBegin() const { return panelBegin_; }
  int panelEnd() const { return panelEnd_; }
  /// The owned rows (column-major, all columns). Self-blocks are filled at construction; the
  /// caller overwrites the inter-body entries of its panel rows, then calls update().
  RowMatrix& rows() { return rows_; }
  const RowMatrix& rows() const { return rows_; }
  /// Refactors (direct path, several bodies); nothing to do for KSP or a single body.
  void update();
  /// Solves A X = R (or A^T X = R), R and X replicated, size() x k. Collective. With warm starts
  /// on, a `slot` >= 0 names a family of right-hand sides: the KSP path starts from the solution
  /// the slot returned last (if it has k columns), and keeps this one (FB-47a). `rtol` > 0: a looser relative
  /// tolerance for this solve than the KSP's own (never a tighter one); 0: the KSP's.
  Eigen::MatrixXd solve(const Eigen::MatrixXd& rhs, bool transpose = false, int slot = -1, double rtol = 0.0) const;
  /// The owned rows [rowBegin, rowEnd) of A x for the complete augmented vector x (size()): the operator of the
  /// KSP path (dense row slab or self-blocks plus the matrix-free inter-body part, to relative accuracy tol > 0
  /// or the full one). Collective on the matrix-free path.
  void multiply(const double* x, double* ownedRows, double tol = 0.0) const;
  /// Close body pairs in the KSP path's preconditioner (FB-96): `assemble(pair)` gives the augmented pair block
  /// (rows and columns: those of j, then those of k), called for the pairs this rank's rows touch. Replaces the
  /// previous pairs; nothing to do on the direct path. Collective.
  void setPairBlocks(const std::vector<BodyPair>& pairs,
                     const std::function<Eigen::MatrixXd(const BodyPair&)>& assemble);
  /// Relaxed operator accuracy in the KSP solves (FB-93; on by default, matrix-free path).
  void setRelaxation(bool on) { relax_ = on; }
  /// KSP path: initial guesses from the last solution of the same slot (off: zero guesses).
  void setWarmStart(bool on);
  /// A one-column slot's last right-hand side and solution may move by (db, dx), an increment of the same linear
  /// problem solved elsewhere (docs/fluidbody.md (FB-94)): its next solve starts from x + dx when b + db is nearer
  /// to the new right-hand side than b.
  void offerIncrement(int slot, const Eigen::VectorXd& db, const Eigen::VectorXd& dx) const;
  /// Drops the remembered solutions: the next solve of every slot starts from zero.
  void forgetGuesses() { guesses_.clear(); }
  bool warmStart() const { return warmStart_; }

  bool direct() const { return direct_; }
  /// True when the direct path factors distributed (several ranks and bodies, not redundant).
  bool distributedFactor() const { return distributed_ != nullptr; }
  /// Matrix-free path: no rows_ (only the owned self-blocks), KSP only.
  bool matrixFree() const { return static_cast<bool>(fast_.apply); }
  /// Largest KSP iteration count of the last solve() (0 on the direct path).
  int lastIterations() const { return lastIterations_; }
  /// KSP iterations of all solves so far (0 on the direct path).
  long totalIterations() const { return totalIterations_; }
  /// Right-hand sides solved so far, and applications of the operator (or of its transpose) so far: the
  /// deterministic cost counts of the many-body benchmark (KSP path; a direct solve applies none).
  long totalSolves() const { return totalSolves_; }
  long operatorApplications() const { return applications_; }
  MPI_Comm comm() const { return comm_; }

 private:
  static PetscErrorCode shellMult(Mat A, Vec x, Vec y);
  static PetscErrorCode shellMultTranspose(Mat A, Vec x, Vec y);
  static PetscErrorCode shellPC(PC pc, Vec x, Vec y);
  static PetscErrorCode shellPCTranspose(PC pc, Vec x, Vec y);
  PetscErrorCode applyBlocks(Vec x, Vec y, bool transpose) const;
  PetscErrorCode multFast(const PetscScalar* x, PetscScalar* y, bool transpose, double tol) const;
  /// KSP monitor: the accuracy of the next operator application (FB-93).
  static PetscErrorCode relaxationMonitor(KSP ksp, PetscInt its, PetscReal rnorm, void* ctx);
  void setupKsp(const std::string& prefix);
  /// LU of the whole matrix (direct path): of rows_ on one rank, of the gathered slabs on several.
  void factor();

  NodeLayout layout_;
  MPI_Comm comm_;
  int ranks_ = 1;
  int size_ = 0, rowBegin_ = 0, rowEnd_ = 0, panelBegin_ = 0, panelEnd_ = 0;
  bool direct_ = true;
  RowMatrix rows_;
  Eigen::PartialPivLU<Eigen::MatrixXd> lu_;            // direct path
  Eigen::MatrixXd inverse_;                            // direct path, one body
  RowMatrix gathered_;                                 // direct path, several ranks: all rows
  std::unique_ptr<DistributedLU> distributed_;         // direct path, several ranks and bodies
  BodyBlocks blockInverses_;                          // KSP preconditioner: inverses of the self-blocks (local bodies)
  BodyBlocks selfBlocks_;                             // matrix-free path: the owned augmented self-blocks
  PairBlocks pairBlocks_;                             // KSP preconditioner: close pairs (FB-96)
  bool pairsGather_ = false;                          // a pair on some rank reaches beyond its rows
  InterBodyApply fast_;
  mutable Eigen::VectorXd nodesIn_, nodesOut_;
  mutable int lastIterations_ = 0;
  mutable long totalIterations_ = 0;
  mutable long totalSolves_ = 0;
  mutable long applications_ = 0;
  bool relax_ = true;
  mutable double bNorm_ = 0.0, nextTol_ = 0.0;  // (FB-93): |b| of the solve, accuracy of the next application
  bool warmStart_ = false;
  struct Slot {
    Eigen::MatrixXd b, x;  ///< last right-hand sides of a slot and their solutions (warm starts)
    Eigen::VectorXd db, dx;  ///< an offered increment of a one-column slot (FB-94)
  };
  mutable std::vector<Slot> guesses_;
  Mat A_ = nullptr;
  KSP ksp_ = nullptr;
  Vec x_ = nullptr, b_ = nullptr;
  mutable std::optional<ReplicatedVector> replicated_;  // KSP path: all rows of x_'s layout on every rank
  mutable Eigen::VectorXd work_;
};

}  // namespace kirchhoff::fluid
