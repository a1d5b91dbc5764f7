// fluidbody state (q_k, p_k, q_k-1 for the predictor), the DEL step with one retry from the
// zero-order predictor (or a composition of DEL steps, docs/composition.md (CM-1), or the collision
// integrator, docs/fluidbody.md (FB-82)), the fluid's refinement between steps (FB-87), the invariants.
#include "models/fluidbody/FluidBodyModel.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "core/Error.hpp"
#include "core/FieldChecks.hpp"
#include "fluid/BoundaryFluid.hpp"
#include "fluid/geometry/ConfigurationChecks.hpp"
#include "fluid/IsolatedAddedMass.hpp"
#include "models/fluidbody/Distances.hpp"

namespace kirchhoff::fluidbody {

namespace {

std::vector<BodyMass> masses(const FluidBodyConfig& c) {
  std::vector<BodyMass> m;
  for (const auto& b : c.bodies) m.push_back({b.mass, b.inertia});
  return m;
}

std::vector<double> circulations(const FluidBodyConfig& c) {
  std::vector<double> K;
  for (const auto& v : c.vortices) K.push_back(v.circulation);
  return K;
}

std::vector<double> toStd(const Eigen::VectorXd& v) { return {v.data(), v.data() + v.size()}; }

/// The default DEL Newton matrix: lagged (fewest evaluations and seconds per step) below kCoupledBodies
/// bodies, coupled from there on (a few evaluations per step whatever n; lagged's refresh costs 3n + 2m
/// every jacobian_lag steps). Measured: docs/fluidbody.md (FB-29a), (FB-92).
integrators::JacobianMode defaultJacobian(const FluidBodyConfig& c) {
  return static_cast<int>(c.bodies.size()) >= kCoupledBodies ? integrators::JacobianMode::Coupled
                                                             : integrators::JacobianMode::Lagged;
}

/// "1.5e-03": a number in a message.
std::string num(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.6g", v);
  return b;
}

// Restores the Lagrangian's step h (and the solver's scale 1) when a composed step or an impact's
// sub-step ends, also by an exception.
struct TimeStepGuard {
  MidpointLagrangian& ld;
  integrators::ScaledLagrangian& scaled;
  double h;
  ~TimeStepGuard() {
    ld.setTimeStep(h);
    scaled.setScale(1.0);
  }
};

// (FB-29e): a sub-step's solve accepts |F| at the round-off floor at once, until it ends (also by an exception).
struct FloorGuard {
  integrators::DelSolver& solver;
  explicit FloorGuard(integrators::DelSolver& s) : solver(s) { solver.acceptAtFloor(true); }
  ~FloorGuard() { solver.acceptAtFloor(false); }
  FloorGuard(const FloorGuard&) = delete;
  FloorGuard& operator=(const FloorGuard&) = delete;
};

}  // namespace

ContactGeometry contactGeometry(const FluidBodyConfig& c) {
  std::vector<ContactShape> shapes;
  for (const auto& b : c.bodies)
    shapes.emplace_back(b.shape, c.discretization == fluid::DiscretizationKind::Nystrom ? b.curve : std::nullopt);
  return ContactGeometry(std::move(shapes));
}

Eigen::Vector3d discreteMomentumMap(const Eigen::VectorXd& q, const Eigen::VectorXd& p, int n,
                                    const std::vector<double>& K, double rho) {
  Eigen::Vector3d J = Eigen::Vector3d::Zero();
  for (int j = 0; j < n; ++j) {
    const lie::Vec2 y = q.segment<2>(3 * j + 1), py = p.segment<2>(3 * j + 1);
    J.head<2>() += py;
    J[2] += p[3 * j] + lie::cross(y, py);
  }
  for (std::size_t i = 0; i < K.size(); ++i) {
    const lie::Vec2 g = q.segment<2>(3 * n + 2 * static_cast<int>(i));
    const lie::Vec2 pg = p.segment<2>(3 * n + 2 * static_cast<int>(i));
    J.head<2>() += pg - 0.5 * rho * K[i] * lie::Jrot(g);
    J[2] += lie::cross(g, pg);
  }
  return J;
}

void restoreMomentumMap(const Eigen::VectorXd& q0, const Eigen::VectorXd& p0, const Eigen::VectorXd& q1,
                        Eigen::VectorXd& p1, int n, const std::vector<double>& K, double rho) {
  if (n == 0) return;
  restoreMomentumMap(discreteMomentumMap(q0, p0, n, K, rho), q1, p1, n, K, rho);
}

bool momentumMapDrifted(const Eigen::Vector3d& Jref, const Eigen::VectorXd& q1, const Eigen::VectorXd& p1, int n,
                        const std::vector<double>& K, double rho) {
  double scale = Jref.cwiseAbs().maxCoeff();
  double bodies = 0.0;
  for (int j = 0; j < n; ++j) bodies += p1.segment<2>(3 * j + 1).norm();
  scale = std::max(scale, bodies);
  const Eigen::Vector3d dJ = discreteMomentumMap(q1, p1, n, K, rho) - Jref;
  return dJ.cwiseAbs().maxCoeff() > kMomentumDrift * scale;
}

void restoreMomentumMap(const Eigen::Vector3d& J, const Eigen::VectorXd& q1, Eigen::VectorXd& p1, int n,
                        const std::vector<double>& K, double rho) {
  if (n == 0) return;
  Eigen::Vector3d dJ = J - discreteMomentumMap(q1, p1, n, K, rho);
  // A difference at the round-off of J's own sums is left alone: moving p by it would only add noise, and would
  // break exact symmetries (a translating ellipse far from the origin started to spin by 4e-12 in 1000 steps).
  Eigen::Vector3d sums = Eigen::Vector3d::Zero();
  for (int j = 0; j < n; ++j) {
    const lie::Vec2 y = q1.segment<2>(3 * j + 1), py = p1.segment<2>(3 * j + 1);
    sums.head<2>() += py.cwiseAbs();
    sums[2] += std::abs(p1[3 * j]) + y.norm() * py.norm();
  }
  for (std::size_t i = 0; i < K.size(); ++i) {
    const lie::Vec2 g = q1.segment<2>(3 * n + 2 * static_cast<int>(i)), pg = p1.segment<2>(3 * n + 2 * static_cast<int>(i));
    sums.head<2>() += pg.cwiseAbs() + 0.5 * rho * std::abs(K[i]) * g.cwiseAbs();
    sums[2] += g.norm() * pg.norm();
  }
  for (int a = 0; a < 3; ++a)
    if (std::abs(dJ[a]) <= kMomentumRoundoff * std::numeric_limits<double>::epsilon() * sums[a]) dJ[a] = 0.0;
  if (dJ.isZero(0.0)) return;
  // Columns: J_x, J_y and J_rot as linear forms on the bodies' momenta (p_theta_j, p_y_j) at q1.
  Eigen::MatrixXd B = Eigen::MatrixXd::Zero(3 * n, 3);
  for (int j = 0; j < n; ++j) {
    const lie::Vec2 y = q1.segment<2>(3 * j + 1);
    B(3 * j + 1, 0) = 1.0;
    B(3 * j + 2, 1) = 1.0;
    B(3 * j, 2) = 1.0;
    B(3 * j + 1, 2) = -y.y();
    B(3 * j + 2, 2) = y.x();
  }
  const Eigen::Matrix3d G = B.transpose() * B;  // positive definite: every body's p_theta enters J_rot alone
  p1.head(3 * n) += B * G.ldlt().solve(dJ);
}

FluidBodyModel::FluidBodyModel(FluidBodyConfig cfg, std::unique_ptr<fluid::Fluid> fluid,
                               MPI_Comm comm)
    : cfg_(std::move(cfg)), fluid_(std::move(fluid)),
      lagrangian_(*fluid_, masses(cfg_), circulations(cfg_), cfg_.fluidDensity, cfg_.dt), scaled_(lagrangian_),
      solver_(comm, scaled_, "del_", defaultJacobian(cfg_)), n_(static_cast<int>(cfg_.bodies.size())),
      m_(static_cast<int>(cfg_.vortices.size())) {
  for (const auto& b : cfg_.bodies) {
    shapes_.push_back(b.shape);
    reach_.push_back(outlineRadius(b.shape));
  }
  if (n_ >= 2) {
    geometry_ = std::make_unique<ContactGeometry>(contactGeometry(cfg_));
    std::vector<std::string> names;
    for (const auto& b : cfg_.bodies) names.push_back(b.name);
    // A configuration built without the deck reader may leave the distance to its default (FB-80).
    if (!(cfg_.contact.distance > 0.0)) cfg_.contact.distance = geometry_->defaultDistance();
    const ContactLaw law{cfg_.contact.distance, cfg_.contact.restitution, cfg_.contact.energy};
    if (cfg_.contact.impacts) impact_ = std::make_unique<ImpactStep>(*geometry_, law, names, cfg_.dt);
  }
  // The preconditioner blocks of newton_krylov (FB-29a): each body's added mass alone, once.
  if (const auto* bf = dynamic_cast<const fluid::BoundaryFluid*>(fluid_.get()))
    lagrangian_.setIsolatedAddedMass(fluid::isolatedAddedMass(bf->discretization(), bf->fluidDensity()));
}

Eigen::VectorXd FluidBodyModel::vec(const State& s, const char* name) const {
  const auto& v = s[name];
  return Eigen::Map<const Eigen::VectorXd>(v.data(), static_cast<Eigen::Index>(v.size()));
}

State FluidBodyModel::initialState() {
  const int d = 3 * n_ + 2 * m_;
  Eigen::VectorXd q(d), Xi(3 * n_);
  for (int j = 0; j < n_; ++j) {
    const BodyConfig& b = cfg_.bodies[static_cast<std::size_t>(j)];
    q[3 * j] = b.pose.theta;
    q.segment<2>(3 * j + 1) = b.pose.y;
    Xi[3 * j] = b.omega;
    Xi.segment<2>(3 * j + 1) = b.bodyVelocity();
  }
  for (int i = 0; i < m_; ++i) q.segment<2>(3 * n_ + 2 * i) = cfg_.vortices[static_cast<std::size_t>(i)].position;
  if (n_ > 0) {  // the fluid resolves the initial configuration (FB-87)
    const Configuration c = lagrangian_.configuration(q);
    fluid_->setSharpeningStart({});
    fluid_->refineFor(c.poses, c.vortices, 0.0);
  }
  const Eigen::VectorXd p = lagrangian_.legendre(q, Xi);
  // q_-1 = q_0 - h q_dot_0 and q_-2 = q_0 - 2 h q_dot_0 seed the extrapolating predictor (FB-95) of the first steps.
  const auto u = lagrangian_.vortexVelocities(Xi);
  Eigen::VectorXd qprev = q;
  for (int j = 0; j < n_; ++j) {
    qprev[3 * j] -= cfg_.dt * Xi[3 * j];
    qprev.segment<2>(3 * j + 1) -= cfg_.dt * lie::rotation(q[3 * j]) * Xi.segment<2>(3 * j + 1);
  }
  for (int i = 0; i < m_; ++i) qprev.segment<2>(3 * n_ + 2 * i) -= cfg_.dt * u[static_cast<std::size_t>(i)];
  State s;
  s.add("q", toStd(q));
  s.add("p", toStd(p));
  // q_k-1, then q_k-2: resizable, since a checkpoint of an older version holds q_k-1 alone (the linear predictor).
  Eigen::VectorXd history(2 * d);
  history << qprev, 2.0 * qprev - q;
  s.add("q_previous", toStd(history)).resizable = true;
  // Lagged-Jacobian remainder E (see integrators/DelSolver.hpp); refreshed at step 0. Only the
  // lagged mode keeps it ((3n + 2m)^2 values): empty otherwise, and resizable so that a restart may
  // change -del_jacobian.
  const bool lagged = solver_.mode() == integrators::JacobianMode::Lagged;
  s.add("jacobian_correction", std::vector<double>(static_cast<std::size_t>(lagged ? d * d : 0), 0.0))
      .resizable = true;
  s.add("jacobian_correction_valid", {0.0});
  if (contactState()) s.add("contact", {0.0, 0.0});  // impacts so far, the energy they took (FB-85)
  // (FB-29g): the run's momentum map, held by every step; older checkpoints lack it (restore() takes J(q, p)).
  if (n_ > 0) {
    const Eigen::Vector3d J = discreteMomentumMap(q, p, n_, lagrangian_.circulations(), cfg_.fluidDensity);
    s.add("momentum_map", {J[0], J[1], J[2]}).optional = true;
    s.add("fluid_sharpening", sharpeningField()).optional = true;  // (FB-66a)
  }
  return s;
}

void FluidBodyModel::restore(State& s) {
  const std::size_t d = static_cast<std::size_t>(3 * n_ + 2 * m_);
  const std::string why = std::to_string(n_) + " bodies, " + std::to_string(m_) + " vortices in the deck";
  for (const char* f : {"q", "p"}) requireField(s, "fluidbody", f, d, why);
  requireField(s, "fluidbody", "q_previous", {2 * d, d}, why);  // q_k-1, q_k-2 (FB-95); q_k-1 alone: older versions
  requireField(s, "fluidbody", "jacobian_correction", {d * d, 0}, why);  // empty: not kept
  if (contactState())
    requireField(s, "fluidbody", "contact", 2, "impacts and their energy loss: contact.law impact in the deck");
  if (n_ > 0) {
    requireField(s, "fluidbody", "momentum_map", {3, 0}, "J_x, J_y, J_rot");
    if (s["momentum_map"].empty()) {  // a checkpoint of an older version: the map it has now (FB-29g)
      const Eigen::Vector3d J =
          discreteMomentumMap(vec(s, "q"), vec(s, "p"), n_, lagrangian_.circulations(), cfg_.fluidDensity);
      s["momentum_map"] = {J[0], J[1], J[2]};
    }
    requireField(s, "fluidbody", "fluid_sharpening", {static_cast<std::size_t>(n_), 0}, "halvings per body");
    if (s["fluid_sharpening"].empty()) s["fluid_sharpening"].assign(static_cast<std::size_t>(n_), 0.0);  // older
    fluid_->setSharpeningStart(sharpeningStart(s));
  }
  // A correction written by another -del_jacobian mode: the lagged mode refreshes it at the next step,
  // the others do not keep it.
  std::vector<double>& E = s["jacobian_correction"];
  if (solver_.mode() != integrators::JacobianMode::Lagged) E.clear();
  if (E.size() != d * d) s["jacobian_correction_valid"][0] = 0.0;
  // The fluid resolves the restored configuration (FB-87), as it did the initial one: the invariants of the restart
  // row are those of the refined discretization. The next step refines for its own reach from q alone, so the run
  // goes on as it would have without the restart.
  const std::vector<double>& q = s["q"];
  refine(Eigen::Map<const Eigen::VectorXd>(q.data(), static_cast<Eigen::Index>(d)), 0.0, s.step);
}

integrators::DelResult FluidBodyModel::delSolve(const Eigen::VectorXd& q, const Eigen::VectorXd& p,
                                                Eigen::VectorXd& q1, Eigen::VectorXd& p1,
                                                Eigen::MatrixXd& E, bool refresh) {
  integrators::DelResult r = solver_.step(q, p, q1, p1, &E, refresh);
  if (r.converged) return r;
  // Retry once from the zero-order predictor q_k+1 = q_k with a fresh Jacobian
  // (deterministic: depends on the state of step k only).
  const integrators::DelResult first = r;
  q1 = q;
  r = solver_.step(q, p, q1, p1, &E, true);
  if (!r.converged) {
    char b[256];
    std::snprintf(b, sizeof b, "SNES (-del_) did not converge: %s after %d iterations, |F| = %.3e "
                  "(retry from q_k: %s, %d iterations, |F| = %.3e); try a smaller dt or -del_snes_max_it",
                  first.reason.c_str(), first.iterations, first.residualNorm, r.reason.c_str(),
                  r.iterations, r.residualNorm);
    throw NumericalError(b);
  }
  r.iterations += first.iterations;
  r.functionEvaluations += first.functionEvaluations;
  return r;
}

integrators::DelResult FluidBodyModel::subStep(const Eigen::VectorXd& q, const Eigen::VectorXd& p, double s,
                                               Eigen::VectorXd& q1, Eigen::VectorXd& p1, Eigen::MatrixXd& E,
                                               bool refresh) {
  if (s == 1.0) return delSolve(q, p, q1, p1, E, refresh);
  // (FB-86): the step s dt on s L_d (the same solution, the residual at the full step's scale), from the
  // step's Jacobian remainder scaled alike (its O(1) part scales with s); the step's own E stays as it is.
  // A step without a remainder (the first steps, the one after an impact) takes the one its first
  // sub-step differences: without it every sub-step of an approach differenced the Jacobian again (6n
  // evaluations each).
  const TimeStepGuard guard{lagrangian_, scaled_, cfg_.dt};
  const FloorGuard floor(solver_);
  lagrangian_.setTimeStep(s * cfg_.dt);
  scaled_.setScale(s);
  Eigen::MatrixXd Es = E.size() ? Eigen::MatrixXd(s * E) : Eigen::MatrixXd();
  Eigen::VectorXd ps;
  const integrators::DelResult r = delSolve(q, s * p, q1, ps, Es, false);
  if (E.size() == 0 && Es.size() != 0) E = Es / s;
  p1 = ps / s;
  restoreMomentumMap(q, p, q1, p1, n_, lagrangian_.circulations(), cfg_.fluidDensity);  // (FB-29c)
  return r;
}

double FluidBodyModel::largestMotion(const Eigen::VectorXd& q0, const Eigen::VectorXd& q1) const {
  double d = 0.0;
  for (int j = 0; j < n_; ++j)
    d = std::max(d, (q1.segment<2>(3 * j + 1) - q0.segment<2>(3 * j + 1)).norm() +
                        reach_[static_cast<std::size_t>(j)] * std::abs(q1[3 * j] - q0[3 * j]));
  for (int i = 0; i < m_; ++i) d = std::max(d, (q1.segment<2>(3 * n_ + 2 * i) - q0.segment<2>(3 * n_ + 2 * i)).norm());
  return d;
}

std::vector<double> FluidBodyModel::sharpeningField() const {
  const std::vector<int> used = fluid_->sharpeningUsed();
  std::vector<double> f(static_cast<std::size_t>(n_), 0.0);
  if (used.size() == f.size()) std::copy(used.begin(), used.end(), f.begin());
  return f;
}

std::vector<int> FluidBodyModel::sharpeningStart(const State& s) const {
  // (FB-66a): the step's state's sharpening, none every kSharpeningRetry steps.
  if (s.step % kSharpeningRetry == 0) return {};
  const std::vector<double>& f = s.find("fluid_sharpening")->data;
  std::vector<int> start(f.size());
  for (std::size_t j = 0; j < f.size(); ++j)  // a count; anything else (a damaged field) counts as none
    start[j] = f[j] >= 1.0 && f[j] <= 64.0 ? static_cast<int>(f[j]) : 0;
  return start;
}

bool FluidBodyModel::refine(const Eigen::VectorXd& q, double margin, std::int64_t step) {
  if (n_ == 0) return false;
  const Configuration c = lagrangian_.configuration(q);
  try {
    return fluid_->refineFor(c.poses, c.vortices, margin);
  } catch (const NumericalError& e) {
    throw NumericalError(e.what(), step, true);  // state k is valid: stop with its checkpoint
  }
}

void FluidBodyModel::checkResolution(std::int64_t step) const {
  if (n_ == 0) return;
  const fluid::Resolution r = fluid_->resolution();
  if (!(r.tolerance > 0.0) || !(r.errorEstimate > r.tolerance)) return;
  std::string where;
  if (r.gapBodies[0] >= 0)
    where = "; closest bodies '" + cfg_.bodies[static_cast<std::size_t>(r.gapBodies[0])].name + "' and '" +
            cfg_.bodies[static_cast<std::size_t>(r.gapBodies[1])].name + "' at gap " + num(r.minGap);
  if (r.vortexBody[0] >= 0)
    where += "; vortex " + std::to_string(r.vortexBody[0]) + " at " + num(r.minVortexDistance) + " from '" +
             cfg_.bodies[static_cast<std::size_t>(r.vortexBody[1])].name + "'";
  throw NumericalError("the fluid's error estimate " + num(r.errorEstimate) + " exceeds its tolerance " +
                           num(r.tolerance) + " (" + std::to_string(r.unknowns) + " unknowns" + where + ")",
                       step, true);
}

FluidBodyModel::Advance FluidBodyModel::composed(const Eigen::VectorXd& q, const Eigen::VectorXd& p,
                                                 const Eigen::VectorXd& qprev, Eigen::MatrixXd& E) {
  // The composition (docs/composition.md (CM-1)): DEL steps of sizes gamma_i dt, each from the
  // linear extrapolation of the last two points (q_previous is one whole step dt back); the
  // lagged Jacobian remainder is refreshed at every sub-step (it belongs to its h).
  const TimeStepGuard guard{lagrangian_, scaled_, cfg_.dt};
  Advance a;
  Eigen::VectorXd qa = q, pa = p, qb = qprev;
  double hPrev = cfg_.dt;
  for (const double g : integrators::compositionCoefficients(cfg_.composition)) {
    const double h = g * cfg_.dt;
    lagrangian_.setTimeStep(h);
    a.q1 = qa + (h / hPrev) * (qa - qb);
    const integrators::DelResult ri = delSolve(qa, pa, a.q1, a.p1, E, true);
    a.solver.iterations += ri.iterations;
    a.solver.functionEvaluations += ri.functionEvaluations;
    a.solver.residualNorm = std::max(a.solver.residualNorm, ri.residualNorm);
    a.moved = std::max(a.moved, largestMotion(q, a.q1));
    ++a.solves;
    qb = qa;
    qa = a.q1;
    pa = a.p1;
    hPrev = h;
  }
  a.solver.converged = true;
  a.qPrevious = q;
  return a;
}

FluidBodyModel::Advance FluidBodyModel::advance(const Eigen::VectorXd& q, const Eigen::VectorXd& p,
                                                const Eigen::VectorXd& qprev, const Eigen::VectorXd& predictor,
                                                Eigen::MatrixXd& E, bool refresh, std::int64_t step) {
  if (cfg_.composition != integrators::Composition::None) return composed(q, p, qprev, E);
  Advance a;
  a.qPrevious = q;
  if (!impact_) {
    a.q1 = predictor;
    a.solver = delSolve(q, p, a.q1, a.p1, E, refresh);
    a.moved = largestMotion(q, a.q1);
    a.solves = 1;
    return a;
  }
  // (FB-82): the first solve is the plain step (bitwise today's); sub-steps scale the step's E. (FB-88):
  // near contact the step is N equal sub-steps of size dt / N, each a step of the collision integrator.
  const int N = approachSubSteps(q, predictor, step);
  const double span = 1.0 / N;
  SubStepper st;
  st.solve = [&](const Eigen::VectorXd& q0, const Eigen::VectorXd& p0, double s, Eigen::VectorXd& q1,
                 Eigen::VectorXd& p1) { return subStep(q0, p0, s * span, q1, p1, E, refresh); };
  st.discreteEnergy = [&](const Eigen::VectorXd& q0, const Eigen::VectorXd& q1, double s) {
    const TimeStepGuard guard{lagrangian_, scaled_, cfg_.dt};
    lagrangian_.setTimeStep(s * span * cfg_.dt);
    return lagrangian_.discreteEnergy(q0, q1);
  };
  st.bodyVelocity = [&](const Eigen::VectorXd& qq, const Eigen::VectorXd& pp) {
    return lagrangian_.bodyVelocity(qq, pp);
  };
  st.energy = [&](const Eigen::VectorXd& qq, const Eigen::VectorXd& pp) {
    return lagrangian_.energy(lagrangian_.bodyVelocity(qq, pp));
  };
  a.subSteps = N;
  a.solver.converged = true;
  Eigen::VectorXd qk = q, pk = p, next = N == 1 ? predictor : Eigen::VectorXd(q + span * (q - qprev));
  Eigen::VectorXd lastStart = q, before;  // before: q one whole sub-step before qk, if qk ended a whole one
  double lastFraction = 0.0;  // of dt, where the last segment began
  for (int k = 0; k < N; ++k) {
    ImpactStepResult r = impact_->step(qk, pk, next, step, st, span);
    a.solver.iterations += r.solver.iterations;
    a.solver.functionEvaluations += r.solver.functionEvaluations;
    a.solver.residualNorm = std::max(a.solver.residualNorm, r.solver.residualNorm);
    a.solves += r.solves;
    for (Impact& im : r.impacts) {
      im.fraction = (k + im.fraction) * span;
      a.impacts.push_back(im);
    }
    for (const auto& v : r.visited) a.moved = std::max(a.moved, largestMotion(q, v));
    a.moved = std::max(a.moved, largestMotion(q, r.q1));
    lastStart = r.lastStart;
    lastFraction = (k + r.lastFraction) * span;
    // The next sub-step's predictor (FB-88a): quadratic through the last three sub-step ends when the last two
    // sub-steps were whole (no impact inside), else the last segment's velocity over one sub-step.
    const bool whole = r.impacts.empty();
    if (whole && before.size()) next = 3.0 * (r.q1 - qk) + before;
    else next = r.q1 + (r.q1 - r.lastStart) / (1.0 - r.lastFraction);
    before = whole ? qk : Eigen::VectorXd();
    qk = std::move(r.q1);
    pk = std::move(r.p1);
  }
  a.q1 = std::move(qk);
  a.p1 = std::move(pk);
  // After an impact or sub-steps the predictor's q_previous lies one step dt behind q_k+1 on the last segment.
  if (N > 1 || !a.impacts.empty()) a.qPrevious = a.q1 - (a.q1 - lastStart) / (1.0 - lastFraction);
  return a;
}

int FluidBodyModel::approachSubSteps(const Eigen::VectorXd& q, const Eigen::VectorXd& predictor,
                                     std::int64_t step) const {
  // (FB-88): N = 2^k >= max over close pairs of |g(predictor) - g(q)| / (rho max(min(g(q), g(predictor)), delta)).
  const double delta = impact_->law().distance, reach = 2.0 * largestMotion(q, predictor);
  const double rho = cfg_.contact.approachFraction;
  if (!(reach > 0.0)) return 1;
  const Configuration c0 = lagrangian_.configuration(q), c1 = lagrangian_.configuration(predictor);
  double need = 1.0, worstChange = 0.0;
  const PairGap* worst = nullptr;
  const std::vector<PairGap> close = geometry_->gapsBelow(c0.poses, delta + reach / rho);
  for (const PairGap& g0 : close) {
    const PairGap g1 = geometry_->gap(c1.poses, g0.a, g0.b);
    const double change = g1.overlap ? reach : std::abs(g1.gap - g0.gap);
    const double level = std::max(g1.overlap ? delta : std::min(g0.gap, g1.gap), delta);
    if (const double n = change / (rho * level); n > need) need = n, worst = &g0, worstChange = change;
  }
  int N = 1;
  while (N < need && N < kMaxApproachSubSteps) N *= 2;
  if (N < need)
    throw NumericalError("bodies '" + cfg_.bodies[static_cast<std::size_t>(worst->a)].name + "' and '" +
                             cfg_.bodies[static_cast<std::size_t>(worst->b)].name + "' approach by " +
                             num(worstChange) + " in one step near the contact distance " +
                             num(delta) + ": more than " + std::to_string(kMaxApproachSubSteps) +
                             " sub-steps would be needed to resolve it; reduce time.dt",
                         step, true);
  return N;
}

StepReport FluidBodyModel::step(State& s) {
  fluid_->forgetSolutions();  // a step depends on the state alone (restarts bitwise, (FB-47a))
  const auto* boundary = dynamic_cast<const fluid::BoundaryFluid*>(fluid_.get());
  const long krylov0 = boundary ? boundary->totalIterations() : 0;
  const KrylovCount count{krylov_, boundary, krylov0};
  const Eigen::VectorXd q = vec(s, "q"), p = vec(s, "p"), history = vec(s, "q_previous");
  const int d = 3 * n_ + 2 * m_;
  const Eigen::VectorXd qprev = history.head(d);
  Eigen::MatrixXd E;
  if (s["jacobian_correction_valid"][0] != 0.0 && s["jacobian_correction"].size() == static_cast<std::size_t>(d) * d)
    E = Eigen::Map<const Eigen::MatrixXd>(s["jacobian_correction"].data(), d, d);
  const bool refresh = s.step % solver_.jacobianLag() == 0;
  // (FB-87): the fluid resolves every configuration within the margin of q_k; a step that went
  // farther is solved again on the discretization refined for its reach.
  const double margin = kMarginSafety * largestMotion(qprev, q);
  if (n_ > 0) fluid_->setSharpeningStart(sharpeningStart(s));  // (FB-66a)
  refine(q, margin, s.step);
  const Eigen::MatrixXd E0 = E;
  // (FB-95): quadratic extrapolation through q_k, q_k-1, q_k-2 (linear without q_k-2).
  const Eigen::VectorXd predictor = history.size() == 2 * d ? Eigen::VectorXd(3.0 * (q - qprev) + history.tail(d))
                                                            : Eigen::VectorXd(2.0 * q - qprev);
  Advance a = advance(q, p, qprev, predictor, E, refresh, s.step);
  a.margin = margin;
  if (a.moved > margin && refine(q, kMarginSafety * a.moved, s.step)) {
    const double wider = kMarginSafety * a.moved;
    fluid_->forgetSolutions();
    E = E0;
    a = advance(q, p, qprev, predictor, E, refresh, s.step);
    a.margin = wider;
  }
  checkResolution(s.step);
  // q_previous = (q_k, q_k-1) after a plain step; after an impact or sub-steps the point one step dt
  // behind q_k+1 on the last segment, and the history linear through it (FB-95).
  Eigen::VectorXd next(2 * d);
  if (a.subSteps == 1 && a.impacts.empty()) next << q, qprev;
  else next << a.qPrevious, 2.0 * a.qPrevious - a.q1;
  s["q_previous"] = toStd(next);
  if (n_ > 0) {  // (FB-29g)
    const std::vector<double>& r = s["momentum_map"];
    const Eigen::Vector3d Jref(r[0], r[1], r[2]);
    const auto& K = lagrangian_.circulations();
    if (momentumMapDrifted(Jref, a.q1, a.p1, n_, K, cfg_.fluidDensity))
      restoreMomentumMap(Jref, a.q1, a.p1, n_, K, cfg_.fluidDensity);
  }
  s["q"] = toStd(a.q1);
  s["p"] = toStd(a.p1);
  if (n_ > 0) s["fluid_sharpening"] = sharpeningField();
  if (solver_.mode() == integrators::JacobianMode::Lagged && E.rows() == d) {
    s["jacobian_correction"].assign(E.data(), E.data() + E.size());
    // An impact changes the velocities, and E with them: the next step refreshes it.
    s["jacobian_correction_valid"][0] = a.impacts.empty() ? 1.0 : 0.0;
  }
  if (contactState())
    for (const Impact& im : a.impacts) {
      s["contact"][0] += 1.0;
      s["contact"][1] += im.energyBefore - im.energyAfter;
    }
  last_ = std::move(a);
  return {last_.solver.iterations, last_.solver.residualNorm, last_.solver.functionEvaluations};
}

const std::vector<Column>& FluidBodyModel::logColumns() {
  static const std::vector<Column> c = {
      Column("energy", "1", Kind::Diagnostic, "H = 1/2 <K(g) Xi, Xi> - W_G, kinetic energy of bodies and fluid (finite part), (FB-11); with inelastic impacts energy + impact_energy_loss is conserved").conservedWhen("unless impacts take energy (contact.restitution < 1)"),
      {"momentum_x", "1", Kind::Conserved, "discrete momentum map J_trans, x (FB-27)"},
      {"momentum_y", "1", Kind::Conserved, "discrete momentum map J_trans, y (FB-27)"},
      {"angular_momentum", "1", Kind::Conserved, "discrete momentum map J_rot (FB-27)"},
      {"c2_momentum_x", "1", Kind::Conserved, "Corollary 2 momentum, x (FB-14), continuous Legendre map for the vortices"},
      {"c2_momentum_y", "1", Kind::Conserved, "Corollary 2 momentum, y (FB-14)"},
      {"c2_angular_momentum", "1", Kind::Conserved, "Corollary 2 angular momentum (FB-14)"},
      Column("impulse_x", "1", Kind::Diagnostic, "linear impulse sum_i K_i gamma_i, x (conserved without bodies)").conservedWhen("without bodies"),
      Column("impulse_y", "1", Kind::Diagnostic, "linear impulse sum_i K_i gamma_i, y (conserved without bodies)").conservedWhen("without bodies"),
      Column("angular_impulse", "1", Kind::Diagnostic, "angular impulse sum_i K_i |gamma_i|^2 (conserved without bodies)").conservedWhen("without bodies"),
      {"legendre_residual", "1", Kind::Diagnostic, "max_i |p_gamma_i + rho K_i J gamma_i / 2|: size of the parasitic mode (FB-28)"},
      Column("min_body_vortex_distance", "1", Kind::Diagnostic, "smallest distance from a vortex to a body boundary").onlyWith("with bodies and vortices"),
      Column("min_body_body_distance", "1", Kind::Diagnostic, "smallest distance between two body boundaries, the gap phi of (FB-80) (exact for circles and analytic curves)").onlyWith("with two or more bodies"),
      Column("snes_iterations", "1", Kind::Solver, "Newton (SNES) iterations of the DEL solve of the step").count(),
      Column("snes_function_evaluations", "1", Kind::Solver, "residual evaluations of the step (each one fluid solve)").count(),
      {"residual_norm", "1", Kind::Solver, "final DEL residual norm |F| of the step"},
      Column("panel_krylov_iterations", "1", Kind::Solver, "KSP iterations of all panel solves of the step (0 on the direct path)").count().onlyWith("with bodies"),
      Column("fluid_unknowns", "1", Kind::Solver, "unknowns of the fluid's boundary system at the logged configuration (Fluid::resolution, (FB-87))").count().onlyWith("with bodies"),
      Column("fluid_error_estimate", "1", Kind::Diagnostic, "the fluid's relative error estimate at the logged configuration (0: not estimated), (FB-87)").onlyWith("with bodies"),
      Column("impacts", "1", Kind::Diagnostic, "impacts so far (FB-82)").count().onlyWith("with contact.law impact"),
      Column("contact_substeps", "1", Kind::Solver, "approach sub-steps of the step (FB-88): 1 away from contact").count().onlyWith("with contact.law impact"),
      Column("impact_energy_loss", "1", Kind::Diagnostic, "energy the impacts took so far, sum of (1 - e^2) T_n (FB-85); energy + this is conserved").onlyWith("with contact.law impact"),
  };
  return c;
}

Eigen::VectorXd FluidBodyModel::velocityGuess(const State& s) {
  // (FB-29f): Xi at q_k+1 ~ 3/2 Xi_k+1/2 - 1/2 Xi_k-1/2 from the step velocities of q_previous = (q_k, q_k-1)
  // (after sub-steps or an impact, the point one step dt behind on the last segment): O(dt^2), from the state alone.
  const int d = 3 * n_ + 2 * m_;
  const Eigen::VectorXd q = vec(s, "q"), history = vec(s, "q_previous");
  if (n_ == 0 || history.size() < d) return {};
  const Eigen::VectorXd qk = history.head(d);
  const Eigen::VectorXd late = lagrangian_.stepVelocity(qk, q);
  if (history.size() < 2 * d) return late;
  return 1.5 * late - 0.5 * lagrangian_.stepVelocity(history.tail(d), qk);
}

LogRow FluidBodyModel::logRow(const State& s, const StepReport& last) {
  const Eigen::VectorXd q = vec(s, "q"), p = vec(s, "p");
  const double H = lagrangian_.hamiltonian(q, p, velocityGuess(s));
  const fluid::Resolution res = n_ > 0 ? fluid_->resolution() : fluid::Resolution{};  // at q (the solve above)
  const auto& K = lagrangian_.circulations();
  const double rho = cfg_.fluidDensity;
  const Eigen::Vector3d J = discreteMomentumMap(q, p, n_, K, rho);
  // Corollary 2 with the continuous Legendre map for the vortices (p_gamma = -rho K J gamma / 2).
  Eigen::VectorXd pc = p;
  double legendre = 0.0, ix = 0.0, iy = 0.0, ia = 0.0;
  for (int i = 0; i < m_; ++i) {
    const lie::Vec2 g = q.segment<2>(3 * n_ + 2 * i);
    const lie::Vec2 pl = -0.5 * rho * K[static_cast<std::size_t>(i)] * lie::Jrot(g);
    legendre = std::max(legendre, (p.segment<2>(3 * n_ + 2 * i) - pl).norm());
    pc.segment<2>(3 * n_ + 2 * i) = pl;
    ix += K[static_cast<std::size_t>(i)] * g.x();
    iy += K[static_cast<std::size_t>(i)] * g.y();
    ia += K[static_cast<std::size_t>(i)] * g.squaredNorm();
  }
  const Eigen::Vector3d C = discreteMomentumMap(q, pc, n_, K, rho);
  const Kind impulse = n_ == 0 ? Kind::Conserved : Kind::Diagnostic;  // the bodies exchange it
  LogRow row(logColumns());
  const bool inelastic = contactState() && cfg_.contact.restitution < 1.0;
  row.add("energy", H, inelastic ? Kind::Diagnostic : Kind::Conserved);
  row.add("momentum_x", J[0]).add("momentum_y", J[1]).add("angular_momentum", J[2]);
  row.add("c2_momentum_x", C[0]).add("c2_momentum_y", C[1]).add("c2_angular_momentum", C[2]);
  row.add("impulse_x", ix, impulse).add("impulse_y", iy, impulse).add("angular_impulse", ia, impulse);
  row.add("legendre_residual", legendre);
  const Configuration c = lagrangian_.configuration(q);
  if (n_ > 0 && m_ > 0) row.add("min_body_vortex_distance", minBodyVortexDistance(shapes_, c));
  if (n_ > 1) {  // the gap phi of (FB-80): exact for circles and analytic curves
    const PairGap g = geometry_->smallest(c.poses);
    row.add("min_body_body_distance", g.overlap ? 0.0 : g.gap);
  }
  row.add("snes_iterations", last.iterations).add("snes_function_evaluations", last.evaluations);
  row.add("residual_norm", last.residualNorm);
  if (n_ > 0) {
    row.add("panel_krylov_iterations", static_cast<double>(krylov_));
    row.add("fluid_unknowns", static_cast<double>(res.unknowns)).add("fluid_error_estimate", res.errorEstimate);
  }
  if (contactState()) {
    row.add("impacts", s["contact"][0]).add("contact_substeps", last_.subSteps);
    row.add("impact_energy_loss", s["contact"][1]);
  }
  return row;
}

void FluidBodyModel::check(const State& s) {
  if (n_ == 0) return;
  const Configuration c = lagrangian_.configuration(vec(s, "q"));
  const std::string problem =
      fluid::configurationProblem(shapes_, c.poses, c.vortices, cfg_.vortexStopPanels());
  if (problem.empty()) return;
  if (cfg_.vortexStopPanels() > 0.0)
    throw NumericalError(problem + " (the panel method cannot resolve it; fluid.min_distance_panels = " +
                             std::to_string(cfg_.minDistancePanels) + ")",
                         s.step, true);
  throw NumericalError(problem, s.step, true);
}

namespace {

/// The snapshot attributes (docs/output.md "Snapshots").
const std::vector<Quantity>& snapshotQuantities() {
  static const std::vector<Quantity> q = {
      {"body", "1", "body index j (names in cell_names)", "diagnostic", true},
      {"id", "1", "vortex index i (deck order)", "diagnostic", true},
      {"theta", "1", "body angle theta_j (rad)", "diagnostic"},
      {"omega", "1", "body angular velocity Omega_j", "diagnostic"},
      {"velocity", "1", "spatial velocity of the point: y_dot_j + Omega_j J (z - y_j) on a body, u(gamma_i) at a vortex (FB-15)", "diagnostic"},
      {"circulation", "1", "vortex circulation K_i", "diagnostic"},
  };
  return q;
}

}  // namespace

bool FluidBodyModel::snapshot(const State& s, Snapshot& out) {
  out.quantities = snapshotQuantities();
  const Eigen::VectorXd q = vec(s, "q"), p = vec(s, "p");
  // Velocities of the state: Xi from the momenta (collective: the fluid solve of the Legendre
  // map), spatial y_dot_j = R(theta_j) V_j, vortex velocities u(gamma_i) (FB-15).
  const Eigen::VectorXd Xi = lagrangian_.bodyVelocity(q, p, velocityGuess(s));
  const auto u = m_ > 0 ? lagrangian_.vortexVelocities(Xi) : std::vector<lie::Vec2>{};
  if (n_ > 0) {
    SnapshotMesh bodies;
    bodies.name = "bodies";
    bodies.topology = SnapshotMesh::Topology::Polygon;
    std::vector<double> id, velocity;
    for (int j = 0; j < n_; ++j) {
      const lie::Pose g{q[3 * j], lie::Vec2(q[3 * j + 1], q[3 * j + 2])};
      const lie::Vec2 ydot = lie::rotation(q[3 * j]) * Xi.segment<2>(3 * j + 1);
      const auto& body = cfg_.bodies[static_cast<std::size_t>(j)];
      for (const auto& Z : body.shape.vertices) {
        const lie::Vec2 z = g.apply(Z);
        const lie::Vec2 w = ydot + Xi[3 * j] * lie::Jrot(z - g.y);
        bodies.coordinates.insert(bodies.coordinates.end(), {z.x(), z.y()});
        velocity.insert(velocity.end(), {w.x(), w.y()});
        id.push_back(j);
      }
      bodies.cellSizes.push_back(static_cast<int>(body.shape.vertices.size()));
      bodies.cellNames.push_back(body.name.empty() ? "body_" + std::to_string(j) : body.name);
    }
    bodies.attributes.emplace_back("body", id);
    bodies.vectors.emplace_back("velocity", velocity);
    out.meshes.push_back(std::move(bodies));
    // Body centroids y_j (the body-frame origin) with index, angle and velocities: trajectories
    // without recomputing centroids from the outlines.
    SnapshotMesh centres;
    centres.name = "centres";
    centres.topology = SnapshotMesh::Topology::Points;
    std::vector<double> index, theta, omega, cv;
    for (int j = 0; j < n_; ++j) {
      centres.coordinates.insert(centres.coordinates.end(), {q[3 * j + 1], q[3 * j + 2]});
      index.push_back(j);
      theta.push_back(q[3 * j]);
      omega.push_back(Xi[3 * j]);
      const lie::Vec2 ydot = lie::rotation(q[3 * j]) * Xi.segment<2>(3 * j + 1);
      cv.insert(cv.end(), {ydot.x(), ydot.y()});
      const auto& name = cfg_.bodies[static_cast<std::size_t>(j)].name;
      centres.cellNames.push_back(name.empty() ? "body_" + std::to_string(j) : name);
    }
    centres.attributes.emplace_back("body", index);
    centres.attributes.emplace_back("theta", theta);
    centres.attributes.emplace_back("omega", omega);
    centres.vectors.emplace_back("velocity", cv);
    out.meshes.push_back(std::move(centres));
  }
  if (m_ > 0) {
    SnapshotMesh v;
    v.name = "vortices";
    v.topology = SnapshotMesh::Topology::Points;
    std::vector<double> K, id, velocity;
    for (int i = 0; i < m_; ++i) {
      v.coordinates.insert(v.coordinates.end(), {q[3 * n_ + 2 * i], q[3 * n_ + 2 * i + 1]});
      K.push_back(cfg_.vortices[static_cast<std::size_t>(i)].circulation);
      id.push_back(i);
      const lie::Vec2& w = u[static_cast<std::size_t>(i)];
      velocity.insert(velocity.end(), {w.x(), w.y()});
    }
    v.attributes.emplace_back("id", id);
    v.attributes.emplace_back("circulation", K);
    v.vectors.emplace_back("velocity", velocity);
    out.meshes.push_back(std::move(v));
  }
  return !out.meshes.empty();
}

std::string FluidBodyModel::summary(const State& s) {
  const auto inv = invariants(s, {});
  char b[160];
  std::snprintf(b, sizeof b, "t = %.6g, H = %.10g, J = (%.10g, %.10g, %.10g)", s.time, inv[0], inv[1],
                inv[2], inv[3]);
  return b;
}

}  // namespace kirchhoff::fluidbody
