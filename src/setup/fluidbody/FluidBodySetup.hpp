// Deck -> fluidbody: the schema of bodies, vortices and fluid keys, the reader into
// FluidBodyConfig, and the run::Driver of kirchhoff-fluidbody (with its --added-mass tool).
#pragma once

#include <mpi.h>

#include <memory>

#include "fluid/BoundaryFluid.hpp"
#include "fluid/geometry/Polygon.hpp"
#include "io/Deck.hpp"
#include "io/Schema.hpp"
#include "models/fluidbody/FluidBodyConfig.hpp"
#include "run/Main.hpp"

namespace kirchhoff::setup {

void addFluidBodyKeys(io::Schema& s);
/// The configuration of the deck, stepping by `dt` (the run configuration's time.dt).
fluidbody::FluidBodyConfig readFluidBodyConfig(const io::Deck& deck, double dt);
/// The body outlines of a configuration (in their body frames), in body order.
std::vector<fluid::Polygon> shapes(const fluidbody::FluidBodyConfig& c);
/// The boundary fluid of the configuration's discretization (fluid.discretization), options -panel_*.
std::unique_ptr<fluid::BoundaryFluid> makeBoundaryFluid(const fluidbody::FluidBodyConfig& c, MPI_Comm comm);
run::Driver fluidbodyDriver();

}  // namespace kirchhoff::setup
