// One step of a variational integrator in position–momentum form, solved by PETSc SNES:
//   p_k + D1 L_d(q_k, q_k+1) = 0  for q_k+1,   then  p_k+1 = D2 L_d(q_k, q_k+1).
#pragma once

#include <string>
#include <vector>

#include <Eigen/Dense>
#include <mpi.h>
#include <petscsnes.h>

#include "core/OptionErrors.hpp"
#include "integrators/DiscreteLagrangian.hpp"

namespace kirchhoff::integrators {

struct DelResult {
  bool converged = false;
  int iterations = 0;
  double residualNorm = 0.0;
  int functionEvaluations = 0;  ///< residual evaluations (each: one set of panel solves)
  std::string reason;           ///< SNES converged/diverged reason
  bool handedOver = false;      ///< coupled: the step went on as GMRES on the matrix-free Jacobian (FB-92)
};

/// How the Newton matrix d(D1 L_d)/d q_k+1 is formed (option -<prefix>jacobian):
///  fd:          dense finite differences of the exact residual (PETSc), once per step
///  approximate: the Lagrangian's approximateJacobian J0 (a chord iteration)
///  lagged:      J0 + E, E = J_fd - J0 from a finite-difference Jacobian refreshed every
///               -<prefix>jacobian_lag steps (default 10) and kept in the model state, so the
///               known, fast-changing part is exact and only the small remainder is lagged.
///               Between refreshes every Newton iteration corrects J by the secant (good Broyden)
///               update J += (dF - J s) s^T / s^T s of its last step s, when the residual is still
///               well above round-off (1e-12 (sqrt(dim / 3) + |p_k|)), and E = J - J0 is kept for the next
///               step: the remainder then follows the motion and Newton converges superlinearly.
///  newton_krylov: no Newton matrix: GMRES on the matrix-free Jacobian (PETSc MatMFFD, one residual
///               evaluation per product), right-preconditioned by the Lagrangian's
///               jacobianDiagonalBlocks (docs/fluidbody.md (FB-29a)). Evaluations per step do not
///               grow with the dimension (no O(n) refresh); the KSP is -<prefix>ksp_*.
///  coupled:    a chord iteration on the Lagrangian's own solve of its coupled approximate Jacobian
///               (solveApproximateJacobian, docs/fluidbody.md (FB-90)): one residual evaluation per Newton
///               iteration; when an iteration reduces |F| by less than kChordRate, the rest of the step runs
///               newton_krylov's GMRES on the matrix-free Jacobian, preconditioned by the same solve (FB-92).
///               -<prefix>coupled_rtol: the relative accuracy of that solve (default kCoupledRtol).
enum class JacobianMode { Fd, Approximate, Lagged, NewtonKrylov, Coupled };

/// coupled: relative accuracy of the Lagrangian's solve of the coupled Jacobian (measured, docs/fluidbody.md (FB-92)).
constexpr double kCoupledRtol = 1e-4;
/// coupled: a chord iteration that reduces |F| by less than this factor hands the step to GMRES (FB-92).
constexpr double kChordRate = 0.1;
/// A residual that has stopped falling within this factor of the round-off floor is the floor (FB-29d): near
/// contact the fluid's solves carry more than 1e-12 per component (measured: 3.7x the floor at a gap of 2.8e-3).
constexpr double kStallBand = 10.0;

/// SNES on the communicator (options prefix, default "del_"). The unknowns q_k+1 live in an MPI
/// Vec; each residual evaluation gathers them and calls the (collective) discrete Lagrangian.
/// Unless -<prefix>snes_atol is given, the absolute tolerance is 1e-15 (1 + |p_k|), and a residual
/// that stagnates below 1e-12 (sqrt(dim / 3) + |p_k|) counts as converged (round-off), as does one below kStallBand
/// times that which has not halved the best residual before it for two iterations in a row. Defaults: full Newton
/// steps (line search basic), the Jacobian formed once per step at the predictor.
/// Everything a step depends on is in its arguments, so restarts are bitwise reproducible.
class DelSolver {
 public:
  DelSolver(MPI_Comm comm, DiscreteLagrangian& ld, const std::string& prefix = "del_",
            JacobianMode defaultMode = JacobianMode::Fd);
  ~DelSolver();
  DelSolver(const DelSolver&) = delete;
  DelSolver& operator=(const DelSolver&) = delete;

  JacobianMode mode() const { return mode_; }
  /// The -<prefix>jacobian name of the mode.
  const char* modeName() const;
  int jacobianLag() const { return lag_; }
  /// (FB-29e): the next steps count |F| at or below the round-off floor as converged at once, instead of
  /// confirming the floor by one more iteration (approach sub-steps, whose momentum maps (FB-29c) restores).
  void acceptAtFloor(bool on) { acceptAtFloor_ = on; }

