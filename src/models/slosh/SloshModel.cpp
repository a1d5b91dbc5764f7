// The distributed slosh model: the Stormer-Verlet step of StormerVerlet.hpp on the DMDA slabs, with
// ghost exchange for the neighbour differences and rank-ordered compensated sums for sigma and E.
#include "models/slosh/SloshModel.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "core/Error.hpp"
#include "core/FieldChecks.hpp"
#include "core/PetscErrors.hpp"
#include "models/slosh/StormerVerlet.hpp"

namespace kirchhoff::slosh {

namespace {

void petscCheck(PetscErrorCode ierr, const char* what) { checkPetsc(ierr, std::string("slosh: ") + what); }

std::string fmt(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.6g", v);
  return b;
}

}  // namespace

SloshModel::SloshModel(const Config& cfg, double dt, MPI_Comm comm)
    : cfg_(cfg), disc_(cfg.par, cfg.depth, dt), comm_(comm) {
  MPI_Comm_rank(comm_, &rank_);
  MPI_Comm_size(comm_, &size_);
  if (cfg.par.points < size_)
    throw ConfigurationError("slosh: " + std::to_string(cfg.par.points) + " fluid points cannot be split over " +
                             std::to_string(size_) + " ranks (need at least one point per rank)");
  if (!(cfg.stop.minStretch > 0.0 && cfg.stop.minStretch < 1.0))
    throw ConfigurationError("slosh: stop.min_stretch must lie in (0, 1)");
  if (!(cfg.stop.maxJump > 0.0)) throw ConfigurationError("slosh: stop.max_jump must be > 0");
  if (!(cfg.stop.minDepthFraction >= 0.0 && cfg.stop.minDepthFraction < 1.0))
    throw ConfigurationError("slosh: stop.min_depth_fraction must lie in [0, 1)");
  petscCheck(createGrid(), "creating the DMDA");
}

SloshModel::~SloshModel() {
  // Destructors must not throw: PETSc reports its own errors here.
  if (local_) (void)VecDestroy(&local_);
  if (global_) (void)VecDestroy(&global_);
  if (dm_) (void)DMDestroy(&dm_);
}

PetscErrorCode SloshModel::createGrid() {
  PetscFunctionBeginUser;
  PetscCall(DMDACreate1d(comm_, DM_BOUNDARY_GHOSTED, cfg_.par.points, 1, 1, nullptr, &dm_));
  PetscCall(DMSetUp(dm_));
  PetscInt xs = 0, xm = 0, gxs = 0, gxm = 0;
  PetscCall(DMDAGetCorners(dm_, &xs, nullptr, nullptr, &xm, nullptr, nullptr));
  PetscCall(DMDAGetGhostCorners(dm_, &gxs, nullptr, nullptr, &gxm, nullptr, nullptr));
  PetscCheck(gxm == xm + 2 && gxs == xs - 1, comm_, PETSC_ERR_PLIB,
             "slosh: expected one ghost point on each side of every slab");
  PetscCall(DMCreateGlobalVector(dm_, &global_));
  PetscCall(DMCreateLocalVector(dm_, &local_));
  c_ = disc_.slab(static_cast<std::size_t>(xs) + 1, static_cast<std::size_t>(xm));
  xg_.assign(c_.n + 2, 0.0);
  xNew_.assign(c_.n, 0.0);
  wNew_.assign(c_.n, 0.0);
  // Stages are global to PETSc: register once per process, later models reuse them.
  PetscCall(PetscLogStageGetId("slosh step", &stepStage_));
  if (stepStage_ < 0) PetscCall(PetscLogStageRegister("slosh step", &stepStage_));
  PetscCall(PetscLogStageGetId("slosh measures", &measureStage_));
  if (measureStage_ < 0) PetscCall(PetscLogStageRegister("slosh measures", &measureStage_));
  PetscFunctionReturn(0);
}

PetscErrorCode SloshModel::scatterGhosts(const double* x, double* ghosted) {
  PetscFunctionBeginUser;
  // PETSc only reads the placed global array; the local vector writes straight into `ghosted`.
  PetscCall(VecPlaceArray(global_, const_cast<PetscScalar*>(x)));
  PetscCall(VecPlaceArray(local_, ghosted));
  PetscCall(DMGlobalToLocalBegin(dm_, global_, INSERT_VALUES, local_));
  PetscCall(DMGlobalToLocalEnd(dm_, global_, INSERT_VALUES, local_));
  PetscCall(VecResetArray(local_));
  PetscCall(VecResetArray(global_));
  PetscFunctionReturn(0);
}

void SloshModel::ghosts(const std::vector<double>& x) {
  petscCheck(scatterGhosts(x.data(), xg_.data()), "the ghost exchange of x");
  if (c_.first == 1) xg_[0] = 0.0;                  // x_0 = 0
  if (c_.ownsLastCell) xg_[c_.n + 1] = disc_.length();  // x_{N+1} = L
}

double SloshModel::sumOverRanks(const CompensatedSum& local) const {
  double mine[2] = {local.hi, local.lo};
  std::vector<double> all(2 * static_cast<std::size_t>(size_));
  MPI_Allgather(mine, 2, MPI_DOUBLE, all.data(), 2, MPI_DOUBLE, comm_);
  CompensatedSum total;
  for (int r = 0; r < size_; ++r) total.add(CompensatedSum{all[2 * r], all[2 * r + 1]});
  return total.value();
}

SlabMeasures SloshModel::combineOverRanks(const SlabMeasures& m) const {
  constexpr int kValues = 13;
  const double mine[kValues] = {m.kinetic.hi, m.kinetic.lo, m.potential.hi, m.potential.lo,
                                m.sigma.hi,   m.sigma.lo,   m.mass.hi,      m.mass.lo,
                                m.minStretch, m.maxStretch, m.minDepth,     m.maxJump,
                                m.finite ? 1.0 : 0.0};
  std::vector<double> all(kValues * static_cast<std::size_t>(size_));
  MPI_Allgather(mine, kValues, MPI_DOUBLE, all.data(), kValues, MPI_DOUBLE, comm_);
  SlabMeasures total;
  for (int r = 0; r < size_; ++r) {
    const double* v = &all[static_cast<std::size_t>(kValues * r)];
    SlabMeasures o;
    o.kinetic = {v[0], v[1]};
    o.potential = {v[2], v[3]};
    o.sigma = {v[4], v[5]};
    o.mass = {v[6], v[7]};
    o.minStretch = v[8];
    o.maxStretch = v[9];
    o.minDepth = v[10];
    o.maxJump = v[11];
    o.finite = v[12] != 0.0;
    total.combine(o);
  }
  return total;
}

State SloshModel::initialState() {
  State s;
  std::vector<double> x(c_.n), w(c_.n, cfg_.init.qdot0);
  for (std::size_t k = 0; k < c_.n; ++k) x[k] = disc_.label(c_.first + k);
  const double S = sumOverRanks(sigmaPartial(w.data(), c_).s);
  const std::uint64_t N = static_cast<std::uint64_t>(disc_.points());
  s.addDistributed("x", std::move(x), c_.first - 1, N);
  s.addDistributed("w", std::move(w), c_.first - 1, N);
  s.add("q", {cfg_.init.q0});
  s.add("p", {disc_.effectiveVehicleMass() * cfg_.init.qdot0 + S});
  s.add("impulse", {0.0});
  return s;
}

void SloshModel::checkFields(const State& s) const {
  const std::uint64_t N = static_cast<std::uint64_t>(disc_.points());
  for (const char* name : {"x", "w"}) requireSlab(s, "slosh", name, N, c_.first - 1, c_.n);
  for (const char* name : {"q", "p", "impulse"}) requireField(s, "slosh", name, 1);
}

void SloshModel::restore(State& s) {
  checkFields(s);
  lastInvariants_.clear();
}

StepReport SloshModel::step(State& s) {
  petscCheck(PetscLogStagePush(stepStage_), "PetscLogStagePush");
  const std::vector<double>& x = s["x"];
  const std::vector<double>& w = s["w"];
  const double q = s["q"][0], p = s["p"][0], impulse = s["impulse"][0];
  const double dt = disc_.dt(), half = 0.5 * dt;

  const double pHalf = springKick(p, q, disc_, half);
  ghosts(x);
  kick(xg_.data(), w.data(), wNew_.data(), c_, half);
  const double qdot = vehicleVelocity(pHalf, sumOverRanks(sigmaPartial(wNew_.data(), c_).s), disc_);
  drift(x.data(), wNew_.data(), xNew_.data(), c_.n, qdot, dt);
  const double qNew = q + dt * qdot;
  const double impulseNew = impulse + (disc_.stiffness() * half) * (q + qNew);
  const double pNew = springKick(pHalf, qNew, disc_, half);
  ghosts(xNew_);
  kick(xg_.data(), wNew_.data(), wNew_.data(), c_, half);

  int ok = std::isfinite(qNew) && std::isfinite(pNew) ? 1 : 0;
  for (std::size_t k = 0; k < c_.n && ok; ++k) ok = std::isfinite(xNew_[k]) && std::isfinite(wNew_[k]);
  int allOk = 0;
  MPI_Allreduce(&ok, &allOk, 1, MPI_INT, MPI_MIN, comm_);
  petscCheck(PetscLogStagePop(), "PetscLogStagePop");
  if (!allOk)
    throw NumericalError("slosh: non-finite state in step " + std::to_string(s.step + 1) + " (t = " +
                             fmt(s.time + dt) + "); dt = " + fmt(dt) + " vs the stability bound " +
                             fmt(disc_.stabilityBound()),
                         s.step, false);
  s["x"].swap(xNew_);
  s["w"].swap(wNew_);
  s["q"][0] = qNew;
  s["p"][0] = pNew;
  s["impulse"][0] = impulseNew;
  return StepReport{};
}

SloshInvariants SloshModel::measure(const State& s) {
  petscCheck(PetscLogStagePush(measureStage_), "PetscLogStagePush");
  ghosts(s["x"]);
  const SlabMeasures all = combineOverRanks(slabMeasures(xg_.data(), s["w"].data(), c_, disc_));
  petscCheck(PetscLogStagePop(), "PetscLogStagePop");
  return assembleInvariants(all, s["q"][0], s["p"][0], s["impulse"][0], disc_);
}

const std::vector<Column>& SloshModel::logColumns() {
  static const std::vector<Column> c = {
      {"time", "s", Kind::Coordinate, "time t = k dt"},
      {"energy", "J/m", Kind::Conserved, "E - E_rest (SL-13): energy above the flat state at rest"},
      {"vehicle_energy", "J/m", Kind::Diagnostic, "m_v q_t^2/2 + nu q^2/2"},
      {"momentum_balance", "kg/s", Kind::Conserved, "p + accumulated spring impulse (= p(0))"},
      {"q", "m", Kind::Diagnostic, "vehicle displacement q"},
      {"qdot", "m/s", Kind::Diagnostic, "vehicle velocity q_t"},
      {"mass", "kg/m", Kind::Conserved, "fluid mass rho integral h dx over the deformed cells"},
      {"min_depth", "m", Kind::Diagnostic, "smallest cell depth"},
      {"min_stretch", "1", Kind::Diagnostic, "smallest x_a = dx/da (1: undeformed)"},
  };
  return c;
}

LogRow SloshModel::logRow(const State& s, const StepReport& /*last*/) {
  const SloshInvariants v = measure(s);
  LogRow row(logColumns());
  row.add("energy", v.energy).add("vehicle_energy", v.vehicleEnergy).add("momentum_balance", v.momentumBalance);
  row.add("q", v.q).add("qdot", v.qdot).add("mass", v.mass).add("min_depth", v.minDepth);
  row.add("min_stretch", v.minStretch);
  lastInvariants_ = row.values();
  return row;
}

void SloshModel::check(const State& s) {
  // Extrema only (exact under any reduction order); MINLOC names the cell or node.
  ghosts(s["x"]);
  const double da = disc_.da(), rho = disc_.density();
  struct Extremum {
    double value;
    int index;
  };
  // stretch (min x_a), depth (min h), jump (max, stored negated for MINLOC)
  Extremum local[3] = {{1e300, -1}, {1e300, -1}, {1e300, -1}}, global[3];
  const std::size_t cells = c_.n + (c_.ownsLastCell ? 1 : 0);
  for (std::size_t k = 0; k < cells; ++k) {
    const double dx = xg_[k + 1] - xg_[k];
    const double h = c_.cellLabelMass[k] / (rho * dx);
    const int j = static_cast<int>(c_.first - 1 + k);  // cell j: nodes j..j+1
    if (!(dx / da >= local[0].value)) local[0] = {dx / da, j};  // NaN wins
    if (dx > 0 && h < local[1].value) local[1] = {h, j};
  }
  for (std::size_t k = 0; k < c_.n; ++k) {
    const double dl = xg_[k + 1] - xg_[k], dr = xg_[k + 2] - xg_[k + 1];
    const double jump = std::abs(dr - dl) / std::min(dl, dr);
    if (!(-jump >= local[2].value)) local[2] = {-jump, static_cast<int>(c_.first + k)};
  }
  MPI_Allreduce(local, global, 3, MPI_DOUBLE_INT, MPI_MINLOC, comm_);
  const double jump = -global[2].value;

  auto cell = [&](int j) {
    return "the cell between particles a = " + fmt(disc_.label(static_cast<std::size_t>(j))) + " and " +
           fmt(disc_.label(static_cast<std::size_t>(j) + 1)) + " m";
  };
  const std::string at = "slosh: at step " + std::to_string(s.step) + " (t = " + fmt(s.time) + " s) ";
  const std::size_t jumpNode = static_cast<std::size_t>(std::max(0, global[2].index));
  const std::string node = "particle a = " + fmt(disc_.label(jumpNode)) + " m";
  const StopLimits& lim = cfg_.stop;
  if (!(global[0].value >= lim.minStretch))
    throw NumericalError(at + cell(global[0].index) + " is compressed to x_a = " + fmt(global[0].value) +
                             " < stop.min_stretch = " + fmt(lim.minStretch) +
                             ": the particle-path shallow-water model cannot represent this (stopping "
                             "before x_a <= 0)",
                         s.step, true);
  if (!(jump <= lim.maxJump))
    throw NumericalError(at + "x_a jumps by " + fmt(jump) + " between the two cells at " + node +
                             " (> stop.max_jump = " + fmt(lim.maxJump) +
                             "): the wave has steepened into a bore (a shock), which the particle-path "
                             "shallow-water model cannot represent",
                         s.step, true);
  const double minDepth = lim.minDepthFraction * disc_.meanDepth();
  if (global[1].value < minDepth)
    throw NumericalError(at + cell(global[1].index) + " has depth h = " + fmt(global[1].value) +
                             " m < stop.min_depth_fraction * mean depth = " + fmt(minDepth) +
                             " m: a dry point forms, which the model cannot represent",
                         s.step, true);
}

bool SloshModel::snapshot(const State& s, Snapshot& out) {
  const std::vector<double>& w = s["w"];
  ghosts(s["x"]);
  const double qdot = vehicleVelocity(s["p"][0], sumOverRanks(sigmaPartial(w.data(), c_).s), disc_);
  const double q = s["q"][0], da = disc_.da();
  const std::size_t N = static_cast<std::size_t>(disc_.points());
  // Local rows (label, x, depth, relative velocity) of the nodes this rank reports.
  std::vector<double> rows;
  auto addRow = [&](std::size_t i, double xi, double h, double u) {
    rows.insert(rows.end(), {disc_.label(i), xi, h, u});
  };
  if (c_.first == 1) addRow(0, 0.0, disc_.depth(0) * da / (xg_[1] - xg_[0]), 0.0);
  for (std::size_t k = 0; k < c_.n; ++k)
    addRow(c_.first + k, xg_[k + 1], c_.nodeDepth[k] * 2.0 * da / (xg_[k + 2] - xg_[k]), w[k] - qdot);
  if (c_.ownsLastCell)
    addRow(N + 1, disc_.length(), disc_.depth(N + 1) * da / (xg_[c_.n + 1] - xg_[c_.n]), 0.0);

  int count = static_cast<int>(rows.size());
  std::vector<int> counts(static_cast<std::size_t>(size_)), displs(static_cast<std::size_t>(size_), 0);
  MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, comm_);
  std::vector<double> all;
  if (rank_ == 0) {
    for (int r = 1; r < size_; ++r) displs[r] = displs[r - 1] + counts[r - 1];
    all.resize(static_cast<std::size_t>(displs[size_ - 1] + counts[size_ - 1]));
  }
  MPI_Gatherv(rows.data(), count, MPI_DOUBLE, all.data(), counts.data(), displs.data(), MPI_DOUBLE, 0, comm_);
  if (rank_ != 0) return true;

