// slosh deck keys and reader (docs/slosh.md; SI units per unit tank width), the CFL guard printed and
// enforced when the model is built, and the --frequencies tool (dispersion roots vs discrete modes).
#include "setup/slosh/SloshSetup.hpp"

#include <petscsys.h>

#include <cmath>
#include <cstdio>
#include <memory>
#include <sstream>

#include "core/Collective.hpp"
#include "core/Error.hpp"
#include "io/RunConfig.hpp"
#include "models/slosh/Discretization.hpp"
#include "models/slosh/LinearFrequencies.hpp"
#include "models/slosh/LinearModes.hpp"
#include "models/slosh/SloshModel.hpp"

namespace kirchhoff::setup {

using slosh::ProfileTerm;

namespace {
// Largest particle count: every particle carries ~12 doubles of state and coefficients, and the
// grid set-up evaluates h0 at every label, so 10^9 would take minutes before the CFL check.
constexpr double kMaxPoints = 1e7;
// Grid points sampled for the CFL pre-check made before any O(N) work.
constexpr std::size_t kCflSamples = 1025;
}  // namespace

void addSloshKeys(io::Schema& s) {
  io::Section& r = s.root();
  io::Section& ph = r.map("physics", "constants (SI)");
  ph.real("gravity", "gravitational acceleration g [m/s^2]").def(9.81).positive();
  ph.real("density", "fluid density rho [kg/m^3]").def(1000.0).positive();

  io::Section& tk = r.map("tank", "the rigid tank", true);
  tk.real("length", "tank length L [m]").required().positive();

  io::Section& v = r.map("vehicle", "the vehicle on its spring (per unit tank width)", true);
  v.real("mass", "dry vehicle mass m_v [kg/m]").required().positive();
  v.real("stiffness", "spring stiffness nu [N/m per m of width] (or give resonant_mode)").nonnegative();
  v.integer("resonant_mode",
            "tune nu = m_v (2 n pi c / L)^2 to the n-th symmetric sloshing mode (1:1 resonance), "
            "c = sqrt(g h_mean)").min(1);
  v.real("q0", "initial displacement q(0) [m]").def(0.0);
  v.real("qdot0", "initial velocity q_t(0) [m/s]; the fluid starts moving with the tank").def(0.0);

  io::Section& f = r.map("fluid", "the shallow water, in Lagrangian particle labels a in [0, L]", true);
  f.integer("points", "interior particles N (a_i = i L/(N+1)); at most 10^7 (measured at 10^7 on "
                      "1 rank: 1.7 GB resident, 3.8 GB with snapshots; O(N) set-up work; the reference "
                      "runs use hundreds)").required().min(2).max(kMaxPoints);
  f.enumeration("quadrature", {"trapezoid", "left", "right", "simpson"},
                "rule for sigma = integral rho h0 w da; simpson breaks symplecticity (for comparison)")
      .def("trapezoid");
  io::Section& d = f.list("depth", "initial depth h0(a) [m] = the sum of these terms (x(a, 0) = a, so "
                                   "this is also the initial surface h(x, 0))", true, 1);
  d.enumeration("type", {"constant", "linear", "cosine", "gaussian", "table"}, "term kind").required();
  d.variant("type", "constant").real("value", "h0 = value [m]").required();
  io::Section& lin = d.variant("type", "linear");
  lin.real("left", "value at a = 0 [m]").required();
  lin.real("right", "value at a = L [m]").required();
  io::Section& cs = d.variant("type", "cosine");
  cs.real("amplitude", "amplitude A [m] of A cos(mode pi a / L)").required();
  cs.real("mode", "mode number (odd: antisymmetric, moves the vehicle; even: symmetric)").required();
  io::Section& gs = d.variant("type", "gaussian");
  gs.real("amplitude", "amplitude A [m] of A exp(-((a - center)/width)^2)").required();
  gs.real("center", "centre [m]").required();
  gs.real("width", "width [m]").required().positive();
  io::Section& tb = d.variant("type", "table");
  tb.realList("labels", "increasing labels a_k [m] covering [0, L]").required().minItems(2);
  tb.realList("values", "h0 at the labels [m] (linear interpolation)").required().minItems(2);

  io::Section& st = r.map("stop", "physical stop conditions (exit 1 with a checkpoint) before x_a <= 0");
  st.real("max_jump", "stop when x_a = dx/da jumps by more than this fraction between neighbouring "
                      "cells (a bore); a 20 % wave passes 0.03 at its breaking time on any grid").def(0.03).positive();
  st.real("min_stretch", "stop when a cell is compressed below x_a = this").def(0.1).above(0.0).below(1.0);
  st.real("min_depth_fraction", "stop when a depth falls below this fraction of the mean (dry point)")
      .def(0.02).min(0.0).below(1.0);
}

namespace {

ProfileTerm readTerm(const io::DeckNode& t) {
  const std::string type = t.string("type");
  try {
    if (type == "constant") return ProfileTerm::constant(t.real("value"));
    if (type == "linear") return ProfileTerm::linear(t.real("left"), t.real("right"));
    if (type == "cosine") return ProfileTerm::cosine(t.real("amplitude"), t.real("mode"));
    if (type == "gaussian") return ProfileTerm::gaussian(t.real("amplitude"), t.real("center"), t.real("width"));
    return ProfileTerm::table(t.vector("labels"), t.vector("values"));
  } catch (const ConfigurationError& e) {
    t.fail("", e.what());
  }
}

}  // namespace

slosh::Config readSloshConfig(const io::Deck& deck) {
  const io::DeckNode root = deck.root();
  slosh::Config c;
  const io::DeckNode ph = root.map("physics");
  c.par.gravity = ph.real("gravity");
  c.par.density = ph.real("density");
  c.par.length = root.map("tank").real("length");
  const io::DeckNode v = root.map("vehicle");
  c.par.vehicleMass = v.real("mass");
  c.init.q0 = v.real("q0");
  c.init.qdot0 = v.real("qdot0");
  const io::DeckNode f = root.map("fluid");
  c.par.points = static_cast<int>(f.integer("points"));
  c.par.quadrature = slosh::quadratureFromName(f.string("quadrature"));
  for (const auto& t : f.list("depth")) c.depth.add(readTerm(t));
  try {
    c.depth.validate(c.par.length);
  } catch (const ConfigurationError& e) {
    f.fail("depth", e.what());
  }
  if (v.has("stiffness") && v.has("resonant_mode"))
    v.fail("resonant_mode", "give either 'stiffness' or 'resonant_mode', not both");
  if (v.has("resonant_mode")) {
    c.par.stiffness = 0.0;  // the mean depth depends only on h0 and L
    const slosh::Discretization d(c.par, c.depth, 1.0);
    c.par.stiffness = slosh::resonantStiffness(slosh::LinearProblem::of(d),
                                               static_cast<int>(v.integer("resonant_mode")));
  } else {
    c.par.stiffness = v.has("stiffness") ? v.real("stiffness") : 0.0;
  }
  const io::DeckNode st = root.map("stop");
  c.stop.maxJump = st.real("max_jump");
  c.stop.minStretch = st.real("min_stretch");
  c.stop.minDepthFraction = st.real("min_depth_fraction");
  return c;
}

namespace {

std::string num(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.6g", v);
  return b;
}

}  // namespace

/// The wave CFL bound da/sqrt(g h_max) from h0 at kCflSamples of the N + 2 grid points: an upper
/// bound of the true one (a sampled maximum is at most the maximum), so a dt above it is refused
/// before the grid (O(N) evaluations of h0) is built.
void preCheckStability(const slosh::Config& c, double dt) {
  const std::size_t n = static_cast<std::size_t>(c.par.points) + 1;  // labels 0..n
  const double da = c.par.length / static_cast<double>(n);
  double hmax = 0.0;
  for (std::size_t k = 0; k < kCflSamples; ++k) {
    const std::size_t i = k * n / (kCflSamples - 1);
    hmax = std::max(hmax, c.depth(static_cast<double>(i) * da, c.par.length));
  }
  const double bound = da / std::sqrt(c.par.gravity * hmax);
  if (hmax > 0.0 && dt > bound)
    throw ConfigurationError("slosh: time.dt = " + num(dt) + " s exceeds the Stormer-Verlet stability "
                             "bound: wave CFL da/sqrt(g h_max) <= " + num(bound) + " s for N = " +
                             std::to_string(c.par.points) + " (h0 sampled at " +
                             std::to_string(kCflSamples) + " grid points before building the grid)");
}

std::string stabilityReport(const slosh::Config& c, double dt) {
  preCheckStability(c, dt);
  const slosh::Discretization d(c.par, c.depth, dt);
  const double bound = d.stabilityBound();
  std::ostringstream o;
  o << "slosh: N = " << c.par.points << ", da = " << num(d.da()) << " m, m_f = " << num(d.fluidMass())
    << " kg/m, nu = " << num(c.par.stiffness) << " N/m^2, sigma by " << slosh::quadratureName(c.par.quadrature)
    << "\nslosh: dt = " << num(dt) << " s; stability bound " << num(bound)
    << " s = min(wave CFL da/sqrt(g h_max) = " << num(d.waveCflBound())
    << ", spring 2/sqrt(nu/m_v) = " << num(d.springBound()) << "); dt/bound = " << num(dt / bound) << "\n";
  if (dt > bound)
    throw ConfigurationError("slosh: time.dt = " + num(dt) + " s exceeds the Stormer-Verlet stability bound " +
                             num(bound) + " s (wave CFL da/sqrt(g h_max) = " + num(d.waveCflBound()) +
                             " s, spring 2/sqrt(nu/m_v) = " + num(d.springBound()) + " s)");
  if (dt > 0.5 * bound)
    o << "slosh: warning: dt is above half the linear bound; large waves raise the local depth and "
         "with it the wave speed\n";
  return o.str();
}

std::string frequencyTable(const slosh::Config& c, double dt) {
  const slosh::Discretization d(c.par, c.depth, dt);
  const slosh::LinearProblem lp = slosh::LinearProblem::of(d);
  const int count = 5;
  const auto roots = slosh::coupledFrequencies(lp, count);
  const auto sym = slosh::symmetricFrequencies(lp, count);
  std::vector<double> discrete;
  const bool haveModes = c.par.points <= 1500;
  if (haveModes)
    for (const auto& m : slosh::discreteLinearModes(d))
      if (m.vehicleAmplitude > 1e-3 && static_cast<int>(discrete.size()) < count) discrete.push_back(m.omega);
  std::ostringstream o;
  o << "# slosh linear frequencies about the flat state h = " << num(lp.depth) << " m, c = "
    << num(lp.waveSpeed()) << " m/s, m_v = " << num(lp.vehicleMass) << ", m_f = " << num(lp.fluidMass)
    << " kg/m, nu = " << num(lp.stiffness) << " N/m^2\n"
    << "# n  coupled root omega [rad/s]  f [Hz]  discrete mode (N = " << c.par.points
    << ")  Stormer-Verlet (dt = " << num(dt) << ")  symmetric 2n pi c/L  resonant nu_n\n";
  for (int n = 0; n < count; ++n) {
    const double disc = haveModes && n < static_cast<int>(discrete.size()) ? discrete[n] : NAN;
    o << n << "  " << num(roots[n]) << "  " << num(roots[n] / (2 * kPi)) << "  " << num(disc) << "  "
      << num(slosh::stormerVerletFrequency(disc, dt)) << "  " << num(sym[n]) << "  "
      << num(slosh::resonantStiffness(lp, n + 1)) << "\n";
  }
  o << "# stability bound " << num(d.stabilityBound()) << " s (wave CFL " << num(d.waveCflBound())
    << " s, spring " << num(d.springBound()) << " s)\n";
  return o.str();
}

run::Driver sloshDriver() {
  run::Driver drv;
  drv.initialKeys = {"vehicle", "fluid.depth"};
  drv.model = "slosh";
  drv.description =
      "shallow-water sloshing in a spring-restrained vehicle (particle paths, Stormer-Verlet, DMDA)";
  drv.addKeys = addSloshKeys;
  drv.logColumns = {{"**slosh** ([slosh.md](slosh.md), SI per unit width):", &slosh::SloshModel::logColumns()}};
  drv.make = [](const io::Deck& deck, double dt, MPI_Comm comm) -> std::unique_ptr<Model> {
    const slosh::Config c = collectively(comm, [&] { return readSloshConfig(deck); });
    const std::string report = stabilityReport(c, dt);
    PetscCallAbort(comm, PetscPrintf(comm, "%s", report.c_str()));
    return std::make_unique<slosh::SloshModel>(c, dt, comm);
  };
  drv.tools.push_back(run::Tool{
      "--frequencies", "print the linear coupled and symmetric frequencies of the deck, then exit",
      [](const io::Deck& deck, MPI_Comm comm, const std::string&) {
        const slosh::Config c = readSloshConfig(deck);
        const std::string table = frequencyTable(c, io::readRunConfig(deck).dt);
        PetscCallAbort(comm, PetscPrintf(comm, "%s", table.c_str()));
        return static_cast<int>(kExitOk);
      }});
  return drv;
}

}  // namespace kirchhoff::setup
