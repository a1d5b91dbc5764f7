// The kirchhoff-fluidbody tools: --added-mass prints A(g), M and K(g) = M + A(g) of the deck's
// bodies at t = 0 (fluidbody.md "Fluid quantities"; closed forms of "Analytic checks" for circles and
// ellipses); --flow-field samples psi and u on a grid at t = 0 into OUTDIR/flowfield.h5 (Weißmann 2014,
// Fig. 1).
#include "setup/fluidbody/FluidBodyTools.hpp"

#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <string>

#include "core/Error.hpp"
#include "core/Mpi.hpp"
#include "fluid/AddedMassReport.hpp"
#include "fluid/FlowEvaluator.hpp"
#include "io/FlowField.hpp"
#include "io/RunConfig.hpp"
#include "setup/fluidbody/FluidBodySetup.hpp"

namespace kirchhoff::setup {

namespace {

namespace fs = std::filesystem;
using fluidbody::FluidBodyConfig;

void printMatrix(const char* title, const Eigen::MatrixXd& A) {
  std::printf("%s (%ld x %ld, order Omega, V1, V2 per body, body frames)\n", title,
              static_cast<long>(A.rows()), static_cast<long>(A.cols()));
  for (int i = 0; i < A.rows(); ++i) {
    for (int j = 0; j < A.cols(); ++j) std::printf(" %24.16e", A(i, j));
    std::printf("\n");
  }
}

/// Body-frame velocities Xi_j = (Omega_j, V_j) at t = 0, V = R^T y_dot unless given in the body frame.
Eigen::VectorXd initialVelocities(const FluidBodyConfig& c) {
  Eigen::VectorXd Xi(3 * c.bodies.size());
  for (std::size_t j = 0; j < c.bodies.size(); ++j) {
    const auto& b = c.bodies[j];
    Xi[3 * j] = b.omega;
    Xi.segment<2>(3 * j + 1) = b.bodyVelocity();
  }
  return Xi;
}

std::vector<lie::Pose> initialPoses(const FluidBodyConfig& c) {
  std::vector<lie::Pose> g;
  for (const auto& b : c.bodies) g.push_back(b.pose);
  return g;
}

fluid::Vortices initialVortices(const FluidBodyConfig& c) {
  fluid::Vortices v;
  for (const auto& x : c.vortices) v.gamma.push_back(x.position), v.K.push_back(x.circulation);
  return v;
}

// K(g) = M + A(g) at t = 0. The report builds M from a density per body; a body given by mass and
// inertia gets density m / area, and if its inertia is not that density times the polar moment the
// report's M is followed by the deck's M and K.
int addedMassTool(const io::Deck& deck, MPI_Comm comm, const std::string& /*outdir*/) {
  const FluidBodyConfig c = readFluidBodyConfig(deck, io::readRunConfig(deck).dt);
  if (c.bodies.empty()) deck.root().fail("bodies", "--added-mass needs at least one body");
  std::vector<double> density;
  Eigen::MatrixXd M = Eigen::MatrixXd::Zero(3 * c.bodies.size(), 3 * c.bodies.size());
  bool ownInertia = false;
  for (std::size_t j = 0; j < c.bodies.size(); ++j) {
    const auto& b = c.bodies[j];
    density.push_back(b.mass / b.shape.area);
    M(3 * j, 3 * j) = b.inertia;
    M(3 * j + 1, 3 * j + 1) = M(3 * j + 2, 3 * j + 2) = b.mass;
    if (std::abs(b.inertia - b.shape.inertia(density.back())) > 1e-12 * b.inertia) ownInertia = true;
  }
  const std::unique_ptr<fluid::BoundaryFluid> f = makeBoundaryFluid(c, comm);
  f->refineFor(initialPoses(c), fluid::Vortices{}, 0.0);  // close bodies: resolved to fluid.tolerance
  f->setConfiguration(initialPoses(c), fluid::Vortices{});
  const std::string report = fluid::addedMassReport(*f, density);
  const Eigen::MatrixXd A = f->addedMass();
  if (rankOf(comm) != 0) return kExitOk;
  std::printf("# %s at t = 0\n", deck.file().c_str());
  for (std::size_t j = 0; j < c.bodies.size(); ++j)
    std::printf("# body %zu = %s: mass %.17g, inertia %.17g\n", j, c.bodies[j].name.c_str(),
                c.bodies[j].mass, c.bodies[j].inertia);
  std::printf("%s", report.c_str());
  if (ownInertia) {
    std::printf("# a body's inertia is not (mass / area) x polar moment: M and K from the deck's "
                "mass and inertia\n");
    printMatrix("M (deck)", M);
    printMatrix("K = M + A(g) (deck)", M + A);
  }
  std::fflush(stdout);
  return kExitOk;
}

/// The grid of --flow-field: the deck's bounds, or the box around the bodies and vortices padded
/// by half its larger side (1 for a lone vortex); `resolution` points along the longer side.
struct Grid {
  double x0, x1, y0, y1;
  int nx, ny;
};

Grid flowGrid(const io::DeckNode& ff, const FluidBodyConfig& c) {
  Grid g{};
  if (ff.has("bounds")) {
    const auto b = ff.vector("bounds");
    g = {b[0], b[1], b[2], b[3], 0, 0};
    if (!(g.x1 > g.x0) || !(g.y1 > g.y0)) ff.fail("bounds", "need x0 < x1 and y0 < y1");
  } else {
    const double inf = std::numeric_limits<double>::infinity();
    double lo[2] = {inf, inf}, hi[2] = {-inf, -inf};
    auto grow = [&](const lie::Vec2& z) {
      for (int k = 0; k < 2; ++k) lo[k] = std::min(lo[k], z[k]), hi[k] = std::max(hi[k], z[k]);
    };
    for (const auto& b : c.bodies)
      for (const auto& Z : b.shape.vertices) grow(b.pose.apply(Z));
    for (const auto& v : c.vortices) grow(v.position);
    const double size = std::max(hi[0] - lo[0], hi[1] - lo[1]);
    const double pad = size > 0.0 ? 0.5 * size : 1.0;
    g = {lo[0] - pad, hi[0] + pad, lo[1] - pad, hi[1] + pad, 0, 0};
  }
  const long n = ff.integer("resolution");
  const double w = g.x1 - g.x0, h = g.y1 - g.y0;
  g.nx = static_cast<int>(w >= h ? n : std::max(2L, std::lround(n * w / h)));
  g.ny = static_cast<int>(h >= w ? n : std::max(2L, std::lround(n * h / w)));
  return g;
}

// psi_gamma, psi_I, psi_B = <Psi_B, Xi> and u on the grid at t = 0, masked inside the bodies.
int flowFieldTool(const io::Deck& deck, MPI_Comm comm, const std::string& outdir) {
  const FluidBodyConfig c = readFluidBodyConfig(deck, io::readRunConfig(deck).dt);
  const io::DeckNode ff = deck.root().map("flow_field");
  const Grid g = flowGrid(ff, c);
  const std::unique_ptr<fluid::BoundaryFluid> fp = makeBoundaryFluid(c, comm);
  fluid::BoundaryFluid& fluid = *fp;
  fluid.refineFor(initialPoses(c), initialVortices(c), 0.0);
  fluid.setConfiguration(initialPoses(c), initialVortices(c));
  const double t0 = MPI_Wtime();
  const fluid::FlowSample s =
      fluid::sampleFlow(fluid, initialVelocities(c), g.x0, g.x1, g.nx, g.y0, g.y1, g.ny);
  const double seconds = MPI_Wtime() - t0;
  io::FlowFieldData data = io::flowFieldData(s);
  data.attributes = {{"model", "fluidbody"}, {"deck", deck.file()}};
  data.time = 0.0;
  // -o OUTDIR wins, then flow_field.output, then out/<deck stem> like a run.
  const std::string dir = !outdir.empty()                   ? outdir
                          : !ff.string("output").empty()    ? ff.string("output")
                                                            : "out/" + fs::path(deck.file()).stem().string();
  int ok = 1;
  std::string why;
  if (rankOf(comm) == 0) {
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) ok = 0, why = ec.message();
  }
  MPI_Bcast(&ok, 1, MPI_INT, 0, comm);
  if (!ok) throw Error("--flow-field: cannot create " + dir + (why.empty() ? "" : ": " + why), kExitData);
  const std::string path = dir + "/flowfield.h5";
  io::writeFlowField(path, data, comm);
  if (rankOf(comm) == 0) {
    long fluidPoints = 0;
    for (int m : s.mask) fluidPoints += m == 0;
    std::printf("flow field at t = 0: %d x %d grid on [%g, %g] x [%g, %g], %ld fluid points, "
                "%d bodies (%d panels), %zu vortices, %.3g s\n%s\n",
                g.nx, g.ny, g.x0, g.x1, g.y0, g.y1, fluidPoints, fluid.bodyCount(),
                fluid.panelCount(), c.vortices.size(), seconds, path.c_str());
    std::fflush(stdout);
  }
  return kExitOk;
}

}  // namespace

void addFlowFieldKeys(io::Schema& s) {
  io::Section& f = s.root().map("flow_field", "grid of `--flow-field` (psi and u at t = 0)");
  f.vector("bounds", 4, "x0, x1, y0, y1 (default: the bodies and vortices padded by half their extent)");
  f.integer("resolution", "grid points along the longer side").def(201).min(2).max(4001);
  f.string("output", "folder of flowfield.h5 when -o is not given (default out/<deck stem>)").def("");
}

std::vector<run::Tool> fluidbodyTools() {
  return {
      {"--added-mass", "print A(g), M and K(g) = M + A(g) at t = 0 (closed forms for circles, ellipses)",
       addedMassTool},
      {"--flow-field", "write psi and u at t = 0 on a grid to OUTDIR/flowfield.h5",
       flowFieldTool},
  };
}

}  // namespace kirchhoff::setup
