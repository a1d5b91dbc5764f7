// One step of a variational integrator in position–momentum form, solved by PETSc SNES:
//   p_k + D1 L_d(q_k, q_k+1) = 0  for q_k+1,   then  p_k+1 = D2 L_d(q_k, q_k+1).
#pragma once

#include <string>

#include <Eigen/Dense>
#include <mpi.h>
#include <petscsnes.h>

#include "integrators/DiscreteLagrangian.hpp"

namespace kirchhoff::integrators {

struct DelResult {
  bool converged = false;
  int iterations = 0;
  double residualNorm = 0.0;
  std::string reason;  ///< SNES converged/diverged reason
};

/// SNES on the communicator (options prefix, default "del_"). The unknowns q_k+1 live in an MPI
/// Vec; each residual evaluation gathers them and calls the (collective) discrete Lagrangian.
/// Jacobian: dense finite differences of the exact residual (default), or the Lagrangian's
/// approximate Jacobian with -<prefix>jacobian approximate (a chord / preconditioner).
/// Unless -<prefix>snes_atol is given, the absolute tolerance is 1e-14 (1 + |p_k|).
class DelSolver {
 public:
  DelSolver(MPI_Comm comm, DiscreteLagrangian& ld, const std::string& prefix = "del_");
  ~DelSolver();
  DelSolver(const DelSolver&) = delete;
  DelSolver& operator=(const DelSolver&) = delete;

  /// q1 holds the predictor on entry and q_k+1 on return; p1 receives p_k+1.
  DelResult step(const Eigen::VectorXd& q0, const Eigen::VectorXd& p0, Eigen::VectorXd& q1,
                 Eigen::VectorXd& p1);

 private:
  static PetscErrorCode residual(SNES, Vec x, Vec f, void* ctx);
  static PetscErrorCode approximateJacobian(SNES, Vec x, Mat J, Mat P, void* ctx);
  PetscErrorCode gather(Vec x, Eigen::VectorXd& q);
  PetscErrorCode scatterOwned(const Eigen::VectorXd& v, Vec out);
  PetscErrorCode setUp();

  MPI_Comm comm_;
  DiscreteLagrangian& ld_;
  std::string prefix_;
  int n_;
  SNES snes_ = nullptr;
  Vec x_ = nullptr, f_ = nullptr, all_ = nullptr;
  VecScatter toAll_ = nullptr;
  Mat J_ = nullptr;
  bool userAtol_ = false;
  // Per step data seen by the callbacks.
  const Eigen::VectorXd* q0_ = nullptr;
  const Eigen::VectorXd* p0_ = nullptr;
  Eigen::VectorXd lastQ1_, lastD2_;
  std::string callbackError_;
};

}  // namespace kirchhoff::integrators
