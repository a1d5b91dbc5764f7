// Deck -> fluidbody: the schema of bodies, vortices and fluid keys, the reader into
// FluidBodyConfig, and the run::Driver of kirchhoff-fluidbody (with its --added-mass tool).
#pragma once

#include "io/Deck.hpp"
#include "io/Schema.hpp"
#include "models/fluidbody/FluidBodyConfig.hpp"
#include "run/Main.hpp"

namespace kirchhoff::setup {

void addFluidBodyKeys(io::Schema& s);
fluidbody::FluidBodyConfig readFluidBodyConfig(const io::Deck& deck);
run::Driver fluidbodyDriver();

}  // namespace kirchhoff::setup