  /// q1 holds the predictor on entry and q_k+1 on return; p1 receives p_k+1. In lagged mode
  /// `correction` is the stored E (dimension^2 values, empty = none yet) and is refreshed in
  /// place when `refresh` is true or it is empty.
  DelResult step(const Eigen::VectorXd& q0, const Eigen::VectorXd& p0, Eigen::VectorXd& q1,
                 Eigen::VectorXd& p1, Eigen::MatrixXd* correction = nullptr, bool refresh = false);

 private:
  static PetscErrorCode residual(SNES, Vec x, Vec f, void* ctx);
  static PetscErrorCode convergenceTest(SNES, PetscInt it, PetscReal xnorm, PetscReal snorm,
                                        PetscReal fnorm, SNESConvergedReason* reason, void* ctx);
  static PetscErrorCode matrixJacobian(SNES, Vec x, Mat J, Mat P, void* ctx);
  /// newton_krylov: moves the matrix-free Jacobian's base to x and factors the diagonal blocks there.
  static PetscErrorCode krylovJacobian(SNES, Vec x, Mat J, Mat P, void* ctx);
  static PetscErrorCode applyBlocks(PC pc, Vec x, Vec y);
  /// coupled: moves the matrix-free Jacobian's base to x, keeps x for the preconditioner, and hands the step
  /// to GMRES after a slow chord iteration (FB-92).
  static PetscErrorCode coupledJacobian(SNES, Vec x, Mat J, Mat P, void* ctx);
  static PetscErrorCode applyCoupled(PC pc, Vec x, Vec y);
  PetscErrorCode setUpKrylov();
  PetscErrorCode setUpCoupled();
  /// coupled: the chord (KSPPREONLY) or GMRES on the matrix-free Jacobian, both with the coupled solve as PC.
  PetscErrorCode useChord(bool chord);
  PetscErrorCode gather(Vec x, Eigen::VectorXd& q);
  PetscErrorCode scatterOwned(const Eigen::VectorXd& v, Vec out);
  PetscErrorCode setMatrix(const Eigen::MatrixXd& A, Mat J);
  /// -<prefix>jacobian, -<prefix>jacobian_lag, -<prefix>jacobian_fd_tail (listed by -help).
  PetscErrorCode readOptions(JacobianMode defaultMode, OptionErrors& errors);
  PetscErrorCode setUp();
  /// Residual p_k + D1 L_d(q_k, q1) (counts an evaluation).
  Eigen::VectorXd residualAt(const Eigen::VectorXd& q1);
  Eigen::MatrixXd finiteDifferenceJacobian(const Eigen::VectorXd& q1, const Eigen::VectorXd& F, int first);
  /// Lagged mode: J0 (in A) + E, E refreshed by finite differences or by a secant update.
  void laggedJacobian(const Eigen::VectorXd& x, const Eigen::VectorXd& F, Eigen::MatrixXd& A);

  MPI_Comm comm_;
  DiscreteLagrangian& ld_;
  std::string prefix_;
  int n_;
  JacobianMode mode_ = JacobianMode::Fd;
  int lag_ = 10;
  int fresh_ = 0;  ///< columns fresh_..n-1 recomputed by differences at every iteration (lagged)
  SNES snes_ = nullptr;
  Vec x_ = nullptr, f_ = nullptr, all_ = nullptr;
  VecScatter toAll_ = nullptr;
  Mat J_ = nullptr;
  // newton_krylov: the block-diagonal preconditioner, block b at rows blockStart_[b].
  std::vector<Eigen::PartialPivLU<Eigen::MatrixXd>> blockLu_;
  std::vector<int> blockStart_;
  bool userAtol_ = false;
  bool userLag_ = false;
  bool userKspAtol_ = false;
  bool userKspType_ = false;
  bool acceptAtFloor_ = false;
  // coupled: the point of the preconditioner, whether the step still runs the chord, the relative accuracy of the
  // coupled solve, and the residual norms of the step's iterations.
  Eigen::VectorXd pcPoint_;
  bool chord_ = true;
  double coupledRtol_ = kCoupledRtol;
  std::vector<double> fnorms_;
  // Per step data seen by the callbacks.
  const Eigen::VectorXd* q0_ = nullptr;
  const Eigen::VectorXd* p0_ = nullptr;
  Eigen::MatrixXd* correction_ = nullptr;
  bool refresh_ = false;
  Eigen::VectorXd lastQ1_, lastD2_, lastF_;
  // Lagged mode: the Newton matrix of the last iteration, its point and residual (secant updates).
  Eigen::MatrixXd prevJ_;
  Eigen::VectorXd prevX_, prevF_;
  std::string callbackError_;
  int evaluations_ = 0;
  double roundoff_ = 0.0, lastFnorm_ = 0.0;
};

}  // namespace kirchhoff::integrators
