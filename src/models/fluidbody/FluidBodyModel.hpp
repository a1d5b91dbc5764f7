// The fluidbody model: n rigid bodies and m point vortices advanced by the variational midpoint
// integrator (DEL in (q, p) form, SNES); invariants H, discrete momentum map, Corollary 2 momentum.
#pragma once

#include <memory>

#include <mpi.h>

#include "core/Model.hpp"
#include "fluid/BoundaryFluid.hpp"
#include "fluid/Fluid.hpp"
#include "integrators/DelSolver.hpp"
#include "models/fluidbody/FluidBodyConfig.hpp"
#include "models/fluidbody/MidpointLagrangian.hpp"

namespace kirchhoff::fluidbody {

/// Discrete momentum map of the midpoint scheme (fluidbody.md, discrete Noether theorem):
///   J_rot   = sum_j (p_theta_j + y_j x p_y_j) + sum_i gamma_i x p_gamma_i
///   J_trans = sum_j p_y_j + sum_i (p_gamma_i - rho K_i J gamma_i / 2)
/// Returned as (J_trans_x, J_trans_y, J_rot).
Eigen::Vector3d discreteMomentumMap(const Eigen::VectorXd& q, const Eigen::VectorXd& p, int n,
                                    const std::vector<double>& K, double rho);

/// Bodies from which the DEL solve defaults to -del_jacobian coupled (else lagged).
constexpr int kCoupledBodies = 12;

class FluidBodyModel : public Model {
 public:
  FluidBodyModel(FluidBodyConfig cfg, std::unique_ptr<fluid::Fluid> fluid, MPI_Comm comm);

  std::string name() const override { return "fluidbody"; }
  State initialState() override;
  void restore(State& s) override;
  StepReport step(State& s) override;
  LogRow logRow(const State& s, const StepReport& last) override;
  /// Every column the log can have (docs/output.md "The invariant log").
  static const std::vector<Column>& logColumns();
  void check(const State& s) override;
  bool snapshot(const State& s, Snapshot& out) override;
  std::string summary(const State& s) override;

  MidpointLagrangian& lagrangian() { return lagrangian_; }
  const integrators::DelSolver& delSolver() const { return solver_; }
  fluid::Fluid& fluid() { return *fluid_; }

 private:
  Eigen::VectorXd vec(const State& s, const char* name) const;
  /// One DEL solve from the predictor in q1, retried once from q (throws NumericalError).
  integrators::DelResult delSolve(const Eigen::VectorXd& q, const Eigen::VectorXd& p,
                                  Eigen::VectorXd& q1, Eigen::VectorXd& p1, Eigen::MatrixXd& E,
                                  bool refresh);
  FluidBodyConfig cfg_;
  std::unique_ptr<fluid::Fluid> fluid_;
  MidpointLagrangian lagrangian_;
  integrators::DelSolver solver_;
  int n_, m_;
  long krylov_ = 0;  ///< panel KSP iterations of the last step (the log's panel_krylov_iterations)
  /// Sets krylov_ when a step ends, also by an exception.
  struct KrylovCount {
    long& out;
    const fluid::BoundaryFluid* fluid;
    long start;
    ~KrylovCount() { out = fluid ? fluid->totalIterations() - start : 0; }
  };
  std::vector<fluid::Polygon> shapes_;
};

}  // namespace kirchhoff::fluidbody
