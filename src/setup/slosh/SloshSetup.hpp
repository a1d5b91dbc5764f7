// Deck -> slosh: the schema (physics, tank, vehicle, fluid depth terms, stop limits), the reader into
// slosh::Config, the CFL guard, and the run::Driver of kirchhoff-slosh with its --frequencies tool.
#pragma once

#include <string>

#include "io/Deck.hpp"
#include "io/Schema.hpp"
#include "models/slosh/SloshConfig.hpp"
#include "run/Main.hpp"

namespace kirchhoff::setup {

void addSloshKeys(io::Schema& s);
/// Reads the model keys (throws DeckError naming the key).
slosh::Config readSloshConfig(const io::Deck& deck);
/// One line per stability bound; throws ConfigurationError if dt exceeds min(da/sqrt(g h_max),
/// 2/sqrt(nu/m_v)), and says "warning" when dt is above half of it.
std::string stabilityReport(const slosh::Config& c, double dt);
/// The table printed by `kirchhoff-slosh --frequencies DECK`: coupled roots, discrete modes,
/// symmetric modes, the resonant stiffness and the CFL bound.
std::string frequencyTable(const slosh::Config& c, double dt);
run::Driver sloshDriver();

}  // namespace kirchhoff::setup
