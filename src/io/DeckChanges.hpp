// What changed between the deck a checkpoint was written with and the deck of a restart
// (docs/running.md, "Restart and wall-clock budgets"): keys that change the meaning of the state, and keys that may change.
#pragma once

#include <string>
#include <vector>

namespace kirchhoff::io {

/// One changed key: "time.dt", old and new value ("(absent)" if missing on one side).
struct DeckChange {
  std::string key, before, after;
  std::string describe() const;  ///< "time.dt: 0.01 -> 0.02"
};

struct DeckChanges {
  std::vector<DeckChange> refused;  ///< would make the checkpointed state mean something else
  std::vector<DeckChange> allowed;  ///< end time, output intervals, solver tolerances, ...
  /// Change the discretisation the state is evolved with (PETSc options such as
  /// -panel_correction): allowed only into a new invariant log (--new-log).
  std::vector<DeckChange> newLog;
};

/// True for keys a restart may change: time.steps, time.end_time, output.*, petsc_options,
/// sweep.*, and solver tolerances (newton.*, any *.atol, *.rtol, *.stol, *.max_iterations).
/// `extra` adds keys, or prefixes ending in '.', of one model.
bool restartMayChange(const std::string& key, const std::vector<std::string>& extra = {});

/// Compares two deck texts key by key (numbers by value: 0.01 equals 1e-2). Throws DeckError if
/// either text is not YAML.
DeckChanges compareDecks(const std::string& before, const std::string& after,
                         const std::vector<std::string>& extra = {});

/// Compares two PETSc option strings ("-del_snes_rtol 1e-10 -panel_correction none -x", as
/// PetscOptionsGetAll gives them): a changed option listed in `newLog` goes to newLog, any other
/// to allowed (solver types and tolerances, monitors, the solver path: the solution of the same
/// discrete equations, to the solver's tolerance). A flag without a value shows as "(set)".
DeckChanges compareOptions(const std::string& before, const std::string& after,
                           const std::vector<std::string>& newLog);

}  // namespace kirchhoff::io
