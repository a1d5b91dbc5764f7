// damped deck reader (docs/damped.md): builds the RayleighSystem (potential, dissipation, M = m I),
// the initial state and the method, or the rigid body and its method; cross-key checks via fail().
#include <cmath>
#include <memory>
#include <sstream>

#include "setup/damped/DampedSetup.hpp"

namespace kirchhoff::setup {

using namespace damped;

namespace {

VectorXd eigenVector(const std::vector<double>& v) {
  return Eigen::Map<const VectorXd>(v.data(), static_cast<Eigen::Index>(v.size()));
}

std::shared_ptr<const Potential> readPotential(const io::DeckNode& v, double m) {
  const std::string type = v.string("type");
  if (type == "pendulum") return std::make_shared<PendulumPotential>(v.real("k"));
  if (type == "elastic_pendulum")
    return std::make_shared<ElasticPendulumPotential>(v.real("k"), v.real("l0"), m, v.real("g"));
  return std::make_shared<HarmonicChainPotential>(static_cast<int>(v.integer("n")), v.real("k"));
}

std::shared_ptr<const Dissipation> readDissipation(const io::DeckNode& d, int n) {
  const std::string type = d.string("type");
  try {
    if (type == "radial") return std::make_shared<RadialDissipation>(d.real("c"));
    if (type == "diagonal") {
      const auto vals = d.vector("values");
      if (static_cast<int>(vals.size()) != n)
        d.fail("values", "needs n = " + std::to_string(n) + " entries (got " +
                             std::to_string(vals.size()) + ")");
      return std::make_shared<DiagonalDissipation>(eigenVector(vals));
    }
    if (d.has("matrix")) {
      const auto a = d.vector("matrix");
      if (static_cast<int>(a.size()) != n * n)
        d.fail("matrix", "needs n*n = " + std::to_string(n * n) + " numbers (got " +
                             std::to_string(a.size()) + ")");
      const MatrixXd D = Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic,
                                                        Eigen::RowMajor>>(a.data(), n, n);
      return std::make_shared<ConstantDissipation>(D);
    }
    return std::make_shared<ConstantDissipation>(d.real("value") * MatrixXd::Identity(n, n));
  } catch (const ConfigurationError& e) {
    d.fail(d.has("matrix") ? "matrix" : "type", e.what());
  }
}

RayleighMethod readRayleighMethod(const io::DeckNode& s) {
  RayleighMethod m = rayleighMethods().from(s.string("method"));
  if (m.kind == RayleighMethod::Kind::Dop853) {
    m.dop.rtol = s.real("rtol");
    m.dop.atol = s.real("atol");
  } else if (m.kind == RayleighMethod::Kind::Splitting) {
    SplittingScheme& sp = m.splitting;
    sp.ordering = orderings().from(s.string("ordering"));
    sp.composition = integrators::compositions().from(s.string("composition"));
    if (sp.method == Splitting::PhiRKS) sp.rk = rksMethods().from(s.string("rk"));
    if (sp.composition != Composition::None && !isSymmetric(sp))
      s.fail("composition", "a composition needs a symmetric base step; phi_rks with rk: " +
                                s.string("rk") + " is not symmetric (order 3 only): use rk: "
                                "implicit_midpoint, phi_2s or phi_3s");
  }
  return m;
}

/// The section named by `system` must be present and the other one absent.
io::DeckNode systemSection(const io::Deck& deck, const std::string& want) {
  const io::DeckNode root = deck.root();
  const std::string other = want == "rayleigh" ? "rigid_body" : "rayleigh";
  if (root.has(other)) root.fail(other, "this section needs system: " + other + " (the deck says " +
                                            root.string("system") + ")");
  if (!root.has(want)) root.fail(want, "missing section '" + want + "' for system: " + want);
  return root.map(want);
}

}  // namespace

RayleighConfig readRayleighConfig(const io::Deck& deck, double dt) {
  const io::DeckNode r = systemSection(deck, "rayleigh");
  RayleighConfig c;
  c.dt = dt;
  const double m = r.real("mass");
  const io::DeckNode pot = r.map("potential");
  const auto V = readPotential(pot, m);
  const int n = V->dim();
  const auto D = readDissipation(r.map("dissipation"), n);
  c.system = std::make_shared<RayleighSystem>(m * MatrixXd::Identity(n, n), r.real("eps"), V, D);

  const auto* elastic = dynamic_cast<const ElasticPendulumPotential*>(V.get());
  if (elastic && pot.real("W") > 0.0) {
    try {
      c.relativeEquilibrium = conicalPendulum(elastic->k(), elastic->l0(), m, elastic->g(), pot.real("W"));
    } catch (const ConfigurationError& e) {
      pot.fail("W", e.what());
    }
  }
  const io::DeckNode i = r.map("initial");
  if (i.string("type") == "relative_equilibrium") {
    if (!c.relativeEquilibrium)
      i.fail("type", "relative_equilibrium needs potential.type elastic_pendulum with W > 0");
    c.q0 = c.relativeEquilibrium->q;
    c.p0 = c.relativeEquilibrium->p;
  } else {
    c.q0 = eigenVector(i.vector("q"));
    c.p0 = eigenVector(i.vector("p"));
    for (const char* key : {"q", "p"})
      if (static_cast<int>(i.vector(key).size()) != n)
        i.fail(key, "needs n = " + std::to_string(n) + " values for potential '" + V->name() +
                        "' (got " + std::to_string(i.vector(key).size()) + ")");
    if (elastic && !(c.q0.norm() > 0.0)) i.fail("q", "the elastic pendulum needs q != 0");
  }
  c.method = readRayleighMethod(r.map("scheme"));
  return c;
}

RigidBodyConfig readRigidBodyConfig(const io::Deck& deck, double dt) {
  const io::DeckNode b = systemSection(deck, "rigid_body");
  RigidBodyConfig c;
  c.dt = dt;
  const auto I = b.vector("inertia");
  c.inertia = Vec3(I[0], I[1], I[2]).asDiagonal();
  c.alpha = b.real("alpha");
  const auto M0 = b.vector("M0");
  c.M0 = Vec3(M0[0], M0[1], M0[2]);
  if (!(c.M0.norm() > 0.0)) b.fail("M0", "must be nonzero");
  const io::DeckNode s = b.map("scheme");
  RigidBodyMethod& m = c.method;
  m.kind = rigidBodyMethods().from(s.string("method"));
  if (m.kind == RigidBodyMethod::Kind::DDB) {
    m.ddb.retraction = lie::retractions().from(s.string("retraction"));
    m.ddb.variant = ddbVariants().from(s.string("variant"));
  } else if (m.kind == RigidBodyMethod::Kind::LobattoIIIC) {
    m.lobatto.frozenJacobian = s.string("jacobian") == "frozen";
  } else if (m.kind == RigidBodyMethod::Kind::Dop853) {
    m.dop.rtol = s.real("rtol");
    m.dop.atol = s.real("atol");
  }
  const io::DeckNode n = b.map("newton");
  integrators::NewtonOptions opt;
  opt.atol = n.real("atol");
  opt.stol = n.real("stol");
  opt.maxIterations = static_cast<int>(n.integer("max_iterations"));
  m.ddb.newton = opt;
  m.lobatto.newton = opt;
  return c;
}

}  // namespace kirchhoff::setup
