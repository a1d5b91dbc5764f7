// The heavy-top Model (TopModel.hpp): initial data through the collective lift (Ohsawa 2019,
// Theorem 4.1 (i)), one scheme step per call, the invariant columns and the DOP853 reference.
#include "models/top/TopModel.hpp"

#include <cmath>
#include <cstdio>
#include <sstream>

#include "core/Error.hpp"
#include "core/FieldChecks.hpp"
#include "models/top/Reference.hpp"

namespace kirchhoff::top {

namespace {

std::string fmt(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.17g", v);
  return b;
}

void checkConfig(const TopConfig& c) {
  if (!(c.dt > 0.0) || !std::isfinite(c.dt))
    throw ConfigurationError("top: time step must be positive and finite (dt = " + fmt(c.dt) + ")");
  if (!(c.top.inertia.minCoeff() > 0.0) || !c.top.inertia.allFinite())
    throw ConfigurationError("top: principal moments of inertia must be positive");
  if (std::abs(c.top.c.norm() - 1.0) > 1e-9)
    throw ConfigurationError("top: center_of_mass direction c must be a unit vector (|c| = " +
                             fmt(c.top.c.norm()) + ")");
  if (!std::isfinite(c.top.mgl)) throw ConfigurationError("top: m g l must be finite");
  if (c.initial.givenZ && !(c.initial.z.tail<4>().squaredNorm() > 0.0))
    throw ConfigurationError("top: initial z has p = 0, i.e. Gamma = 0");
}

}  // namespace

Vec8 initialZ(const TopInitialData& d) {
  if (d.givenZ) return d.z;
  const double shift =
      d.fixQ1 ? collectiveShiftForQ1(d.Pi, d.Gamma, d.phase, d.q1Target) : d.shift;
  return collectiveLift(d.Pi, d.Gamma, d.phase, shift);
}

Vec6 initialHeavyTopState(const TopInitialData& d) {
  if (d.givenZ) return collectiveMap<double>(d.z);
  if (!(d.Gamma.norm() > 0.0)) throw ConfigurationError("top: initial Gamma must be nonzero");
  Vec6 y;
  y << d.Pi, d.Gamma;
  return y;
}

TopModel::TopModel(const TopConfig& config)
    : config_(config),
      stepper_(TopMethod{config.scheme, config.stages, config.composition}, config.top, config.dt,
               config.newton) {
  checkConfig(config_);
  State s0 = initialState();
  initialInvariants_ = invariants(s0, StepReport{});
}

State TopModel::initialState() {
  State s;
  if (stepper_.collective()) {
    const Vec8 z = initialZ(config_.initial);
    s.add("z", std::vector<double>(z.data(), z.data() + 8));
  } else {
    const Vec6 y = initialHeavyTopState(config_.initial);
    s.add("Pi", std::vector<double>(y.data(), y.data() + 3));
    s.add("Gamma", std::vector<double>(y.data() + 3, y.data() + 6));
  }
  if (config_.reference) {
    const Vec6 y = initialHeavyTopState(config_.initial);
    s.add("reference", std::vector<double>(y.data(), y.data() + 6));
  }
  return s;
}

void TopModel::restore(State& s) {
  std::size_t expected = 0;
  if (stepper_.collective()) {
    requireField(s, "top", "z", 8);
    expected = 1;
  } else {
    requireField(s, "top", "Pi", 3);
    requireField(s, "top", "Gamma", 3);
    expected = 2;
  }
  if (config_.reference) {
    requireField(s, "top", "reference", 6);
    ++expected;
  }
  requireFieldCount(s, "top", expected, "for scheme " + stepper_.name() + (config_.reference ? " with reference" : ""));
}

Eigen::VectorXd TopModel::stateVector(const State& s) const {
  if (stepper_.collective()) return Eigen::Map<const Eigen::VectorXd>(s["z"].data(), 8);
  Eigen::VectorXd x(6);
  const auto& Pi = s["Pi"];
  const auto& Gamma = s["Gamma"];
  x << Pi[0], Pi[1], Pi[2], Gamma[0], Gamma[1], Gamma[2];
  return x;
}

void TopModel::writeStateVector(State& s, const Eigen::VectorXd& x) const {
  if (stepper_.collective()) {
    s["z"].assign(x.data(), x.data() + 8);
  } else {
    s["Pi"].assign(x.data(), x.data() + 3);
    s["Gamma"].assign(x.data() + 3, x.data() + 6);
  }
}

StepReport TopModel::step(State& s) {
  Eigen::VectorXd x = stateVector(s);
  int evaluations = 0;
  const NewtonResult r = stepper_.step(x, &evaluations);
  if (!r.converged)
    throw NumericalError("top: " + stepper_.name() + ": Newton did not converge at t = " +
                             fmt(s.time) + " (residual " + fmt(r.residualNorm) + " after " +
                             std::to_string(r.iterations) + " iterations)",
                         s.step);
  if (!x.allFinite())
    throw NumericalError("top: " + stepper_.name() + ": state not finite at t = " + fmt(s.time),
                         s.step);
  Vec6 ref;
  if (config_.reference) {
    const Vec6 r0 = Eigen::Map<const Vec6>(s["reference"].data());
    try {
      // The loop sets t_k = k dt, so integrate to exactly (k + 1) dt.
      const double t1 = static_cast<double>(s.step + 1) * config_.dt;
      ref = heavyTopReference(config_.top, r0, s.time, {t1}, config_.referenceOptions)[0];
    } catch (const NumericalError& e) {
      throw NumericalError(std::string("top: reference solution: ") + e.what(), s.step);
    }
  }
  // Modify s only after everything that can throw has succeeded.
  writeStateVector(s, x);
  if (config_.reference) s["reference"].assign(ref.data(), ref.data() + 6);
  StepReport rep;
  rep.iterations = r.iterations;
  rep.residualNorm = r.residualNorm;
  rep.evaluations = evaluations;
  return rep;
}

const std::vector<Column>& TopModel::logColumns() {
  static const std::vector<Column> c = {
      {"energy", "1", Kind::Conserved, "heavy-top Hamiltonian h (HT-2)"},
      {"f1", "1", Kind::Conserved, "Casimir f1 = |Gamma|^2 (HT-3)"},
      {"f2", "1", Kind::Conserved, "Casimir f2 = Pi . Gamma (HT-3)"},
      Column("kovalevskaya", "1", Kind::Diagnostic, "Kovalevskaya invariant K (HT-5) (conserved for I1 = I2 = 2 I3, c3 = 0)")
          .conservedWhen("for the Kovalevskaya top"),
      Column("Pi3", "1", Kind::Diagnostic, "body angular momentum Pi3 (conserved for the Lagrange top)")
          .conservedWhen("for the Lagrange top"),
      {"J1", "1", Kind::Conserved, "Noether quantity J1 of the collective system (HT-10)"},
      {"J2", "1", Kind::Conserved, "Noether quantity J2 of the collective system (HT-10)"},
      Column("newton_iterations", "1", Kind::Solver, "Newton iterations of the implicit step (0: explicit)").count(),
      {"newton_residual", "1", Kind::Solver, "final Newton residual |F| of the step"},
      Column("error", "1", Kind::Diagnostic, "|(Pi, Gamma) - DOP853 reference|").onlyWith("with reference.enabled"),
  };
  return c;
}

LogRow TopModel::logRow(const State& s, const StepReport& last) {
  const Eigen::VectorXd x = stateVector(s);
  const Vec6 y = stepper_.heavyTopState(x);
  const HeavyTopParameters& par = config_.top;
  const double f1 = casimirF1(y), f2 = casimirF2(y);
  double J1, J2;
  if (stepper_.collective()) {
    J1 = noetherJ1(Vec8(x));
    J2 = noetherJ2(Vec8(x));
  } else {  // their images under the collective map: f1 = 4 J1^2, f2 = J1 J2
    J1 = 0.5 * std::sqrt(f1);
    J2 = J1 > 0.0 ? f2 / J1 : 0.0;
  }
  LogRow row(logColumns());
  row.add("energy", hamiltonian(par, y)).add("f1", f1).add("f2", f2);
  row.add("kovalevskaya", par.isKovalevskaya() ? kovalevskaya(par, y) : 0.0,
          par.isKovalevskaya() ? Kind::Conserved : Kind::Diagnostic);
  row.add("Pi3", y[2], par.isLagrange() ? Kind::Conserved : Kind::Diagnostic);
  row.add("J1", J1).add("J2", J2);
  row.add("newton_iterations", last.iterations).add("newton_residual", last.residualNorm);
  if (config_.reference) {
    const Vec6 ref = Eigen::Map<const Vec6>(s["reference"].data());
    row.add("error", (y - ref).norm());
  }
  return row;
}

std::string TopModel::summary(const State& s) {
  const std::vector<double> v = invariants(s, StepReport{});
  std::ostringstream o;
  o << stepper_.name() << " t=" << s.time;
  auto rel = [&](std::size_t i) {
    const double a = initialInvariants_[i];
    return a != 0.0 ? (v[i] - a) / std::abs(a) : v[i] - a;
  };
  o.precision(3);
  o << std::scientific << " dh/h=" << rel(0) << " df1/f1=" << rel(1) << " df2/f2=" << rel(2);
  if (config_.top.isKovalevskaya()) o << " dK/K=" << rel(3);
  if (config_.top.isLagrange()) o << " dPi3=" << (v[4] - initialInvariants_[4]);
  if (config_.reference) o << " error=" << v.back();
  return o.str();
}

}  // namespace kirchhoff::top
