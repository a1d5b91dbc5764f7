// damped deck keys (docs/damped.md): the Rayleigh system (mass, eps, potential, dissipation,
// initial data, scheme) or the dissipative rigid body (inertia, alpha, M0, scheme, Newton).
#include "integrators/Composition.hpp"
#include "setup/damped/DampedSetup.hpp"

namespace kirchhoff::setup {

using namespace damped;

namespace {

void addRayleighKeys(io::Section& r) {
  r.real("mass", "particle mass m: M = m I (also the mass in the elastic pendulum's m g q3)")
      .def(1.0).positive();
  r.real("eps", "damping parameter eps of dp/dt = -grad V - eps D M^-1 p").required().nonnegative();

  io::Section& v = r.map("potential", "potential V(q); its type fixes the dimension n", true);
  v.enumeration("type", {"pendulum", "elastic_pendulum", "harmonic_chain"},
                "pendulum: V = k (1 - cos q), n = 1; elastic_pendulum: V = k (|q| - l0)^2/2 + m g q3, "
                "n = 3; harmonic_chain: n masses between walls, V = k/2 sum (q_{i+1} - q_i)^2")
      .required();
  v.variant("type", "pendulum").real("k", "stiffness k (omega0^2 = k/m)").def(1.0).positive();
  io::Section& e = v.variant("type", "elastic_pendulum");
  e.real("k", "spring constant k").required().positive();
  e.real("l0", "rest length l0").required().positive();
  e.real("g", "gravitational acceleration g (z up)").def(1.0).nonnegative();
  e.real("W", "rate of the conical relative equilibrium about e3 whose distance r - r* is logged "
              "(0: none; needed by initial.type relative_equilibrium)").def(0.0).nonnegative();
  io::Section& c = v.variant("type", "harmonic_chain");
  c.integer("n", "number of masses (at most 128: the set-up's step-size guard takes the eigenvalues of the dense linearised step, O(n^3): 2.6 s at n = 256, 17 s at 512)").required().min(1).max(128);
  c.real("k", "spring constant k").def(1.0).positive();

  io::Section& d = r.map("dissipation", "dissipation tensor D(q), symmetric positive semi-definite", true);
  d.enumeration("type", {"constant", "diagonal", "radial"},
                "constant: D = value I (or a full matrix); diagonal: D = diag(values); "
                "radial: D = c u u^T, u = q/|q|").required();
  io::Section& dc = d.variant("type", "constant");
  dc.real("value", "D = value I (ignored if matrix is given)").def(1.0).nonnegative();
  dc.realList("matrix", "D as n*n numbers, row by row (symmetric PSD)").minItems(1);
  d.variant("type", "diagonal").realList("values", "the n diagonal entries d_i >= 0").required().minItems(1);
  d.variant("type", "radial").real("c", "coefficient c >= 0").def(1.0).nonnegative();

  io::Section& i = r.map("initial", "initial data", true);
  i.enumeration("type", {"state", "relative_equilibrium"},
                "state: q and p given; relative_equilibrium: the conical pendulum at rate "
                "potential.W (elastic pendulum only)").def("state");
  io::Section& is = i.variant("type", "state");
  is.realList("q", "q(0), n values").required().minItems(1);
  is.realList("p", "p(0), n values").required().minItems(1);

  io::Section& s = r.map("scheme", "time integrator", true);
  s.enumeration("method", rayleighMethods().names(),
                "splittings of Modin & Söderlind (Alg. 3.1-3.3), or the comparisons Heun and "
                "explicit midpoint (RK2), RK4, adaptive DOP853 (reference)").required();
  for (const auto& m : rayleighMethods().names()) {
    if (rayleighMethods().from(m).kind != RayleighMethod::Kind::Splitting) continue;
    io::Section& sm = s.variant("method", m);
    sm.enumeration("ordering", orderings().names(),
                   "dkd: drift-kick-drift as in the paper (-> position Verlet at eps = 0); "
                   "kdk: kick-drift-kick (-> velocity Verlet)").def("dkd");
    sm.enumeration("composition", integrators::compositions().names(),
                   integrators::compositionDescription() + " (symmetric bases only)")
        .def("none");
  }
  s.variant("method", "phi_rks")
      .enumeration("rk", rksMethods().names(),
                   "RK step of dp/dt = -grad V - eps D M^-1 p with q frozen (implicit_midpoint is "
                   "linearly implicit and symmetric)").def("heun");
  io::Section& sd = s.variant("method", "dop853");
  sd.real("rtol", "relative tolerance").def(1e-12).positive();
  sd.real("atol", "absolute tolerance").def(1e-12).positive();
}

void addRigidBodyKeys(io::Section& b) {
  b.vector("inertia", 3, "principal moments of inertia (I1, I2, I3)").required().positive();
  b.real("alpha", "double-bracket dissipation alpha in dM/dt = M x Omega + alpha M x (M x Omega)")
      .required().nonnegative();
  b.vector("M0", 3, "body angular momentum M(0) (nonzero)").required();
  io::Section& s = b.map("scheme", "time integrator", true);
  s.enumeration("method", rigidBodyMethods().names(),
                "discrete double bracket (DDB), or the comparisons RK4, 3-stage Lobatto IIIC, "
                "adaptive DOP853 (reference)").required();
  io::Section& sddb = s.variant("method", "ddb");
  sddb.enumeration("retraction", lie::retractions().names(), "retraction tau: so(3) -> SO(3)").def("cayley");
  sddb.enumeration("variant", ddbVariants().names(),
                   "plain: the DDB update as in the paper (1st order for alpha > 0); symmetric: "
                   "half dissipative midpoint step, conservative step, half step (2nd order)")
      .def("plain");
  s.variant("method", "lobatto_iiic")
      .enumeration("jacobian", {"full", "frozen"},
                   "full Newton, or simplified Newton with the Jacobian at the step start").def("full");
  io::Section& sd = s.variant("method", "dop853");
  sd.real("rtol", "relative tolerance").def(1e-12).positive();
  sd.real("atol", "absolute tolerance").def(1e-12).positive();
  io::Section& n = b.map("newton", "Newton on the implicit equations (DDB, Lobatto IIIC)");
  n.real("atol", "stop when |F| <= atol (that last Newton update is still applied)").def(1e-14).positive();
  n.real("stol", "... or when the update |dx| <= stol (1 + |x|)").def(1e-15).nonnegative();
  n.integer("max_iterations", "iterations before the step fails (exit 1); a stall at round-off (update <= 1e-13 (1 + |x|), no longer shrinking) is accepted instead").def(50).min(1);
}

}  // namespace

void addDampedKeys(io::Schema& s) {
  io::Section& r = s.root();
  r.enumeration("system", {"rayleigh", "rigid_body"},
                "rayleigh: Hamiltonian system with Rayleigh damping (Modin & Söderlind 2011); "
                "rigid_body: the dissipative rigid body with double-bracket damping").required();
  // Plain optional maps, checked against `system` by the reader: io::Deck::root() does not apply
  // root-level variants (its DeckNode has no discriminators), so variants are used below the root only.
  addRayleighKeys(r.map("rayleigh", "the Rayleigh-damped system (system: rayleigh)"));
  addRigidBodyKeys(r.map("rigid_body", "the dissipative rigid body (system: rigid_body)"));
  r.enumeration("stability_guard", {"refuse", "warn"},
                "explicit schemes: refuse a dt that is linearly unstable for the deck (bound "
                "printed), or only warn").def("refuse");
}

}  // namespace kirchhoff::setup
