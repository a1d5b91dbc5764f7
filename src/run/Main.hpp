// The generic main() of every driver: MPI/PETSc start-up, command line, deck, model, the
// Simulation loop (or a sweep over sub-communicators), errors mapped to exit codes.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <mpi.h>

#include "core/Model.hpp"
#include "io/Deck.hpp"
#include "io/Schema.hpp"

namespace kirchhoff::run {

/// A driver-specific command (e.g. `kirchhoff-fluidbody --added-mass DECK`): runs instead of the
/// time loop on the validated deck and returns an exit code. `outdir` is the -o argument ("" if
/// none was given) for tools that write files.
struct Tool {
  std::string flag;  ///< "--added-mass"
  std::string help;  ///< one line for --help
  std::function<int(const io::Deck& deck, MPI_Comm comm, const std::string& outdir)> run;
};

/// Everything a driver contributes; the rest is shared.
struct Driver {
  std::string model;  ///< "fluidbody": the executable is kirchhoff-<model>, decks say `model: <model>`
  std::string description;
  /// Adds the model's keys to the schema (the common run keys are already there).
  std::function<void(io::Schema&)> addKeys;
  /// Builds the model for one configuration on `comm` with the time step `dt` of the run
  /// configuration (io::RunConfig, its one owner); throws DeckError/ConfigurationError.
  std::function<std::unique_ptr<Model>(const io::Deck&, double dt, MPI_Comm comm)> make;
  std::vector<Tool> tools;
  /// Deck keys (or key prefixes ending in '.') of this model that a restart may change besides
  /// the common ones of io::restartMayChange (e.g. an injected fault in the run-loop tests).
  std::vector<std::string> restartKeys;
  /// PETSc options ("-panel_correction") that change the discretisation the state is evolved
  /// with: a restart may change them only into a new invariant log (--new-log), else exit 65.
  std::vector<std::string> newLogOptions;
  /// Dotted deck keys holding the initial data ("initial", "rigid_body.M0"): a non-finite initial
  /// state is reported at the first of them present in the deck (file:line, exit 65).
  std::vector<std::string> initialKeys;
  /// The invariant-log columns the model declares, for `--log-reference` (docs/output.md): a
  /// heading and the model's table each (damped has two models).
  std::vector<std::pair<std::string, const std::vector<Column>*>> logColumns;
};

/// The full schema of a driver: common run keys plus the model's keys.
io::Schema driverSchema(const Driver& d);

/// The Markdown of `--log-reference`: each heading of d.logColumns and its table.
std::string logReference(const Driver& d);

/// main() of a driver. Returns the process exit code (see core/Error.hpp).
int main(int argc, char** argv, const Driver& driver);

}  // namespace kirchhoff::run
