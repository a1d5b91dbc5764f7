// The fluidbody model: n rigid bodies and m point vortices advanced by the variational midpoint
// integrator (DEL in (q, p) form, SNES); invariants H, discrete momentum map, Corollary 2 momentum.
#pragma once

#include <memory>

#include <mpi.h>

#include "core/Model.hpp"
#include "fluid/BoundaryFluid.hpp"
#include "fluid/Fluid.hpp"
#include "integrators/DelSolver.hpp"
#include "integrators/ScaledLagrangian.hpp"
#include "models/fluidbody/ContactGeometry.hpp"
#include "models/fluidbody/FluidBodyConfig.hpp"
#include "models/fluidbody/ImpactStep.hpp"
#include "models/fluidbody/MidpointLagrangian.hpp"

namespace kirchhoff::fluidbody {

/// Discrete momentum map of the midpoint scheme (fluidbody.md, discrete Noether theorem):
///   J_rot   = sum_j (p_theta_j + y_j x p_y_j) + sum_i gamma_i x p_gamma_i
///   J_trans = sum_j p_y_j + sum_i (p_gamma_i - rho K_i J gamma_i / 2)
/// Returned as (J_trans_x, J_trans_y, J_rot).
Eigen::Vector3d discreteMomentumMap(const Eigen::VectorXd& q, const Eigen::VectorXd& p, int n,
                                    const std::vector<double>& K, double rho);

/// restoreMomentumMap leaves a component of J alone whose change is within this many ulps of the sum of its terms.
constexpr double kMomentumRoundoff = 16.0;

/// The least-norm change of the bodies' momenta in p1 after which J(q1, p1) = J(q0, p0) (FB-29c). A converged DEL
/// step keeps J only up to the residual's components along the group directions (discrete Noether), |F| / s for a
/// sub-step of size s h; this returns the momenta a step with zero residual there would have. No bodies, or a change
/// at J's round-off: no change.
void restoreMomentumMap(const Eigen::VectorXd& q0, const Eigen::VectorXd& p0, const Eigen::VectorXd& q1,
                        Eigen::VectorXd& p1, int n, const std::vector<double>& K, double rho);
/// The same toward a given J (the components of J - J(q1, p1) at J's round-off are left alone).
void restoreMomentumMap(const Eigen::Vector3d& J, const Eigen::VectorXd& q1, Eigen::VectorXd& p1, int n,
                        const std::vector<double>& K, double rho);

/// (FB-29g): whole steps keep J to the solver's tolerance, and that adds up over many steps; once J(q, p) has moved
/// from the run's reference J by more than this times max(|J_ref|, sum_j |p_y_j|) in a component, J_ref is restored.
constexpr double kMomentumDrift = 1e-13;

/// True when J (of q1, p1) has drifted from Jref by more than (FB-29g) allows.
bool momentumMapDrifted(const Eigen::Vector3d& Jref, const Eigen::VectorXd& q1, const Eigen::VectorXd& p1, int n,
                        const std::vector<double>& K, double rho);

/// (FB-66a): the fluid's refinement starts from the previous step's sharpening, and from none every this many steps
/// (so that a body whose neighbour has left is unsharpened again).
constexpr int kSharpeningRetry = 10;

/// Bodies from which the DEL solve defaults to -del_jacobian coupled (else lagged).
constexpr int kCoupledBodies = 12;

/// The contact shapes of the configuration's bodies: the analytic curves with nystrom, else the outlines.
ContactGeometry contactGeometry(const FluidBodyConfig& c);

/// The fluid's refinement margin (FB-87): this factor times the largest motion of a boundary point or a
/// vortex over the last step, and again over a step that went farther.
constexpr double kMarginSafety = 2.0;

/// Approach sub-steps (FB-88): a step in which a pair's gap changes by more than contact.approach_fraction
/// of max(min(g at either end), contact distance) is split into N = 2^k equal DEL sub-steps, N at most
/// kMaxApproachSubSteps (beyond it the step stops: reduce time.dt).
constexpr int kMaxApproachSubSteps = 1024;

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

