// The Rayleigh-damped system as a Model (docs/damped.md Sec. 1): one step of the configured
// method, the dissipated-energy quadrature, invariants and a snapshot of the configuration.
#include "models/damped/RayleighModel.hpp"

#include <cmath>
#include <sstream>

#include "core/Error.hpp"
#include "core/FieldChecks.hpp"

namespace kirchhoff::damped {

RayleighModel::RayleighModel(RayleighConfig cfg) : cfg_(std::move(cfg)) {
  if (!cfg_.system) throw ConfigurationError("damped: no Rayleigh system configured");
  const int n = cfg_.system->dim();
  if (cfg_.q0.size() != n || cfg_.p0.size() != n) {
    std::ostringstream os;
    os << "damped: initial q and p need " << n << " entries for potential '"
       << cfg_.system->potential().name() << "' (got " << cfg_.q0.size() << " and "
       << cfg_.p0.size() << ")";
    throw ConfigurationError(os.str());
  }
  if (!(cfg_.dt > 0.0)) throw ConfigurationError("damped: dt must be > 0");
  H0_ = cfg_.system->hamiltonian(cfg_.q0, cfg_.p0);
}

namespace {
std::vector<double> toStd(const VectorXd& v) { return std::vector<double>(v.data(), v.data() + v.size()); }
VectorXd toEigen(const std::vector<double>& v) {
  return Eigen::Map<const VectorXd>(v.data(), static_cast<Eigen::Index>(v.size()));
}
}  // namespace

State RayleighModel::initialState() {
  State s;
  s.add("q", toStd(cfg_.q0));
  s.add("p", toStd(cfg_.p0));
  s.add("dissipated", {0.0});
  return s;
}

void RayleighModel::restore(State& s) {
  const std::size_t n = static_cast<std::size_t>(cfg_.system->dim());
  const std::string why = "n = " + std::to_string(n);
  requireField(s, "damped", "q", n, why);
  requireField(s, "damped", "p", n, why);
  requireField(s, "damped", "dissipated", 1);
}

StepReport RayleighModel::step(State& s) {
  const RayleighSystem& sys = *cfg_.system;
  VectorXd q = toEigen(s["q"]), p = toEigen(s["p"]);
  const double h = cfg_.dt;
  try {
    const double R0 = sys.dissipationRate(q, p);
    rayleighStep(sys, cfg_.method, q, p, s.time, h);
    if (!q.allFinite() || !p.allFinite()) throw NumericalError("state not finite");
    const double W = s["dissipated"][0] + 0.5 * h * (R0 + sys.dissipationRate(q, p));
    s["q"] = toStd(q);
    s["p"] = toStd(p);
    s["dissipated"][0] = W;
  } catch (const NumericalError& e) {
    std::ostringstream os;
    os << "damped: " << describe(cfg_.method) << " step " << s.step << " (t = " << s.time
       << ", h = " << h << ") failed: " << e.what();
    throw NumericalError(os.str(), s.step);
  }
  return {};
}

const std::vector<Column>& RayleighModel::logColumns() {
  static const std::vector<Column> c = {
      {"energy", "1", Kind::Diagnostic, "energy H (DA-1) (decays by design)"},
      {"dissipated", "1", Kind::Diagnostic, "dissipated energy W (DA-11), trapezoidal quadrature of the dissipation rate"},
      {"energy_balance", "1", Kind::Conserved, "H + W - H(0) (DA-11): zero for exact dissipation"},
      Column("J3", "1", Kind::Conserved, "angular momentum about e3, J3 = q1 p2 - q2 p1").onlyWith("for n = 3"),
      Column("r_minus_rstar", "1", Kind::Diagnostic, "|q| - r* (DA-12): distance from the relative equilibrium's radius")
          .onlyWith("for the elastic pendulum with potential.W"),
  };
  return c;
}

LogRow RayleighModel::logRow(const State& s, const StepReport&) {
  const VectorXd q = toEigen(s["q"]), p = toEigen(s["p"]);
  const double H = cfg_.system->hamiltonian(q, p);
  const double W = s["dissipated"][0];
  LogRow row(logColumns());
  row.add("energy", H).add("dissipated", W).add("energy_balance", H + W - H0_);
  if (cfg_.system->dim() == 3) row.add("J3", angularMomentumJ3(q, p));
  if (cfg_.relativeEquilibrium) row.add("r_minus_rstar", q.norm() - cfg_.relativeEquilibrium->rStar);
  return row;
}

bool RayleighModel::snapshot(const State& s, Snapshot& out) {
  const VectorXd q = toEigen(s["q"]);
  SnapshotMesh m;
  const int n = cfg_.system->dim();
  if (n == 3) {  // rod from the pivot to the bob
    m.name = "pendulum";
    m.topology = SnapshotMesh::Topology::Polyline;
    m.dim = 3;
    m.coordinates = {0.0, 0.0, 0.0, q(0), q(1), q(2)};
    m.cellSizes = {2};
  } else if (n == 1) {  // planar pendulum bob at angle q from the downward vertical
    m.name = "pendulum";
    m.topology = SnapshotMesh::Topology::Polyline;
    m.dim = 2;
    m.coordinates = {0.0, 0.0, std::sin(q(0)), -std::cos(q(0))};
    m.cellSizes = {2};
  } else {  // chain: mass i at x = i + 1, displacement as attribute
    m.name = "chain";
    m.topology = SnapshotMesh::Topology::Points;
    m.dim = 2;
    std::vector<double> disp(toStd(q));
    for (int i = 0; i < n; ++i) {
      m.coordinates.push_back(i + 1.0);
      m.coordinates.push_back(q(i));
    }
    m.attributes.push_back({"displacement", disp});
    out.quantities.push_back({"displacement", "1", "chain mass displacement q_i", "diagnostic"});
  }
  out.meshes.push_back(std::move(m));
  return true;
}

std::string RayleighModel::summary(const State& s) {
  const auto v = invariants(s, {});
  std::ostringstream os;
  os.precision(10);
  os << describe(cfg_.method) << " h=" << cfg_.dt << " E=" << v[0] << " W=" << v[1];
  if (cfg_.system->dim() == 3) os << " J3=" << v[3];
  if (cfg_.relativeEquilibrium) os << " r-r*=" << v.back();
  return os.str();
}

StabilityEstimate RayleighModel::stability(long steps) const {
  return estimateStability(*cfg_.system, cfg_.q0, cfg_.method, cfg_.dt, steps);
}

}  // namespace kirchhoff::damped
