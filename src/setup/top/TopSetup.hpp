// Deck -> top: the schema of the heavy-top keys (body, scheme, initial data, Newton, reference,
// tool settings), the reader into TopConfig, and the run::Driver of kirchhoff-top with its tools.
#pragma once

#include "io/Deck.hpp"
#include "io/Schema.hpp"
#include "models/top/TopModel.hpp"
#include "run/Main.hpp"

namespace kirchhoff::setup {

void addTopKeys(io::Schema& s);
/// The configuration of the deck, stepping by `dt` (the run configuration's time.dt).
top::TopConfig readTopConfig(const io::Deck& deck, double dt);
run::Driver topDriver();

}  // namespace kirchhoff::setup
