// `--set key=value` on the command line (docs/running.md, "Running a driver"): one deck value replaced,
// checked like the file's (type, range, choices, "did you mean"); a changed variant drops the keys
// that only applied to the old choice and names the keys the new one needs.
#pragma once

#include <string>
#include <vector>

#include "io/Deck.hpp"

namespace kirchhoff::io {

/// The deck with every "key=value" of `sets` applied in order (keys as in sweeps:
/// "rayleigh.scheme.method", "bodies[0].density"; lists as "[1, 2]"). Throws UsageError for an
/// argument without '=', DeckError naming "--set key=value" for a bad key or value. `notes` gets
/// one line per key that the change made irrelevant and removed.
Deck applyOverrides(Deck deck, const std::vector<std::string>& sets,
                    std::vector<std::string>& notes);

}  // namespace kirchhoff::io
