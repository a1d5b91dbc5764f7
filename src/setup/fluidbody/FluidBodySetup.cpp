// fluidbody deck keys and reader: vortices (position, circulation), fluid density, bodies
// (shape, mass, pose, velocity); the model is built on the communicator the run loop gives.
#include "setup/fluidbody/FluidBodySetup.hpp"

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <sstream>

#include "core/Collective.hpp"
#include "fluid/geometry/ConfigurationChecks.hpp"
#include "fluid/PointVortexFluid.hpp"
#include "fluid/geometry/ShapeKinds.hpp"
#include "fluid/geometry/Shapes.hpp"
#include "io/TextFile.hpp"
#include "models/fluidbody/ContactGeometry.hpp"
#include "models/fluidbody/FluidBodyModel.hpp"
#include "setup/fluidbody/FluidBodyTools.hpp"

namespace kirchhoff::setup {

namespace {
// Panels per body: the panel matrix is dense (N^2 doubles, 2 GiB at the bound) and the outline
// check is O(N^2); a larger count is a typo (and above 2^31 it would wrap on the int cast).
constexpr int kMaxEdges = 16384;
// A vertex file of kMaxEdges lines of 'x y' with full-precision numbers and comments fits easily.
constexpr std::uintmax_t kMaxVertexFileBytes = 4u << 20;
}  // namespace

using fluidbody::BodyConfig;
using fluidbody::FluidBodyConfig;
using fluidbody::VortexConfig;

namespace {

/// shape.type and, for each kind of the registry (fluid/geometry/ShapeKinds), the keys it takes.
void addShapeKeys(io::Section& sh) {
  std::vector<std::string> kinds;
  for (const auto& k : fluid::shapeKinds()) kinds.push_back(k.name);
  sh.enumeration("type", kinds, "kind of outline").required();
  for (const auto& k : fluid::shapeKinds()) {
    io::Section& v = sh.variant("type", k.name);
    for (const auto& p : k.parameters) {
      if (p.value) v.real(p.name, p.meaning).required().positive();
      else v.realList(p.name, p.meaning);
    }
    if (k.edges)
      v.integer("edges", "number of polygon edges (panels), or of Nystrom nodes (even); with gauss_panels only "
                "the outline of the distance checks").def(64).min(3).max(kMaxEdges);
    if (k.sampling)
      v.enumeration("sampling", fluid::curveSamplings().names(),
                    "polygon edges tangent to the curve at their midpoints, or vertices on the curve").def("tangent");
    if (k.vertices) {
      v.realList("vertices", "vertices x0, y0, x1, y1, ... (either orientation)").minItems(6);
      v.string("file", "text file with one 'x y' vertex per line (relative to the deck)");
      v.boolean("smooth", "the vertices sample a smooth curve (enables the second-order panel correction)").def(false);
    }
  }
}

}  // namespace

void addFluidBodyKeys(io::Schema& s) {
  io::Section& r = s.root();
  io::Section& sc = r.map("scheme", "time stepping: the variational midpoint step, or its composition");
  sc.enumeration("composition", integrators::compositions().names(),
                 integrators::compositionDescription() + "; each sub-step a DEL solve of size "
                 "gamma_i dt").def("none");
  io::Section& fl = r.map("fluid", "the ideal fluid");
  fl.real("density", "fluid density rho").def(1.0).positive();
  std::vector<std::string> discretizations = {"auto"};
  for (const auto& n : fluid::discretizations().names()) discretizations.push_back(n);
  fl.enumeration("discretization", discretizations,
                 "boundary integrals: constant-strength panels (second order), Nystrom on the analytic "
                 "curve (spectral; " + fluid::shapeKindNames(true) + " only), or graded Gauss-Legendre panels "
                 "(high order; " + fluid::shapeKindNames(false) + " only); auto = nystrom when every body is a "
                 "smooth analytic curve (" + fluid::shapeKindNames(true) + "), else panel").def("auto");
  io::Section& gp = fl.variant("discretization", "gauss_panels");
  gp.integer("panel_order", "Gauss-Legendre nodes per panel").def(16).min(4).max(32);
  gp.real("max_panel", "longest panel before grading (body length units)").def(0.25).positive();
  gp.integer("grading_levels", "dyadic halvings of the end panels toward every corner and curvature jump")
      .def(12).min(0).max(40);
  gp.real("grading_ratio", "the graded end panels shrink by this factor per level (a steep ratio, e.g. 10 "
          "with 3 levels, suits the plate's curvature jumps)").def(2.0).min(1.5).max(16.0);
  fl.real("tolerance",
          "relative accuracy of the added mass A(g) and the vortex velocities at every configuration "
          "(nystrom, gauss_panels): bodies and vortices closer than the distance the base discretization "
          "resolves get graded Gauss-Legendre panels, and a step whose error estimate exceeds it stops "
          "(docs/fluidbody.md, close gaps); in [1e-14, 1e-2]").def(1e-8).positive();
  fl.real("min_distance_panels",
          "stop (exit 1, with a checkpoint) when a vortex comes closer to a body than this many "
          "panel lengths of its outline, or (panel discretization) two bodies closer than one; nystrom and "
          "gauss_panels resolve close bodies to fluid.tolerance instead").def(1.0).nonnegative();
  io::Section& ct = r.map("contact", "what happens when two bodies meet (docs/fluidbody.md \"Contact\")");
  ct.enumeration("law", {"impact", "none"},
                 "impact: two bodies bounce off each other when their gap reaches `distance` (the collision "
                 "integrator of (FB-82): momentum maps exact, energy kept or lost as `restitution` says); none: "
                 "the run stops (exit 1, with a checkpoint) when two bodies overlap").def("impact");
  io::Section& ci = ct.variant("law", "impact");
  ci.real("restitution", "coefficient of restitution e: 1 elastic, 0 plastic; an impact takes (1 - e^2) of the "
          "kinetic energy of the normal motion, added mass included (FB-85)").def(1.0).min(0.0).max(1.0);
  ci.real("distance", "contact distance delta: the gap between two boundaries at which they bounce (FB-80) "
          "(default: 1e-3 of the smallest body size, the diameter of its smallest disk about its centroid); "
          "bodies must start farther apart").positive();
  ci.enumeration("energy", {"contact_point", "discrete"},
                 "the energy an impact keeps (or loses as restitution prescribes): contact_point = the energy H "
                 "at the contact point (FB-85b); discrete = the discrete energy E_d of the sub-steps before and "
                 "after it (FB-85, the variational collision integrator: a symplectic step map, larger energy "
                 "jumps at impacts)").def("contact_point");
  ci.real("approach_fraction", "rho of the approach sub-steps (FB-88): a step in which a pair's gap changes by more "
          "than rho times the gap is split into sub-steps; the energy error near contact falls like rho^2, the "
          "momentum maps' round-off grows like 1 / rho").def(0.02).min(1e-3).max(0.5);
  io::Section& b = r.list("bodies", "rigid bodies (polygons); each needs density, or mass and inertia");
  b.string("name", "label used in messages").def("");
  io::Section& sh = b.map("shape", "the body outline in its own frame (centroid at the origin)", true);
  addShapeKeys(sh);
  b.real("density", "body density (mass and inertia from the exact polygon area and moment)").positive();
  b.real("mass", "body mass m (with inertia, instead of density)").positive();
  b.real("inertia", "polar moment of inertia about the centroid (with mass)").positive();
  io::Section& pose = b.map("pose", "initial pose g = (theta, y)");
  pose.real("theta", "orientation angle (rad)").def(0.0);
  pose.vector("position", 2, "centroid position y").def(std::vector<double>{0.0, 0.0});
  io::Section& vel = b.map("velocity", "initial velocity");
  vel.real("omega", "angular velocity").def(0.0);
  vel.vector("linear", 2, "velocity of the centroid").def(std::vector<double>{0.0, 0.0});
  vel.enumeration("frame", {"spatial", "body"}, "frame of `linear`: spatial y_dot or body V = R^T y_dot")
      .def("spatial");
  io::Section& v = r.list("vortices", "point vortices");
  v.vector("position", 2, "initial position gamma_i").required();
  v.real("circulation", "circulation K_i (counter-clockwise positive)").required();
  addFlowFieldKeys(s);
}

namespace {

std::vector<VortexConfig> readVortices(const io::DeckNode& root) {
  std::vector<VortexConfig> out;
  for (const auto& v : root.list("vortices")) {
    const auto p = v.vector("position");
    out.push_back({lie::Vec2(p[0], p[1]), v.real("circulation")});
  }
  for (std::size_t i = 0; i < out.size(); ++i)
    for (std::size_t j = i + 1; j < out.size(); ++j)
      if ((out[i].position - out[j].position).norm() == 0.0)
        root.list("vortices")[j].fail("position", "vortex " + std::to_string(j) +
                                                      " sits on vortex " + std::to_string(i));
  return out;
}

std::vector<lie::Vec2> readVertexFile(const io::DeckNode& shape, const std::string& deckFile) {
  namespace fs = std::filesystem;
  fs::path path = shape.string("file");
  if (path.is_relative()) path = fs::path(deckFile).parent_path() / path;
  std::string text;
  try {  // bounded: a directory, device or FIFO is refused, not read without end
    text = io::readTextFile(path.string(), "the vertex file", kMaxVertexFileBytes);
  } catch (const DeckError& e) {
    shape.fail("file", e.what());
  }
  std::istringstream in(text);
  std::vector<lie::Vec2> v;
  std::string line;
  int lineNo = 0;
  while (std::getline(in, line)) {
    ++lineNo;
    if (line.find_first_not_of(" \t\r") == std::string::npos || line[line.find_first_not_of(" \t")] == '#') continue;
    std::istringstream ss(line);
    double x, y;
    std::string rest;
    if (!(ss >> x >> y) || (ss >> rest))
      shape.fail("file", path.string() + ":" + std::to_string(lineNo) + ": expected two numbers 'x y'");
    v.emplace_back(x, y);
  }
  return v;
}

fluid::ShapeSpec readShapeSpec(const io::DeckNode& body, const std::string& deckFile) {
  const io::DeckNode sh = body.map("shape");
  fluid::ShapeSpec spec;
  spec.kind = sh.string("type");
  const fluid::ShapeKind& kind = fluid::shapeKind(spec.kind);
  for (const auto& p : kind.parameters) {
    if (p.value) spec.*p.value = sh.real(p.name);
    else if (sh.has(p.name)) spec.*p.list = sh.vector(p.name);
  }
  for (const auto& p : kind.parameters)
    for (const auto& q : kind.parameters)
      if (q.name == p.smallerThan && !(spec.*p.value < spec.*q.value))
        sh.fail(p.name, "must be smaller than the " + q.name);
  if (kind.edges) spec.edges = static_cast<int>(sh.integer("edges"));
  if (kind.sampling) spec.sampling = fluid::curveSamplings().from(sh.string("sampling"));
  if (kind.vertices) {
    if (sh.has("vertices") == sh.has("file")) sh.fail("", "give exactly one of 'vertices' and 'file'");
    if (sh.has("vertices")) {
      const auto xy = sh.vector("vertices");
      if (xy.size() % 2) sh.fail("vertices", "needs an even number of values (x, y pairs)");
      for (std::size_t k = 0; k < xy.size(); k += 2) spec.vertices.emplace_back(xy[k], xy[k + 1]);
    } else {
      spec.vertices = readVertexFile(sh, deckFile);
    }
    if (spec.vertices.size() > static_cast<std::size_t>(kMaxEdges))
      sh.fail(sh.has("file") ? "file" : "vertices", std::to_string(spec.vertices.size()) +
              " vertices, at most " + std::to_string(kMaxEdges) + " (panels per body)");
    spec.smooth = sh.boolean("smooth");
  }
  return spec;
}

/// The outline (panel polygon, or the curve's outline through the Nystrom nodes) and the curve:
/// the analytic one of a smooth kind, or for Gauss panels the piecewise-smooth curve of a plate or
/// polygon with the exact area and polar moment moved onto the outline (the body's mass and inertia
/// are the curve's).
void readShape(const io::DeckNode& body, const fluid::ShapeSpec& spec, fluid::DiscretizationKind kind,
               BodyConfig& c) {
  const io::DeckNode sh = body.map("shape");
  const bool nystrom = kind == fluid::DiscretizationKind::Nystrom;
  if (nystrom && (spec.edges % 2 != 0 || spec.edges < 8))
    sh.fail("edges", "the Nystrom node count must be even and at least 8, got " + std::to_string(spec.edges));
  try {
    const fluid::ShapeKind& shape = fluid::shapeKind(spec.kind);
    if (shape.smooth) c.curve = shape.curve(spec);
    if (nystrom) {
      c.shape = fluid::curveOutline(*c.curve, spec.edges);
    } else if (kind == fluid::DiscretizationKind::GaussPanels) {
      c.shape = shape.outline(spec);
      c.piecewise = shape.piecewise(spec, c.shape);
      c.shape.area = c.piecewise->area;
      c.shape.polarMoment = c.piecewise->polarMoment;
    } else {
      c.shape = shape.outline(spec);
    }
  } catch (const ConfigurationError& e) {
    sh.fail("", e.what());
  }
}

BodyConfig readBody(const io::DeckNode& b, const fluid::ShapeSpec& spec, fluid::DiscretizationKind kind,
                    int index) {
  BodyConfig c;
  c.name = b.string("name").empty() ? "body " + std::to_string(index) : b.string("name");
  readShape(b, spec, kind, c);
  const fluid::Polygon& shape = c.shape;
  const bool density = b.has("density"), mass = b.has("mass"), inertia = b.has("inertia");
  if (density == (mass || inertia) || mass != inertia)
    b.fail("", "give either 'density', or both 'mass' and 'inertia'");
  c.mass = density ? shape.mass(b.real("density")) : b.real("mass");
  c.inertia = density ? shape.inertia(b.real("density")) : b.real("inertia");
  const io::DeckNode pose = b.map("pose");
  const auto y = pose.vector("position");
  c.pose = {pose.real("theta"), lie::Vec2(y[0], y[1])};
  const io::DeckNode vel = b.map("velocity");
  const auto v = vel.vector("linear");
  c.omega = vel.real("omega");
  c.velocity = lie::Vec2(v[0], v[1]);
  c.bodyFrameVelocity = vel.string("frame") == "body";
  return c;
}

/// fluid.{panel_order, max_panel, grading_levels, grading_ratio}; every body must be piecewise smooth.
fluid::GaussPanelOptions readGaussPanelOptions(const io::DeckNode& fluidNode, const std::vector<io::DeckNode>& bodies,
                                               const std::vector<fluid::ShapeSpec>& specs) {
  for (std::size_t j = 0; j < bodies.size(); ++j)
    if (fluid::shapeKind(specs[j].kind).smooth)
      fluidNode.fail("discretization", "gauss_panels needs piecewise-smooth bodies (" + fluid::shapeKindNames(false) +
                     "; use nystrom for " + fluid::shapeKindNames(true) + "); body " + std::to_string(j) +
                     " is a " + specs[j].kind);
  fluid::GaussPanelOptions o;
  o.order = static_cast<int>(fluidNode.integer("panel_order"));
  o.maxPanel = fluidNode.real("max_panel");
  o.levels = static_cast<int>(fluidNode.integer("grading_levels"));
  o.ratio = fluidNode.real("grading_ratio");
  return o;
}

/// contact.law, restitution and distance (default 1e-3 of the smallest body size); the bodies must start
/// farther apart than the distance, and impacts do not compose (they split a step of the midpoint map).
fluidbody::ContactConfig readContact(const io::DeckNode& root, const FluidBodyConfig& c) {
  const io::DeckNode node = root.map("contact");
  fluidbody::ContactConfig out;
  out.impacts = node.string("law") == "impact";
  if (!out.impacts || c.bodies.size() < 2) return out;
  const fluidbody::ContactGeometry geometry = fluidbody::contactGeometry(c);
  out.restitution = node.real("restitution");
  out.energy = node.string("energy") == "discrete" ? fluidbody::EnergyCondition::Discrete
                                                   : fluidbody::EnergyCondition::ContactPoint;
  out.distance = node.has("distance") ? node.real("distance") : geometry.defaultDistance();
  out.approachFraction = node.real("approach_fraction");
  if (c.composition != integrators::Composition::None)
    root.map("scheme").fail("composition", "cannot be combined with contact.law impact (an impact splits a step of "
                            "the midpoint map); set contact.law: none to compose a run of two or more bodies");
  std::vector<lie::Pose> poses;
  for (const auto& b : c.bodies) poses.push_back(b.pose);
  const fluidbody::PairGap g = geometry.smallest(poses);
  if (g.overlap || g.gap <= out.distance) {
    char text[160];
    std::snprintf(text, sizeof text, "%.6g apart, not farther than the contact distance %.6g (give a smaller "
                  "contact.distance, or contact.law: none)", g.gap, out.distance);
    node.fail("distance", "bodies '" + c.bodies[static_cast<std::size_t>(g.a)].name + "' and '" +
                              c.bodies[static_cast<std::size_t>(g.b)].name + "' start " +
                              (g.overlap ? std::string("overlapping") : std::string(text)));
  }
  return out;
}

}  // namespace

std::vector<fluid::Polygon> shapes(const FluidBodyConfig& c) {
  std::vector<fluid::Polygon> s;
  for (const auto& b : c.bodies) s.push_back(b.shape);
  return s;
}

std::unique_ptr<fluid::BoundaryFluid> makeBoundaryFluid(const FluidBodyConfig& c, MPI_Comm comm) {
  if (c.discretization == fluid::DiscretizationKind::GaussPanels) {
    std::vector<fluid::PiecewiseCurve> pieces;
    for (const auto& b : c.bodies) pieces.push_back(*b.piecewise);
    return fluid::makeGaussPanelFluid(comm, shapes(c), pieces, c.gaussPanels, c.fluidDensity, "panel_",
                                      c.fluidTolerance);
  }
  std::vector<fluid::SmoothCurve> curves;
  if (c.discretization == fluid::DiscretizationKind::Nystrom)
    for (const auto& b : c.bodies) curves.push_back(*b.curve);
  return fluid::makeBoundaryFluid(comm, shapes(c), curves, c.discretization, c.fluidDensity, "panel_",
                                  c.fluidTolerance);
}

FluidBodyConfig readFluidBodyConfig(const io::Deck& deck, double dt) {
  const io::DeckNode root = deck.root();
  FluidBodyConfig c;
  c.dt = dt;
  c.composition = integrators::compositions().from(root.map("scheme").string("composition"));
  c.fluidDensity = root.map("fluid").real("density");
  c.minDistancePanels = root.map("fluid").real("min_distance_panels");
  c.fluidTolerance = root.map("fluid").real("tolerance");
  if (!(c.fluidTolerance >= 1e-14 && c.fluidTolerance <= 1e-2))
    root.map("fluid").fail("tolerance", "must be in [1e-14, 1e-2]");
  c.vortices = readVortices(root);
  const auto bodies = root.list("bodies");
  std::vector<fluid::ShapeSpec> specs;
  bool smooth = true;
  for (const auto& b : bodies) {
    specs.push_back(readShapeSpec(b, deck.file()));
    smooth = smooth && fluid::shapeKind(specs.back().kind).smooth;
  }
  const std::string disc = root.map("fluid").string("discretization");
  if (disc == "auto")
    c.discretization = smooth && !bodies.empty() ? fluid::DiscretizationKind::Nystrom : fluid::DiscretizationKind::Panel;
  else
    c.discretization = fluid::discretizations().from(disc);
  if (c.discretization == fluid::DiscretizationKind::Nystrom && !smooth)
    for (std::size_t j = 0; j < bodies.size(); ++j)
      if (!fluid::shapeKind(specs[j].kind).smooth)
        root.map("fluid").fail("discretization", "nystrom needs smooth analytic bodies (" + fluid::shapeKindNames(true) +
                               "); body " + std::to_string(j) + " is a " + specs[j].kind);
  if (c.discretization == fluid::DiscretizationKind::GaussPanels)
    c.gaussPanels = readGaussPanelOptions(root.map("fluid"), bodies, specs);
  for (std::size_t j = 0; j < bodies.size(); ++j)
    c.bodies.push_back(readBody(bodies[j], specs[j], c.discretization, static_cast<int>(j)));
  if (!c.bodies.empty()) {
    std::vector<fluid::Polygon> shapes;
    std::vector<lie::Pose> poses;
    fluid::Vortices v;
    for (const auto& b : c.bodies) poses.push_back(b.pose), shapes.push_back(b.shape);
    for (const auto& x : c.vortices) v.gamma.push_back(x.position), v.K.push_back(x.circulation);
    const std::string problem = fluid::configurationProblem(shapes, poses, v, c.vortexStopPanels());
    if (!problem.empty()) root.fail("bodies", problem);
  }
  c.contact = readContact(root, c);
  if (c.vortices.empty() && c.bodies.empty())
    root.fail("", "nothing to simulate: give at least one vortex or body");
  return c;
}

run::Driver fluidbodyDriver() {
  run::Driver d;
  d.initialKeys = {"bodies", "vortices"};
  // The boundary operator itself (FB-18, FB-44): a restart that changes them would continue the
  // log with other discrete equations. Solver paths and tolerances (-panel_solver, -del_*) may change.
  d.newLogOptions = {"-panel_correction", "-panel_multipole_order", "-panel_multipole_eta",
                     "-panel_multipole_tol"};
  d.model = "fluidbody";
  d.description = "rigid bodies and point vortices in an ideal 2D fluid (variational integrator)";
  d.addKeys = addFluidBodyKeys;
  d.logColumns = {{"**fluidbody** ([fluidbody.md](fluidbody.md#5-invariants-and-diagnostics), nondimensional):",
                   &fluidbody::FluidBodyModel::logColumns()}};
  d.tools = fluidbodyTools();
  d.make = [](const io::Deck& deck, double dt, MPI_Comm comm) -> std::unique_ptr<Model> {
    // Collective before the fluid's collectives: a vertex file can differ between nodes.
    FluidBodyConfig c = collectively(comm, [&] { return readFluidBodyConfig(deck, dt); });
    std::unique_ptr<fluid::Fluid> fluid;
    if (c.bodies.empty())
      fluid = std::make_unique<fluid::PointVortexFluid>(comm, c.fluidDensity);
    else
      fluid = makeBoundaryFluid(c, comm);
    return std::make_unique<fluidbody::FluidBodyModel>(std::move(c), std::move(fluid), comm);
  };
  return d;
}

}  // namespace kirchhoff::setup
