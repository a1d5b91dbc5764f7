// The kirchhoff-top tools (run::Tool): --symplecticity (defects |S^T Omega S - Omega| and Poisson
// defects of the one-step maps, docs/heavytop.md) and --convergence (errors vs dt against DOP853).
#pragma once

#include <vector>

#include "run/Main.hpp"

namespace kirchhoff::setup {

std::vector<run::Tool> topTools();

}  // namespace kirchhoff::setup
