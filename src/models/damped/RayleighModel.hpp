// The Rayleigh-damped Hamiltonian system as a kirchhoff Model (docs/damped.md Sec. 1, (DA-11)):
// state (q, p, dissipated), invariants energy, dissipated, energy_balance [, J3, r_minus_rstar].
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <Eigen/Dense>

#include "core/Model.hpp"
#include "models/damped/RayleighIntegrator.hpp"
#include "models/damped/RayleighStability.hpp"
#include "models/damped/RayleighSystem.hpp"
#include "models/damped/RelativeEquilibrium.hpp"

namespace kirchhoff::damped {

struct RayleighConfig {
  double dt = 0.1;
  std::shared_ptr<const RayleighSystem> system;
  VectorXd q0, p0;
  RayleighMethod method{};
  /// Elastic pendulum: the relative equilibrium whose distance |q| - r* is logged.
  std::optional<RelativeEquilibrium> relativeEquilibrium;
};

/// Invariant columns: "energy" H, "dissipated" W (trapezoidal quadrature of eps <D p#, p#> at the
/// step ends, W_{k+1} = W_k + h (R_k + R_{k+1})/2), "energy_balance" H + W - H_0, then for n = 3
/// "J3" = q1 p2 - q2 p1, and with a relative equilibrium "r_minus_rstar" = |q| - r*.
class RayleighModel final : public Model {
 public:
  explicit RayleighModel(RayleighConfig cfg);

  std::string name() const override { return "damped"; }
  State initialState() override;
  void restore(State& s) override;
  StepReport step(State& s) override;
  /// Progress line: H + W - H_0: the energy decays by design.
  std::string monitoredInvariant() const override { return "energy_balance"; }
  LogRow logRow(const State& s, const StepReport& last) override;
  /// Every column the log can have (docs/output.md "The invariant log").
  static const std::vector<Column>& logColumns();
  bool snapshot(const State& s, Snapshot& out) override;
  std::string summary(const State& s) override;

  const RayleighConfig& config() const { return cfg_; }
  /// The linear-stability estimate of the configured method and dt over `steps` steps.
  StabilityEstimate stability(long steps) const;

 private:
  RayleighConfig cfg_;
  double H0_ = 0.0;
};

}  // namespace kirchhoff::damped