  SnapshotMesh m;
  m.name = "surface";
  m.topology = SnapshotMesh::Topology::Polyline;
  m.dim = 2;
  std::vector<double> label, depth, velocity, labX;
  for (std::size_t r = 0; r + 3 < all.size(); r += 4) {
    m.coordinates.insert(m.coordinates.end(), {all[r + 1], all[r + 2]});
    label.push_back(all[r]);
    depth.push_back(all[r + 2]);
    velocity.push_back(all[r + 3]);
    labX.push_back(q + all[r + 1]);
  }
  m.cellSizes = {m.pointCount()};
  m.attributes = {{"label", label}, {"depth", depth}, {"velocity", velocity}, {"lab_x", labX}};
  out.meshes.push_back(std::move(m));
  out.quantities = {
      {"coordinates", "m", "(x, h): tank-frame position and depth of the surface nodes", "coordinate"},
      {"label", "m", "Lagrangian particle label a", "diagnostic"},
      {"depth", "m", "fluid depth h", "diagnostic"},
      {"velocity", "m/s", "fluid velocity relative to the tank", "diagnostic"},
      {"lab_x", "m", "particle position in the laboratory frame q + x", "diagnostic"},
  };
  return true;
}

std::string SloshModel::summary(const State& s) {
  std::ostringstream o;
  o << "q = " << fmt(s["q"][0]) << " m";
  if (lastInvariants_.size() == 8)
    o << ", E - E_rest = " << fmt(lastInvariants_[0]) << " J/m, min depth = " << fmt(lastInvariants_[6])
      << " m, min x_a = " << fmt(lastInvariants_[7]);
  return o.str();
}

}  // namespace kirchhoff::slosh
