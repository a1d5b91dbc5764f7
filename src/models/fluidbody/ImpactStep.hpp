// One time step with impacts: the variational collision integrator of Fetecau, Marsden, Ortiz and West
// 2003 on the midpoint L_d (docs/fluidbody.md (FB-82)..(FB-86)), solved by nested DEL sub-steps.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <Eigen/Dense>

#include "integrators/DelSolver.hpp"
#include "models/fluidbody/ContactGeometry.hpp"
#include "models/fluidbody/FluidBodyConfig.hpp"

namespace kirchhoff::fluidbody {

/// The impact law (deck section `contact`): the contact set {phi = distance}, the restitution e and the energy.
struct ContactLaw {
  double distance = 0.0;     ///< delta > 0
  double restitution = 1.0;  ///< e in [0, 1]; 1: elastic
  EnergyCondition energy = EnergyCondition::ContactPoint;
};

/// What the collision integrator needs from the time stepper.
struct SubStepper {
  /// The DEL step (FB-25) of size s h from (q0, p0): q1 holds the predictor on entry.
  std::function<integrators::DelResult(const Eigen::VectorXd& q0, const Eigen::VectorXd& p0, double s,
                                       Eigen::VectorXd& q1, Eigen::VectorXd& p1)>
      solve;
  /// E_d (FB-83) of a sub-step of size s h.
  std::function<double(const Eigen::VectorXd& q0, const Eigen::VectorXd& q1, double s)> discreteEnergy;
  /// Xi = (M + A(q))^-1 (P - M_C): the body velocities of the state (q, p), body frames.
  std::function<Eigen::VectorXd(const Eigen::VectorXd& q, const Eigen::VectorXd& p)> bodyVelocity;
  /// H (FB-11) of the state (q, p).
  std::function<double(const Eigen::VectorXd& q, const Eigen::VectorXd& p)> energy;
};

/// One impact resolved in a step.
struct Impact {
  int a = -1, b = -1;          ///< the bodies
  double fraction = 0.0;       ///< alpha: where in the step, as a fraction of h
  double gap = 0.0;            ///< phi(q~): the contact distance to the root tolerance (or the clamped level, (FB-86))
  double normalSpeed = 0.0;    ///< v_n = <grad phi, q_dot> before the impact (FB-84), < 0
  double normalEnergy = 0.0;   ///< T_n (FB-84)
  double impulse = 0.0;        ///< lambda (FB-82)
  double energyBefore = 0.0;   ///< the kept energy before: E_d of the sub-step before (FB-85) or H(q~, p~-) (FB-85b)
  double energyAfter = 0.0;    ///< and after
  double prescribedLoss = 0.0; ///< (1 - e^2) T_n (FB-85)
  int solves = 0;              ///< DEL solves spent on this impact
};

/// The step's end and what it did.
struct ImpactStepResult {
  Eigen::VectorXd q1, p1;
  Eigen::VectorXd lastStart;   ///< where the last sub-step began (q~ of the last impact, else q0)
  double lastFraction = 0.0;   ///< its time, as a fraction of h (0 without impacts)
  std::vector<Impact> impacts;
  std::vector<Eigen::VectorXd> visited;  ///< q~ of every impact
  integrators::DelResult solver;         ///< iterations and evaluations summed, largest residual
  int solves = 0;                        ///< DEL solves of the step (1 without impacts)
};

/// The collision integrator of one step. Deterministic: it depends on (q0, p0) and the predictor only.
class ImpactStep {
 public:
  /// Fewest steps, as a fraction of h, of any sub-step (FB-86): below it the DEL solution loses digits.
  static constexpr double kMinSubStep = 0.05;
  /// Impacts resolved one after another within one step before the run stops (FB-86).
  static constexpr int kMaxImpacts = 16;

  ImpactStep(const ContactGeometry& geometry, ContactLaw law, std::vector<std::string> names, double dt);
  const ContactLaw& law() const { return law_; }
  /// The step from (q0, p0) with the predictor q1. Throws NumericalError(..., step, true) naming the
  /// bodies where an impact cannot be resolved (the state of `step` is then kept). `span`: the part of
  /// dt this step covers (an approach sub-step, (FB-88)); fractions s are of span dt, and the stepper's
  /// solve takes them so.
  ImpactStepResult step(const Eigen::VectorXd& q0, const Eigen::VectorXd& p0, const Eigen::VectorXd& predictor,
                        std::int64_t step, const SubStepper& stepper, double span = 1.0);

 private:
  struct Solved {
    double s = 0.0;  // fraction of h from the sub-interval's start
    Eigen::VectorXd q, p;
  };
  std::vector<lie::Pose> poses(const Eigen::VectorXd& q) const;
  /// Pairs below the contact distance at q1 that came closer over the sub-interval.
  std::vector<PairGap> approaching(const Eigen::VectorXd& qa, const Eigen::VectorXd& q1) const;
  /// min over `pairs` of phi - delta at q (-infinity at an overlap).
  double margin(const Eigen::VectorXd& q, const std::vector<PairGap>& pairs) const;
  /// (FB-82) first line: the sub-step s to the contact set, clamped by (FB-86).
  Solved toContact(const Eigen::VectorXd& qa, const Eigen::VectorXd& pa, double r, const Eigen::VectorXd& q1,
                   const std::vector<PairGap>& pairs, ImpactStepResult& out, std::int64_t step);
  /// grad phi at q~ and the normal motion (FB-84).
  struct Normal {
    PairGap at;
    Eigen::VectorXd grad, w;  // w = K^-1 grad phi (body frames)
    double speed = 0.0, gKg = 0.0;
  };
  Normal normal(const Solved& hit, const PairGap& pair, std::int64_t step) const;
  /// The root c of the energy condition (FB-85) in E_d after the impulse c lambda_1 grad phi.
  double discreteRoot(const std::function<double(double)>& excess, double e, double Tn, double scale,
                      const PairGap& at, std::int64_t step) const;
  /// (FB-82) second line with (FB-85) or (FB-85b): the impulse and the sub-step after it.
  Impact impulse(const Eigen::VectorXd& qa, const Solved& hit, double r, const PairGap& pair, Eigen::VectorXd& pPlus,
                 ImpactStepResult& out, std::int64_t step);
  integrators::DelResult solve(const Eigen::VectorXd& q0, const Eigen::VectorXd& p0, double s, Eigen::VectorXd& q1,
                               Eigen::VectorXd& p1, ImpactStepResult& out);
  std::string pairName(const PairGap& g) const;

  const ContactGeometry& geometry_;
  ContactLaw law_;
  std::vector<std::string> names_;
  double dt_;
  double h_ = 0.0;                       // span dt, during step()
  const SubStepper* stepper_ = nullptr;  // during step()
  int n_;
};

}  // namespace kirchhoff::fluidbody
