// fluidbody deck keys and reader: vortices (position, circulation), fluid density, bodies
// (shape, mass, pose, velocity); the model is built on the communicator the run loop gives.
#include "setup/fluidbody/FluidBodySetup.hpp"

#include "fluid/PointVortexFluid.hpp"
#include "io/RunConfig.hpp"
#include "models/fluidbody/FluidBodyModel.hpp"

namespace kirchhoff::setup {

using fluidbody::BodyConfig;
using fluidbody::FluidBodyConfig;
using fluidbody::VortexConfig;

void addFluidBodyKeys(io::Schema& s) {
  io::Section& r = s.root();
  io::Section& fl = r.map("fluid", "the ideal fluid");
  fl.real("density", "fluid density rho").def(1.0).positive();
  fl.real("min_distance_panels",
          "stop (exit 1, with a checkpoint) when a vortex comes closer to a body than this many "
          "panel lengths, or two bodies closer than one").def(1.0).nonnegative();
  io::Section& v = r.list("vortices", "point vortices");
  v.vector("position", 2, "initial position gamma_i").required();
  v.real("circulation", "circulation K_i (counter-clockwise positive)").required();
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

}  // namespace

FluidBodyConfig readFluidBodyConfig(const io::Deck& deck) {
  const io::DeckNode root = deck.root();
  FluidBodyConfig c;
  c.dt = io::readRunConfig(deck).dt;
  c.fluidDensity = root.map("fluid").real("density");
  c.minDistancePanels = root.map("fluid").real("min_distance_panels");
  c.vortices = readVortices(root);
  if (c.vortices.empty() && c.bodies.empty())
    root.fail("", "nothing to simulate: give at least one vortex or body");
  return c;
}

run::Driver fluidbodyDriver() {
  run::Driver d;
  d.model = "fluidbody";
  d.description = "rigid bodies and point vortices in an ideal 2D fluid (variational integrator)";
  d.addKeys = addFluidBodyKeys;
  d.make = [](const io::Deck& deck, MPI_Comm comm) -> std::unique_ptr<Model> {
    FluidBodyConfig c = readFluidBodyConfig(deck);
    auto fluid = std::make_unique<fluid::PointVortexFluid>(comm, c.fluidDensity);
    return std::make_unique<fluidbody::FluidBodyModel>(std::move(c), std::move(fluid), comm);
  };
  return d;
}

}  // namespace kirchhoff::setup