  /// The body velocities at q extrapolated from the step velocities of q_previous (FB-29f); empty without them.
  Eigen::VectorXd velocityGuess(const State& s);
  MidpointLagrangian& lagrangian() { return lagrangian_; }
  const integrators::DelSolver& delSolver() const { return solver_; }
  fluid::Fluid& fluid() { return *fluid_; }
  /// The impacts of the last step (FB-82), the DEL solves it took and the refinement margin it used (FB-87).
  const std::vector<Impact>& lastImpacts() const { return last_.impacts; }
  int lastStepSolves() const { return last_.solves; }
  int lastSubSteps() const { return last_.subSteps; }
  double lastMargin() const { return last_.margin; }
  bool impactsEnabled() const { return static_cast<bool>(impact_); }

 private:
  /// The end of one step and what it did.
  struct Advance {
    Eigen::VectorXd q1, p1, qPrevious;  // q_previous of the next step: one step dt behind q1 on the last sub-step
    integrators::DelResult solver;
    std::vector<Impact> impacts;
    double moved = 0.0;  // largest motion from q_k over the configurations the step visited
    double margin = 0.0;
    int solves = 0;
    int subSteps = 1;  // approach sub-steps (FB-88)
  };
  Eigen::VectorXd vec(const State& s, const char* name) const;
  /// One DEL solve from the predictor in q1, retried once from q (throws NumericalError).
  integrators::DelResult delSolve(const Eigen::VectorXd& q, const Eigen::VectorXd& p,
                                  Eigen::VectorXd& q1, Eigen::VectorXd& p1, Eigen::MatrixXd& E,
                                  bool refresh);
  /// The DEL step of size s dt (s < 1: an impact's sub-step, on c L_d with c = s, (FB-85)), whose momentum map is
  /// then restored (FB-29c).
  integrators::DelResult subStep(const Eigen::VectorXd& q, const Eigen::VectorXd& p, double s,
                                 Eigen::VectorXd& q1, Eigen::VectorXd& p1, Eigen::MatrixXd& E, bool refresh);
  /// The step from (q, p): one DEL solve, the composition, or the collision integrator.
  Advance advance(const Eigen::VectorXd& q, const Eigen::VectorXd& p, const Eigen::VectorXd& qprev,
                  const Eigen::VectorXd& predictor, Eigen::MatrixXd& E, bool refresh, std::int64_t step);
  Advance composed(const Eigen::VectorXd& q, const Eigen::VectorXd& p, const Eigen::VectorXd& qprev,
                   Eigen::MatrixXd& E);
  /// (FB-88): the approach sub-steps of the step from q to the predictor (1 without close pairs).
  int approachSubSteps(const Eigen::VectorXd& q, const Eigen::VectorXd& predictor, std::int64_t step) const;
  /// (FB-87): the largest displacement of a boundary point or vortex from q0 to q1.
  double largestMotion(const Eigen::VectorXd& q0, const Eigen::VectorXd& q1) const;
  /// Fluid::refineFor at q; a refinement that cannot resolve stops the run with a checkpoint of `step`.
  bool refine(const Eigen::VectorXd& q, double margin, std::int64_t step);
  /// Stops (with a checkpoint of `step`) if the fluid's error estimate exceeds its tolerance.
  void checkResolution(std::int64_t step) const;
  bool contactState() const { return static_cast<bool>(impact_); }
  /// (FB-66a): the fluid's sharpening as a state field, and the start it gives the step of state s.
  std::vector<double> sharpeningField() const;
  std::vector<int> sharpeningStart(const State& s) const;
  FluidBodyConfig cfg_;
  std::unique_ptr<fluid::Fluid> fluid_;
  MidpointLagrangian lagrangian_;
  integrators::ScaledLagrangian scaled_;  // what the DEL solver sees: lagrangian_ times s in sub-steps
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
  std::vector<double> reach_;  ///< outline radius per body (FB-87)
  std::unique_ptr<ContactGeometry> geometry_;  ///< two or more bodies
  std::unique_ptr<ImpactStep> impact_;         ///< contact.law impact, two or more bodies
  Advance last_;
};

}  // namespace kirchhoff::fluidbody
