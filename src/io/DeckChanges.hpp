// What changed between the deck a checkpoint was written with and the deck of a restart
// (docs/running.md, "Restart"): keys that change the meaning of the state, and keys that may change.
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
};

/// True for keys a restart may change: time.steps, time.end_time, output.*, petsc_options,
/// sweep.*, and solver tolerances (newton.*, any *.atol, *.rtol, *.stol, *.max_iterations).
bool restartMayChange(const std::string& key);

/// Compares two deck texts key by key (numbers by value: 0.01 equals 1e-2). Throws DeckError if
/// either text is not YAML.
DeckChanges compareDecks(const std::string& before, const std::string& after);

}  // namespace kirchhoff::io
