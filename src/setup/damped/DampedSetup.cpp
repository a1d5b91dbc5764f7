// The run::Driver of kirchhoff-damped (docs/damped.md): builds the Rayleigh or rigid-body model of
// the deck, runs the step-size guard, and prints its warning on rank 0.
#include "setup/damped/DampedSetup.hpp"

#include <cstdio>

namespace kirchhoff::setup {

std::unique_ptr<Model> makeDampedModel(const io::Deck& deck, double dt, std::string* warning) {
  std::string w;
  std::unique_ptr<Model> model;
  try {
    if (deck.root().string("system") == "rayleigh") {
      auto m = std::make_unique<damped::RayleighModel>(readRayleighConfig(deck, dt));
      w = checkRayleighStability(deck, *m);
      model = std::move(m);
    } else {
      const damped::RigidBodyConfig cfg = readRigidBodyConfig(deck, dt);
      w = checkRigidBodyStepSize(deck, cfg);
      model = std::make_unique<damped::RigidBodyModel>(cfg);
    }
  } catch (const ConfigurationError& e) {
    throw ConfigurationError(deck.file() + ": " + e.what());
  }
  if (warning) *warning = w;
  return model;
}

run::Driver dampedDriver() {
  run::Driver d;
  d.initialKeys = {"rigid_body.M0", "rayleigh.initial", "rigid_body", "rayleigh"};
  d.model = "damped";
  d.description = "Hamiltonian systems with Rayleigh damping (splittings of Modin & Söderlind 2011) "
                  "and the rigid body with double-bracket dissipation (DDB)";
  d.addKeys = addDampedKeys;
  d.logColumns = {
      {"**damped**, Rayleigh systems ([damped.md](damped.md), nondimensional):", &damped::RayleighModel::logColumns()},
      {"**damped**, rigid body ([damped.md](damped.md), nondimensional):", &damped::RigidBodyModel::logColumns()}};
  d.make = [](const io::Deck& deck, double dt, MPI_Comm comm) -> std::unique_ptr<Model> {
    std::string warning;
    auto model = makeDampedModel(deck, dt, &warning);
    int rank = 0;
    MPI_Comm_rank(comm, &rank);
    if (!warning.empty() && rank == 0) {
      std::fprintf(stderr, "warning: %s\n", warning.c_str());
      std::fflush(stderr);
    }
    return model;
  };
  return d;
}

}  // namespace kirchhoff::setup
