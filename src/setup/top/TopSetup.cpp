// top deck keys and reader (docs/heavytop.md): body (I, c, m g l), scheme, initial (Pi, Gamma) lifted
// by the collective map or z directly, Newton tolerances, the DOP853 reference column.
#include "setup/top/TopSetup.hpp"

#include <cmath>

#include "setup/top/TopTools.hpp"

namespace kirchhoff::setup {

using top::TopConfig;

void addTopKeys(io::Schema& s) {
  io::Section& r = s.root();
  io::Section& b = r.map("body", "the heavy top (Ohsawa 2019, eq. (1.1))", true);
  b.vector("inertia", 3, "principal moments of inertia (I1, I2, I3) about the pivot").required()
      .positive();
  b.vector("center_of_mass", 3, "unit vector c from the pivot to the centre of mass, body frame")
      .required();
  b.real("mass", "mass m").def(1.0).nonnegative();
  b.real("gravity", "gravitational acceleration g").def(1.0).nonnegative();
  b.real("length", "distance l from the pivot to the centre of mass").def(1.0).nonnegative();
  r.enumeration("scheme", top::topSchemes().names(),
                "integrator: implicit/explicit midpoint on the collective canonical system in z, "
                "or directly on (Pi, Gamma); collective_gauss_legendre: s-stage Gauss–Legendre "
                "collocation on z (order 2s)").def("collective_implicit_midpoint");
  r.variant("scheme", "collective_gauss_legendre")
      .integer("stages", "Gauss–Legendre stages s (order 2s; s = 1 is the implicit midpoint)")
      .def(2).min(1).max(8);
  r.enumeration("composition", integrators::compositions().names(),
                integrators::compositionDescription() +
                    "; needs an implicit (symmetric) scheme").def("none");
  io::Section& i = r.map("initial", "initial data: Pi and Gamma (lifted to z), or z", true);
  i.vector("Pi", 3, "body angular momentum Pi(0)");
  i.vector("Gamma", 3, "upward vertical in the body frame Gamma(0) (nonzero)");
  i.vector("z", 8, "canonical coordinates (q1..q4, p1..p4) instead of Pi and Gamma");
  i.real("phase", "lift: phase a of psi = sqrt|Gamma| e^{ia} (cos(t/2), sin(t/2) e^{if})").def(0.0);
  i.real("shift", "lift: s in q = 4/|p|^2 A(p)^T Pi + s p (the R-symmetry)").def(0.0);
  i.real("q1", "lift: choose s so that q1 = Re chi1 takes this value (instead of shift)");
  io::Section& n = r.map("newton", "Newton on the implicit midpoint equations");
  n.real("atol", "stop when |F| <= atol (that last Newton update is still applied)").def(1e-14).positive();
  n.real("stol", "... or when the update |dx| <= stol (1 + |x|)").def(1e-15).nonnegative();
  n.integer("max_iterations", "iterations before the step fails (exit 1); a stall at round-off (update <= 1e-13 (1 + |x|), no longer shrinking) is accepted instead").def(50).min(1);
  io::Section& ref = r.map("reference", "DOP853 reference solution and the 'error' column");
  ref.boolean("enabled", "advance a DOP853 solution alongside and log |(Pi, Gamma) - ref|")
      .def(false);
  ref.real("rtol", "DOP853 relative tolerance").def(1e-12).positive();
  ref.real("atol", "DOP853 absolute tolerance").def(1e-12).positive();
  io::Section& sy = r.map("symplecticity", "the --symplecticity tool");
  sy.realList("at_steps", "steps of the deck's run at which the one-step maps are checked")
      .def(std::vector<double>{0.0}).nonnegative();
  sy.real("delta", "central-difference step").def(1e-5).positive();
  io::Section& cv = r.map("convergence", "the --convergence tool");
  cv.realList("dt", "time steps of the study").def(std::vector<double>{0.04, 0.02, 0.01, 0.005,
                                                                        0.0025}).positive();
  cv.real("end_time", "time T at which errors are measured").def(10.0).positive();
  cv.real("reference_tol", "DOP853 rtol = atol of the reference").def(1e-14).positive();
}

namespace {

top::Vec3 vec3(const io::DeckNode& n, const std::string& key) {
  const auto v = n.vector(key);
  return top::Vec3(v[0], v[1], v[2]);
}

}  // namespace

TopConfig readTopConfig(const io::Deck& deck, double dt) {
  const io::DeckNode root = deck.root();
  TopConfig c;
  c.dt = dt;
  const io::DeckNode b = root.map("body");
  c.top.inertia = vec3(b, "inertia");
  c.top.c = vec3(b, "center_of_mass");
  if (std::abs(c.top.c.norm() - 1.0) > 1e-9)
    b.fail("center_of_mass", "must be a unit vector (|c| = " + std::to_string(c.top.c.norm()) +
                                 "); the distance goes in 'length'");
  c.top.mgl = b.real("mass") * b.real("gravity") * b.real("length");
  c.scheme = top::topSchemes().from(root.string("scheme"));
  if (c.scheme == top::TopScheme::CollectiveGaussLegendre)
    c.stages = static_cast<int>(root.integer("stages"));
  c.composition = integrators::compositions().from(root.string("composition"));
  if (c.composition != top::Composition::None && !top::isImplicit(c.scheme))
    root.fail("composition", "a composition needs a symmetric (implicit) scheme; " +
                                 root.string("scheme") + " is explicit (use "
                                 "collective_implicit_midpoint, direct_implicit_midpoint or "
                                 "collective_gauss_legendre)");

  const io::DeckNode i = root.map("initial");
  const bool hasZ = i.has("z"), hasPi = i.has("Pi"), hasGamma = i.has("Gamma");
  if (hasZ && (hasPi || hasGamma)) i.fail("z", "give either z or Pi and Gamma, not both");
  if (!hasZ && !(hasPi && hasGamma)) i.fail("", "give Pi and Gamma (or z)");
  if (i.has("q1") && i.has("shift")) i.fail("q1", "give either q1 or shift, not both");
  c.initial.givenZ = hasZ;
  if (hasZ) {
    const auto z = i.vector("z");
    for (int k = 0; k < 8; ++k) c.initial.z[k] = z[static_cast<std::size_t>(k)];
    if (!(c.initial.z.tail<4>().squaredNorm() > 0.0))
      i.fail("z", "p = (z5..z8) must be nonzero (Gamma = 0 otherwise)");
  } else {
    c.initial.Pi = vec3(i, "Pi");
    c.initial.Gamma = vec3(i, "Gamma");
    if (!(c.initial.Gamma.norm() > 0.0)) i.fail("Gamma", "must be nonzero");
  }
  c.initial.phase = i.real("phase");
  c.initial.shift = i.real("shift");
  c.initial.fixQ1 = i.has("q1");
  if (c.initial.fixQ1) c.initial.q1Target = i.real("q1");

  const io::DeckNode n = root.map("newton");
  c.newton.atol = n.real("atol");
  c.newton.stol = n.real("stol");
  c.newton.maxIterations = static_cast<int>(n.integer("max_iterations"));
  const io::DeckNode ref = root.map("reference");
  c.reference = ref.boolean("enabled");
  c.referenceOptions.rtol = ref.real("rtol");
  c.referenceOptions.atol = ref.real("atol");
  return c;
}

run::Driver topDriver() {
  run::Driver d;
  d.initialKeys = {"initial"};
  d.model = "top";
  d.description = "heavy top: collective Lie–Poisson integrator and three comparison schemes "
                  "(Ohsawa 2019)";
  d.addKeys = addTopKeys;
  d.logColumns = {{"**top** ([heavytop.md](heavytop.md), nondimensional):", &top::TopModel::logColumns()}};
  d.make = [](const io::Deck& deck, double dt, MPI_Comm) -> std::unique_ptr<Model> {
    return std::make_unique<top::TopModel>(readTopConfig(deck, dt));
  };
  d.tools = topTools();
  return d;
}

}  // namespace kirchhoff::setup
