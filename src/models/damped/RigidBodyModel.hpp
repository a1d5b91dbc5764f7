// The dissipative rigid body as a kirchhoff Model (docs/damped.md Sec. 2, (DA-13)): state
// (M, dissipated), log columns energy, dissipated, casimir |M|, distance to the limit set, M.
#pragma once

#include <string>
#include <vector>

#include "core/Model.hpp"
#include "models/damped/RigidBody.hpp"
#include "models/damped/RigidBodyIntegrator.hpp"

namespace kirchhoff::damped {

struct RigidBodyConfig {
  double dt = 0.1;
  Mat3 inertia = Mat3::Identity();
  double alpha = 0.0;
  Vec3 M0 = Vec3::UnitZ();
  RigidBodyMethod method{};
};

/// Invariant columns: "energy" H = M.I^-1 M/2, "dissipated" (trapezoidal quadrature of
/// alpha |M x Omega|^2), "casimir" |M|, "distance" from M to the limit set on |M| = |M0|, and the
/// components "M1", "M2", "M3" (for the trajectory of M/|M| on the sphere in postprocess).
class RigidBodyModel final : public Model {
 public:
  explicit RigidBodyModel(RigidBodyConfig cfg);

  std::string name() const override { return "damped"; }
  State initialState() override;
  void restore(State& s) override;
  StepReport step(State& s) override;
  /// Progress line: |M| is the Casimir the DDB keeps.
  std::string monitoredInvariant() const override { return "casimir"; }
  LogRow logRow(const State& s, const StepReport& last) override;
  /// Every column the log can have (docs/output.md "The invariant log").
  static const std::vector<Column>& logColumns();
  bool snapshot(const State& s, Snapshot& out) override;
  std::string summary(const State& s) override;

  const DissipativeRigidBody& body() const { return body_; }

 private:
  RigidBodyConfig cfg_;
  DissipativeRigidBody body_;
  double radius_;
};

}  // namespace kirchhoff::damped
