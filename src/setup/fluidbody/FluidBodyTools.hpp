// The kirchhoff-fluidbody tools (run::Tool): --added-mass (K(g) = M + A(g) at t = 0, fluidbody.md
// "Fluid quantities", with the closed forms of "Analytic checks") and --flow-field (Weißmann 2014, Fig. 1).
#pragma once

#include <vector>

#include "io/Deck.hpp"
#include "io/Schema.hpp"
#include "run/Main.hpp"

namespace kirchhoff::setup {

/// The deck keys of --flow-field: a `flow_field:` map (bounds, resolution, output).
void addFlowFieldKeys(io::Schema& s);

/// --added-mass and --flow-field.
std::vector<run::Tool> fluidbodyTools();

}  // namespace kirchhoff::setup
