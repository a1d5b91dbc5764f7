// The dissipative rigid body as a Model (docs/damped.md Sec. 2): one step of the configured
// method, Newton statistics as the step report, invariants and M/|M| on the unit sphere.
#include "models/damped/RigidBodyModel.hpp"

#include <sstream>

#include "core/Error.hpp"
#include "core/FieldChecks.hpp"

namespace kirchhoff::damped {

RigidBodyModel::RigidBodyModel(RigidBodyConfig cfg)
    : cfg_(std::move(cfg)), body_(cfg_.inertia, cfg_.alpha), radius_(cfg_.M0.norm()) {
  if (!(cfg_.dt > 0.0)) throw ConfigurationError("damped rigid body: dt must be > 0");
  if (!(radius_ > 0.0)) throw ConfigurationError("damped rigid body: M0 must be nonzero");
}

State RigidBodyModel::initialState() {
  State s;
  s.add("M", {cfg_.M0(0), cfg_.M0(1), cfg_.M0(2)});
  s.add("dissipated", {0.0});
  return s;
}

void RigidBodyModel::restore(State& s) {
  requireField(s, "damped", "M", 3);
  requireField(s, "damped", "dissipated", 1);
}

StepReport RigidBodyModel::step(State& s) {
  const auto& m = s["M"];
  Vec3 M(m[0], m[1], m[2]);
  const double h = cfg_.dt;
  const double R0 = body_.dissipationRate(M);
  DdbReport rep;
  try {
    rep = rigidBodyStep(body_, cfg_.method, M, s.time, h);
    if (!rep.converged) {
      std::ostringstream os;
      os << "Newton did not converge (" << rep.iterations << " iterations, residual "
         << rep.residualNorm << ")";
      throw NumericalError(os.str());
    }
    if (!M.allFinite()) throw NumericalError("state not finite");
  } catch (const NumericalError& e) {
    std::ostringstream os;
    os << "damped: " << describe(cfg_.method) << " step " << s.step << " (t = " << s.time
       << ", h = " << h << ") failed: " << e.what();
    throw NumericalError(os.str(), s.step);
  }
  s["M"] = {M(0), M(1), M(2)};
  s["dissipated"][0] += 0.5 * h * (R0 + body_.dissipationRate(M));
  return StepReport{rep.iterations, rep.residualNorm};
}

const std::vector<Column>& RigidBodyModel::logColumns() {
  static const std::vector<Column> c = {
      {"energy", "1", Kind::Diagnostic, "energy H (DA-1) (decays by design)"},
      {"dissipated", "1", Kind::Diagnostic, "dissipated energy W (DA-11), trapezoidal quadrature of the dissipation rate"},
      {"casimir", "1", Kind::Conserved, "Casimir |M| of the rigid body"},
      {"distance", "1", Kind::Diagnostic, "distance from M to the limit set of the dissipative flow"},
      {"M1", "1", Kind::Diagnostic, "body angular momentum M1"},
      {"M2", "1", Kind::Diagnostic, "body angular momentum M2"},
      {"M3", "1", Kind::Diagnostic, "body angular momentum M3"},
  };
  return c;
}

LogRow RigidBodyModel::logRow(const State& s, const StepReport&) {
  const auto& m = s["M"];
  const Vec3 M(m[0], m[1], m[2]);
  LogRow row(logColumns());
  row.add("energy", body_.energy(M)).add("dissipated", s["dissipated"][0]).add("casimir", M.norm());
  row.add("distance", body_.distanceToLimitSet(M, radius_));
  row.add("M1", M(0)).add("M2", M(1)).add("M3", M(2));
  return row;
}

bool RigidBodyModel::snapshot(const State& s, Snapshot& out) {
  const auto& m = s["M"];
  const Vec3 u = Vec3(m[0], m[1], m[2]).normalized();
  SnapshotMesh mesh;
  mesh.name = "momentum_direction";  // M/|M| on the unit sphere
  mesh.topology = SnapshotMesh::Topology::Points;
  mesh.dim = 3;
  mesh.coordinates = {u(0), u(1), u(2)};
  out.meshes.push_back(std::move(mesh));
  return true;
}

std::string RigidBodyModel::summary(const State& s) {
  const auto v = invariants(s, {});
  const auto& m = s["M"];
  std::ostringstream os;
  os.precision(10);
  os << describe(cfg_.method) << " h=" << cfg_.dt << " M=(" << m[0] << ", " << m[1] << ", " << m[2]
     << ") E=" << v[0] << " |M|-|M0|=" << v[2] - radius_ << " dist=" << v[3];
  return os.str();
}

}  // namespace kirchhoff::damped
