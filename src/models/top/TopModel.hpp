// The heavy-top model for the generic run loop (core/Model.hpp): one of the four schemes of
// Ohsawa 2019, Sec. 5 or Gauss–Legendre (HT-16), optionally composed (CM-1), its invariants
// (h, f1, f2, K, Pi3, J1, J2) and an optional DOP853 reference.
//
// State fields: "z" (8: q1..q4, p1..p4) for collective schemes, "Pi" and "Gamma" (3 each) for direct
// ones, plus "reference" (6: Pi, Gamma of the DOP853 solution at the same time) when the reference
// is on. That is the whole history of these one-step schemes (a composed step's sub-steps are not
// state), so a checkpoint is exactly the State.
//
// Invariant columns, in this order (docs/heavytop.md):
//   energy        h(Pi, Gamma) (= H(z) for collective schemes), eq. (1.3)
//   f1, f2        |Gamma|^2 and Pi . Gamma (Casimirs)
//   kovalevskaya  K = |(Pi1 + i Pi2)^2 - 2 m g l I1 (c1 + i c2)(Gamma1 + i Gamma2)|^2 when
//                 I1 = I2 = 2 I3 and c3 = 0 (a Kovalevskaya top); 0 for any other top
//   Pi3           third body momentum (the Lagrange top's integral; logged for every top)
//   J1, J2        Noether quantities |p|^2/2 and p2 q1 - p1 q2 + p4 q3 - p3 q4 of the canonical
//                 system (collective schemes); for direct schemes their images sqrt(f1)/2 and
//                 2 f2 / sqrt(f1) (f1 = 4 J1^2, f2 = J1 J2)
//   newton_iterations, newton_residual   of the step that produced the state (0 for explicit)
//   error         |(Pi, Gamma) - reference|_2 (only when the reference is on)
#pragma once

#include <string>
#include <vector>

#include "core/Model.hpp"
#include "integrators/Dop853.hpp"
#include "models/top/TopSchemes.hpp"

namespace kirchhoff::top {

/// Initial data: (Pi, Gamma) lifted by the collective map (phase a, and the R-symmetry shift s
/// or a prescribed q1), or z directly.
struct TopInitialData {
  bool givenZ = false;
  Vec8 z = Vec8::Zero();
  Vec3 Pi = Vec3::Zero();
  Vec3 Gamma = Vec3(0.0, 0.0, 1.0);
  double phase = 0.0;
  bool fixQ1 = false;  ///< choose the shift so that q1 = q1Target (the paper: Re chi1 = 1)
  double q1Target = 0.0;
  double shift = 0.0;
};

struct TopConfig {
  HeavyTopParameters top;
  TopScheme scheme = TopScheme::CollectiveImplicitMidpoint;
  int stages = 2;                                ///< collective_gauss_legendre only
  Composition composition = Composition::None;  ///< one step = the whole composition (CM-1)
  double dt = 0.02;
  NewtonOptions newton;
  TopInitialData initial;
  bool reference = false;
  integrators::Dop853Options referenceOptions;
};

/// z(0) of the configuration (lifted if (Pi, Gamma) are given).
Vec8 initialZ(const TopInitialData& d);
/// (Pi, Gamma)(0) of the configuration.
Vec6 initialHeavyTopState(const TopInitialData& d);

class TopModel final : public Model {
 public:
  /// Throws ConfigurationError for an invalid configuration (dt <= 0, |c| != 1, Gamma = 0, ...).
  explicit TopModel(const TopConfig& config);

  std::string name() const override { return "top"; }
  State initialState() override;
  void restore(State& s) override;
  StepReport step(State& s) override;
  LogRow logRow(const State& s, const StepReport& last) override;
  /// Every column the log can have (docs/output.md "The invariant log").
  static const std::vector<Column>& logColumns();
  std::string summary(const State& s) override;

  const TopConfig& config() const { return config_; }
  const TopStepper& stepper() const { return stepper_; }
  /// The scheme's state vector (z or (Pi, Gamma)) of a State.
  Eigen::VectorXd stateVector(const State& s) const;
  /// (Pi, Gamma) of a State.
  Vec6 heavyTopState(const State& s) const { return stepper_.heavyTopState(stateVector(s)); }

 private:
  void writeStateVector(State& s, const Eigen::VectorXd& x) const;

  TopConfig config_;
  TopStepper stepper_;
  std::vector<double> initialInvariants_;
};

}  // namespace kirchhoff::top
